/* redact: the secrets of one compare invocation (see redact.h). */
#include "util/redact.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The registered values, longest first. */
static char **values;
static size_t *lens;
static size_t n_values, cap_values;

int redact_secret_name(const char *name)
{
    static const char *const words[] = {"PASS", "TOKEN", "SECRET", "KEY", "AUTH", "CREDENTIAL"};
    char up[256];
    size_t i;

    if (!name)
        return 0;
    if (strncmp(name, "PAIRBENCH_REDIS_", 16) == 0)
        return 1;
    for (i = 0; name[i] && i + 1 < sizeof(up); i++)
        up[i] = (char)toupper((unsigned char)name[i]);
    up[i] = '\0';
    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strstr(up, words[i]))
            return 1;
    return 0;
}

int redact_add(const char *value)
{
    size_t len = value ? strlen(value) : 0, i, at;
    char *copy;

    /* a switch (USE_AUTH=true) hides nothing and would mangle every "true" */
    if (len < REDACT_MIN_LEN || strcasecmp(value, "true") == 0 || strcasecmp(value, "false") == 0)
        return 0;
    for (i = 0; i < n_values; i++)
        if (lens[i] == len && memcmp(values[i], value, len) == 0)
            return 0;
    if (n_values == cap_values) {
        size_t cap = cap_values ? cap_values * 2 : 8;
        char **v = realloc(values, cap * sizeof(*v));
        size_t *l;
        if (!v)
            return -1;
        values = v;
        l = realloc(lens, cap * sizeof(*l));
        if (!l)
            return -1;
        lens = l;
        cap_values = cap;
    }
    copy = strdup(value);
    if (!copy)
        return -1;
    for (at = 0; at < n_values && lens[at] >= len; at++)
        ;
    memmove(values + at + 1, values + at, (n_values - at) * sizeof(*values));
    memmove(lens + at + 1, lens + at, (n_values - at) * sizeof(*lens));
    values[at] = copy;
    lens[at] = len;
    n_values++;
    return 0;
}

int redact_add_env(const json_t *env)
{
    const char *k;
    json_t *v;

    if (!json_is_object(env))
        return 0;
    json_object_foreach((json_t *)env, k, v)
    {
        if (json_is_string(v) && redact_secret_name(k) && redact_add(json_string_value(v)) < 0)
            return -1;
    }
    return 0;
}

int redact_add_environ(char *const *envp)
{
    char name[256];

    for (; envp && *envp; envp++) {
        const char *eq = strchr(*envp, '=');
        size_t n = eq ? (size_t)(eq - *envp) : 0;
        if (!eq || n >= sizeof(name))
            continue;
        memcpy(name, *envp, n);
        name[n] = '\0';
        if (redact_secret_name(name) && redact_add(eq + 1) < 0)
            return -1;
    }
    return 0;
}

void redact_clear(void)
{
    size_t i;

    for (i = 0; i < n_values; i++)
        free(values[i]);
    free(values);
    free(lens);
    values = NULL;
    lens = NULL;
    n_values = cap_values = 0;
}

size_t redact_max_len(void)
{
    return n_values ? lens[0] : 0;
}

/* Whether the rest of the span, rest bytes at p, is a proper start of a longer value. */
static int could_start(const char *p, size_t rest)
{
    size_t i;

    for (i = 0; i < n_values && lens[i] > rest; i++)
        if (memcmp(values[i], p, rest) == 0)
            return 1;
    return 0;
}

/* The length of the longest value at p (rest bytes available), 0 when none. */
static size_t match_at(const char *p, size_t rest)
{
    size_t i;

    for (i = 0; i < n_values; i++)
        if (lens[i] <= rest && memcmp(values[i], p, lens[i]) == 0)
            return lens[i];
    return 0;
}

size_t redact_span(char *buf, size_t n, int final, size_t *held)
{
    size_t i = 0, o = 0, m;

    *held = 0;
    if (!n_values)
        return n;
    while (i < n) {
        if (!final && n - i < lens[0] && could_start(buf + i, n - i))
            break;
        m = match_at(buf + i, n - i);
        if (m) {
            memcpy(buf + o, REDACT_MARK, sizeof(REDACT_MARK) - 1);
            o += sizeof(REDACT_MARK) - 1;
            i += m;
        } else {
            buf[o++] = buf[i++];
        }
    }
    *held = n - i;
    memmove(buf + o, buf + i, n - i);
    return o + (n - i);
}

void redact_text(char *s)
{
    size_t held, n;

    if (!s)
        return;
    n = redact_span(s, strlen(s), 1, &held);
    s[n] = '\0';
}

const char *redact_show(const char *s, char *buf, size_t len)
{
    if (!len)
        return "";
    snprintf(buf, len, "%s", s ? s : "");
    redact_text(buf);
    return buf;
}

/* Redacts one string value in place (a new string when it changed). */
static int redact_string(json_t *v)
{
    char *copy;
    int rc;

    if (!n_values)
        return 0;
    copy = strdup(json_string_value(v));
    if (!copy)
        return -1;
    redact_text(copy);
    rc = 0;
    /* a cut through a multi-byte character leaves no valid UTF-8: the whole value goes */
    if (strcmp(copy, json_string_value(v)) != 0 && json_string_set(v, copy) < 0)
        rc = json_string_set(v, REDACT_MARK);
    free(copy);
    return rc;
}

static int kept(const char *k, const char *const *keep)
{
    for (; keep && *keep; keep++)
        if (strcmp(k, *keep) == 0)
            return 1;
    return 0;
}

int redact_json(json_t *v, const char *const *keep)
{
    const char *k;
    json_t *x;
    size_t i;

    if (json_is_string(v))
        return redact_string(v);
    if (json_is_array(v)) {
        json_array_foreach(v, i, x)
        {
            if (redact_json(x, NULL) < 0)
                return -1;
        }
    }
    if (json_is_object(v)) {
        json_object_foreach(v, k, x)
        {
            if (!kept(k, keep) && redact_json(x, NULL) < 0)
                return -1;
        }
    }
    return 0;
}
