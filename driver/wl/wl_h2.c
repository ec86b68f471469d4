/* The HTTP/2 client workload (`driver http --http-version 2`): framed with nghttp2's session
 * API over the engine's own connections, TLS with ALPN h2 (tls.c requires it) or cleartext
 * with prior knowledge (h2c). A batch = `pipeline` streams, each a GET of --path (or a POST
 * of --payload bytes of the pattern); `window` batches in flight per connection. Requests
 * over the peer's SETTINGS_MAX_CONCURRENT_STREAMS wait inside the session and go out as
 * streams close (with the bytes feed() queues on the control channel), so the peer's limit
 * is never exceeded: hello() waits for the server's SETTINGS before any request.
 *
 * Every stream is one reply, counted when it closes, in the order streams close (the engine
 * completes its batches in that order): a 2xx status, a body complete by its content-length,
 * and, from pairbench's reference server ("server: pairbench"), the body's length and the
 * pattern's bytes. A stream the server resets (RST_STREAM) fails its request with the error
 * code. A GOAWAY with NO_ERROR (nginx after keepalive_requests) is a close on purpose: once
 * the streams it still answers are in, the engine reopens the connection and sends again
 * the requests the server refused. Our windows are 1 GiB so a body never waits for a
 * WINDOW_UPDATE. docs/driver.md, "HTTP/2". */
#include <nghttp2/nghttp2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/http_parse.h"
#include "wl/workload.h"

#define H2_WINDOW ((1u << 30) - 1)
#define H2_CHUNK 64 /* stream slots allocated at once */

struct h2_shared {
    char *pattern; /* payload bytes of the shared pattern (GET's answer, POST's body) */
    size_t payload;
    int post;
    nghttp2_nv nva[6];
    size_t nvlen;
    char authority[300], path[1100], clen[24];
    nghttp2_session_callbacks *cbs;
    nghttp2_option *opt;
};

/* One request's stream, from submit to close. */
struct h2_stream {
    struct h2_stream *next; /* free list */
    int32_t id;
    int status;
    int check; /* "server: pairbench": check the body's bytes */
    int done;  /* END_STREAM received: the response is complete */
    int begun; /* response headers have begun */
    int mismatch;
    uint64_t body, sent;
    int64_t clen; /* content-length, -1 when absent */
};

struct h2_chunk {
    struct h2_chunk *next;
    struct h2_stream s[H2_CHUNK];
};

struct h2_conn {
    const struct h2_shared *sh;
    nghttp2_session *ss;
    struct h2_chunk *chunks;
    struct h2_stream *free;
    struct wl_tally *t, scratch; /* the tally of the feed() under way */
    char *ob;                    /* output: a batch's bytes, and what did not fit ctl */
    size_t olen, ocap;
    unsigned begun;  /* streams whose response began and has not closed */
    unsigned goaway; /* a GOAWAY arrived */
    int32_t goaway_last;
    unsigned goaway_wait; /* streams the GOAWAY still answers */
    int settings;         /* the server's SETTINGS arrived */
    int fatal;            /* a connection error: why holds it */
    char why[160];
};

static void h2_note(struct h2_conn *c, const char *msg)
{
    if (!c->why[0])
        snprintf(c->why, sizeof(c->why), "%s", msg);
}

static struct h2_stream *h2_slot(struct h2_conn *c)
{
    struct h2_stream *s = c->free;

    if (!s) {
        struct h2_chunk *k = calloc(1, sizeof(*k));
        if (!k)
            return NULL;
        k->next = c->chunks;
        c->chunks = k;
        for (unsigned i = 0; i < H2_CHUNK; i++) {
            k->s[i].next = c->free;
            c->free = &k->s[i];
        }
        s = c->free;
    }
    c->free = s->next;
    memset(s, 0, sizeof(*s));
    s->clen = -1;
    return s;
}

static void h2_unslot(struct h2_conn *c, struct h2_stream *s)
{
    s->id = 0;
    s->next = c->free;
    c->free = s;
}

