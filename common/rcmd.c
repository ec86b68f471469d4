/* rcmd: Redis command templates, key patterns and mixes (see rcmd.h; setup: rcmd_setup.c). */
#include "rcmd.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

static const char *const ph_names[] = {"", "rand_int", "key", "data", "i", "rand_score"};

int rcmd_out_put(struct rcmd_out *o, const void *p, size_t n)
{
    if (o->max && n > o->max - (o->len < o->max ? o->len : o->max)) {
        o->toobig = 1;
        return -1;
    }
    if (o->measure) {
        o->len += n;
        return 0;
    }
    if (n > o->cap - o->len) {
        size_t cap = o->cap ? o->cap : 256;
        char *q;

        while (cap - o->len < n)
            cap *= 2;
        q = realloc(o->p, cap);
        if (!q)
            return -1;
        o->p = q;
        o->cap = cap;
    }
    if (n)
        memcpy(o->p + o->len, p, n);
    o->len += n;
    return 0;
}

void rcmd_out_free(struct rcmd_out *o)
{
    free(o->p);
    memset(o, 0, sizeof(*o));
}

void rcmd_free(struct rcmd *c)
{
    free(c->text);
    free(c->segs);
    free(c->first);
    free(c->nseg);
    free(c->shown);
    memset(c, 0, sizeof(*c));
}

/* A placeholder name at s ("__key__"): its enum and length, 0 when s is no placeholder, -1
 * when it looks like one but is unknown (the name's length in *len). */
static int ph_at(const char *s, size_t n, size_t *len)
{
    size_t i = 2, j;

    if (n < 5 || s[0] != '_' || s[1] != '_' || !islower((unsigned char)s[2]))
        return 0;
    while (i + 1 < n && !(s[i] == '_' && s[i + 1] == '_')) {
        if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '_')
            return 0;
        i++;
    }
    if (i + 1 >= n || s[i - 1] == '_')
        return 0;
    *len = i + 2;
    for (j = 1; j < sizeof(ph_names) / sizeof(ph_names[0]); j++)
        if (strlen(ph_names[j]) == i - 2 && memcmp(s + 2, ph_names[j], i - 2) == 0)
            return (int)j;
    return -1;
}

static int seg_add(struct rcmd *c, unsigned ph, size_t off, size_t len)
{
    struct rcmd_seg *s = realloc(c->segs, (c->nsegs + 1) * sizeof(*s));

    if (!s)
        return -1;
    c->segs = s;
    s[c->nsegs].ph = ph;
    s[c->nsegs].off = off;
    s[c->nsegs].len = len;
    c->nsegs++;
    c->nseg[c->argc - 1]++;
    return 0;
}

/* Adds one argument (its bytes already appended to text at off) split into segments. */
static int arg_add(struct rcmd *c, size_t off, size_t n, unsigned allowed, char *err, size_t errlen)
{
    size_t i = 0, lit = 0, plen;
    const char *a = c->text + off;
    int ph;

    if (c->argc >= RCMD_MAX_ARGS) {
        snprintf(err, errlen, "more than %d arguments", RCMD_MAX_ARGS);
        return -1;
    }
    c->first[c->argc] = c->nsegs;
    c->nseg[c->argc] = 0;
    c->argc++;
    while (i < n) {
        ph = ph_at(a + i, n - i, &plen);
        if (ph == 0) {
            i++;
            continue;
        }
        if (ph < 0 || !(allowed & RCMD_USES(ph))) {
            snprintf(err, errlen, "%s placeholder '%.*s' (expected %s)",
                     ph < 0 ? "unknown" : "misplaced", (int)plen, a + i,
                     allowed & RCMD_USES(RCMD_I)
                         ? "__i__ or __data__"
                         : "__rand_int__, __rand_score__, __key__ or __data__");
            return -1;
        }
        if (i > lit && seg_add(c, RCMD_LIT, off + lit, i - lit) < 0)
            return -1;
        if (c->nseg[c->argc - 1] + 2 > RCMD_ARG_PARTS) {
            snprintf(err, errlen, "more than %d placeholders in one argument",
                     RCMD_ARG_PARTS / 2 - 1);
            return -1;
        }
        if (seg_add(c, (unsigned)ph, 0, 0) < 0)
            return -1;
        c->uses |= RCMD_USES(ph);
        i += plen;
        lit = i;
    }
    if ((n > lit || n == 0) && seg_add(c, RCMD_LIT, off + lit, n - lit) < 0)
        return -1;
    return 0;
}

static int prep(struct rcmd *c, size_t textcap)
{
    memset(c, 0, sizeof(*c));
    c->text = malloc(textcap + 1);
    c->first = calloc(RCMD_MAX_ARGS, sizeof(*c->first));
    c->nseg = calloc(RCMD_MAX_ARGS, sizeof(*c->nseg));
    return c->text && c->first && c->nseg ? 0 : -1;
}

