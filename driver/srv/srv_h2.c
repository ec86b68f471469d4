/* The reference server's HTTP/2 (srv_h2.h): nghttp2's server session fed one frame at a time,
 * so serve.c counts each request and can hold its reply (--delay-us) as over HTTP/1.1. Our
 * SETTINGS raise the stream window to 1 GiB (a POST body never waits for a WINDOW_UPDATE);
 * the client's own windows bound what we send. Output is drained while the buffer has room
 * for a full DATA frame; what the session still holds goes out with the next frame fed. */
#include <nghttp2/nghttp2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv/srv_h2.h"
#include "srv/srvproto.h"

#define SRV_H2_WINDOW ((1u << 30) - 1)
#define SRV_H2_FRAME_ROOM (16384 + 64) /* one DATA frame at the default size, and slack */

enum { K_GET, K_HEAD, K_ECHO, K_OTHER };

struct h2s_stream {
    struct h2s_stream *next; /* free list */
    struct h2s_stream *all;  /* every stream allocated (a session ends with streams open) */
    int kind;
    size_t off; /* bytes of the answer sent */
    char *body; /* the echoed request body */
    size_t body_len, body_cap;
    int too_big;
    char clen[24];
};

struct srv_h2 {
    nghttp2_session *ss;
    const char *get; /* the GET answer */
    size_t payload, max_body;
    struct h2s_stream *free, *all;
    int preface_done;
    int completed; /* a request completed in this frame */
    int failed;
};

static struct h2s_stream *h2s_take(struct srv_h2 *h)
{
    struct h2s_stream *s = h->free;

    if (s) {
        h->free = s->next;
    } else {
        if (!(s = calloc(1, sizeof(*s))))
            return NULL;
        s->all = h->all;
        h->all = s;
    }
    s->kind = K_OTHER;
    s->off = s->body_len = 0;
    s->too_big = 0;
    return s;
}

static int on_begin_headers(nghttp2_session *ss, const nghttp2_frame *f, void *ud)
{
    struct srv_h2 *h = ud;
    struct h2s_stream *s;

    if (f->hd.type != NGHTTP2_HEADERS || f->headers.cat != NGHTTP2_HCAT_REQUEST)
        return 0;
    if (!(s = h2s_take(h)))
        return NGHTTP2_ERR_CALLBACK_FAILURE;
    nghttp2_session_set_stream_user_data(ss, f->hd.stream_id, s);
    return 0;
}

static int method_is(const uint8_t *v, size_t n, const char *m)
{
    return n == strlen(m) && memcmp(v, m, n) == 0;
}

static int on_header(nghttp2_session *ss, const nghttp2_frame *f, const uint8_t *name,
                     size_t namelen, const uint8_t *v, size_t vlen, uint8_t flags, void *ud)
{
    struct h2s_stream *s = nghttp2_session_get_stream_user_data(ss, f->hd.stream_id);

    (void)flags, (void)ud;
    if (!s || namelen != 7 || memcmp(name, ":method", 7) != 0)
        return 0;
    s->kind = method_is(v, vlen, "GET")                                 ? K_GET
              : method_is(v, vlen, "HEAD")                              ? K_HEAD
              : method_is(v, vlen, "POST") || method_is(v, vlen, "PUT") ? K_ECHO
                                                                        : K_OTHER;
    return 0;
}

static int on_data(nghttp2_session *ss, uint8_t flags, int32_t id, const uint8_t *d, size_t n,
                   void *ud)
{
    struct srv_h2 *h = ud;
    struct h2s_stream *s = nghttp2_session_get_stream_user_data(ss, id);

    (void)flags;
    if (!s || s->kind != K_ECHO || s->too_big)
        return 0;
    if (s->body_len + n > h->max_body) {
        s->too_big = 1;
        return nghttp2_submit_rst_stream(ss, NGHTTP2_FLAG_NONE, id, NGHTTP2_REFUSED_STREAM);
    }
    if (s->body_len + n > s->body_cap) {
        size_t cap = s->body_cap ? s->body_cap : 4096;
        while (cap < s->body_len + n)
            cap *= 2;
        char *b = realloc(s->body, cap);
        if (!b)
            return NGHTTP2_ERR_CALLBACK_FAILURE;
        s->body = b;
        s->body_cap = cap;
    }
    memcpy(s->body + s->body_len, d, n);
    s->body_len += n;
    return 0;
}

static ssize_t on_read(nghttp2_session *ss, int32_t id, uint8_t *buf, size_t length,
                       uint32_t *flags, nghttp2_data_source *src, void *ud)
{
    struct srv_h2 *h = ud;
    struct h2s_stream *s = src->ptr;
    const char *from = s->kind == K_ECHO ? s->body : h->get;
    size_t total = s->kind == K_ECHO ? s->body_len : h->payload;
    size_t n = total - s->off < length ? total - s->off : length;

    (void)ss, (void)id;
    if (n)
        memcpy(buf, from + s->off, n);
    s->off += n;
    if (s->off == total)
        *flags |= NGHTTP2_DATA_FLAG_EOF;
    return (ssize_t)n;
}