/* Appends p[0..n) to the output buffer, growing it (off the hot path once warm). */
static int h2_out(struct h2_conn *c, const uint8_t *p, size_t n)
{
    if (c->olen + n > c->ocap) {
        size_t cap = c->ocap ? c->ocap : 16384;
        while (cap < c->olen + n)
            cap *= 2;
        char *b = realloc(c->ob, cap);
        if (!b)
            return -1;
        c->ob = b;
        c->ocap = cap;
    }
    memcpy(c->ob + c->olen, p, n);
    c->olen += n;
    return 0;
}

/* Everything the session wants to send, into the output buffer. 0 or -1. */
static int h2_drain(struct h2_conn *c)
{
    const uint8_t *p;
    ssize_t k;

    while ((k = nghttp2_session_mem_send(c->ss, &p)) > 0)
        if (h2_out(c, p, (size_t)k) < 0)
            return -1;
    if (k < 0) {
        h2_note(c, nghttp2_strerror((int)k));
        return -1;
    }
    return 0;
}

/* ---- callbacks -------------------------------------------------------------------------- */

static int on_begin_headers(nghttp2_session *ss, const nghttp2_frame *f, void *ud)
{
    struct h2_conn *c = ud;
    struct h2_stream *s = nghttp2_session_get_stream_user_data(ss, f->hd.stream_id);

    if (s && !s->begun && f->hd.type == NGHTTP2_HEADERS) {
        s->begun = 1;
        c->begun++;
    }
    return 0;
}

static int on_header(nghttp2_session *ss, const nghttp2_frame *f, const uint8_t *name,
                     size_t namelen, const uint8_t *value, size_t valuelen, uint8_t flags, void *ud)
{
    struct h2_stream *s = nghttp2_session_get_stream_user_data(ss, f->hd.stream_id);
    char num[24];

    (void)flags, (void)ud;
    if (!s)
        return 0;
    if (namelen == 7 && memcmp(name, ":status", 7) == 0 && valuelen == 3)
        s->status = (value[0] - '0') * 100 + (value[1] - '0') * 10 + (value[2] - '0');
    else if (namelen == 6 && memcmp(name, "server", 6) == 0)
        s->check = valuelen == 9 && memcmp(value, "pairbench", 9) == 0;
    else if (namelen == 14 && memcmp(name, "content-length", 14) == 0 && valuelen < sizeof(num)) {
        memcpy(num, value, valuelen);
        num[valuelen] = '\0';
        s->clen = strtoll(num, NULL, 10);
    }
    return 0;
}

static int on_data(nghttp2_session *ss, uint8_t flags, int32_t id, const uint8_t *d, size_t n,
                   void *ud)
{
    struct h2_conn *c = ud;
    struct h2_stream *s = nghttp2_session_get_stream_user_data(ss, id);

    (void)flags;
    if (!s)
        return 0;
    if (s->check && !s->mismatch &&
        (s->body + n > c->sh->payload || memcmp(c->sh->pattern + s->body, d, n) != 0))
        s->mismatch = 1;
    s->body += n;
    return 0;
}

static int on_frame(nghttp2_session *ss, const nghttp2_frame *f, void *ud)
{
    struct h2_conn *c = ud;
    struct h2_stream *s;
    char msg[160];

    switch (f->hd.type) {
    case NGHTTP2_HEADERS:
    case NGHTTP2_DATA:
        s = nghttp2_session_get_stream_user_data(ss, f->hd.stream_id);
        if (s && (f->hd.flags & NGHTTP2_FLAG_END_STREAM))
            s->done = 1;
        break;
    case NGHTTP2_SETTINGS:
        if (!(f->hd.flags & NGHTTP2_FLAG_ACK))
            c->settings = 1;
        break;
    case NGHTTP2_GOAWAY:
        if (f->goaway.error_code != NGHTTP2_NO_ERROR) {
            snprintf(msg, sizeof(msg), "GOAWAY from the server: %s%s%.*s",
                     nghttp2_http2_strerror(f->goaway.error_code),
                     f->goaway.opaque_data_len ? ": " : "", (int)f->goaway.opaque_data_len,
                     (const char *)f->goaway.opaque_data);
            h2_note(c, msg);
            c->fatal = 1;
            break;
        }
        c->goaway = 1;
        c->goaway_last = f->goaway.last_stream_id;
        c->goaway_wait = 0;
        for (struct h2_chunk *k = c->chunks; k; k = k->next)
            for (unsigned i = 0; i < H2_CHUNK; i++)
                if (k->s[i].id > 0 && k->s[i].id <= c->goaway_last)
                    c->goaway_wait++;
        break;
    default:
        break;
    }
    return 0;
}

