/* The reference HTTP server's protocol logic: keep-alive and pipelined HTTP/1.1 requests, one
 * per feed() call; a connection that opens with the HTTP/2 client preface (h2c with prior
 * knowledge, or h2 after ALPN) is served by srv_h2.c with the same answers. GET (and HEAD) answer a
 * body of `payload` bytes of the shared pattern, POST and PUT echo the request body, other methods
 * get 405; every answer has Content-Length and "Server: pairbench" (which tells pairbench's client
 * it may check the body's bytes). "Expect: 100-continue" gets its interim response. A head over 16
 * KiB gets 431 and a body over max(payload, 64 KiB) gets 413 (RFC 9110/6585), then the connection
 * closes; garbage and chunked requests close it at once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "proto/http_parse.h"
#include "srv/srv_h2.h"
#include "srv/srvproto.h"

#define SRV_HTTP_MAX_HEAD (16 * 1024)
#define SRV_HTTP_MIN_BODY (64 * 1024) /* POST bodies up to max(payload, this) */

/* The complete GET response for one payload size, built once per process and shared by every
 * connection and worker (read-only after publication; kept for the process lifetime). */
struct get_resp {
    struct get_resp *next;
    size_t payload;
    size_t head_len;
    size_t len;
    char data[];
};

static pthread_mutex_t get_lock = PTHREAD_MUTEX_INITIALIZER;
static struct get_resp *get_cache;

static const struct get_resp *get_resp_for(size_t payload)
{
    struct get_resp *g;
    char head[128];
    pthread_mutex_lock(&get_lock);
    for (g = get_cache; g; g = g->next)
        if (g->payload == payload)
            goto out;
    int hl =
        snprintf(head, sizeof(head),
                 "HTTP/1.1 200 OK\r\nServer: pairbench\r\nContent-Length: %zu\r\n\r\n", payload);
    g = malloc(sizeof(*g) + (size_t)hl + payload);
    if (!g)
        goto out;
    g->payload = payload;
    g->head_len = (size_t)hl;
    g->len = (size_t)hl + payload;
    memcpy(g->data, head, (size_t)hl);
    http_pattern(g->data + hl, payload, 0);
    g->next = get_cache;
    get_cache = g;
out:
    pthread_mutex_unlock(&get_lock);
    return g;
}

enum { M_GET, M_HEAD, M_ECHO, M_OTHER };

/* What a request needs to be answered once its body is here. */
struct req_info {
    int kind;
    int keep_alive;
    int minor_version;
    uint64_t body;
};

struct srv_http_conn {
    const struct get_resp *get;
    size_t max_body;
    int awaiting_body;       /* "100 Continue" sent, head consumed, body to come */
    struct req_info pending; /* the request whose body is awaited */
    int started;             /* the first bytes were seen: HTTP/2 or HTTP/1.1 decided */
    struct srv_h2 *h2;       /* the connection opened with the HTTP/2 preface */
};

static size_t srv_http_max_body(const struct drv_opts *o)
{
    return o->payload > SRV_HTTP_MIN_BODY ? o->payload : SRV_HTTP_MIN_BODY;
}

static void *srv_http_conn_new(const struct drv_opts *o)
{
    struct srv_http_conn *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->get = get_resp_for(o->payload);
    c->max_body = srv_http_max_body(o);
    if (!c->get) {
        free(c);
        return NULL;
    }
    return c;
}

static void srv_http_conn_free(void *st)
{
    struct srv_http_conn *c = st;

    if (c)
        srv_h2_free(c->h2);
    free(c);
}

/* The first bytes decide: the HTTP/2 client preface (h2c with prior knowledge, or h2 after
 * ALPN) makes this an HTTP/2 connection. 0 decided, 1 need more bytes, -1 out of memory. */
static int srv_http_start(struct srv_http_conn *c, const char *p, size_t n)
{
    size_t k = n < SRV_H2_PREFACE_LEN ? n : SRV_H2_PREFACE_LEN;

    if (memcmp(p, SRV_H2_PREFACE, k) != 0) {
        c->started = 1;
        return 0;
    }
    if (k < SRV_H2_PREFACE_LEN)
        return 1;
    c->h2 = srv_h2_new(c->get->data + c->get->head_len, c->get->payload, c->max_body);
    if (!c->h2)
        return -1;
    c->started = 1;
    return 0;
}

static int srv_http_more(void *st, struct buf *out)
{
    struct srv_http_conn *c = st;

    return c->h2 ? srv_h2_more(c->h2, out) : 0;
}

static int method_is(const struct http_request *r, const char *m)
{
    return r->method_len == strlen(m) && memcmp(r->method, m, r->method_len) == 0;
}

