/* Incremental HTTP/1.1 head and body scanners (see http_parse.h). Strict where a lenient
 * reading could desynchronise a pipelined stream (Content-Length, chunk sizes, header
 * syntax), lenient where it cannot (reason phrases, bare LF line ends, chunk extensions). */
#include "proto/http_parse.h"

#include <string.h>

enum { CH_SIZE, CH_DATA, CH_DATA_CRLF, CH_TRAILER };

/* Largest Content-Length or chunk size accepted: far beyond any benchmark body, and small
 * enough that sums never overflow. */
#define HTTP_MAX_BODY ((uint64_t)1 << 50)
#define HTTP_MAX_LINE 8192

/* RFC 9110 token characters: ALPHA DIGIT and !#$%&'*+-.^_`|~ (a table: this runs per byte) */
static const unsigned char tchar[256] = {
    ['!'] = 1, ['#'] = 1, ['$'] = 1, ['%'] = 1, ['&'] = 1, ['\''] = 1, ['*'] = 1, ['+'] = 1,
    ['-'] = 1, ['.'] = 1, ['^'] = 1, ['_'] = 1, ['`'] = 1, ['|'] = 1,  ['~'] = 1, ['0'] = 1,
    ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1,  ['7'] = 1, ['8'] = 1,
    ['9'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1,  ['F'] = 1, ['G'] = 1,
    ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1,  ['N'] = 1, ['O'] = 1,
    ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1,  ['V'] = 1, ['W'] = 1,
    ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1,  ['d'] = 1, ['e'] = 1,
    ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1,  ['l'] = 1, ['m'] = 1,
    ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1,  ['t'] = 1, ['u'] = 1,
    ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

static int is_tchar(unsigned char c)
{
    return tchar[c];
}

static int lower(int c)
{
    return (unsigned)(c - 'A') < 26u ? c | 0x20 : c;
}

/* a[0..alen) equals b[0..blen) ignoring ASCII case */
static int ieq_n(const char *a, size_t alen, const char *b, size_t blen)
{
    if (alen != blen)
        return 0;
    for (size_t i = 0; i < alen; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
            return 0;
    return 1;
}

static int ieq(const char *a, size_t alen, const char *b)
{
    return ieq_n(a, alen, b, strlen(b));
}

/* a[0..alen) equals the lower-case lc[0..lclen) ignoring ASCII case */
static int ieq_lc(const char *a, size_t alen, const char *lc, size_t lclen)
{
    if (alen != lclen)
        return 0;
    for (size_t i = 0; i < alen; i++)
        if (lower((unsigned char)a[i]) != (unsigned char)lc[i])
            return 0;
    return 1;
}

/* a header name or token against a lower-case literal: the length decides most mismatches */
#define NAME_IS(h, lit) ieq_lc((h)->name, (h)->name_len, lit, sizeof(lit) - 1)
#define TOKEN_IS(t, len, lit) ieq_lc(t, len, lit, sizeof(lit) - 1)

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* 1 when one of the 8 bytes of x may be below 0x20 or equal to 0x7f (never misses one) */
static int word_may_ctl(uint64_t x)
{
    uint64_t y = x ^ (0x7f * ONES);
    return ((((x - 0x20 * ONES) & ~x) | ((y - ONES) & ~y)) & HIGHS) != 0;
}

/* 1 when a header value holds no control character but tab (0x00-0x1f, 0x7f). Eight bytes at
 * a time (this runs over every response head): words, the last one overlapping, or a short
 * value padded with 'A'; only a word that may hold a control byte is checked byte by byte. */
static int value_ok(const char *v, size_t n)
{
    uint64_t x = 0x41 * ONES;
    size_t k;
    int suspect = 0;

    if (n < 8) {
        memcpy(&x, v, n);
        suspect = word_may_ctl(x);
    } else {
        for (k = 0; k + 8 <= n && !suspect; k += 8) {
            memcpy(&x, v + k, 8);
            suspect = word_may_ctl(x);
        }
        if (!suspect && k < n) {
            memcpy(&x, v + n - 8, 8);
            suspect = word_may_ctl(x);
        }
    }
    if (!suspect)
        return 1;
    for (k = 0; k < n; k++) {
        unsigned char c = (unsigned char)v[k];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return 0;
    }
    return 1;
}

/* Finds the line starting at p[0..n): *len = its length without the line end, *next = bytes
 * up to and including '\n'. HTTP_NEED_MORE when there is no '\n' yet. */
static int line_at(const char *p, size_t n, size_t *len, size_t *next)
{
    const char *nl = memchr(p, '\n', n);
    if (!nl)
        return HTTP_NEED_MORE;
    size_t l = (size_t)(nl - p);
    *next = l + 1;
    if (l > 0 && p[l - 1] == '\r')
        l--;
    *len = l;
    return 0;
}

static int parse_version(const char *p, size_t n, int *minor)
{
    if (n != 8 || memcmp(p, "HTTP/1.", 7) != 0 || p[7] < '0' || p[7] > '9')
        return -1;
    *minor = p[7] - '0';
    return 0;
}

static int parse_u64_dec(const char *p, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        v = v * 10 + (uint64_t)(p[i] - '0');
        if (v > HTTP_MAX_BODY)
            return -1;
    }
    *out = v;
    return 0;
}

/* Scans header lines from p[0..n) up to and including the blank line. Returns the bytes
 * consumed, HTTP_NEED_MORE or HTTP_MALFORMED. */
static ssize_t parse_headers(const char *p, size_t n, struct http_header *h, size_t *num)
{
    size_t off = 0;
    *num = 0;
    for (;;) {
        size_t len, next;
        if (line_at(p + off, n - off, &len, &next) < 0)
            return HTTP_NEED_MORE;
        const char *l = p + off;
        off += next;
        if (len == 0)
            return (ssize_t)off;
        if (*num == HTTP_MAX_HEADERS)
            return HTTP_MALFORMED;
        size_t i = 0;
        const unsigned char *u = (const unsigned char *)l;
        while (i + 4 <= len && (tchar[u[i]] & tchar[u[i + 1]] & tchar[u[i + 2]] & tchar[u[i + 3]]))
            i += 4;
        while (i < len && is_tchar(u[i]))
            i++;
        if (i == 0 || i == len || l[i] != ':')
            return HTTP_MALFORMED; /* empty name, no colon, space before colon, obs-fold */
        struct http_header *hd = &h[(*num)++];
        hd->name = l;
        hd->name_len = i;
        i++;
        while (i < len && (l[i] == ' ' || l[i] == '\t'))
            i++;
        size_t end = len;
        while (end > i && (l[end - 1] == ' ' || l[end - 1] == '\t'))
            end--;
        if (!value_ok(l + i, end - i))
            return HTTP_MALFORMED;
        hd->value = l + i;
        hd->value_len = end - i;
    }
}

const struct http_header *http_header_find(const struct http_header *h, size_t num,
                                           const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < num; i++)
        if (ieq_n(h[i].name, h[i].name_len, name, len))
            return &h[i];
    return NULL;
}

/* The next comma-separated, whitespace-trimmed element of [*cur, end), or NULL. */
static const char *next_token(const char **cur, const char *end, size_t *len)
{
    const char *s = *cur;
    while (s < end && (*s == ' ' || *s == '\t' || *s == ','))
        s++;
    if (s == end) {
        *cur = s;
        return NULL;
    }
    const char *e = s;
    while (e < end && *e != ',')
        e++;
    *cur = e;
    const char *t = e;
    while (t > s && (t[-1] == ' ' || t[-1] == '\t'))
        t--;
    *len = (size_t)(t - s);
    return s;
}

int http_header_has_token(const struct http_header *h, const char *token)
{
    const char *cur = h->value, *end = h->value + h->value_len, *t;
    size_t len;
    while ((t = next_token(&cur, end, &len)) != NULL)
        if (ieq(t, len, token))
            return 1;
    return 0;
}

/* Framing headers shared by requests and responses. *te gets 1 when the last transfer
 * coding is chunked, 0 when it is another one, -1 when Transfer-Encoding is absent. */
static int scan_framing(const struct http_header *h, size_t num, int minor, struct http_framing *f,
                        int *te)
{
    int have_cl = 0, ka = -1;
    *te = -1;
    f->content_length = 0;
    f->upgrade = 0;
    for (size_t i = 0; i < num; i++) {
        if (NAME_IS(&h[i], "content-length")) {
            uint64_t v;
            if (parse_u64_dec(h[i].value, h[i].value_len, &v) < 0)
                return -1;
            if (have_cl && v != f->content_length)
                return -1;
            have_cl = 1;
            f->content_length = v;
        } else if (NAME_IS(&h[i], "transfer-encoding")) {
            const char *cur = h[i].value, *end = cur + h[i].value_len, *t, *last = NULL;
            size_t len, last_len = 0;
            while ((t = next_token(&cur, end, &len)) != NULL) {
                last = t;
                last_len = len;
            }
            if (!last)
                return -1;
            *te = TOKEN_IS(last, last_len, "chunked");
        } else if (NAME_IS(&h[i], "connection")) {
            /* one pass over the tokens: close wins over keep-alive wherever it is */
            const char *cur = h[i].value, *end = cur + h[i].value_len, *t;
            size_t len;
            int close = 0, keep = 0;
            while ((t = next_token(&cur, end, &len)) != NULL) {
                if (TOKEN_IS(t, len, "close"))
                    close = 1;
                else if (TOKEN_IS(t, len, "keep-alive"))
                    keep = 1;
                else if (TOKEN_IS(t, len, "upgrade"))
                    f->upgrade = 1;
            }
            if (close)
                ka = 0;
            else if (keep && ka < 0)
                ka = 1;
        }
    }
    f->keep_alive = ka >= 0 ? ka : minor >= 1;
    f->body = have_cl ? HTTP_BODY_LENGTH : HTTP_BODY_NONE;
    return 0;
}

ssize_t http_parse_response(const char *p, size_t n, size_t max_head, struct http_response *r)
{
    size_t len, next;
    int te;
    if (line_at(p, n, &len, &next) < 0) {
        /* garbage is refused as soon as it cannot be the start of a status line */
        if (memcmp(p, "HTTP/1.", n < 7 ? n : 7) != 0)
            return HTTP_MALFORMED;
        goto more;
    }
    /* "HTTP/1.1 200 OK": version, status, optional reason */
    if (len < 12 || parse_version(p, 8, &r->minor_version) < 0 || p[8] != ' ')
        return HTTP_MALFORMED;
    for (int i = 9; i < 12; i++)
        if (p[i] < '0' || p[i] > '9')
            return HTTP_MALFORMED;
    r->status = (p[9] - '0') * 100 + (p[10] - '0') * 10 + (p[11] - '0');
    if (r->status < 100)
        return HTTP_MALFORMED;
    if (len > 12 && p[12] != ' ')
        return HTTP_MALFORMED;
    r->reason = len > 12 ? p + 13 : p + 12;
    r->reason_len = len > 12 ? len - 13 : 0;
    ssize_t hl = parse_headers(p + next, n - next, r->headers, &r->num_headers);
    if (hl == HTTP_NEED_MORE)
        goto more;
    if (hl < 0)
        return hl;
    size_t total = next + (size_t)hl;
    if (total > max_head)
        return HTTP_MALFORMED;
    struct http_framing *f = &r->framing;
    if (scan_framing(r->headers, r->num_headers, r->minor_version, f, &te) < 0)
        return HTTP_MALFORMED;
    if (r->status < 200 || r->status == 204 || r->status == 304) {
        f->body = HTTP_BODY_NONE;
    } else if (te == 1) {
        f->body = HTTP_BODY_CHUNKED; /* overrides any Content-Length (RFC 9112 6.3) */
    } else if (te == 0) {
        return HTTP_MALFORMED; /* a final coding other than chunked: not supported */
    } else if (f->body == HTTP_BODY_NONE) {
        f->body = HTTP_BODY_EOF;
        f->keep_alive = 0;
    }
    return (ssize_t)total;
more:
    return n >= max_head ? HTTP_MALFORMED : HTTP_NEED_MORE;
}

ssize_t http_parse_request(const char *p, size_t n, size_t max_head, struct http_request *r)
{
    size_t len, next;
    int te;
    if (line_at(p, n, &len, &next) < 0) {
        /* garbage is refused as soon as it cannot be the start of a method */
        size_t k = 0;
        while (k < n && is_tchar((unsigned char)p[k]))
            k++;
        if (k < n && (k == 0 || p[k] != ' '))
            return HTTP_MALFORMED;
        goto more;
    }
    /* "GET /path HTTP/1.1" */
    size_t i = 0;
    while (i < len && is_tchar((unsigned char)p[i]))
        i++;
    if (i == 0 || i >= len || p[i] != ' ')
        return HTTP_MALFORMED;
    r->method = p;
    r->method_len = i;
    size_t ps = ++i;
    while (i < len && (unsigned char)p[i] > ' ' && p[i] != 0x7f)
        i++;
    if (i == ps || i >= len || p[i] != ' ')
        return HTTP_MALFORMED;
    r->path = p + ps;
    r->path_len = i - ps;
    i++;
    if (parse_version(p + i, len - i, &r->minor_version) < 0)
        return HTTP_MALFORMED;
    ssize_t hl = parse_headers(p + next, n - next, r->headers, &r->num_headers);
    if (hl == HTTP_NEED_MORE)
        goto more;
    if (hl < 0)
        return hl;
    size_t total = next + (size_t)hl;
    if (total > max_head)
        return HTTP_MALFORMED;
    if (scan_framing(r->headers, r->num_headers, r->minor_version, &r->framing, &te) < 0 || te >= 0)
        return HTTP_MALFORMED;
    return (ssize_t)total;
more:
    return n >= max_head ? HTTP_MALFORMED : HTTP_NEED_MORE;
}

void http_body_init(struct http_body *b, const struct http_framing *f)
{
    b->kind = f->body;
    b->total = 0;
    b->state = CH_SIZE;
    b->remaining = f->body == HTTP_BODY_LENGTH ? f->content_length : 0;
    b->done = f->body == HTTP_BODY_NONE || (f->body == HTTP_BODY_LENGTH && b->remaining == 0);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)lower((unsigned char)c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static ssize_t chunk_size_line(struct http_body *b, const char *p, size_t n)
{
    size_t len, next;
    if (line_at(p, n, &len, &next) < 0)
        return n > HTTP_MAX_LINE ? HTTP_MALFORMED : HTTP_NEED_MORE;
    if (next > HTTP_MAX_LINE)
        return HTTP_MALFORMED;
    uint64_t v = 0;
    size_t i = 0;
    int d;
    while (i < len && (d = hexval(p[i])) >= 0) {
        v = v * 16 + (uint64_t)d;
        if (v > HTTP_MAX_BODY)
            return HTTP_MALFORMED;
        i++;
    }
    if (i == 0)
        return HTTP_MALFORMED;
    while (i < len && (p[i] == ' ' || p[i] == '\t'))
        i++;
    if (i < len && p[i] != ';')
        return HTTP_MALFORMED; /* only chunk extensions may follow the size */
    b->remaining = v;
    b->state = v ? CH_DATA : CH_TRAILER;
    return (ssize_t)next;
}

ssize_t http_body_feed(struct http_body *b, const char *p, size_t n, const char **data,
                       size_t *data_len)
{
    *data = p;
    *data_len = 0;
    if (b->done || n == 0)
        return 0;
    if (b->kind == HTTP_BODY_EOF) {
        *data_len = n;
        b->total += n;
        return (ssize_t)n;
    }
    if (b->kind == HTTP_BODY_LENGTH || (b->kind == HTTP_BODY_CHUNKED && b->state == CH_DATA)) {
        size_t take = n < b->remaining ? n : (size_t)b->remaining;
        b->remaining -= take;
        b->total += take;
        *data_len = take;
        if (b->remaining == 0) {
            if (b->kind == HTTP_BODY_LENGTH)
                b->done = 1;
            else
                b->state = CH_DATA_CRLF;
        }
        return (ssize_t)take;
    }
    switch (b->state) {
    case CH_SIZE:
        return chunk_size_line(b, p, n);
    case CH_DATA_CRLF:
        if (p[0] == '\n') {
            b->state = CH_SIZE;
            return 1;
        }
        if (p[0] != '\r')
            return HTTP_MALFORMED;
        if (n < 2)
            return HTTP_NEED_MORE;
        if (p[1] != '\n')
            return HTTP_MALFORMED;
        b->state = CH_SIZE;
        return 2;
    case CH_TRAILER: {
        size_t len, next;
        if (line_at(p, n, &len, &next) < 0)
            return n > HTTP_MAX_LINE ? HTTP_MALFORMED : HTTP_NEED_MORE;
        if (next > HTTP_MAX_LINE)
            return HTTP_MALFORMED;
        if (len == 0)
            b->done = 1;
        return (ssize_t)next;
    }
    default:
        return HTTP_MALFORMED;
    }
}

void http_pattern(char *out, size_t len, uint64_t offset)
{
    static const char abc[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (size_t i = 0; i < len; i++) {
        uint64_t k = offset + i;
        out[i] = abc[(k + k / 62) % 62];
    }
}

int http_path_ok(const char *path, size_t max)
{
    size_t i;
    if (path[0] != '/')
        return 0;
    for (i = 0; path[i]; i++)
        if ((unsigned char)path[i] <= ' ' || path[i] == 0x7f || i >= max)
            return 0;
    return 1;
}
