/* rcmd_setup: a Redis setup expanded into RESP bytes, from a list of commands and generators
 * or a file, sized before it is built and a text file checked byte by byte (see rcmd.h,
 * rcmd_setup_expand). */
#include "rcmd.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SETUP_FILE_MAX (256u << 20)
#define GEN_COUNT_MAX 10000000

struct gen_ctx {
    const char *value;
    size_t value_len;
    char num[24];
};

static size_t gen_fill(void *ctx, unsigned ph, const char **p)
{
    struct gen_ctx *g = ctx;

    if (ph == RCMD_DATA) {
        *p = g->value;
        return g->value_len;
    }
    *p = g->num;
    return strlen(g->num);
}

/* Whether count commands of c (the largest: __i__ = count - 1) still fit out->max, measured
 * before any is built. 0, or -1 with err (out->toobig set). */
static int setup_fits(const struct rcmd *c, json_int_t count, struct gen_ctx *g,
                      struct rcmd_out *out, size_t idx, char *err, size_t errlen)
{
    struct rcmd_out one = {.max = out->max};
    size_t room = out->max > out->len ? out->max - out->len : 0;
    unsigned long long total;
    int rc = -1;

    snprintf(g->num, sizeof(g->num), "%lld", (long long)(count - 1));
    if (rcmd_encode(c, gen_fill, g, &one) < 0 && !one.toobig) {
        snprintf(err, errlen, "out of memory");
    } else if (one.toobig) {
        out->toobig = 1;
        snprintf(err, errlen, "[%zu]: one command is more than the %zu bytes the setup may hold",
                 idx, out->max);
    } else if ((total = (unsigned long long)one.len * (unsigned long long)count) > room) {
        out->toobig = 1;
        snprintf(err, errlen,
                 "[%zu]: %lld commands of up to %zu bytes each (%llu bytes): more than the %zu "
                 "bytes the setup may hold",
                 idx, (long long)count, one.len, total, out->max);
    } else {
        rc = 0;
    }
    rcmd_out_free(&one);
    return rc;
}