/* One escape inside double quotes or outside quotes. */
static char unescape(char ch)
{
    return ch == 'n' ? '\n' : ch == 'r' ? '\r' : ch == 't' ? '\t' : ch;
}

/* The end of both parsers: how: 0 parsed (an empty command is refused), 1 out of memory,
 * -1 failed with err set. Returns 0, or -1 with c freed and err set. */
static int finish(struct rcmd *c, int how, char *err, size_t errlen)
{
    if (how == 0 && c->argc > 0)
        return 0;
    if (how >= 0)
        snprintf(err, errlen, how ? "out of memory" : "empty command");
    rcmd_free(c);
    return -1;
}

int rcmd_parse_str(struct rcmd *c, const char *s, unsigned allowed, char *err, size_t errlen)
{
    size_t n = strlen(s), i = 0, len = 0, start;
    char q;

    if (prep(c, n) < 0 || !(c->shown = strdup(s)))
        goto oom;
    for (;;) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i >= n)
            break;
        start = len;
        while (i < n && !isspace((unsigned char)s[i])) {
            if (s[i] == '\'' || s[i] == '"') {
                q = s[i++];
                while (i < n && s[i] != q) {
                    if (q == '"' && s[i] == '\\' && i + 1 < n)
                        i++, c->text[len++] = unescape(s[i++]);
                    else
                        c->text[len++] = s[i++];
                }
                if (i >= n) {
                    snprintf(err, errlen, "unterminated %s quote", q == '"' ? "double" : "single");
                    goto fail;
                }
                i++;
            } else if (s[i] == '\\' && i + 1 < n) {
                c->text[len++] = unescape(s[i + 1]);
                i += 2;
            } else {
                c->text[len++] = s[i++];
            }
        }
        if (arg_add(c, start, len - start, allowed, err, errlen) < 0)
            goto fail;
    }
    return finish(c, 0, err, errlen);
oom:
    return finish(c, 1, err, errlen);
fail:
    return finish(c, -1, err, errlen);
}

int rcmd_parse(struct rcmd *c, const json_t *v, unsigned allowed, char *err, size_t errlen)
{
    size_t i, total = 0, len = 0;
    json_t *a;

    if (json_is_string(v))
        return rcmd_parse_str(c, json_string_value(v), allowed, err, errlen);
    if (!json_is_array(v)) {
        snprintf(err, errlen, "expected a command line (string) or an array of arguments");
        return -1;
    }
    json_array_foreach(v, i, a)
    {
        if (!json_is_string(a)) {
            snprintf(err, errlen, "argument %zu: expected a string", i + 1);
            return -1;
        }
        total += json_string_length(a);
    }
    if (prep(c, total) < 0 || !(c->shown = json_dumps(v, JSON_COMPACT)))
        goto oom;
    json_array_foreach(v, i, a)
    {
        size_t n = json_string_length(a);

        memcpy(c->text + len, json_string_value(a), n);
        if (arg_add(c, len, n, allowed, err, errlen) < 0)
            goto fail;
        len += n;
    }
    return finish(c, 0, err, errlen);
oom:
    return finish(c, 1, err, errlen);
fail:
    return finish(c, -1, err, errlen);
}

int rcmd_encode(const struct rcmd *c, rcmd_fill_fn fill, void *ctx, struct rcmd_out *out)
{
    char head[32];
    const char *vp[RCMD_ARG_PARTS];
    size_t vl[RCMD_ARG_PARTS];
    unsigned a, k, ns;
    int n;

    n = snprintf(head, sizeof(head), "*%u\r\n", c->argc);
    if (rcmd_out_put(out, head, (size_t)n) < 0)
        return -1;
    for (a = 0; a < c->argc; a++) {
        size_t total = 0;

        ns = c->nseg[a];
        if (ns > RCMD_ARG_PARTS)
            return -1; /* refused at parse */
        for (k = 0; k < ns; k++) {
            const struct rcmd_seg *s = &c->segs[c->first[a] + k];

            if (s->ph == RCMD_LIT) {
                vp[k] = c->text + s->off;
                vl[k] = s->len;
            } else {
                vl[k] = fill(ctx, s->ph, &vp[k]);
            }
            total += vl[k];
        }
        n = snprintf(head, sizeof(head), "$%zu\r\n", total);
        if (rcmd_out_put(out, head, (size_t)n) < 0)
            return -1;
        for (k = 0; k < ns; k++)
            if (rcmd_out_put(out, vp[k], vl[k]) < 0)
                return -1;
        if (rcmd_out_put(out, "\r\n", 2) < 0)
            return -1;
    }
    return 0;
}

void rcmd_name(const struct rcmd *c, char *out, size_t outlen)
{
    const struct rcmd_seg *s = &c->segs[c->first[0]];
    size_t i, n = c->nseg[0] == 1 && s->ph == RCMD_LIT ? s->len : 0;

    if (outlen == 0)
        return;
    if (n >= outlen)
        n = outlen - 1;
    for (i = 0; i < n; i++)
        out[i] = (char)toupper((unsigned char)c->text[s->off + i]);
    out[n] = '\0';
}

