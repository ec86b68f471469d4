/* HTTP/1.1 scanners: response and request heads (complete, partial at every split point,
 * malformed), framing decisions, and the incremental body decoder fed one byte at a time. */
#include <stdlib.h>

#include "proto/http_parse.h"
#include "srv/srvproto.h"
#include "t.h"
#include "wl/workload.h"

struct resp_case {
    const char *in;
    ssize_t want; /* head length, HTTP_NEED_MORE or HTTP_MALFORMED */
    int status;
    enum http_body_kind body;
    uint64_t cl;
    int keep_alive;
};

static const struct resp_case resp_cases[] = {
    {"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 38, 200, HTTP_BODY_LENGTH, 5, 1},
    {"HTTP/1.1 200 OK\nContent-Length: 5\n\n", 35, 200, HTTP_BODY_LENGTH, 5, 1},
    {"HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", 35, 200, HTTP_BODY_LENGTH, 0, 1},
    {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", 47, 200, HTTP_BODY_CHUNKED, 0, 1},
    {"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\nContent-Length: 9\r\n\r\n", 72, 200,
     HTTP_BODY_CHUNKED, 9, 1},
    {"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n", 57, 200, HTTP_BODY_LENGTH,
     2, 0},
    {"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n", 38, 200, HTTP_BODY_LENGTH, 2, 0},
    {"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\n", 62, 200,
     HTTP_BODY_LENGTH, 2, 1},
    {"HTTP/1.1 200 OK\r\n\r\n", 19, 200, HTTP_BODY_EOF, 0, 0},
    {"HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\n", 46, 204, HTTP_BODY_NONE, 7, 1},
    {"HTTP/1.1 304 Not Modified\r\n\r\n", 29, 304, HTTP_BODY_NONE, 0, 1},
    {"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", 77,
     101, HTTP_BODY_NONE, 0, 1},
    {"HTTP/1.1 404 Not Found\r\nServer: x\r\nContent-Length:   3  \r\n\r\n", 60, 404,
     HTTP_BODY_LENGTH, 3, 1},
    {"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n", 57, 200, HTTP_BODY_LENGTH,
     3, 1},
    /* partial */
    {"", HTTP_NEED_MORE, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK", HTTP_NEED_MORE, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n", HTTP_NEED_MORE, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r", HTTP_NEED_MORE, 0, 0, 0, 0},
    /* malformed */
    {"HTTP/2.0 200 OK\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 20 OK\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 2000 OK\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 099 OK\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n", HTTP_MALFORMED, 0, 0, 0,
     0},
    {"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", HTTP_MALFORMED, 0, 0, 0,
     0},
    {"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nName : x\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\n folded\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nNoColon\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nX: a\001b\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"garbage\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"SSH-2.0", HTTP_MALFORMED, 0, 0, 0, 0}, /* refused before a line end */
    {"HTTP/2", HTTP_MALFORMED, 0, 0, 0, 0},
};

static void test_responses(void)
{
    for (size_t i = 0; i < sizeof(resp_cases) / sizeof(resp_cases[0]); i++) {
        const struct resp_case *c = &resp_cases[i];
        struct http_response r;
        ssize_t got = http_parse_response(c->in, strlen(c->in), 8192, &r);
        CHECK_MSG(got == c->want, "case %zu: got %zd want %zd", i, got, c->want);
        if (got < 0 || got != c->want)
            continue;
        CHECK_MSG(r.status == c->status, "case %zu: status %d", i, r.status);
        CHECK_MSG(r.framing.body == c->body, "case %zu: body kind %d", i, (int)r.framing.body);
        if (c->body == HTTP_BODY_LENGTH)
            CHECK_MSG(r.framing.content_length == c->cl, "case %zu", i);
        CHECK_MSG(r.framing.keep_alive == c->keep_alive, "case %zu: keep_alive", i);
        /* every strict prefix is "need more" (never malformed, never a wrong length) */
        for (size_t k = 0; k < (size_t)got; k++) {
            ssize_t g = http_parse_response(c->in, k, 8192, &r);
            CHECK_MSG(g == HTTP_NEED_MORE, "case %zu prefix %zu: %zd", i, k, g);
        }
    }
}

static void test_response_fields(void)
{
    const char *in = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                     "Connection: keep-alive, Upgrade\r\nSec-WebSocket-Accept: abc=\r\n\r\n";
    struct http_response r;
    CHECK(http_parse_response(in, strlen(in), 8192, &r) == (ssize_t)strlen(in));
    CHECK(r.num_headers == 3);
    CHECK(r.reason_len == 19 && memcmp(r.reason, "Switching Protocols", 19) == 0);
    CHECK(r.framing.upgrade == 1);
    const struct http_header *h = http_header_find(r.headers, r.num_headers, "UPGRADE");
    CHECK(h && h->value_len == 9 && memcmp(h->value, "websocket", 9) == 0);
    h = http_header_find(r.headers, r.num_headers, "sec-websocket-accept");
    CHECK(h && h->value_len == 4);
    h = http_header_find(r.headers, r.num_headers, "connection");
    CHECK(h && http_header_has_token(h, "upgrade") && http_header_has_token(h, "KEEP-ALIVE"));
    CHECK(h && !http_header_has_token(h, "close"));
    CHECK(http_header_find(r.headers, r.num_headers, "missing") == NULL);
}

static void test_limits(void)
{
    struct http_response r;
    char big[600];
    memset(big, 'a', sizeof(big));
    memcpy(big, "HTTP/1.1 200 OK\r\nX: ", 20);
    /* an unterminated head past max_head is malformed, not "need more" forever */
    CHECK(http_parse_response(big, sizeof(big), 512, &r) == HTTP_MALFORMED);
    CHECK(http_parse_response(big, sizeof(big), 4096, &r) == HTTP_NEED_MORE);
    /* too many headers */
    char many[4096];
    size_t off = (size_t)snprintf(many, sizeof(many), "HTTP/1.1 200 OK\r\n");
    for (int i = 0; i < HTTP_MAX_HEADERS + 1; i++)
        off += (size_t)snprintf(many + off, sizeof(many) - off, "X%d: y\r\n", i);
    off += (size_t)snprintf(many + off, sizeof(many) - off, "\r\n");
    CHECK(http_parse_response(many, off, sizeof(many), &r) == HTTP_MALFORMED);
}

struct req_case {
    const char *in;
    ssize_t want;
    const char *method;
    const char *path;
    enum http_body_kind body;
    uint64_t cl;
    int keep_alive;
};

static const struct req_case req_cases[] = {
    {"GET / HTTP/1.1\r\nHost: a\r\n\r\n", 27, "GET", "/", HTTP_BODY_NONE, 0, 1},
    {"GET /x?y=1 HTTP/1.0\r\n\r\n", 23, "GET", "/x?y=1", HTTP_BODY_NONE, 0, 0},
    {"POST /echo HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd", 42, "POST", "/echo", HTTP_BODY_LENGTH,
     4, 1},
    {"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 37, "GET", "/", HTTP_BODY_NONE, 0, 0},
    {"GET / HTTP/1.1\nHost: a\n\n", 24, "GET", "/", HTTP_BODY_NONE, 0, 1},
    {"GET / HTTP/1.1\r\nHost: a\r\n", HTTP_NEED_MORE, NULL, NULL, 0, 0, 0},
    {"GET", HTTP_NEED_MORE, NULL, NULL, 0, 0, 0},
    {"GET /\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"GET  / HTTP/1.1\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"GET / HTTP/1.1 \r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"G(T / HTTP/1.1\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"GET / FTP/1.1\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"POST / HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"\x16\x03\x01", HTTP_MALFORMED, NULL, NULL, 0, 0, 0}, /* TLS hello, no line end */
    {"GET/", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
};

static void test_requests(void)
{
    for (size_t i = 0; i < sizeof(req_cases) / sizeof(req_cases[0]); i++) {
        const struct req_case *c = &req_cases[i];
        struct http_request r;
        ssize_t got = http_parse_request(c->in, strlen(c->in), 8192, &r);
        CHECK_MSG(got == c->want, "req case %zu: got %zd want %zd", i, got, c->want);
        if (got < 0 || got != c->want)
            continue;
        CHECK_MSG(r.method_len == strlen(c->method) &&
                      memcmp(r.method, c->method, r.method_len) == 0,
                  "req case %zu method", i);
        CHECK_MSG(r.path_len == strlen(c->path) && memcmp(r.path, c->path, r.path_len) == 0,
                  "req case %zu path", i);
        CHECK_MSG(r.framing.body == c->body, "req case %zu body", i);
        CHECK_MSG(r.framing.content_length == c->cl, "req case %zu cl", i);
        CHECK_MSG(r.framing.keep_alive == c->keep_alive, "req case %zu ka", i);
        for (size_t k = 0; k < (size_t)got; k++)
            CHECK_MSG(http_parse_request(c->in, k, 8192, &r) == HTTP_NEED_MORE,
                      "req case %zu prefix %zu", i, k);
    }
}

/* Decodes body with the engine's pattern: unconsumed bytes are kept and re-presented with the
 * next chunk of `step` bytes. Returns the decoded data (static), its length in *out_len, or
 * NULL when malformed; *done_at = input bytes consumed when the body finished (0 = never). */
static const char *decode(const struct http_framing *f, const char *in, size_t n, size_t step,
                          size_t *out_len, size_t *done_at)
{
    static char out[4096];
    struct http_body b;
    size_t have = 0, pos = 0, olen = 0;
    http_body_init(&b, f);
    *done_at = b.done ? 0 : (size_t)-1;
    while (!b.done) {
        if (have == n)
            break;
        size_t avail = have + step <= n ? have + step : n;
        have = avail;
        while (!b.done && pos < have) {
            const char *d;
            size_t dl;
            ssize_t r = http_body_feed(&b, in + pos, have - pos, &d, &dl);
            if (r == HTTP_MALFORMED)
                return NULL;
            if (r == HTTP_NEED_MORE)
                break;
            if (dl) {
                if (olen + dl > sizeof(out))
                    return NULL;
                memcpy(out + olen, d, dl);
                olen += dl;
            }
            pos += (size_t)r;
        }
        if (b.done)
            *done_at = pos;
    }
    *out_len = olen;
    CHECK(b.total == olen);
    return out;
}

struct body_case {
    enum http_body_kind kind;
    uint64_t cl;
    const char *in;
    const char *want; /* NULL = malformed */
    size_t consumed;  /* bytes consumed when done; (size_t)-1 = never done */
};

static const struct body_case body_cases[] = {
    {HTTP_BODY_LENGTH, 5, "helloNEXT", "hello", 5},
    {HTTP_BODY_LENGTH, 0, "NEXT", "", 0},
    {HTTP_BODY_NONE, 0, "NEXT", "", 0},
    {HTTP_BODY_CHUNKED, 0, "5\r\nhello\r\n0\r\n\r\nNEXT", "hello", 15},
    {HTTP_BODY_CHUNKED, 0, "3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\nTrailer: x\r\n\r\nN", "abcde", 38},
    {HTTP_BODY_CHUNKED, 0, "A\nabcdefghij\n0\n\n", "abcdefghij", 16},
    {HTTP_BODY_CHUNKED, 0, "1f\r\n0123456789abcdef0123456789abcde\r\n0\r\n\r\n",
     "0123456789abcdef0123456789abcde", 42},
    {HTTP_BODY_CHUNKED, 0, "0\r\n\r\n", "", 5},
    {HTTP_BODY_CHUNKED, 0, "5\r\nhello", "hello", (size_t)-1},
    {HTTP_BODY_CHUNKED, 0, "x\r\n", NULL, 0},
    {HTTP_BODY_CHUNKED, 0, "\r\n", NULL, 0},
    {HTTP_BODY_CHUNKED, 0, "5 x\r\nhello\r\n", NULL, 0},
    {HTTP_BODY_CHUNKED, 0, "5\r\nhelloXX0\r\n\r\n", NULL, 0},
    {HTTP_BODY_CHUNKED, 0, "5\r\nhello\rX", NULL, 0},
    {HTTP_BODY_CHUNKED, 0, "fffffffffffffffffff\r\n", NULL, 0},
};

static void test_bodies(void)
{
    static const size_t steps[] = {1, 2, 3, 7, 4096};
    for (size_t i = 0; i < sizeof(body_cases) / sizeof(body_cases[0]); i++) {
        const struct body_case *c = &body_cases[i];
        struct http_framing f = {.body = c->kind, .content_length = c->cl, .keep_alive = 1};
        for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
            size_t olen = 0, done_at = 0;
            const char *out = decode(&f, c->in, strlen(c->in), steps[s], &olen, &done_at);
            if (!c->want) {
                CHECK_MSG(out == NULL, "body case %zu step %zu: not malformed", i, steps[s]);
                continue;
            }
            CHECK_MSG(out != NULL, "body case %zu step %zu: malformed", i, steps[s]);
            if (!out)
                continue;
            CHECK_MSG(olen == strlen(c->want) && memcmp(out, c->want, olen) == 0,
                      "body case %zu step %zu: data", i, steps[s]);
            CHECK_MSG(done_at == c->consumed, "body case %zu step %zu: done at %zu", i, steps[s],
                      done_at);
        }
    }
    /* EOF bodies deliver everything and never finish */
    struct http_framing f = {.body = HTTP_BODY_EOF};
    struct http_body b;
    const char *d;
    size_t dl;
    http_body_init(&b, &f);
    CHECK(http_body_feed(&b, "abc", 3, &d, &dl) == 3 && dl == 3 && !b.done);
}

/* Feeds in[0..n) to a workload `step` bytes at a time the way the engine does: unconsumed
 * bytes are kept and presented again with the next ones. 0, or -1 when feed() said
 * malformed. */
static int client_feed(const struct workload *w, void *st, const char *in, size_t n, size_t step,
                       struct wl_tally *t, struct buf *ctl)
{
    struct buf pend;
    int rc = 0;
    buf_init(&pend, n + 1);
    for (size_t at = 0; at < n;) {
        size_t k = n - at < step ? n - at : step;
        buf_append(&pend, in + at, k);
        at += k;
        for (;;) {
            ssize_t r = w->feed(st, pend.data + pend.off, buf_used(&pend), t, ctl);
            if (r < 0) {
                rc = -1;
                goto out;
            }
            if (r == 0)
                break;
            buf_consume(&pend, (size_t)r);
            if (!buf_used(&pend))
                break;
        }
    }
    if (buf_used(&pend))
        rc = -2; /* bytes left over */
out:
    buf_release(&pend);
    return rc;
}

/* Feeds requests to a server table one request per call, the way serve.c does; returns the
 * number of replies, or -1 on SRV_CLOSE. */
static int server_feed(const struct srv_proto *sp, void *st, const char *in, size_t n,
                       struct buf *out, int *close_after)
{
    int replies = 0;
    size_t off = 0;
    while (off < n) {
        int replied = 0;
        ssize_t r = sp->feed(st, in + off, n - off, out, &replied, close_after);
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        off += (size_t)r;
        replies += replied;
    }
    return replies;
}

static void http_opts(struct drv_opts *o, const char *method, size_t payload, unsigned pipeline)
{
    memset(o, 0, sizeof(*o));
    o->protocol = PROTO_HTTP;
    snprintf(o->host, sizeof(o->host), "127.0.0.1");
    o->port = 8080;
    o->pipeline = pipeline;
    o->window = 1;
    o->payload = payload;
    snprintf(o->path, sizeof(o->path), "/bench");
    snprintf(o->method, sizeof(o->method), "%s", method);
    snprintf(o->http_version, sizeof(o->http_version), "1.1");
}

/* wl_http against srv_http with direct calls: GET and POST, pipelined, every split. */
static void test_http_tables(void)
{
    static const char *methods[] = {"GET", "POST"};
    static const size_t payloads[] = {0, 1, 100, 5000};
    for (size_t m = 0; m < 2; m++) {
        for (size_t pi = 0; pi < sizeof(payloads) / sizeof(payloads[0]); pi++) {
            struct drv_opts o;
            char err[256] = "";
            void *sh = NULL;
            http_opts(&o, methods[m], payloads[pi], 3);
            CHECK_MSG(wl_http.setup(&o, &sh, err, sizeof(err)) == 0, "setup: %s", err);
            void *cst = wl_http.conn_new(sh, 0, 1);
            void *sst = srv_http.conn_new(&o);
            const char *req;
            size_t req_len;
            CHECK(wl_http.batch(cst, 3, &req, &req_len) == 0);
            CHECK(wl_http.batch(cst, 4, &req, &req_len) == -1);
            CHECK(wl_http.batch(cst, 3, &req, &req_len) == 0);
            struct buf out, ctl;
            buf_init(&out, 3 * (payloads[pi] + 200));
            buf_init(&ctl, 256);
            int close_after = 0;
            CHECK(server_feed(&srv_http, sst, req, req_len, &out, &close_after) == 3);
            CHECK(!close_after);
            static const size_t steps[] = {1, 7, 100000};
            for (size_t s = 0; s < 3; s++) {
                struct wl_tally t = {0};
                CHECK(client_feed(&wl_http, cst, out.data, out.len, steps[s], &t, &ctl) == 0);
                CHECK_MSG(t.replies == 3 && t.ok == 3, "%s %zu step %zu: %llu/%llu", methods[m],
                          payloads[pi], steps[s], (unsigned long long)t.ok,
                          (unsigned long long)t.replies);
            }
            /* a flipped body byte is a verify error (the reference server's bytes are known) */
            if (payloads[pi] > 0) {
                struct wl_tally t = {0};
                out.data[out.len - 1] ^= 1;
                CHECK(client_feed(&wl_http, cst, out.data, out.len, 1000, &t, &ctl) == 0);
                CHECK(t.replies == 3 && t.ok == 2 && t.verify == 1);
            }
            buf_release(&out);
            buf_release(&ctl);
            srv_http.conn_free(sst);
            wl_http.conn_free(cst);
            wl_http.teardown(sh);
        }
    }
}

struct client_case {
    const char *in;
    int rc; /* client_feed result */
    uint64_t replies, ok, verify, protocol;
};

static const struct client_case client_cases[] = {
    /* other servers: status and framing checked, bytes not */
    {"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcHTTP/1.1 200 OK\r\nTransfer-Encoding: "
     "chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n",
     0, 2, 2, 0, 0},
    {"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 0, 1, 1, 0, 0},
    {"HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno", 0, 1, 0, 0, 1},
    {"HTTP/1.1 200 OK\r\nServer: pairbench\r\nContent-Length: 3\r\n\r\n012", 0, 1, 0, 1, 0},
    {"HTTP/1.1 200 OK\r\nServer: pairbench\r\nContent-Length: 4\r\n\r\n0123", 0, 1, 1, 0, 0},
    {"HTTP/1.1 200 OK\r\nServer: pairbench\r\nContent-Length: 4\r\n\r\n0124", 0, 1, 0, 1, 0},
    {"HTTP/1.1 200 OK\r\n\r\nabc", -1, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", -1, 0, 0, 0, 0},
    {"SSH-2.0-OpenSSH\r\n\r\n", -1, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", -1, 0, 0, 0, 0},
};

static void test_http_client_cases(void)
{
    for (size_t i = 0; i < sizeof(client_cases) / sizeof(client_cases[0]); i++) {
        const struct client_case *c = &client_cases[i];
        struct drv_opts o;
        char err[256];
        void *sh = NULL;
        http_opts(&o, "GET", 4, 1);
        CHECK(wl_http.setup(&o, &sh, err, sizeof(err)) == 0);
        struct buf ctl;
        buf_init(&ctl, 64);
        for (size_t step = 1; step <= 4096; step *= 64) {
            void *st = wl_http.conn_new(sh, 0, 1);
            struct wl_tally t = {0};
            int rc = client_feed(&wl_http, st, c->in, strlen(c->in), step, &t, &ctl);
            CHECK_MSG(rc == c->rc, "client case %zu step %zu: rc %d", i, step, rc);
            if (rc == 0)
                CHECK_MSG(t.replies == c->replies && t.ok == c->ok && t.verify == c->verify &&
                              t.protocol == c->protocol,
                          "client case %zu step %zu", i, step);
            wl_http.conn_free(st);
        }
        buf_release(&ctl);
        wl_http.teardown(sh);
    }
}

static void test_http_server_cases(void)
{
    struct drv_opts o;
    http_opts(&o, "GET", 10, 1);
    struct {
        const char *in;
        int replies; /* -1 = connection closed */
        int close_after;
        const char *starts;
    } cases[] = {
        {"GET / HTTP/1.1\r\n\r\n", 1, 0, "HTTP/1.1 200 OK\r\nServer: pairbench\r\n"},
        {"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 1, 1,
         "HTTP/1.1 200 OK\r\nServer: pairbench\r\nConnection: close\r\n"},
        {"GET / HTTP/1.0\r\n\r\n", 1, 1, "HTTP/1.1 200 OK"},
        {"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", 1, 0,
         "HTTP/1.1 200 OK\r\nServer: pairbench\r\nConnection: keep-alive\r\n"},
        {"DELETE / HTTP/1.1\r\n\r\n", 1, 0, "HTTP/1.1 405"},
        {"HEAD / HTTP/1.1\r\n\r\n", 1, 0, "HTTP/1.1 200 OK"},
        {"GET / HTTP/1.1\r\n", 0, 0, ""},
        {"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab", 0, 0, ""},
        {"garbage\r\n\r\n", -1, 0, ""},
        {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", -1, 0, ""},
        /* a body past the limit: 413, then close (a protocol reply, not a request) */
        {"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n", SRV_REPLY_PROTOCOL, 1,
         "HTTP/1.1 413 Content Too Large\r\nServer: pairbench\r\nConnection: close\r\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        void *st = srv_http.conn_new(&o);
        struct buf out;
        int close_after = 0;
        buf_init(&out, 4096);
        int n = server_feed(&srv_http, st, cases[i].in, strlen(cases[i].in), &out, &close_after);
        CHECK_MSG(n == cases[i].replies, "server case %zu: %d replies", i, n);
        CHECK_MSG(close_after == cases[i].close_after, "server case %zu: close_after", i);
        size_t sl = strlen(cases[i].starts);
        CHECK_MSG(out.len >= sl && memcmp(out.data, cases[i].starts, sl) == 0,
                  "server case %zu: reply '%.*s'", i, (int)out.len, out.data);
        buf_release(&out);
        srv_http.conn_free(st);
    }
    /* "Expect: 100-continue": the interim answer first, the echo once the body is here */
    {
        void *st = srv_http.conn_new(&o);
        struct buf out;
        int replied = 0, close_after = 0;
        const char *head = "POST / HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n";
        buf_init(&out, 4096);
        CHECK(srv_http.feed(st, head, strlen(head), &out, &replied, &close_after) ==
              (ssize_t)strlen(head));
        CHECK(replied == 0 && out.len == 25 &&
              memcmp(out.data, "HTTP/1.1 100 Continue\r\n\r\n", 25) == 0);
        CHECK(srv_http.feed(st, "hel", 3, &out, &replied, &close_after) == 0);
        CHECK(srv_http.feed(st, "helloGET", 8, &out, &replied, &close_after) == 5 && replied);
        CHECK(out.len > 30 && memcmp(out.data + out.len - 5, "hello", 5) == 0);
        /* the next request is parsed as a head again */
        const char *get = "GET / HTTP/1.1\r\n\r\n";
        CHECK(srv_http.feed(st, get, strlen(get), &out, &replied, &close_after) ==
                  (ssize_t)strlen(get) &&
              replied);
        buf_release(&out);
        srv_http.conn_free(st);
    }
    /* an unterminated head larger than the limit gets 431 and closes instead of waiting
     * forever */
    size_t big = srv_http.max_request(&o) + 10;
    char *junk = malloc(big);
    memcpy(junk, "GET / HTTP/1.1\r\nX: ", 20);
    memset(junk + 20, 'a', big - 20);
    void *st = srv_http.conn_new(&o);
    struct buf out;
    int replied = 0, close_after = 0;
    buf_init(&out, 4096);
    CHECK(srv_http.feed(st, junk, big, &out, &replied, &close_after) == (ssize_t)big);
    CHECK(close_after == 1 && replied == SRV_REPLY_PROTOCOL);
    CHECK(out.len > 40 &&
          memcmp(out.data, "HTTP/1.1 431 Request Header Fields Too Large\r\n", 46) == 0);
    buf_release(&out);
    srv_http.conn_free(st);
    free(junk);
}

static void test_path_ok(void)
{
    CHECK(http_path_ok("/", 10));
    CHECK(http_path_ok("/a/b?c=d&e=%20", 100));
    CHECK(!http_path_ok("", 10));
    CHECK(!http_path_ok("a", 10));
    CHECK(!http_path_ok("/a b", 10));
    CHECK(!http_path_ok("/a\tb", 10));
    CHECK(!http_path_ok("/a\rb", 10));
    CHECK(!http_path_ok("/0123456789", 5));
    /* at most max bytes: exactly max is a path, one more is not */
    CHECK(http_path_ok("/123456789", 10));
    CHECK(!http_path_ok("/1234567890", 10));
}

/* Connection: close wins over keep-alive, in one header or across two, in either order */
static void test_close_wins(void)
{
    static const char *const in[] = {
        "HTTP/1.1 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nConnection: close, keep-alive\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nConnection: close\r\nConnection: keep-alive\r\nContent-Length: "
        "0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nConnection: close\r\nContent-Length: "
        "0\r\n\r\n",
        "HTTP/1.0 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 0\r\n\r\n",
    };
    struct http_response r;
    struct http_request q;
    const char *req = "GET / HTTP/1.1\r\nConnection: close\r\nConnection: keep-alive\r\n\r\n";

    for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
        CHECK_MSG(http_parse_response(in[i], strlen(in[i]), 8192, &r) == (ssize_t)strlen(in[i]),
                  "close case %zu", i);
        CHECK_MSG(r.framing.keep_alive == 0, "close case %zu: keep_alive", i);
    }
    CHECK(http_parse_request(req, strlen(req), 8192, &q) == (ssize_t)strlen(req));
    CHECK(q.framing.keep_alive == 0);
}

/* max_head bounds a complete head too: a head of exactly max_head bytes is parsed, one byte
 * more is malformed (responses and requests) */
static void test_head_limit(void)
{
    const char *rs = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    const char *rq = "GET /x HTTP/1.1\r\nHost: a\r\n\r\n";
    size_t nr = strlen(rs), nq = strlen(rq);
    struct http_response r;
    struct http_request q;

    CHECK(http_parse_response(rs, nr, nr, &r) == (ssize_t)nr);
    CHECK(http_parse_response(rs, nr, nr - 1, &r) == HTTP_MALFORMED);
    CHECK(http_parse_request(rq, nq, nq, &q) == (ssize_t)nq);
    CHECK(http_parse_request(rq, nq, nq - 1, &q) == HTTP_MALFORMED);
}

int main(void)
{
    test_path_ok();
    test_close_wins();
    test_head_limit();
    test_http_tables();
    test_http_client_cases();
    test_http_server_cases();
    test_responses();
    test_response_fields();
    test_limits();
    test_requests();
    test_bodies();
    return T_DONE();
}