/* The reply of a closed stream, judged as wl_http.c judges a response. */
static void h2_judge(struct h2_conn *c, const struct h2_stream *s, uint32_t code)
{
    struct wl_tally *t = c->t;

    t->replies++;
    if (!s->done || code != NGHTTP2_NO_ERROR) {
        t->protocol++;
        if (!t->why[0])
            snprintf(t->why, sizeof(t->why),
                     "stream %d closed by %s before its response completed (%llu body bytes"
                     " in)",
                     (int)s->id, nghttp2_http2_strerror(code), (unsigned long long)s->body);
    } else if (s->status < 200 || s->status > 299) {
        t->protocol++;
        if (!t->why[0])
            snprintf(t->why, sizeof(t->why), "HTTP status %d (expected 2xx)", s->status);
    } else if (s->mismatch || (s->clen >= 0 && s->body != (uint64_t)s->clen) ||
               (s->check && s->body != c->sh->payload)) {
        t->verify++;
        if (!t->why[0])
            snprintf(t->why, sizeof(t->why),
                     "a body of %llu bytes that differs from the %zu expected",
                     (unsigned long long)s->body, s->check ? c->sh->payload : (size_t)s->clen);
    } else {
        t->ok++;
    }
}

static int on_close(nghttp2_session *ss, int32_t id, uint32_t code, void *ud)
{
    struct h2_conn *c = ud;
    struct h2_stream *s = nghttp2_session_get_stream_user_data(ss, id);

    if (!s)
        return 0;
    nghttp2_session_set_stream_user_data(ss, id, NULL);
    if (s->begun)
        c->begun--;
    if (c->goaway && id > c->goaway_last) {
        h2_unslot(c, s); /* refused: the engine sends it again on the new connection */
        return 0;
    }
    if (c->goaway && c->goaway_wait)
        c->goaway_wait--;
    h2_judge(c, s, code);
    h2_unslot(c, s);
    return 0;
}

static int on_error(nghttp2_session *ss, int lib_error_code, const char *msg, size_t len, void *ud)
{
    struct h2_conn *c = ud;
    char m[160];

    (void)ss, (void)lib_error_code;
    snprintf(m, sizeof(m), "%.*s", (int)len, msg);
    h2_note(c, m);
    return 0;
}

/* Our GOAWAY on a connection error carries nghttp2's reason ("SETTINGS: invalid payload
 * length"): the run's cause. */
static int on_frame_sent(nghttp2_session *ss, const nghttp2_frame *f, void *ud)
{
    struct h2_conn *c = ud;
    char m[160];

    (void)ss;
    if (f->hd.type != NGHTTP2_GOAWAY || f->goaway.error_code == NGHTTP2_NO_ERROR)
        return 0;
    snprintf(m, sizeof(m), "a connection error (%s)%s%.*s",
             nghttp2_http2_strerror(f->goaway.error_code), f->goaway.opaque_data_len ? ": " : "",
             (int)f->goaway.opaque_data_len, (const char *)f->goaway.opaque_data);
    h2_note(c, m);
    return 0;
}

static ssize_t on_read_body(nghttp2_session *ss, int32_t id, uint8_t *buf, size_t length,
                            uint32_t *flags, nghttp2_data_source *src, void *ud)
{
    struct h2_conn *c = ud;
    struct h2_stream *s = src->ptr;
    size_t left = c->sh->payload - (size_t)s->sent;
    size_t n = left < length ? left : length;

    (void)ss, (void)id;
    memcpy(buf, c->sh->pattern + s->sent, n);
    s->sent += n;
    if (s->sent == c->sh->payload)
        *flags |= NGHTTP2_DATA_FLAG_EOF;
    return (ssize_t)n;
}

/* ---- the workload table ----------------------------------------------------------------- */

