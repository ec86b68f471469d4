/* words: shell-like word splitting and placeholder expansion (see words.h). */
#include "util/words.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sbuf {
    char *p;
    size_t len, cap;
};

static int sb_putn(struct sbuf *b, const char *s, size_t n)
{
    if (n > SIZE_MAX - 1 - b->len)
        return -1;
    if (!b->p || b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 32;
        char *np;
        while (cap < b->len + n + 1)
            cap *= 2;
        np = realloc(b->p, cap);
        if (!np)
            return -1;
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
    return 0;
}

static const char *const placeholder_names[] = {"port", "host", "cert", "key",  "cacert",
                                                "dir",  "tree", "conf", "port2"};

static const char *placeholder_value(const struct words_vars *v, size_t i)
{
    switch (i) {
    case 0:
        return v->port;
    case 1:
        return v->host;
    case 2:
        return v->cert;
    case 3:
        return v->key;
    case 4:
        return v->cacert;
    case 5:
        return v->dir;
    case 6:
        return v->tree;
    case 7:
        return v->conf;
    default:
        return v->port2;
    }
}

static int is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* At s[0] == '{': if s starts a placeholder "{ident}", expands it into b and returns its
 * length; returns 0 when it is a literal brace; -1 on error. */
static int expand_placeholder(const char *s, const struct words_vars *vars, struct sbuf *b,
                              char *err, size_t errlen)
{
    size_t n = 1, i;
    const char *val;

    while (is_ident(s[n]))
        n++;
    if (n == 1 || s[n] != '}')
        return 0;
    for (i = 0; i < sizeof(placeholder_names) / sizeof(placeholder_names[0]); i++)
        if (strlen(placeholder_names[i]) == n - 1 &&
            strncmp(s + 1, placeholder_names[i], n - 1) == 0)
            break;
    if (i == sizeof(placeholder_names) / sizeof(placeholder_names[0])) {
        snprintf(err, errlen,
                 "unknown placeholder '%.*s' (expected one of {port} {host} {cert} {key} "
                 "{cacert} {dir} {tree} {conf} {port2})",
                 (int)(n + 1), s);
        return -1;
    }
    if (!vars) { /* checking only: keep the placeholder as written */
        if (sb_putn(b, s, n + 1) < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    } else {
        val = placeholder_value(vars, i);
        if (!val) {
            snprintf(err, errlen, "placeholder '{%s}' has no value here", placeholder_names[i]);
            return -1;
        }
        if (sb_putn(b, val, strlen(val)) < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return (int)(n + 1);
}

/* The '{' at s: its placeholder expanded into w, or the '{' itself when it starts none.
 * Returns how many bytes of s it used (1 or more), or -1 with err. */
static int put_brace(const char *s, const struct words_vars *vars, struct sbuf *w, char *err,
                     size_t errlen)
{
    int n = expand_placeholder(s, vars, w, err, errlen);

    if (n != 0)
        return n;
    if (sb_putn(w, s, 1) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 1;
}

static int push_word(char ***argv, size_t *argc, size_t *cap, struct sbuf *w)
{
    char *copy = strdup(w->p ? w->p : "");

    if (!copy)
        return -1;
    if (*argc + 2 > *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        char **na = realloc(*argv, nc * sizeof(*na));
        if (!na) {
            free(copy);
            return -1;
        }
        *argv = na;
        *cap = nc;
    }
    (*argv)[(*argc)++] = copy;
    (*argv)[*argc] = NULL;
    w->len = 0;
    if (w->p)
        w->p[0] = '\0';
    return 0;
}

/* A double-quoted part of cmd, s at its opening quote: \" \\ \$ \` unescaped, {var}
 * expanded, $ and ` refused. Appends it to w; returns the length taken, quotes included, or -1
 * with err set. */
static int put_dquoted(const char *cmd, const char *s, const struct words_vars *vars,
                       struct sbuf *w, char *err, size_t errlen)
{
    const char *q = s + 1;
    for (;;) {
        if (!*q) {
            snprintf(err, errlen, "unterminated double quote at offset %zu", (size_t)(s - cmd));
            return -1;
        }
        if (*q == '"')
            break;
        if (*q == '\\' && q[1] && strchr("\"\\$`", q[1])) {
            if (sb_putn(w, q + 1, 1) < 0)
                goto oom;
            q += 2;
        } else if (*q == '$' || *q == '`') {
            snprintf(err, errlen,
                     "shell expansion '%c' at offset %zu is not supported (commands "
                     "run without a shell; escape it as \\%c)",
                     *q, (size_t)(q - cmd), *q);
            return -1;
        } else if (*q == '{') {
            int n = put_brace(q, vars, w, err, errlen);
            if (n < 0)
                return -1;
            q += n;
        } else {
            if (sb_putn(w, q, 1) < 0)
                goto oom;
            q++;
        }
    }
    return (int)(q + 1 - s);
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

int words_split(const char *cmd, const struct words_vars *vars, char ***argv_out, size_t *argc_out,
                char *err, size_t errlen)
{
    char **argv = NULL;
    size_t argc = 0, cap = 0;
    struct sbuf w = {0};
    int in_word = 0, rc = -1;
    const char *s = cmd;

    *argv_out = NULL;
    *argc_out = 0;
    while (*s) {
        char c = *s;
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word && push_word(&argv, &argc, &cap, &w) < 0)
                goto oom;
            in_word = 0;
            s++;
        } else if (c == '\'') {
            const char *end = strchr(s + 1, '\'');
            if (!end) {
                snprintf(err, errlen, "unterminated single quote at offset %zu", (size_t)(s - cmd));
                goto out;
            }
            if (sb_putn(&w, s + 1, (size_t)(end - s - 1)) < 0)
                goto oom;
            in_word = 1;
            s = end + 1;
        } else if (c == '"') {
            int n = put_dquoted(cmd, s, vars, &w, err, errlen);
            if (n < 0)
                goto out;
            in_word = 1;
            s += n;
        } else if (c == '\\') {
            if (!s[1]) {
                snprintf(err, errlen, "trailing backslash");
                goto out;
            }
            if (s[1] != '\n' && sb_putn(&w, s + 1, 1) < 0)
                goto oom;
            in_word = in_word || s[1] != '\n';
            s += 2;
        } else if (strchr("|&;<>()$`", c)) {
            snprintf(err, errlen,
                     "shell syntax '%c' at offset %zu is not supported (commands run without a "
                     "shell; quote it to pass it literally)",
                     c, (size_t)(s - cmd));
            goto out;
        } else if (c == '{') {
            int n = put_brace(s, vars, &w, err, errlen);
            if (n < 0)
                goto out;
            s += n;
            in_word = 1;
        } else {
            if (sb_putn(&w, s, 1) < 0)
                goto oom;
            in_word = 1;
            s++;
        }
    }
    if (in_word && push_word(&argv, &argc, &cap, &w) < 0)
        goto oom;
    if (argc == 0) {
        snprintf(err, errlen, "empty command");
        goto out;
    }
    *argv_out = argv;
    *argc_out = argc;
    argv = NULL;
    rc = 0;
    goto out;
oom:
    snprintf(err, errlen, "out of memory");
out:
    free(w.p);
    words_free(argv);
    return rc;
}

void words_free(char **argv)
{
    size_t i;

    if (!argv)
        return;
    for (i = 0; argv[i]; i++)
        free(argv[i]);
    free(argv);
}

char *words_quote(const char *word, char *out, size_t outlen)
{
    size_t o = 0;
    const char *p;
    int plain = *word != '\0';

    if (outlen == 0)
        return out;
    for (p = word; *p && plain; p++)
        if (!(is_ident(*p) || strchr("-./:=,+@%^", *p)))
            plain = 0;
    if (plain) {
        snprintf(out, outlen, "%s", word);
        return out;
    }
    /* '...' with each embedded ' written as '\'' */
#define PUT(ch)                                                                                    \
    do {                                                                                           \
        if (o + 1 < outlen)                                                                        \
            out[o++] = (ch);                                                                       \
    } while (0)
    PUT('\'');
    for (p = word; *p; p++) {
        if (*p == '\'') {
            PUT('\'');
            PUT('\\');
            PUT('\'');
            PUT('\'');
        } else {
            PUT(*p);
        }
    }
    PUT('\'');
#undef PUT
    out[o] = '\0';
    return out;
}

/* The index of the known placeholder "{name}" at s, its length in *len; -1 when s starts none. */
static int known_placeholder(const char *s, size_t *len)
{
    size_t n = 1, i;

    while (is_ident(s[n]))
        n++;
    if (n == 1 || s[n] != '}')
        return -1;
    for (i = 0; i < sizeof(placeholder_names) / sizeof(placeholder_names[0]); i++)
        if (strlen(placeholder_names[i]) == n - 1 &&
            strncmp(s + 1, placeholder_names[i], n - 1) == 0) {
            *len = n + 1;
            return (int)i;
        }
    return -1;
}

char *words_render(const char *text, const struct words_vars *vars, char *err, size_t errlen)
{
    struct sbuf b = {0};
    const char *s = text, *brace, *val;
    size_t len;
    int i;

    if (sb_putn(&b, "", 0) < 0)
        goto oom;
    while ((brace = strchr(s, '{')) != NULL) {
        if (sb_putn(&b, s, (size_t)(brace - s)) < 0)
            goto oom;
        i = known_placeholder(brace, &len);
        if (i < 0) {
            if (sb_putn(&b, brace, 1) < 0)
                goto oom;
            s = brace + 1;
            continue;
        }
        val = placeholder_value(vars, (size_t)i);
        if (!val) {
            snprintf(err, errlen, "placeholder '{%s}' has no value here", placeholder_names[i]);
            free(b.p);
            return NULL;
        }
        if (sb_putn(&b, val, strlen(val)) < 0)
            goto oom;
        s = brace + len;
    }
    if (sb_putn(&b, s, strlen(s)) < 0)
        goto oom;
    return b.p;
oom:
    snprintf(err, errlen, "out of memory");
    free(b.p);
    return NULL;
}
