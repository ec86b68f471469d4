/* dataset: runs.jsonl append and read (see dataset.h). */
#include "run/dataset.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/redact.h"

/* Cuts the file back to just after its last newline. */
static int cut_partial_tail(int fd, const char *path, char *err, size_t errlen)
{
    struct stat st;
    off_t end;
    char c;

    if (fstat(fd, &st) < 0) {
        snprintf(err, errlen, "cannot stat '%s': %s", path, strerror(errno));
        return -1;
    }
    end = st.st_size;
    while (end > 0) {
        ssize_t r = pread(fd, &c, 1, end - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != 1) {
            snprintf(err, errlen, "cannot read '%s': %s", path,
                     r < 0 ? strerror(errno) : "short read");
            return -1;
        }
        if (c == '\n')
            break;
        end--;
    }
    if (end != st.st_size && ftruncate(fd, end) < 0) {
        snprintf(err, errlen, "cannot truncate '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int dataset_open(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

    if (fd < 0) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    if (cut_partial_tail(fd, path, err, errlen) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int dataset_append(int fd, const json_t *line, char *err, size_t errlen)
{
    /* the identities a reader matches lines on stay as they are */
    static const char *const keep[] = {"version", "config",  "label", "kind",
                                       "status",  "started", "ended", NULL};
    json_t *copy = redact_max_len() ? json_deep_copy(line) : json_incref((json_t *)line);
    char *text = NULL;
    size_t n, off = 0;
    int rc = -1;
    char *t2;

    if (copy && redact_json(copy, keep) == 0)
        text = json_dumps(copy, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(copy);
    if (!text) {
        snprintf(err, errlen, "runs.jsonl: cannot encode a run: out of memory");
        return -1;
    }
    n = strlen(text);
    t2 = realloc(text, n + 1);
    if (!t2)
        goto out;
    text = t2;
    text[n++] = '\n';
    while (off < n) {
        ssize_t w = write(fd, text + off, n - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            snprintf(err, errlen, "runs.jsonl: write: %s", strerror(errno));
            (void)cut_partial_tail(fd, "runs.jsonl", err + strlen(err), 0);
            goto out;
        }
        off += (size_t)w;
    }
    if (fsync(fd) < 0) {
        snprintf(err, errlen, "runs.jsonl: fsync: %s", strerror(errno));
        goto out;
    }
    rc = 0;
out:
    free(text);
    return rc;
}

int dataset_read(const char *path, json_t **runs_out, unsigned *truncated, char *err, size_t errlen)
{
    FILE *f = fopen(path, "re");
    json_t *runs = json_array();
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned lineno = 0;
    int rc = -1;

    *runs_out = NULL;
    if (truncated)
        *truncated = 0;
    if (!runs) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (!f) {
        if (errno == ENOENT) {
            *runs_out = runs;
            return 0;
        }
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        goto out;
    }
    while ((n = getline(&line, &cap, f)) > 0) {
        json_error_t je;
        json_t *obj;
        int complete = line[n - 1] == '\n';

        lineno++;
        if (n == 1 && complete)
            continue;
        obj = json_loadb(line, (size_t)n, 0, &je);
        if (!obj || !json_is_object(obj)) {
            json_decref(obj);
            if (!complete) {
                if (truncated)
                    (*truncated)++;
                break;
            }
            snprintf(err, errlen, "%s: line %u: not a JSON object (%s)", path, lineno,
                     obj ? "other JSON value" : je.text);
            goto out;
        }
        if (json_array_append_new(runs, obj) < 0) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
    }
    if (ferror(f)) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        goto out;
    }
    *runs_out = runs;
    runs = NULL;
    rc = 0;
out:
    if (f)
        fclose(f);
    free(line);
    json_decref(runs);
    return rc;
}

static int str_is(const json_t *o, const char *k, const char *want)
{
    const char *v = json_string_value(json_object_get(o, k));
    return v && strcmp(v, want) == 0;
}

int dataset_has_ok_line(const json_t *lines, const char *kind, const char *config,
                        const char *version, unsigned round)
{
    const json_t *line;
    size_t i;

    json_array_foreach(lines, i, line)
    {
        if (str_is(line, "kind", kind) && str_is(line, "status", "ok") &&
            json_integer_value(json_object_get(line, "round")) == (json_int_t)round &&
            str_is(line, "config", config) && str_is(line, "version", version))
            return 1;
    }
    return 0;
}
