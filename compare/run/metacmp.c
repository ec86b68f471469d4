/* metacmp: one measurement or two (see metacmp.h). */
#include "run/metacmp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* settings without the keys that may differ between machines and shards. */
static json_t *comparable_settings(const json_t *settings)
{
    json_t *c = json_is_object(settings) ? json_deep_copy(settings) : json_object();

    if (c) {
        json_object_del(c, "shard");
        json_object_del(c, "pin_driver");
        json_object_del(c, "pin_server");
    }
    return c;
}

/* versions projected on what defines them (the driver path may differ between machines). */
static json_t *comparable_versions(const json_t *versions)
{
    json_t *out = json_array(), *v;
    size_t i;

    json_array_foreach(versions, i, v)
    {
        json_t *p = json_object();
        static const char *const keys[] = {"name", "ref", "commit", "server", "env"};
        size_t k;

        for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
            if (json_object_get(v, keys[k]))
                json_object_set(p, keys[k], json_object_get(v, keys[k]));
        json_array_append_new(out, p);
    }
    return out;
}

static json_t *comparable_grids(const json_t *grids)
{
    json_t *out = json_array(), *g;
    size_t i;

    json_array_foreach(grids, i, g)
    {
        json_array_append_new(out, json_pack("{s:O?, s:O?}", "name", json_object_get(g, "name"),
                                             "sha256", json_object_get(g, "sha256")));
    }
    return out;
}

/* A value as compact JSON, cut at 40 bytes on a character boundary. */
static void show(const json_t *v, char *out, size_t outlen)
{
    char *s =
        v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS | JSON_REAL_PRECISION(10))
          : NULL;
    size_t n;

    if (!s) {
        snprintf(out, outlen, "(none)");
        return;
    }
    n = strlen(s);
    if (n > 40) {
        n = 40;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
        snprintf(out, outlen, "%.*s...", (int)n, s);
    } else {
        snprintf(out, outlen, "%s", s);
    }
    free(s);
}

/* The first key of two objects (or index of two arrays) whose values differ, as
 * "key: A then B"; the whole value when they are neither. */
static void first_difference(const json_t *a, const json_t *b, char *out, size_t outlen)
{
    char va[64], vb[64];
    const char *k;
    json_t *v;
    size_t i;

    if (json_is_object(a) && json_is_object(b)) {
        json_object_foreach((json_t *)a, k, v)
        {
            if (!json_equal(v, json_object_get(b, k))) {
                show(v, va, sizeof(va));
                show(json_object_get(b, k), vb, sizeof(vb));
                snprintf(out, outlen, "%s: %s then %s", k, va, vb);
                return;
            }
        }
        json_object_foreach((json_t *)b, k, v)
        {
            if (!json_object_get(a, k)) {
                show(v, vb, sizeof(vb));
                snprintf(out, outlen, "%s: (none) then %s", k, vb);
                return;
            }
        }
    }
    if (json_is_array(a) && json_is_array(b) && json_array_size(a) == json_array_size(b)) {
        for (i = 0; i < json_array_size(a); i++) {
            if (!json_equal(json_array_get(a, i), json_array_get(b, i))) {
                first_difference(json_array_get(a, i), json_array_get(b, i), va, sizeof(va));
                snprintf(out, outlen, "[%zu] %s", i, va);
                return;
            }
        }
    }
    show(a, va, sizeof(va));
    show(b, vb, sizeof(vb));
    snprintf(out, outlen, "%s then %s", va, vb);
}

static int differs(const char *name, json_t *a, json_t *b, char *what, size_t whatlen)
{
    char d[160];
    int rc = 0;

    if ((a || b) && !json_equal(a, b)) {
        first_difference(a, b, d, sizeof(d));
        snprintf(what, whatlen, "%s (%s)", name, d);
        rc = 1;
    }
    json_decref(a);
    json_decref(b);
    return rc;
}

int metacmp_diff(const json_t *a, const json_t *b, char *what, size_t whatlen)
{
    what[0] = '\0';
    if (differs("spec", json_deep_copy(json_object_get(a, "spec")),
                json_deep_copy(json_object_get(b, "spec")), what, whatlen) ||
        differs("versions", comparable_versions(json_object_get(a, "versions")),
                comparable_versions(json_object_get(b, "versions")), what, whatlen) ||
        differs("grids", comparable_grids(json_object_get(a, "grids")),
                comparable_grids(json_object_get(b, "grids")), what, whatlen) ||
        differs("settings", comparable_settings(json_object_get(a, "settings")),
                comparable_settings(json_object_get(b, "settings")), what, whatlen))
        return 1;
    return 0;
}
