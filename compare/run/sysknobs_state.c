/* sysknobs_state: the state file of `compare system tune`, checked (see sysknobs_state.h). */
#include "run/sysknobs_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct sysknob *sysknobs_find(const struct sysknob *k, size_t n, const char *name)
{
    size_t i;

    for (i = 0; name && i < n; i++)
        if (k[i].present && strcmp(k[i].name, name) == 0)
            return &k[i];
    return NULL;
}

/* A string member of o, or NULL with err naming where and what. */
static const char *member(const json_t *o, const char *key, const char *where, char *err,
                          size_t errlen)
{
    const json_t *v = json_object_get(o, key);

    if (!json_is_string(v)) {
        char *shown = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
        snprintf(err, errlen, "%s.%s: expected a string, got %s", where, key,
                 shown ? shown : "nothing");
        free(shown);
        return NULL;
    }
    return json_string_value(v);
}

/* Only keys of the NULL-ended list allowed. */
static int only_keys(const json_t *o, const char *const *allowed, const char *where,
                     const char *expected, char *err, size_t errlen)
{
    const char *key;
    const json_t *v;

    json_object_foreach((json_t *)o, key, v)
    {
        const char *const *a;
        (void)v;
        for (a = allowed; *a && strcmp(*a, key) != 0; a++)
            ;
        if (!*a) {
            snprintf(err, errlen, "%s: unknown key '%s' (expected %s)", where, key, expected);
            return -1;
        }
    }
    return 0;
}

static int check_entry(const json_t *e, size_t i, const struct sysknob *k, size_t n,
                       const json_t *knobs, char *err, size_t errlen)
{
    static const char *const keys[] = {"name", "path", "before", "after", NULL};
    static const char *const values[] = {"before", "after"};
    const struct sysknob *kn;
    const char *name, *path;
    char where[48], why[200];
    size_t j;

    snprintf(where, sizeof(where), "$.knobs[%zu]", i);
    if (!json_is_object(e)) {
        snprintf(err, errlen, "%s: expected an object {name, path, before, after}", where);
        return -1;
    }
    if (only_keys(e, keys, where, "name, path, before, after", err, errlen) < 0 ||
        !(name = member(e, "name", where, err, errlen)) ||
        !(path = member(e, "path", where, err, errlen)))
        return -1;
    kn = sysknobs_find(k, n, name);
    if (!kn) {
        snprintf(err, errlen,
                 "%s.name: '%s' is not a knob of this host (`compare system show` "
                 "lists them)",
                 where, name);
        return -1;
    }
    if (strcmp(path, kn->path) != 0) {
        snprintf(err, errlen, "%s.path: expected '%s' (the file of %s), got '%s'", where, kn->path,
                 name, path);
        return -1;
    }
    for (j = 0; j < 2; j++) {
        const char *v = member(e, values[j], where, err, errlen);
        if (!v)
            return -1;
        if (!sysknobs_value_ok(kn, v, why, sizeof(why))) {
            snprintf(err, errlen, "%s.%s: '%s' for %s: %s", where, values[j], v, name, why);
            return -1;
        }
    }
    for (j = 0; j < i; j++)
        if (strcmp(json_string_value(json_object_get(json_array_get(knobs, j), "name")), name) ==
            0) {
            snprintf(err, errlen, "%s.name: '%s' again (first at $.knobs[%zu])", where, name, j);
            return -1;
        }
    return 0;
}

int sysknobs_state_check(const json_t *st, const struct sysknob *k, size_t n, char *err,
                         size_t errlen)
{
    static const char *const keys[] = {"schema", "tuned_at", "knobs", NULL};
    const json_t *knobs = json_object_get(st, "knobs"), *e;
    const char *schema;
    size_t i;

    if (!json_is_object(st)) {
        snprintf(err, errlen, "$: expected an object {schema, tuned_at, knobs}");
        return -1;
    }
    if (only_keys(st, keys, "$", "schema, tuned_at, knobs", err, errlen) < 0 ||
        !(schema = member(st, "schema", "$", err, errlen)) ||
        !member(st, "tuned_at", "$", err, errlen))
        return -1;
    if (strcmp(schema, SYSKNOBS_STATE_SCHEMA) != 0) {
        snprintf(err, errlen, "$.schema: expected \"%s\", got \"%s\"", SYSKNOBS_STATE_SCHEMA,
                 schema);
        return -1;
    }
    if (!json_is_array(knobs)) {
        snprintf(err, errlen, "$.knobs: expected an array of changed knobs");
        return -1;
    }
    json_array_foreach(knobs, i, e)
    {
        if (check_entry(e, i, k, n, knobs, err, errlen) < 0)
            return -1;
    }
    return 0;
}
