/* flame_read: folded stacks back from DIR/flame (see flame_read.h). */
#include "report/flame_read.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jobs_util.h"

static int add_line(json_t *o, char *line, const char *name, size_t lineno, char *err,
                    size_t errlen)
{
    char *sp = strrchr(line, ' '), *end;
    double v;
    json_t *old;

    if (!sp || sp == line) {
        snprintf(err, errlen, "%s: line %zu: expected \"path count\"", name, lineno);
        return -1;
    }
    errno = 0;
    v = strtod(sp + 1, &end);
    if (end == sp + 1 || *end || errno || !(v >= 0)) {
        snprintf(err, errlen, "%s: line %zu: count '%.40s': expected a number >= 0", name, lineno,
                 sp + 1);
        return -1;
    }
    *sp = '\0';
    old = json_object_get(o, line);
    if (old)
        return json_real_set(old, json_real_value(old) + v);
    return json_object_set_new(o, line, json_real(v));
}

int flame_read_text(const char *text, size_t len, const char *name, json_t **out, char *err,
                    size_t errlen)
{
    json_t *o = json_object();
    const char *p = text, *end = text + len;
    size_t lineno = 0;
    char *line = NULL;
    int rc = -1;

    *out = NULL;
    if (!o)
        goto oom;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t k = (size_t)((nl ? nl : end) - p);

        lineno++;
        free(line);
        if (!(line = strndup(p, k)))
            goto oom;
        if (k && line[k - 1] == '\r')
            line[k - 1] = '\0';
        if (line[0] && add_line(o, line, name, lineno, err, errlen) < 0)
            goto out;
        p = nl ? nl + 1 : end;
    }
    *out = o;
    o = NULL;
    rc = 0;
    goto out;
oom:
    snprintf(err, errlen, "%s: out of memory", name);
out:
    free(line);
    json_decref(o);
    return rc;
}

static void read_one(json_t *all, const char *dir, const char *file)
{
    char path[4400], err[600], key[512];
    size_t len = 0, n = strlen(file) - strlen(".folded");
    char *text;
    json_t *o = NULL;

    snprintf(path, sizeof(path), "%s/flame/%s", dir, file);
    snprintf(key, sizeof(key), "%.*s", (int)n, file);
    text = ju_read_file(path, FLAME_READ_MAX_BYTES, &len, err, sizeof(err));
    if (!text || flame_read_text(text, len, path, &o, err, sizeof(err)) < 0)
        fprintf(stderr, "compare: warning: %s: its flame graph is left out\n", err);
    else
        json_object_set_new(all, key, o);
    free(text);
}

json_t *flame_read_dir(const char *dir)
{
    char path[4200];
    json_t *all = json_object();
    struct dirent *de;
    DIR *d;

    if (!all)
        return NULL;
    snprintf(path, sizeof(path), "%s/flame", dir);
    if (!(d = opendir(path)))
        return all; /* no counted run wrote stacks */
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);

        if (n > 7 && n < 500 && strcmp(de->d_name + n - 7, ".folded") == 0)
            read_one(all, dir, de->d_name);
    }
    closedir(d);
    return all;
}
