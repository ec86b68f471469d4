/* The HTTP/1.1 client workload: keep-alive requests of --method to --path or --paths (weighted,
 * drawn per connection from its seeded stream), with --headers and a body (--body,
 * --body-file, or for POST and PUT --payload bytes), built by http_req.c; a batch =
 * `pipeline` requests written back to back, so window or pipeline > 1 is HTTP/1.1
 * pipelining on the wire. The requests are built once at setup and shared read-only by every
 * connection. Each response is scanned incrementally (a body is never buffered whole) and
 * checked: a 2xx status, a complete body by Content-Length or chunked encoding, and, when the
 * server is pairbench's reference server ("Server: pairbench"), the body's length and bytes
 * (payload bytes of the shared pattern for GET, the echo of what was posted for POST). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/http_parse.h"
#include "wl/http_req.h"
#include "wl/workload.h"

#define WL_HTTP_MAX_HEAD (64 * 1024)
#define WL_HTTP_MAX_BATCH ((size_t)256 << 20)

struct http_shared {
    struct http_reqs reqs; /* one request per path (http_req.h) */
    char *batch;           /* one path: `pipeline` copies of its request */
    unsigned pipeline;
    const char *expect; /* the body the reference server answers with */
    size_t expect_len;
    char *pattern; /* payload bytes of the shared pattern (GET's answer) */
};

struct http_conn {
    const struct http_shared *sh;
    int in_body; /* head scanned, body being decoded */
    int status;
    int check_bytes; /* reference server: check body length and bytes */
    int mismatch;    /* body bytes differ from the expected ones */
    int last;        /* the response being read closes the connection (Connection: close) */
    struct http_body body;
    uint64_t rng; /* several paths: the seeded draw of the next one */
    char *batch;  /* several paths: this connection's batch */
};

static void http_teardown(void *shared)
{
    struct http_shared *sh = shared;
    if (!sh)
        return;
    http_reqs_free(&sh->reqs);
    free(sh->batch);
    free(sh->pattern);
    free(sh);
}

static int http_setup(const struct drv_opts *o, void **shared, char *err, size_t errlen)
{
    struct http_shared *sh = calloc(1, sizeof(*sh));
    char host[300];
    if (!sh)
        goto oom;
    sh->pipeline = o->pipeline ? o->pipeline : 1;
    sh->pattern = malloc(o->payload ? o->payload : 1);
    if (!sh->pattern)
        goto oom;
    http_pattern(sh->pattern, o->payload, 0);
    if (!http_path_ok(o->path, 1024)) {
        snprintf(err, errlen,
                 "--path '%.64s': expected a request path starting with '/' without spaces or "
                 "control characters",
                 o->path);
        goto fail;
    }
    if (strchr(o->host, ':'))
        snprintf(host, sizeof(host), "[%s]:%d", o->host, o->port);
    else
        snprintf(host, sizeof(host), "%s:%d", o->host, o->port);
    if (http_reqs_build(o, host, &sh->reqs, err, errlen) < 0)
        goto fail;
    /* the reference server echoes POST and PUT bodies and answers the pattern otherwise */
    int echo = !strcmp(o->method, "POST") || !strcmp(o->method, "PUT");
    sh->expect = echo ? sh->reqs.body : sh->pattern;
    sh->expect_len = echo ? sh->reqs.body_len : o->payload;
    if (sh->reqs.max_len > WL_HTTP_MAX_BATCH / sh->pipeline) {
        snprintf(err, errlen,
                 "http: a batch of %u requests of %zu bytes exceeds %zu MiB: lower --pipeline "
                 "or --payload",
                 sh->pipeline, sh->reqs.max_len, WL_HTTP_MAX_BATCH >> 20);
        goto fail;
    }
    if (sh->reqs.n == 1) {
        size_t len = sh->reqs.len[0];
        sh->batch = malloc(len * sh->pipeline);
        if (!sh->batch)
            goto oom;
        for (unsigned i = 0; i < sh->pipeline; i++)
            memcpy(sh->batch + i * len, sh->reqs.req[0], len);
    }
    *shared = sh;
    return 0;
oom:
    snprintf(err, errlen, "http: out of memory");
fail:
    http_teardown(sh);
    return -1;
}

static void *http_conn_new(void *shared, unsigned index, uint64_t seed)
{
    struct http_shared *sh = shared;
    struct http_conn *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->sh = sh;
    c->rng = seed ^ ((uint64_t)index << 32) ^ 0x9e3779b97f4a7c15ULL;
    if (sh->reqs.n > 1) {
        c->batch = malloc(sh->reqs.max_len * sh->pipeline);
        if (!c->batch) {
            free(c);
            return NULL;
        }
    }
    return c;
}

static void http_conn_free(void *st)
{
    struct http_conn *c = st;
    if (c)
        free(c->batch);
    free(c);
}

/* Called on every (re)connect: a response cut by a dropped connection is forgotten. */
static int http_hello(void *st, struct buf *out)
{
    struct http_conn *c = st;
    (void)out;
    c->in_body = 0;
    return 0;
}