static void h2_teardown(void *shared)
{
    struct h2_shared *sh = shared;

    if (!sh)
        return;
    nghttp2_session_callbacks_del(sh->cbs);
    nghttp2_option_del(sh->opt);
    free(sh->pattern);
    free(sh);
}

static void h2_nv(struct h2_shared *sh, const char *name, const char *value)
{
    nghttp2_nv *nv = &sh->nva[sh->nvlen++];

    nv->name = (uint8_t *)name;
    nv->namelen = strlen(name);
    nv->value = (uint8_t *)value;
    nv->valuelen = strlen(value);
    nv->flags = NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE;
}

static int h2_setup(const struct drv_opts *o, void **shared, char *err, size_t errlen)
{
    struct h2_shared *sh = calloc(1, sizeof(*sh));
    nghttp2_session_callbacks *cb;

    if (!sh || !(sh->pattern = malloc(o->payload ? o->payload : 1)) ||
        nghttp2_session_callbacks_new(&sh->cbs) != 0 || nghttp2_option_new(&sh->opt) != 0) {
        snprintf(err, errlen, "http/2: out of memory");
        h2_teardown(sh);
        return -1;
    }
    if (!http_path_ok(o->path, 1024)) {
        snprintf(err, errlen,
                 "--path '%.64s': expected a request path starting with '/' without spaces or "
                 "control characters",
                 o->path);
        h2_teardown(sh);
        return -1;
    }
    sh->payload = o->payload;
    http_pattern(sh->pattern, o->payload, 0);
    sh->post = strcmp(o->method, "POST") == 0;
    if (strchr(o->host, ':'))
        snprintf(sh->authority, sizeof(sh->authority), "[%s]:%d", o->host, o->port);
    else
        snprintf(sh->authority, sizeof(sh->authority), "%s:%d", o->host, o->port);
    snprintf(sh->path, sizeof(sh->path), "%s", o->path);
    snprintf(sh->clen, sizeof(sh->clen), "%zu", o->payload);
    h2_nv(sh, ":method", sh->post ? "POST" : "GET");
    h2_nv(sh, ":scheme", o->transport == TRANSPORT_TLS ? "https" : "http");
    h2_nv(sh, ":authority", sh->authority);
    h2_nv(sh, ":path", sh->path);
    h2_nv(sh, "user-agent", "pairbench");
    if (sh->post)
        h2_nv(sh, "content-length", sh->clen);
    cb = sh->cbs;
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, on_begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, on_frame);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_close);
    nghttp2_session_callbacks_set_error_callback2(cb, on_error);
    nghttp2_session_callbacks_set_on_frame_send_callback(cb, on_frame_sent);
    /* the peer's limit applies from its SETTINGS, which hello() waits for */
    nghttp2_option_set_peer_max_concurrent_streams(sh->opt, 1);
    *shared = sh;
    return 0;
}

static void h2_reset(struct h2_conn *c)
{
    nghttp2_session_del(c->ss);
    c->ss = NULL;
    c->free = NULL;
    for (struct h2_chunk *k = c->chunks; k; k = k->next)
        for (unsigned i = 0; i < H2_CHUNK; i++) {
            k->s[i].id = 0;
            k->s[i].next = c->free;
            c->free = &k->s[i];
        }
    c->olen = 0;
    c->begun = c->goaway = c->goaway_wait = 0;
    c->settings = c->fatal = 0;
    c->why[0] = '\0';
    c->t = &c->scratch;
}

static void *h2_conn_new(void *shared, unsigned index, uint64_t seed)
{
    struct h2_conn *c = calloc(1, sizeof(*c));

    (void)index, (void)seed;
    if (!c)
        return NULL;
    c->sh = shared;
    c->t = &c->scratch;
    return c;
}

static void h2_conn_free(void *st)
{
    struct h2_conn *c = st;

    if (!c)
        return;
    nghttp2_session_del(c->ss);
    while (c->chunks) {
        struct h2_chunk *k = c->chunks;
        c->chunks = k->next;
        free(k);
    }
    free(c->ob);
    free(c);
}