static int h2s_respond(struct srv_h2 *h, int32_t id, struct h2s_stream *s)
{
    nghttp2_data_provider prd = {.source.ptr = s, .read_callback = on_read};
    size_t len = s->kind == K_ECHO ? s->body_len : s->kind == K_OTHER ? 0 : h->payload;
    nghttp2_nv nv[4] = {
        {(uint8_t *)":status", (uint8_t *)(s->kind == K_OTHER ? "405" : "200"), 7, 3,
         NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE},
        {(uint8_t *)"server", (uint8_t *)"pairbench", 6, 9,
         NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE},
        {(uint8_t *)"content-length", (uint8_t *)s->clen, 14, 0, NGHTTP2_NV_FLAG_NO_COPY_NAME},
        {(uint8_t *)"allow", (uint8_t *)"GET, HEAD, POST, PUT", 5, 20,
         NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE},
    };

    nv[2].valuelen = (size_t)snprintf(s->clen, sizeof(s->clen), "%zu", len);
    h->completed = 1;
    return nghttp2_submit_response(h->ss, id, nv, s->kind == K_OTHER ? 4 : 3,
                                   s->kind == K_HEAD || len == 0 ? NULL : &prd);
}

static int on_frame(nghttp2_session *ss, const nghttp2_frame *f, void *ud)
{
    struct srv_h2 *h = ud;
    struct h2s_stream *s;

    if ((f->hd.type != NGHTTP2_HEADERS && f->hd.type != NGHTTP2_DATA) ||
        !(f->hd.flags & NGHTTP2_FLAG_END_STREAM))
        return 0;
    s = nghttp2_session_get_stream_user_data(ss, f->hd.stream_id);
    if (!s || s->too_big)
        return 0;
    return h2s_respond(h, f->hd.stream_id, s) == 0 ? 0 : NGHTTP2_ERR_CALLBACK_FAILURE;
}

static int on_close(nghttp2_session *ss, int32_t id, uint32_t code, void *ud)
{
    struct srv_h2 *h = ud;
    struct h2s_stream *s = nghttp2_session_get_stream_user_data(ss, id);

    (void)code;
    if (s) {
        s->next = h->free;
        h->free = s;
    }
    return 0;
}

struct srv_h2 *srv_h2_new(const char *body, size_t payload, size_t max_body)
{
    struct srv_h2 *h = calloc(1, sizeof(*h));
    nghttp2_session_callbacks *cb = NULL;
    nghttp2_settings_entry iv[] = {{NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, SRV_H2_WINDOW}};

    if (!h || nghttp2_session_callbacks_new(&cb) != 0)
        goto fail;
    h->get = body;
    h->payload = payload;
    h->max_body = max_body;
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, on_begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, on_frame);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_close);
    if (nghttp2_session_server_new(&h->ss, cb, h) != 0)
        goto fail;
    nghttp2_session_callbacks_del(cb);
    cb = NULL;
    if (nghttp2_submit_settings(h->ss, NGHTTP2_FLAG_NONE, iv, 1) != 0 ||
        nghttp2_session_set_local_window_size(h->ss, NGHTTP2_FLAG_NONE, 0, SRV_H2_WINDOW) != 0)
        goto fail;
    return h;
fail:
    nghttp2_session_callbacks_del(cb);
    srv_h2_free(h);
    return NULL;
}

void srv_h2_free(struct srv_h2 *h)
{
    if (!h)
        return;
    nghttp2_session_del(h->ss); /* closes no stream through the callbacks */
    while (h->all) {
        struct h2s_stream *s = h->all;
        h->all = s->all;
        free(s->body);
        free(s);
    }
    free(h);
}

/* What the session has to send, while out has room for a frame. -1 on a session error. */
static int h2s_drain(struct srv_h2 *h, struct buf *out)
{
    const uint8_t *p;
    ssize_t k;

    for (;;) {
        if (buf_space(out) < SRV_H2_FRAME_ROOM)
            buf_compact(out);
        if (buf_space(out) < SRV_H2_FRAME_ROOM)
            return 0;
        k = nghttp2_session_mem_send(h->ss, &p);
        if (k <= 0)
            return k < 0 ? -1 : 0;
        buf_append(out, p, (size_t)k);
    }
}

int srv_h2_more(struct srv_h2 *h, struct buf *out)
{
    size_t before = buf_used(out);

    if (h2s_drain(h, out) < 0)
        return SRV_CLOSE;
    return buf_used(out) > before;
}

ssize_t srv_h2_feed(struct srv_h2 *h, const char *p, size_t n, struct buf *out, int *replied,
                    int *close_after)
{
    size_t len;
    ssize_t k;

    *replied = SRV_REPLY_NONE;
    if (!h->preface_done) {
        len = SRV_H2_PREFACE_LEN;
    } else {
        if (n < 9)
            return 0;
        len = 9 + ((size_t)(uint8_t)p[0] << 16 | (size_t)(uint8_t)p[1] << 8 | (uint8_t)p[2]);
    }
    if (n < len)
        return 0;
    h->completed = 0;
    k = nghttp2_session_mem_recv(h->ss, (const uint8_t *)p, len);
    if (k < 0 || h2s_drain(h, out) < 0)
        return SRV_CLOSE;
    h->preface_done = 1;
    if (h->completed)
        *replied = SRV_REPLY_REQUEST;
    if (!nghttp2_session_want_read(h->ss) && !nghttp2_session_want_write(h->ss))
        *close_after = 1;
    return k;
}
