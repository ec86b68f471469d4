/* HTTP/1.1 scanners: response and request heads (complete, partial at every split point,
 * malformed), framing decisions, and the incremental body decoder fed one byte at a time. */
#include <stdlib.h>

#include "http_parse.h"
#include "t.h"

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
    {"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n", 57, 200,
     HTTP_BODY_LENGTH, 2, 0},
    {"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n", 38, 200, HTTP_BODY_LENGTH, 2, 0},
    {"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\n", 62, 200,
     HTTP_BODY_LENGTH, 2, 1},
    {"HTTP/1.1 200 OK\r\n\r\n", 19, 200, HTTP_BODY_EOF, 0, 0},
    {"HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\n", 46, 204, HTTP_BODY_NONE, 7, 1},
    {"HTTP/1.1 304 Not Modified\r\n\r\n", 29, 304, HTTP_BODY_NONE, 0, 1},
    {"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
     77, 101, HTTP_BODY_NONE, 0, 1},
    {"HTTP/1.1 404 Not Found\r\nServer: x\r\nContent-Length:   3  \r\n\r\n", 60, 404,
     HTTP_BODY_LENGTH, 3, 1},
    {"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n", 57, 200,
     HTTP_BODY_LENGTH, 3, 1},
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
    {"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n", HTTP_MALFORMED, 0,
     0, 0, 0},
    {"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", HTTP_MALFORMED, 0, 0,
     0, 0},
    {"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nName : x\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\n folded\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nNoColon\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"HTTP/1.1 200 OK\r\nX: a\001b\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
    {"garbage\r\n\r\n", HTTP_MALFORMED, 0, 0, 0, 0},
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
    {"POST /echo HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd", 42, "POST", "/echo",
     HTTP_BODY_LENGTH, 4, 1},
    {"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 37, "GET", "/", HTTP_BODY_NONE, 0, 0},
    {"GET / HTTP/1.1\nHost: a\n\n", 24, "GET", "/", HTTP_BODY_NONE, 0, 1},
    {"GET / HTTP/1.1\r\nHost: a\r\n", HTTP_NEED_MORE, NULL, NULL, 0, 0, 0},
    {"GET", HTTP_NEED_MORE, NULL, NULL, 0, 0, 0},
    {"GET /\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"GET  / HTTP/1.1\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"GET / HTTP/1.1 \r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"G(T / HTTP/1.1\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"GET / FTP/1.1\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0,
     0},
    {"POST / HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
    {"\r\n\r\n", HTTP_MALFORMED, NULL, NULL, 0, 0, 0},
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
            CHECK_MSG(done_at == c->consumed, "body case %zu step %zu: done at %zu", i,
                      steps[s], done_at);
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

int main(void)
{
    test_responses();
    test_response_fields();
    test_limits();
    test_requests();
    test_bodies();
    return T_DONE();
}