/* A new transport: a new session, our SETTINGS (no push, 1 GiB stream window) and the
 * connection window raised to 1 GiB; nghttp2 puts the client preface first. */
static int h2_hello(void *st, struct buf *out)
{
    struct h2_conn *c = st;
    nghttp2_settings_entry iv[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
                                   {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, H2_WINDOW}};

    h2_reset(c);
    if (nghttp2_session_client_new2(&c->ss, c->sh->cbs, c, c->sh->opt) != 0)
        return -1;
    if (nghttp2_submit_settings(c->ss, NGHTTP2_FLAG_NONE, iv, 2) != 0 ||
        nghttp2_session_set_local_window_size(c->ss, NGHTTP2_FLAG_NONE, 0, H2_WINDOW) != 0 ||
        h2_drain(c) < 0 || buf_append(out, c->ob, c->olen) < 0)
        return -1;
    c->olen = 0;
    return 1;
}

/* Until the server's SETTINGS: its stream limit and windows apply to the first request. */
static ssize_t h2_hello_feed(void *st, const char *p, size_t n, int *done, char *err, size_t errlen)
{
    struct h2_conn *c = st;
    ssize_t k = nghttp2_session_mem_recv(c->ss, (const uint8_t *)p, n);

    if (k < 0 || c->fatal) {
        snprintf(err, errlen, "http/2: %s", c->why[0] ? c->why : nghttp2_strerror((int)k));
        return -1;
    }
    *done = c->settings;
    return k;
}

static int h2_batch(void *st, unsigned n, const char **data, size_t *len)
{
    struct h2_conn *c = st;
    const struct h2_shared *sh = c->sh;
    nghttp2_data_provider prd = {.read_callback = on_read_body};

    for (unsigned i = 0; i < n; i++) {
        struct h2_stream *s = h2_slot(c);
        if (!s)
            return -1;
        prd.source.ptr = s;
        s->id = nghttp2_submit_request(c->ss, NULL, sh->nva, sh->nvlen, sh->post ? &prd : NULL, s);
        if (s->id < 0) {
            h2_note(c, nghttp2_strerror(s->id));
            h2_unslot(c, s);
            return -1;
        }
    }
    if (h2_drain(c) < 0)
        return -1;
    /* requests over the peer's stream limit wait in the session: an empty batch is one
     * whose bytes go out with a later feed()'s control bytes */
    *data = c->ob;
    *len = c->olen;
    c->olen = 0;
    return 0;
}

static ssize_t h2_feed(void *st, const char *p, size_t n, struct wl_tally *t, struct buf *ctl)
{
    struct h2_conn *c = st;
    ssize_t k;

    c->t = t;
    k = nghttp2_session_mem_recv(c->ss, (const uint8_t *)p, n);
    /* SETTINGS and PING acknowledgements, WINDOW_UPDATE, requests the stream limit held;
     * a session that reads no more once that is out, without a GOAWAY from the server,
     * sent its own on a connection error, whose cause the error callback noted */
    if (k < 0 || c->fatal || h2_drain(c) < 0 || (!c->goaway && !nghttp2_session_want_read(c->ss))) {
        snprintf(t->why, sizeof(t->why), "%s",
                 c->why[0] ? c->why
                 : k < 0   ? nghttp2_strerror((int)k)
                           : "connection error");
        return -1;
    }
    if (c->olen && buf_append(ctl, c->ob, c->olen) == 0)
        c->olen = 0; /* else they lead the next batch's bytes */
    if (c->goaway && c->goaway_wait == 0)
        t->closing = 1;
    return k;
}

/* No response begun and not finished: a close here cuts nothing short. */
static int h2_at_rest(const void *st)
{
    const struct h2_conn *c = st;

    return c->begun == 0;
}

const struct workload wl_h2 = {
    .name = "http/2",
    .unit = "round trips/s",
    .setup = h2_setup,
    .teardown = h2_teardown,
    .conn_new = h2_conn_new,
    .conn_free = h2_conn_free,
    .hello = h2_hello,
    .hello_feed = h2_hello_feed,
    .batch = h2_batch,
    .feed = h2_feed,
    .at_rest = h2_at_rest,
    .ctl_cap = 256 * 1024,
};
