/* dataset: runs.jsonl append and read (see dataset.h). */
#include "data/dataset.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/jobs_util.h"
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

int dataset_next_line(const char *text, size_t len, size_t *off, struct dataset_line *l)
{
    const char *nl;
    size_t i;

    if (*off >= len)
        return 0;
    nl = memchr(text + *off, '\n', len - *off);
    l->p = text + *off;
    l->len = nl ? (size_t)(nl - l->p) : len - *off;
    l->no++;
    l->cut = !nl;
    l->blank = 1;
    for (i = 0; i < l->len && l->blank; i++)
        l->blank = l->p[i] == ' ' || l->p[i] == '\t' || l->p[i] == '\r';
    *off += l->len + (nl ? 1 : 0);
    return 1;
}

size_t dataset_whole_len(const char *text, size_t len)
{
    const char *nl = len ? memrchr(text, '\n', len) : NULL;

    return nl ? (size_t)(nl - text) + 1 : 0;
}

unsigned dataset_cut_line(const char *text, size_t len)
{
    size_t whole = dataset_whole_len(text, len), i;
    unsigned n = 1;

    if (whole == len)
        return 0;
    for (i = 0; i < whole; i++)
        n += text[i] == '\n';
    return n;
}

void dataset_cut_text(char *buf, size_t n, const char *name, unsigned line)
{
    snprintf(buf, n,
             "'%s': line %u has no newline at its end (a run cut short while being written); "
             "it was left out",
             name, line);
}

void dataset_warn_cut(const char *name, unsigned line)
{
    char what[4400];

    dataset_cut_text(what, sizeof(what), name, line);
    fprintf(stderr, "compare: warning: %s\n", what);
}

json_t *dataset_parse(const char *text, size_t len, const char *name, unsigned *cut_line, char *err,
                      size_t errlen)
{
    json_t *runs = json_array();
    struct dataset_line l = {0};
    size_t off = 0;

    if (cut_line)
        *cut_line = 0;
    if (!runs) {
        snprintf(err, errlen, "%s: out of memory", name);
        return NULL;
    }
    while (dataset_next_line(text, len, &off, &l)) {
        json_error_t je;
        json_t *obj;

        if (l.cut) {
            if (cut_line)
                *cut_line = l.no;
            else
                dataset_warn_cut(name, l.no);
            break;
        }
        if (l.blank)
            continue;
        obj = json_loadb(l.p, l.len, 0, &je);
        if (!json_is_object(obj)) {
            snprintf(err, errlen, "%s: line %u: not a JSON object (%s)", name, l.no,
                     obj ? "other JSON value" : je.text);
            json_decref(obj);
            json_decref(runs);
            return NULL;
        }
        if (json_array_append_new(runs, obj) < 0) {
            snprintf(err, errlen, "%s: out of memory", name);
            json_decref(runs);
            return NULL;
        }
    }
    return runs;
}

int dataset_read(const char *path, json_t **runs_out, unsigned *cut_line, char *err, size_t errlen)
{
    FILE *f = fopen(path, "re");
    char *text;
    size_t len = 0;

    *runs_out = NULL;
    if (cut_line)
        *cut_line = 0;
    if (!f && errno == ENOENT) {
        *runs_out = json_array();
        if (!*runs_out)
            snprintf(err, errlen, "out of memory");
        return *runs_out ? 0 : -1;
    }
    if (!f) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    text = ju_read_stream(f, (size_t)-1, &len);
    if (!text)
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
    fclose(f);
    if (!text)
        return -1;
    *runs_out = dataset_parse(text, len, path, cut_line, err, errlen);
    free(text);
    return *runs_out ? 0 : -1;
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
