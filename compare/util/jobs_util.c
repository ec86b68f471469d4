/* File and JSON helpers for the compare commands (see jobs_util.h). */
#include "util/jobs_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *ju_read_stream(FILE *f, size_t max_bytes, size_t *len)
{
    char *buf = NULL, *nb;
    size_t n = 0, cap = 0, got;
    int e;

    for (;;) {
        if (cap - n < 4096) {
            cap = cap ? cap * 2 : 65536;
            if (cap - 4096 > max_bytes)
                cap = max_bytes + 4096;
            nb = realloc(buf, cap + 1);
            if (!nb) {
                e = ENOMEM;
                goto fail;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n > max_bytes) {
            e = EFBIG;
            goto fail;
        }
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        e = errno ? errno : EIO;
        goto fail;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
fail:
    free(buf);
    errno = e;
    return NULL;
}

char *ju_read_file(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n = 0;

    if (!f) {
        snprintf(err, errlen, "'%s': %s", path, strerror(errno));
        return NULL;
    }
    buf = ju_read_stream(f, max_bytes, &n);
    if (!buf && errno == EFBIG)
        snprintf(err, errlen, "'%s': larger than %zu bytes", path, max_bytes);
    else if (!buf)
        snprintf(err, errlen, "'%s': %s", path, errno == ENOMEM ? "out of memory" : "read error");
    fclose(f);
    if (buf && len)
        *len = n;
    return buf;
}

json_t *ju_load_json(const char *path, char *err, size_t errlen)
{
    json_error_t je;
    json_t *j;
    struct stat st;

    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) { /* a FIFO may never end */
        snprintf(err, errlen, "%s: %s (expected a JSON file)", path,
                 S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
        return NULL;
    }
    j = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!j) {
        if (je.line > 0)
            snprintf(err, errlen, "%s:%d:%d: malformed JSON: %s", path, je.line, je.column,
                     je.text);
        else
            snprintf(err, errlen, "'%s': %s", path, je.text);
    }
    return j;
}

int ju_mkdir_p(const char *path, char *err, size_t errlen)
{
    char tmp[4096];
    size_t i, n = strlen(path);

    if (n == 0 || n >= sizeof(tmp)) {
        snprintf(err, errlen, "bad directory path '%s'", path);
        return -1;
    }
    memcpy(tmp, path, n + 1);
    for (i = 1; i <= n; i++) {
        if (tmp[i] != '/' && tmp[i] != '\0')
            continue;
        tmp[i] = '\0';
        if (mkdir(tmp, 0755) < 0 && errno != EEXIST) {
            snprintf(err, errlen, "cannot create directory '%s': %s", tmp, strerror(errno));
            return -1;
        }
        tmp[i] = i < n ? '/' : '\0';
    }
    {
        struct stat st;

        if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "'%s': not a directory", path);
            return -1;
        }
    }
    return 0;
}

int ju_copy_file(const char *from, const char *to, char *err, size_t errlen)
{
    char buf[65536];
    int in = -1, out = -1, rc = -1;

    in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        snprintf(err, errlen, "open '%s': %s", from, strerror(errno));
        goto out;
    }
    out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) {
        snprintf(err, errlen, "open '%s': %s", to, strerror(errno));
        goto out;
    }
    for (;;) {
        ssize_t n = read(in, buf, sizeof(buf)), off = 0;

        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(err, errlen, "read '%s': %s", from, strerror(errno));
            goto out;
        }
        if (n == 0)
            break;
        while (off < n) {
            ssize_t w = write(out, buf + off, (size_t)(n - off));

            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0) {
                snprintf(err, errlen, "write '%s': %s", to, strerror(errno));
                goto out;
            }
            off += w;
        }
    }
    if (fsync(out) < 0) {
        snprintf(err, errlen, "fsync '%s': %s", to, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out) < 0 && rc == 0) {
        snprintf(err, errlen, "close '%s': %s", to, strerror(errno));
        rc = -1;
    }
    return rc;
}

int ju_dir_empty(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int empty = 1;

    if (!d)
        return errno == ENOENT ? 1 : -1;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            empty = 0;
            break;
        }
    closedir(d);
    return empty;
}

double ju_num(const json_t *o, const char *k, double def)
{
    const json_t *v = json_object_get(o, k);

    return json_is_number(v) ? json_number_value(v) : def;
}

long long ju_int(const json_t *o, const char *k, long long def)
{
    const json_t *v = json_object_get(o, k);

    return json_is_integer(v) ? (long long)json_integer_value(v) : def;
}

const char *ju_str(const json_t *o, const char *k, const char *def)
{
    const json_t *v = json_object_get(o, k);

    return json_is_string(v) ? json_string_value(v) : def;
}

int ju_get_num(const json_t *o, const char *k, double *out)
{
    const json_t *v = json_object_get(o, k);
    double d;

    if (!json_is_number(v))
        return -1;
    d = json_number_value(v);
    if (!isfinite(d))
        return -1;
    *out = d;
    return 0;
}

json_t *ju_find_by(const json_t *arr, const char *key, const char *value)
{
    json_t *v;
    size_t i;

    json_array_foreach((json_t *)arr, i, v)
    {
        const char *s = json_string_value(json_object_get(v, key));

        if (s && strcmp(s, value) == 0)
            return v;
    }
    return NULL;
}