/* One setup item: a command or a generator. */
static int setup_item(const json_t *e, size_t idx, struct gen_ctx *g, struct rcmd_out *out,
                      uint64_t *ncmds, char *err, size_t errlen)
{
    const json_t *cmd = e, *cnt = NULL;
    unsigned allowed = RCMD_USES(RCMD_DATA);
    json_int_t count = 1;
    struct rcmd c;
    char why[256];

    if (json_is_object(e)) {
        const char *k;
        json_t *x;

        json_object_foreach((json_t *)e, k, x)
        {
            if (strcmp(k, "command") != 0 && strcmp(k, "count") != 0) {
                snprintf(err, errlen, "[%zu]: unknown key '%s' (expected command, count)", idx, k);
                return -1;
            }
        }
        cmd = json_object_get(e, "command");
        cnt = json_object_get(e, "count");
        if (!cmd || !cnt || !json_is_integer(cnt) || json_integer_value(cnt) < 1 ||
            json_integer_value(cnt) > GEN_COUNT_MAX) {
            snprintf(err, errlen,
                     "[%zu]: expected a generator {\"command\": ..., \"count\": 1..%d}", idx,
                     GEN_COUNT_MAX);
            return -1;
        }
        count = json_integer_value(cnt);
        allowed |= RCMD_USES(RCMD_I);
    }
    if (rcmd_parse(&c, cmd, allowed, why, sizeof(why)) < 0) {
        snprintf(err, errlen, "[%zu]%s: %s", idx, cnt ? ".command" : "", why);
        return -1;
    }
    if (out->max && setup_fits(&c, count, g, out, idx, err, errlen) < 0) {
        rcmd_free(&c);
        return -1;
    }
    for (json_int_t i = 0; i < count; i++) {
        snprintf(g->num, sizeof(g->num), "%lld", (long long)i);
        if (rcmd_encode(&c, gen_fill, g, out) < 0) {
            rcmd_free(&c);
            if (out->toobig)
                snprintf(err, errlen, "[%zu]: the setup expands past %zu bytes", idx, out->max);
            else
                snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    *ncmds += (uint64_t)count;
    rcmd_free(&c);
    return 0;
}

/* One RESP command (an array of bulk strings) at p[0..n): its length, 0 when p is not one. */
static size_t resp_cmd_len(const char *p, size_t n, unsigned *argc)
{
    size_t i = 1;
    uint64_t k, len;
    char *end;

    if (n < 4 || p[0] != '*')
        return 0;
    errno = 0;
    k = strtoull(p + 1, &end, 10);
    i = (size_t)(end - p);
    if (errno || end == p + 1 || k == 0 || k > RCMD_MAX_ARGS || i + 2 > n || p[i] != '\r' ||
        p[i + 1] != '\n')
        return 0;
    i += 2;
    *argc = (unsigned)k;
    while (k--) {
        if (i >= n || p[i] != '$')
            return 0;
        len = strtoull(p + i + 1, &end, 10);
        i = (size_t)(end - p);
        if (errno || i + 2 > n || p[i] != '\r' || p[i + 1] != '\n' || len > n - i - 2 ||
            i + 2 + len + 2 > n)
            return 0;
        i += 2 + (size_t)len;
        if (p[i] != '\r' || p[i + 1] != '\n')
            return 0;
        i += 2;
    }
    return i;
}

void rcmd_resp_show(const char *p, size_t n, uint64_t k, char *out, size_t outlen)
{
    size_t off = 0, len, o = 0;
    unsigned argc;

    out[0] = '\0';
    while ((len = resp_cmd_len(p + off, n - off, &argc)) > 0) {
        if (k-- == 0) {
            const char *q = p + off;
            char *end;

            q = strchr(q, '\n') + 1;
            while (argc-- && o + 1 < outlen) {
                size_t al = (size_t)strtoull(q + 1, &end, 10), show = al > 40 ? 40 : al;

                q = end + 2;
                o += (size_t)snprintf(out + o, outlen - o, "%s%.*s%s", o ? " " : "", (int)show, q,
                                      show < al ? "..." : "");
                if (o >= outlen)
                    o = outlen - 1;
                q += al + 2;
            }
            return;
        }
        off += len;
    }
}

/* The length of the UTF-8 sequence at p (before end), or 0 when it is not one: a stray
 * continuation byte, an overlong or cut sequence, a surrogate or past U+10FFFF. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
    size_t n = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : 2, k;
    unsigned cp = *p & (0x3fu >> (n - 1));

    if (*p < 0xc2 || *p > 0xf4 || (size_t)(end - p) < n)
        return 0;
    for (k = 1; k < n; k++) {
        if ((p[k] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[k] & 0x3fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* Whether the inline line s..end (before its '\n') holds a byte a text line cannot: a NUL,
 * which used to end the file there unseen, another control byte but tab (and a CR that ends
 * it), or a byte of no UTF-8 character (binary data). 1 with err naming the file, line and
 * column. */
static int text_line_bad(const char *s, const char *end, const char *path, int line, char *err,
                         size_t errlen)
{
    const unsigned char *p = (const unsigned char *)s, *e = (const unsigned char *)end;

    while (p < e) {
        unsigned char ch = *p;
        size_t n = ch >= 0x80 ? utf8_len(p, e) : 1;

        if (n > 1 || (ch < 0x80 &&
                      ((ch >= 0x20 && ch != 0x7f) || ch == '\t' || (ch == '\r' && p + 1 == e)))) {
            p += n;
            continue;
        }
        snprintf(err, errlen,
                 "file '%s': line %d: byte 0x%02x at column %zu: an inline setup file is text%s "
                 "(a RESP file starts with '*')",
                 path, line, ch, (size_t)(p - (const unsigned char *)s) + 1,
                 ch >= 0x80 ? ", and this byte is no part of a UTF-8 character" : "");
        return 1;
    }
    return 0;
}

/* A file of RESP commands (first byte '*') or inline lines. */
static int setup_file(const char *path, struct gen_ctx *g, struct rcmd_out *out, uint64_t *ncmds,
                      char *err, size_t errlen)
{
    struct rcmd_out raw = {0};
    char chunk[65536], why[256];
    size_t n, off = 0, len;
    unsigned argc;
    FILE *f = fopen(path, "rb");
    int rc = -1, line = 1;

    if (!f) {
        snprintf(err, errlen, "file '%s': %s", path, strerror(errno));
        return -1;
    }
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        if (raw.len + n > SETUP_FILE_MAX || rcmd_out_put(&raw, chunk, n) < 0) {
            snprintf(err, errlen, "file '%s': larger than 256 MiB or out of memory", path);
            goto out;
        }
    if (ferror(f) || rcmd_out_put(&raw, "", 1) < 0) {
        snprintf(err, errlen, "file '%s': read error", path);
        goto out;
    }
    raw.len--;
    if (raw.len > 0 && raw.p[0] == '*') {
        while (off < raw.len) {
            if ((len = resp_cmd_len(raw.p + off, raw.len - off, &argc)) == 0) {
                snprintf(err, errlen,
                         "file '%s': byte %zu: expected a RESP command (an array of bulk "
                         "strings, as redis-cli --pipe reads)",
                         path, off);
                goto out;
            }
            if (rcmd_out_put(out, raw.p + off, len) < 0) {
                if (out->toobig)
                    snprintf(err, errlen, "file '%s': byte %zu: the setup is past %zu bytes", path,
                             off, out->max);
                goto out;
            }
            off += len;
            (*ncmds)++;
        }
        rc = 0;
        goto out;
    }
    for (char *s = raw.p, *nl; s < raw.p + raw.len; s = nl + 1, line++) {
        struct rcmd c;
        const char *t;

        nl = memchr(s, '\n', (size_t)(raw.p + raw.len - s));
        if (!nl)
            nl = raw.p + raw.len;
        if (text_line_bad(s, nl, path, line, err, errlen))
            goto out;
        *nl = '\0';
        if (nl > s && nl[-1] == '\r')
            nl[-1] = '\0';
        for (t = s; isspace((unsigned char)*t); t++)
            ;
        if (*t == '\0' || *t == '#')
            continue;
        if (rcmd_parse_str(&c, t, RCMD_USES(RCMD_DATA), why, sizeof(why)) < 0) {
            snprintf(err, errlen, "file '%s': line %d: %s", path, line, why);
            goto out;
        }
        if (rcmd_encode(&c, gen_fill, g, out) < 0) {
            rcmd_free(&c);
            if (out->toobig)
                snprintf(err, errlen, "file '%s': line %d: the setup expands past %zu bytes", path,
                         line, out->max);
            goto out;
        }
        rcmd_free(&c);
        (*ncmds)++;
    }
    rc = 0;
out:
    if (rc < 0 && !err[0])
        snprintf(err, errlen, "out of memory");
    fclose(f);
    rcmd_out_free(&raw);
    return rc;
}

int rcmd_setup_expand(const json_t *v, const char *value, size_t value_len, struct rcmd_out *out,
                      uint64_t *ncmds, char *err, size_t errlen)
{
    struct gen_ctx g = {value, value_len, ""};
    size_t i;
    json_t *e;

    *ncmds = 0;
    err[0] = '\0';
    if (json_is_string(v))
        return setup_file(json_string_value(v), &g, out, ncmds, err, errlen);
    if (!json_is_array(v)) {
        snprintf(err, errlen,
                 "expected an array of commands and generators, or a file name (string)");
        return -1;
    }
    json_array_foreach(v, i, e)
    {
        if (setup_item(e, i, &g, out, ncmds, err, errlen) < 0)
            return -1;
    }
    return 0;
}
