/* The grid's Redis workload keys, checked as the driver will parse them (common/rcmd.h), so
 * that a bad template, mix, key pattern or setup stops compare before any run: "command" (a
 * built-in name or a template, string or array), "commands" (a mix), "key_pattern" and
 * "setup". And the label text of a configuration's command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/grid.h"
#include "rcmd.h"

static const char *const builtins[] = {
    "ECHO", "PING",       "SET",        "GET",        "INCR",       "LPUSH", "RPUSH",
    "LPOP", "RPOP",       "SADD",       "HSET",       "SPOP",       "ZADD",  "ZPOPMIN",
    "MSET", "LRANGE_100", "LRANGE_300", "LRANGE_500", "LRANGE_600", NULL};

int grid_redis_is_key(const char *key)
{
    return strcmp(key, "command") == 0 || strcmp(key, "commands") == 0 ||
           strcmp(key, "key_pattern") == 0 || strcmp(key, "setup") == 0;
}

static int fail(const char *file, const char *path, const json_t *v, const char *why, char *err,
                size_t errlen)
{
    char got[80];

    grid_show_value(v, got, sizeof(got));
    snprintf(err, errlen, "%s: %s: value %s: %s", file, path, got, why);
    return -1;
}

int grid_check_redis(const char *file, const char *path, const char *key, const json_t *v,
                     char *err, size_t errlen)
{
    const unsigned allowed = RCMD_USES(RCMD_RAND_INT) | RCMD_USES(RCMD_RAND_SCORE) |
                             RCMD_USES(RCMD_KEY) | RCMD_USES(RCMD_DATA);
    char why[512];
    int rc = 0;

    if (strcmp(key, "command") == 0) {
        struct rcmd c;

        if (json_is_string(v) && grid_word_in(json_string_value(v), builtins))
            return 0;
        if (rcmd_parse(&c, v, allowed, why, sizeof(why)) < 0)
            return fail(file, path, v, why, err, errlen);
        rcmd_free(&c);
    } else if (strcmp(key, "commands") == 0) {
        struct rcmd_mix m;

        if (rcmd_mix_parse(&m, v, why, sizeof(why)) < 0)
            return fail(file, path, v, why, err, errlen);
        rcmd_mix_free(&m);
    } else if (strcmp(key, "key_pattern") == 0) {
        struct rcmd_keypat kp;

        if (!json_is_string(v))
            return fail(file, path, v, "expected uniform, sequential, gaussian or zipf:EXP", err,
                        errlen);
        if (rcmd_keypat_parse(json_string_value(v), &kp, why, sizeof(why)) < 0)
            return fail(file, path, v, why, err, errlen);
    } else {
        /* the driver's cap at any payload; measured, not stored */
        struct rcmd_out out = {.max = (size_t)256 << 20, .measure = 1};
        uint64_t n = 0;

        /* expanded as the driver will (a file is read), with a stand-in value */
        if (rcmd_setup_expand(v, "x", 1, &out, &n, why, sizeof(why)) < 0)
            rc = fail(file, path, v, why, err, errlen);
        rcmd_out_free(&out);
    }
    return rc;
}

/* "HDEL h f157 f3 f9 f41 ..." cut to 40 characters; a mix as "SET __key__ __data__ ×1 + GET
 * __key__ ×10" (each command cut to 24). */
void grid_redis_label(const json_t *p, char *out, size_t outlen)
{
    const json_t *mix = json_object_get(p, "commands"), *cmd = json_object_get(p, "command");
    char one[64];
    size_t i, n = 0;
    json_t *e;

    out[0] = '\0';
    if (json_is_array(mix) && json_array_size(mix) > 0) {
        json_array_foreach(mix, i, e)
        {
            const json_t *c = json_object_get(e, "command"), *w = json_object_get(e, "weight");
            char *s = json_is_string(c) ? strdup(json_string_value(c))
                                        : json_dumps(c, JSON_ENCODE_ANY | JSON_COMPACT);

            if (!s)
                return;
            if (strlen(s) > 24)
                snprintf(one, sizeof(one), "%.21s...", s);
            else
                snprintf(one, sizeof(one), "%s", s);
            free(s);
            n += (size_t)snprintf(out + n, outlen - n, "%s%s ×%g", i ? " + " : "", one,
                                  json_is_number(w) ? json_number_value(w) : 1.0);
            if (n >= outlen)
                return;
        }
        return;
    }
    if (json_is_string(cmd)) {
        const char *s = json_string_value(cmd);

        if (strlen(s) > 40)
            snprintf(out, outlen, "%.37s...", s);
        else
            snprintf(out, outlen, "%s", s);
    } else if (cmd) {
        char *s = json_dumps(cmd, JSON_ENCODE_ANY | JSON_COMPACT);

        if (s && strlen(s) > 40)
            snprintf(out, outlen, "%.37s...", s);
        else
            snprintf(out, outlen, "%s", s ? s : "?");
        free(s);
    } else {
        snprintf(out, outlen, "ECHO");
    }
}
