/* wrap's command line and placeholder expansion (see wrap_args.h). */
#include "wrap/wrap_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

int wrap_args_parse(struct wrap_args *a, int argc, char **argv, char *err, size_t errlen)
{
    int i = 1, j, end = argc;

    memset(a, 0, sizeof(*a));
    a->timeout_s = 600;
    a->error_limit = 1;
    if (argc < 1 || wrap_tool_parse(argv[0], &a->tool) < 0) {
        snprintf(err, errlen, "wrap: unknown tool '%s' (expected redis-benchmark, wrk or h2load)",
                 argc < 1 ? "" : argv[0]);
        return -1;
    }
    a->tool_path = argv[0];
    /* compare appends "--config FILE.json" to the command: it is wrap's */
    if (end >= 3 && strcmp(argv[end - 2], "--config") == 0) {
        a->config = argv[end - 1];
        end -= 2;
    }
    for (; i < end && strcmp(argv[i], "--") != 0; i += 2) { /* each flag takes a value */
        const char *f = argv[i], *v = i + 1 < end ? argv[i + 1] : NULL;
        double *dst = strcmp(f, "--timeout") == 0       ? &a->timeout_s
                      : strcmp(f, "--error-limit") == 0 ? &a->error_limit
                                                        : NULL;
        if (strcmp(f, "--config") == 0 && v) {
            a->config = v;
        } else if (!dst) {
            snprintf(err, errlen,
                     "wrap: unknown flag '%s' before '--' (expected --timeout S, --error-limit "
                     "PCT or --config FILE; the tool's own arguments go after '--')",
                     f);
            return -1;
        } else if (!v || num_parse_double(v, dst == &a->timeout_s ? 0.001 : 0,
                                          dst == &a->timeout_s ? 86400 : 100, dst) < 0) {
            snprintf(err, errlen, "wrap: flag '%s' value '%s': expected %s", f, v ? v : "",
                     dst == &a->timeout_s ? "seconds in 0.001..86400" : "a percentage 0..100");
            return -1;
        }
    }
    if (i >= end) {
        snprintf(err, errlen, "wrap: expected '--' and then the arguments of %s", argv[0]);
        return -1;
    }
    i++; /* past "--" */
    a->tool_argv = calloc((size_t)(end - i) + 2, sizeof(char *));
    if (!a->tool_argv) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    a->tool_argv[0] = argv[0];
    for (j = 1; i < end; i++, j++)
        a->tool_argv[j] = argv[i];
    a->tool_argc = j;
    return 0;
}

/* Appends n bytes to the growing string *s (length *len). -1 on out of memory. */
static int put(char **s, size_t *len, const char *p, size_t n)
{
    char *t = realloc(*s, *len + n + 1);

    if (!t)
        return -1;
    memcpy(t + *len, p, n);
    *len += n;
    t[*len] = '\0';
    *s = t;
    return 0;
}

static int put_value(char **s, size_t *len, const json_t *v)
{
    char num[64];
    double d;

    if (json_is_string(v))
        return put(s, len, json_string_value(v), strlen(json_string_value(v)));
    if (json_is_integer(v)) {
        snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
    } else {
        d = json_real_value(v);
        if (d == (double)(long long)d)
            snprintf(num, sizeof(num), "%lld", (long long)d);
        else
            snprintf(num, sizeof(num), "%g", d);
    }
    return put(s, len, num, strlen(num));
}

char *wrap_expand(const char *arg, const json_t *cfg, char *err, size_t errlen)
{
    char *out = NULL, name[64];
    size_t len = 0, n;
    const char *p = arg, *close;
    const json_t *v;

    if (put(&out, &len, "", 0) < 0)
        goto oom;
    while (*p) {
        if (p[0] == '{' && p[1] == '{') {
            if (put(&out, &len, "{", 1) < 0)
                goto oom;
            p += 2;
            continue;
        }
        close = p[0] == '{' ? strchr(p, '}') : NULL;
        n = close ? (size_t)(close - p - 1) : 0;
        if (!close || n == 0 || n >= sizeof(name) || strcspn(p + 1, "{} \t") != n) {
            if (put(&out, &len, p, 1) < 0)
                goto oom;
            p++;
            continue;
        }
        memcpy(name, p + 1, n);
        name[n] = '\0';
        v = cfg ? json_object_get(cfg, name) : NULL;
        if (!v || !(json_is_string(v) || json_is_number(v))) {
            snprintf(err, errlen, "wrap: placeholder '{%s}' in argument '%s' has no value: %s",
                     name, arg,
                     cfg ? "the --config file has no such string or number key"
                         : "no --config file was given (compare passes one)");
            free(out);
            return NULL;
        }
        if (put_value(&out, &len, v) < 0)
            goto oom;
        p = close + 1;
    }
    return out;
oom:
    snprintf(err, errlen, "out of memory");
    free(out);
    return NULL;
}