/* Appends the reply to a complete request (body = its body bytes). 0, or SRV_CLOSE. */
static int srv_http_reply(const struct srv_http_conn *c, const struct req_info *q, const char *body,
                          struct buf *out)
{
    char head[160];
    const char *conn_hdr = !q->keep_alive          ? "Connection: close\r\n"
                           : q->minor_version == 0 ? "Connection: keep-alive\r\n"
                                                   : "";
    const char *data = NULL;
    size_t data_len = 0, head_len;
    if (q->kind == M_GET || q->kind == M_HEAD) {
        if (!*conn_hdr) {
            /* the hot path: one pre-built response */
            size_t len = q->kind == M_HEAD ? c->get->head_len : c->get->len;
            return buf_append(out, c->get->data, len) < 0 ? SRV_CLOSE : 0;
        }
        head_len = (size_t)snprintf(head, sizeof(head),
                                    "HTTP/1.1 200 OK\r\nServer: pairbench\r\n%s"
                                    "Content-Length: %zu\r\n\r\n",
                                    conn_hdr, c->get->payload);
        data = c->get->data + c->get->head_len;
        data_len = q->kind == M_HEAD ? 0 : c->get->payload;
    } else if (q->kind == M_ECHO) {
        head_len = (size_t)snprintf(head, sizeof(head),
                                    "HTTP/1.1 200 OK\r\nServer: pairbench\r\n%s"
                                    "Content-Length: %llu\r\n\r\n",
                                    conn_hdr, (unsigned long long)q->body);
        data = body;
        data_len = (size_t)q->body;
    } else {
        head_len = (size_t)snprintf(head, sizeof(head),
                                    "HTTP/1.1 405 Method Not Allowed\r\nServer: pairbench\r\n%s"
                                    "Allow: GET, HEAD, POST, PUT\r\nContent-Length: 0\r\n\r\n",
                                    conn_hdr);
    }
    if (buf_space(out) + out->off < head_len + data_len)
        return SRV_CLOSE;
    buf_append(out, head, head_len);
    if (data_len)
        buf_append(out, data, data_len);
    return 0;
}

/* Refuses the request with a final status and closes once it is sent. Returns consumed. */
static ssize_t srv_http_refuse(const char *status, size_t consumed, struct buf *out, int *replied,
                               int *close_after)
{
    char head[160];
    int len = snprintf(head, sizeof(head),
                       "HTTP/1.1 %s\r\nServer: pairbench\r\nConnection: close\r\n"
                       "Content-Length: 0\r\n\r\n",
                       status);

    if (len < 0 || buf_append(out, head, (size_t)len) < 0)
        return SRV_CLOSE;
    *replied = SRV_REPLY_PROTOCOL; /* answered, but not a request served */
    *close_after = 1;
    return (ssize_t)consumed;
}

/* A head that did not parse within SRV_HTTP_MAX_HEAD: too large (no end in sight, or an end
 * past the limit), or malformed. */
static int head_too_large(const char *p, size_t n)
{
    struct http_request r;
    ssize_t hl;

    if (n < SRV_HTTP_MAX_HEAD)
        return 0;
    hl = http_parse_request(p, n, (size_t)-1 / 2, &r);
    return hl == HTTP_NEED_MORE || hl > SRV_HTTP_MAX_HEAD;
}

static ssize_t srv_http_feed(void *st, const char *p, size_t n, struct buf *out, int *replied,
                             int *close_after)
{
    struct srv_http_conn *c = st;
    struct http_request r;
    struct req_info q;
    *replied = SRV_REPLY_NONE;
    if (!c->started) {
        int rc = srv_http_start(c, p, n);
        if (rc != 0)
            return rc > 0 ? 0 : SRV_CLOSE;
    }
    if (c->h2)
        return srv_h2_feed(c->h2, p, n, out, replied, close_after);
    if (c->awaiting_body) {
        /* the head was consumed when "100 Continue" went out; now the body */
        if (n < c->pending.body)
            return 0;
        if (srv_http_reply(c, &c->pending, p, out) < 0)
            return SRV_CLOSE;
        c->awaiting_body = 0;
        *replied = SRV_REPLY_REQUEST;
        if (!c->pending.keep_alive)
            *close_after = 1;
        return (ssize_t)c->pending.body;
    }
    ssize_t hl = http_parse_request(p, n, SRV_HTTP_MAX_HEAD, &r);
    if (hl == HTTP_NEED_MORE)
        return 0;
    if (hl < 0 && head_too_large(p, n))
        return srv_http_refuse("431 Request Header Fields Too Large", n, out, replied, close_after);
    if (hl < 0)
        return SRV_CLOSE;
    q.body = r.framing.body == HTTP_BODY_LENGTH ? r.framing.content_length : 0;
    if (q.body > c->max_body)
        return srv_http_refuse("413 Content Too Large", (size_t)hl, out, replied, close_after);
    q.kind = method_is(&r, "GET")                            ? M_GET
             : method_is(&r, "HEAD")                         ? M_HEAD
             : method_is(&r, "POST") || method_is(&r, "PUT") ? M_ECHO
                                                             : M_OTHER;
    q.keep_alive = r.framing.keep_alive;
    q.minor_version = r.minor_version;
    if (n - (size_t)hl < q.body) {
        /* a client that waits for "100 Continue" (curl does for bodies over 1 KiB) gets it
         * now; the head is consumed and the reply follows the body (not counted twice) */
        const struct http_header *e = http_header_find(r.headers, r.num_headers, "expect");
        if (e && e->value_len == 12 && strncasecmp(e->value, "100-continue", 12) == 0 &&
            r.minor_version >= 1) {
            static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
            if (buf_append(out, cont, sizeof(cont) - 1) < 0)
                return SRV_CLOSE;
            c->pending = q;
            c->awaiting_body = 1;
            return hl;
        }
        return 0;
    }
    if (srv_http_reply(c, &q, p + hl, out) < 0)
        return SRV_CLOSE;
    *replied = SRV_REPLY_REQUEST;
    if (!q.keep_alive)
        *close_after = 1;
    return hl + (ssize_t)q.body;
}

static size_t srv_http_max_request(const struct drv_opts *o)
{
    return SRV_HTTP_MAX_HEAD + srv_http_max_body(o);
}

const struct srv_proto srv_http = {
    .name = "http",
    .conn_new = srv_http_conn_new,
    .conn_free = srv_http_conn_free,
    .feed = srv_http_feed,
    .more = srv_http_more,
    .max_request = srv_http_max_request,
};