static ssize_t http_hello_feed(void *st, const char *p, size_t n, int *done, char *err,
                               size_t errlen)
{
    (void)st, (void)p, (void)n, (void)err, (void)errlen;
    *done = 1;
    return 0;
}

static int http_batch(void *st, unsigned n, const char **data, size_t *len)
{
    struct http_conn *c = st;
    const struct http_shared *sh = c->sh;
    size_t at = 0;
    if (n == 0 || n > sh->pipeline)
        return -1;
    if (sh->reqs.n == 1) {
        *data = sh->batch;
        *len = (size_t)n * sh->reqs.len[0];
        return 0;
    }
    for (unsigned i = 0; i < n; i++) {
        unsigned k = http_reqs_pick(&sh->reqs, &c->rng);
        memcpy(c->batch + at, sh->reqs.req[k], sh->reqs.len[k]);
        at += sh->reqs.len[k];
    }
    *data = c->batch;
    *len = at;
    return 0;
}

/* Starts a response from its head. 1 = body follows, 0 = interim (1xx) response skipped. */
static int http_begin(struct http_conn *c, const struct http_response *r)
{
    if (r->status >= 100 && r->status < 200 && r->status != 101)
        return 0;
    c->status = r->status;
    c->mismatch = 0;
    c->last = !r->framing.keep_alive;
    const struct http_header *srv = http_header_find(r->headers, r->num_headers, "server");
    c->check_bytes = srv && srv->value_len == 9 && memcmp(srv->value, "pairbench", 9) == 0;
    http_body_init(&c->body, &r->framing);
    c->in_body = 1;
    return 1;
}

static void http_body_data(struct http_conn *c, const char *d, size_t dl)
{
    uint64_t at = c->body.total - dl; /* offset of d in the body */
    if (!c->check_bytes || c->mismatch)
        return;
    if (at + dl > c->sh->expect_len || memcmp(c->sh->expect + at, d, dl) != 0)
        c->mismatch = 1;
}

static void http_finish(struct http_conn *c, struct wl_tally *t)
{
    t->replies++;
    if (c->status < 200 || c->status > 299) {
        t->protocol++;
        if (t->why[0] == '\0')
            snprintf(t->why, sizeof(t->why), "HTTP status %d (expected 2xx)", c->status);
    } else if (c->mismatch || (c->check_bytes && c->body.total != c->sh->expect_len)) {
        t->verify++;
        if (t->why[0] == '\0')
            snprintf(t->why, sizeof(t->why),
                     "a body of %llu bytes that differs from the %zu "
                     "expected",
                     (unsigned long long)c->body.total, c->sh->expect_len);
    } else {
        t->ok++;
    }
    c->in_body = 0;
    if (c->last)
        t->closing = 1;
}

static ssize_t http_feed(void *st, const char *p, size_t n, struct wl_tally *t, struct buf *ctl)
{
    struct http_conn *c = st;
    size_t off = 0;
    (void)ctl;
    while (off < n) {
        if (!c->in_body) {
            struct http_response r;
            ssize_t hl = http_parse_response(p + off, n - off, WL_HTTP_MAX_HEAD, &r);
            if (hl == HTTP_NEED_MORE)
                break;
            if (hl < 0) {
                snprintf(t->why, sizeof(t->why), "a malformed or oversized response head");
                return -1;
            }
            /* a body delimited by the connection closing cannot complete a pipelined reply */
            if (r.framing.body == HTTP_BODY_EOF) {
                snprintf(t->why, sizeof(t->why),
                         "a response with no Content-Length or chunked framing");
                return -1;
            }
            off += (size_t)hl;
            if (!http_begin(c, &r))
                continue;
            if (c->body.done) {
                http_finish(c, t);
                if (t->closing)
                    break;
                continue;
            }
        }
        const char *d;
        size_t dl;
        ssize_t k = http_body_feed(&c->body, p + off, n - off, &d, &dl);
        if (k == HTTP_NEED_MORE)
            break;
        if (k < 0) {
            snprintf(t->why, sizeof(t->why), "a malformed chunked body");
            return -1;
        }
        off += (size_t)k;
        if (dl)
            http_body_data(c, d, dl);
        if (c->body.done) {
            http_finish(c, t);
            if (t->closing)
                break;
        }
    }
    return (ssize_t)off;
}

/* Between responses: a close here (nginx's keepalive_timeout) cuts nothing short. */
static int http_at_rest(const void *st)
{
    const struct http_conn *c = st;

    return !c->in_body;
}

const struct workload wl_http = {
    .name = "http",
    .unit = "round trips/s",
    .setup = http_setup,
    .teardown = http_teardown,
    .conn_new = http_conn_new,
    .conn_free = http_conn_free,
    .hello = http_hello,
    .hello_feed = http_hello_feed,
    .batch = http_batch,
    .feed = http_feed,
    .at_rest = http_at_rest,
};
