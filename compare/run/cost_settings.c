/* cost_settings: the spec's "instructions" section, checked and read (cost.h). */
#include "run/cost.h"

#include <stdio.h>
#include <string.h>

static int bad(char *err, size_t errlen, const char *file, const char *key, const char *want)
{
    snprintf(err, errlen, "%s: $.instructions.%s: expected %s", file, key, want);
    return -1;
}

static int get_uint(const json_t *j, const char *key, unsigned lo, unsigned hi, unsigned *out,
                    const char *file, char *err, size_t errlen)
{
    const json_t *v = json_object_get(j, key);
    char want[96];

    if (!v)
        return 0;
    snprintf(want, sizeof(want), "an integer from %u to %u", lo, hi);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return bad(err, errlen, file, key, want);
    *out = (unsigned)json_integer_value(v);
    return 0;
}

int cost_settings_parse(const json_t *j, int force, const char *file, struct cost_settings *cs,
                        char *err, size_t errlen)
{
    static const char *const keys[] = {
        "runs",   "requests", "warmup_requests", "idle_s", "exclude", "enabled", "match",
        "source", "seed",     "exact",           NULL};
    const char *k;
    const json_t *v;

    memset(cs, 0, sizeof(*cs));
    cs->runs = 3;
    cs->requests = 5000;
    cs->warmup_requests = 1000;
    cs->idle_s = 0.5;
    cs->seed = 1;
    cs->exact = 1;
    cs->exclude[cs->n_exclude++] = "serverCron";
    cs->enabled = force || json_is_true(j) || json_is_object(j);
    if (!json_is_object(j))
        return 0;
    if ((k = grid_unknown_key(j, keys))) {
        snprintf(err, errlen,
                 "%s: $.instructions.%s: unknown key (expected runs, requests, "
                 "warmup_requests, idle_s, exclude, enabled, match, source, seed, exact)",
                 file, k);
        return -1;
    }
    if ((v = json_object_get(j, "enabled"))) {
        if (!json_is_boolean(v))
            return bad(err, errlen, file, "enabled", "true or false");
        cs->enabled = force || json_is_true(v);
    }
    if ((v = json_object_get(j, "exact"))) {
        if (!json_is_boolean(v))
            return bad(err, errlen, file, "exact", "true or false");
        cs->exact = json_is_true(v);
    }
    if (get_uint(j, "runs", 1, 100, &cs->runs, file, err, errlen) < 0 ||
        get_uint(j, "requests", 1, 100000000, &cs->requests, file, err, errlen) < 0 ||
        get_uint(j, "warmup_requests", 0, 100000000, &cs->warmup_requests, file, err, errlen) < 0 ||
        get_uint(j, "seed", 0, 1000000000, &cs->seed, file, err, errlen) < 0)
        return -1;
    if ((v = json_object_get(j, "match"))) {
        if (!json_is_object(v))
            return bad(err, errlen, file, "match",
                       "an object of configuration keys and values (only matching "
                       "configurations are counted)");
        cs->match = v;
    }
    if ((v = json_object_get(j, "source"))) {
        const char *src = json_string_value(v);
        if (!src || (strcmp(src, "auto") != 0 && strcmp(src, "valgrind") != 0 &&
                     strcmp(src, "counters") != 0))
            return bad(err, errlen, file, "source", "\"auto\", \"valgrind\" or \"counters\"");
        cs->source = src[0] == 'v'   ? COST_SOURCE_VALGRIND
                     : src[0] == 'c' ? COST_SOURCE_COUNTERS
                                     : COST_SOURCE_AUTO;
    }
    if ((v = json_object_get(j, "idle_s"))) {
        if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 60)
            return bad(err, errlen, file, "idle_s", "seconds from 0 to 60");
        cs->idle_s = json_number_value(v);
    }
    if ((v = json_object_get(j, "exclude"))) {
        size_t i;
        const json_t *x;
        if (!json_is_array(v) || json_array_size(v) > COST_MAX_EXCLUDE)
            return bad(err, errlen, file, "exclude", "an array of at most 16 function names");
        cs->n_exclude = 0;
        json_array_foreach(v, i, x)
        {
            const char *s = json_string_value(x);
            if (!s || !*s || strpbrk(s, " \t\n"))
                return bad(err, errlen, file, "exclude", "function names without spaces");
            cs->exclude[cs->n_exclude++] = s;
        }
    }
    return 0;
}