int rcmd_keypat_parse(const char *s, struct rcmd_keypat *kp, char *err, size_t errlen)
{
    kp->exp = 0;
    if (strcmp(s, "uniform") == 0 || s[0] == '\0')
        kp->kind = RCMD_KP_UNIFORM;
    else if (strcmp(s, "sequential") == 0)
        kp->kind = RCMD_KP_SEQUENTIAL;
    else if (strcmp(s, "gaussian") == 0)
        kp->kind = RCMD_KP_GAUSSIAN;
    else if (strncmp(s, "zipf:", 5) == 0 && num_parse_double(s + 5, 1e-6, 5, &kp->exp) == 0)
        kp->kind = RCMD_KP_ZIPF;
    else {
        snprintf(err, errlen,
                 "expected uniform, sequential, gaussian or zipf:EXP (0 < EXP <= 5), got '%s'", s);
        return -1;
    }
    return 0;
}

uint64_t rcmd_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A uniform double in (0, 1). */
static double unit_open(uint64_t *rng)
{
    return ((double)(rcmd_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
}

uint64_t rcmd_key_next(const struct rcmd_keypat *kp, uint64_t n, uint64_t *rng, uint64_t *seq)
{
    double x, u;

    switch (kp->kind) {
    case RCMD_KP_SEQUENTIAL:
        x = (double)(*seq % n);
        (*seq)++;
        return (uint64_t)x;
    case RCMD_KP_GAUSSIAN:
        /* memtier's: mean in the middle, standard deviation a sixth of the range */
        u = sqrt(-2.0 * log(unit_open(rng))) * cos(2.0 * M_PI * unit_open(rng));
        x = (double)n / 2.0 + u * (double)n / 6.0;
        if (x < 0)
            x = 0;
        if (x > (double)(n - 1))
            x = (double)(n - 1);
        return (uint64_t)x;
    case RCMD_KP_ZIPF:
        /* the continuous inverse of P(k) ~ 1/k^exp over [1, n + 1): rank 0 is the hottest */
        u = unit_open(rng);
        if (fabs(kp->exp - 1.0) < 1e-9)
            x = exp(u * log((double)n + 1.0));
        else
            x = pow(1.0 + u * (pow((double)n + 1.0, 1.0 - kp->exp) - 1.0), 1.0 / (1.0 - kp->exp));
        x -= 1.0;
        if (x < 0)
            x = 0;
        if (x > (double)(n - 1))
            x = (double)(n - 1);
        return (uint64_t)x;
    case RCMD_KP_UNIFORM:
        break;
    }
    return rcmd_rng_next(rng) % n;
}

void rcmd_mix_free(struct rcmd_mix *m)
{
    for (unsigned i = 0; i < m->n; i++)
        rcmd_free(&m->cmd[i]);
    m->n = 0;
}

int rcmd_mix_parse(struct rcmd_mix *m, const json_t *v, char *err, size_t errlen)
{
    char why[256];
    size_t i;
    json_t *e, *w;

    memset(m, 0, sizeof(*m));
    if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > RCMD_MIX_MAX) {
        snprintf(err, errlen, "expected an array of 1 to %d {\"command\", \"weight\"} objects",
                 RCMD_MIX_MAX);
        return -1;
    }
    json_array_foreach(v, i, e)
    {
        const char *k;
        json_t *x;

        if (!json_is_object(e) || !json_object_get(e, "command")) {
            snprintf(err, errlen, "[%zu]: expected an object with \"command\" and \"weight\"", i);
            goto fail;
        }
        json_object_foreach(e, k, x)
        {
            if (strcmp(k, "command") != 0 && strcmp(k, "weight") != 0) {
                snprintf(err, errlen, "[%zu]: unknown key '%s' (expected command, weight)", i, k);
                goto fail;
            }
        }
        w = json_object_get(e, "weight");
        if (w &&
            (!json_is_number(w) || !(json_number_value(w) > 0) || json_number_value(w) > 1e9)) {
            char *s = json_dumps(w, JSON_ENCODE_ANY | JSON_COMPACT);

            snprintf(err, errlen, "[%zu].weight: expected a positive number, got %s", i,
                     s ? s : "?");
            free(s);
            goto fail;
        }
        if (rcmd_parse(&m->cmd[m->n], json_object_get(e, "command"),
                       RCMD_USES(RCMD_RAND_INT) | RCMD_USES(RCMD_RAND_SCORE) | RCMD_USES(RCMD_KEY) |
                           RCMD_USES(RCMD_DATA),
                       why, sizeof(why)) < 0) {
            snprintf(err, errlen, "[%zu].command: %s", i, why);
            goto fail;
        }
        m->weight[m->n++] = w ? json_number_value(w) : 1.0;
    }
    return 0;
fail:
    rcmd_mix_free(m);
    return -1;
}
