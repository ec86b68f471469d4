/* The WebSocket client workload (RFC 6455): hello() is the HTTP Upgrade with a random
 * Sec-WebSocket-Key, hello_feed() checks the 101 and Sec-WebSocket-Accept; then a batch is
 * `pipeline` masked binary frames of `payload` bytes. Every echo is checked as it streams in
 * (opcode binary, length and bytes), fragmented messages and 7/16/64-bit lengths included;
 * pings are answered with pongs through ctl and a close frame is answered with a close.
 *
 * Masking: RFC 6455 wants a fresh unpredictable mask per frame so that a script in a
 * browser cannot choose the bytes on the wire. A benchmark client has no such script, and
 * masking every frame as it is sent costs a pass over the payload, so each connection
 * pre-builds a ring of batches masked with random keys (RAND_bytes) and cycles through it:
 * the wire bytes vary, the hot path never touches the payload. */
#include <stdlib.h>
#include <string.h>

#include <openssl/rand.h>

#include "proto/http_parse.h"
#include "wl/workload.h"
#include "proto/ws_frame.h"

/* Each connection pre-builds WL_WS_RING differently masked batches, at most WL_WS_RING_BYTES
 * of them (at least one batch, which may be up to WL_WS_MAX_BATCH: a 64 MiB message fits). */
#define WL_WS_RING 8
#define WL_WS_RING_BYTES ((size_t)8 << 20)
#define WL_WS_MAX_BATCH ((size_t)80 << 20)
#define WL_WS_MAX_HEAD (16 * 1024)
#define WL_WS_MAX_FRAME ((uint64_t)1 << 40) /* larger frames are refused as malformed */

struct ws_shared {
    char *expect; /* the unmasked payload: what every echo must carry */
    size_t payload;
    unsigned pipeline;
    size_t frame_len;   /* header + payload */
    char request[1400]; /* upgrade request up to the key */
    size_t request_len;
};

struct ws_conn {
    const struct ws_shared *sh;
    char *ring; /* ring_n batches of pipeline frames */
    unsigned ring_n;
    unsigned next; /* next ring slot */
    char key[WS_KEY_LEN + 1];
    char accept[WS_ACCEPT_LEN + 1];
    uint8_t ctl_mask[4];
    uint64_t seed; /* fallback randomness when RAND_bytes fails */
    /* decoder */
    struct ws_seq seq;
    struct ws_frame f;
    uint64_t left;    /* payload bytes left in the current data frame */
    uint64_t msg_len; /* bytes of the current message so far */
    int msg_opcode;
    int mismatch;
    int closing; /* close frame seen and answered */
};

static void ws_teardown(void *shared)
{
    struct ws_shared *sh = shared;
    if (!sh)
        return;
    free(sh->expect);
    free(sh);
}

static int ws_setup(const struct drv_opts *o, void **shared, char *err, size_t errlen)
{
    struct ws_shared *sh = calloc(1, sizeof(*sh));
    char host[300];
    uint8_t h[WS_MAX_HEADER];
    static const uint8_t any_mask[4];
    if (!sh || !(sh->expect = malloc(o->payload ? o->payload : 1))) {
        snprintf(err, errlen, "ws: out of memory");
        ws_teardown(sh);
        return -1;
    }
    sh->payload = o->payload;
    sh->pipeline = o->pipeline ? o->pipeline : 1;
    http_pattern(sh->expect, o->payload, 0);
    if (!http_path_ok(o->path, 1024)) {
        snprintf(err, errlen,
                 "--path '%.64s': expected a request path starting with '/' without spaces or "
                 "control characters",
                 o->path);
        ws_teardown(sh);
        return -1;
    }
    sh->frame_len = ws_frame_header(h, 1, WS_OP_BINARY, o->payload, any_mask) + o->payload;
    if (strchr(o->host, ':'))
        snprintf(host, sizeof(host), "[%s]:%d", o->host, o->port);
    else
        snprintf(host, sizeof(host), "%s:%d", o->host, o->port);
    int n = snprintf(sh->request, sizeof(sh->request),
                     "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ",
                     o->path, host);
    if (n < 0 || (size_t)n + WS_KEY_LEN + 4 >= sizeof(sh->request)) {
        snprintf(err, errlen, "ws: path '%.64s...' is too long", o->path);
        ws_teardown(sh);
        return -1;
    }
    sh->request_len = (size_t)n;
    if (sh->frame_len > WL_WS_MAX_BATCH / sh->pipeline) {
        snprintf(err, errlen,
                 "ws: a batch of %u messages of %zu bytes exceeds %zu MiB: lower --pipeline "
                 "or --payload",
                 sh->pipeline, o->payload, WL_WS_MAX_BATCH >> 20);
        ws_teardown(sh);
        return -1;
    }
    *shared = sh;
    return 0;
}

/* Random bytes for keys and masks; falls back to the engine's per-connection seed. */
static void ws_random(void *out, size_t n, uint64_t *seed)
{
    if (RAND_bytes(out, (int)n) == 1)
        return;
    uint8_t *o = out;
    for (size_t i = 0; i < n; i++) {
        uint64_t z = (*seed += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        o[i] = (uint8_t)(z ^ (z >> 31));
    }
}

static void ws_conn_free(void *st)
{
    struct ws_conn *c = st;
    if (!c)
        return;
    free(c->ring);
    free(c);
}

static void *ws_conn_new(void *shared, unsigned index, uint64_t seed)
{
    const struct ws_shared *sh = shared;
    struct ws_conn *c = calloc(1, sizeof(*c));
    (void)index;
    if (!c)
        return NULL;
    c->sh = sh;
    size_t batch = sh->frame_len * sh->pipeline;
    c->ring_n = (unsigned)(WL_WS_RING_BYTES / batch);
    if (c->ring_n > WL_WS_RING)
        c->ring_n = WL_WS_RING;
    if (c->ring_n == 0)
        c->ring_n = 1;
    c->ring = malloc(batch * c->ring_n);
    if (!c->ring) {
        free(c);
        return NULL;
    }
    for (unsigned r = 0; r < c->ring_n; r++) {
        for (unsigned i = 0; i < sh->pipeline; i++) {
            uint8_t mask[4];
            ws_random(mask, sizeof(mask), &seed);
            char *f = c->ring + r * batch + i * sh->frame_len;
            ws_frame_encode(f, sh->frame_len, 1, WS_OP_BINARY, mask, sh->expect, sh->payload);
        }
    }
    ws_random(c->ctl_mask, sizeof(c->ctl_mask), &seed);
    c->seed = seed;
    return c;
}

/* Called on every (re)connect: a fresh key, and the decoder starts over. */
static int ws_hello(void *st, struct buf *out)
{
    struct ws_conn *c = st;
    uint8_t raw[16];
    ws_random(raw, sizeof(raw), &c->seed);
    ws_key_encode(raw, c->key);
    ws_accept_for(c->key, WS_KEY_LEN, c->accept);
    memset(&c->seq, 0, sizeof(c->seq));
    c->left = c->msg_len = 0;
    c->mismatch = c->closing = 0;
    if (buf_append(out, c->sh->request, c->sh->request_len) < 0 ||
        buf_append(out, c->key, WS_KEY_LEN) < 0 || buf_append(out, "\r\n\r\n", 4) < 0)
        return -1;
    return 1;
}

static ssize_t ws_hello_feed(void *st, const char *p, size_t n, int *done, char *err, size_t errlen)
{
    struct ws_conn *c = st;
    struct http_response r;
    const struct http_header *h;
    ssize_t hl = http_parse_response(p, n, WL_WS_MAX_HEAD, &r);
    *done = 0;
    if (hl == HTTP_NEED_MORE)
        return 0;
    if (hl < 0) {
        snprintf(err, errlen, "ws: malformed handshake response");
        return -1;
    }
    if (r.status != 101) {
        snprintf(err, errlen, "ws: handshake answered with status %d, expected 101", r.status);
        return -1;
    }
    h = http_header_find(r.headers, r.num_headers, "upgrade");
    if (!h || !http_header_has_token(h, "websocket") || !r.framing.upgrade) {
        snprintf(err, errlen,
                 "ws: handshake response lacks 'Upgrade: websocket' and "
                 "'Connection: Upgrade'");
        return -1;
    }
    h = http_header_find(r.headers, r.num_headers, "sec-websocket-accept");
    if (!h || h->value_len != WS_ACCEPT_LEN || memcmp(h->value, c->accept, WS_ACCEPT_LEN) != 0) {
        snprintf(err, errlen, "ws: handshake Sec-WebSocket-Accept '%.*s', expected '%s'",
                 h ? (int)(h->value_len > 64 ? 64 : h->value_len) : 0, h ? h->value : "",
                 c->accept);
        return -1;
    }
    *done = 1;
    return hl;
}

static int ws_batch(void *st, unsigned n, const char **data, size_t *len)
{
    struct ws_conn *c = st;
    const struct ws_shared *sh = c->sh;
    if (n == 0 || n > sh->pipeline)
        return -1;
    *data = c->ring + (size_t)c->next * sh->frame_len * sh->pipeline;
    *len = (size_t)n * sh->frame_len;
    if (++c->next == c->ring_n)
        c->next = 0;
    return 0;
}

/* Answers a complete control frame (payload unmasked, len <= 125). Returns 1 for a Close
 * the server sends on purpose (no status, 1000 normal or 1001 going away: a limit of
 * requests or of time per connection), which the engine reopens; 0 otherwise. */
static int ws_control(struct ws_conn *c, const char *payload, struct buf *ctl)
{
    char frame[WS_MAX_HEADER + WS_MAX_CONTROL];
    size_t len = (size_t)c->f.len, fl;
    int planned = 0;
    if (c->f.opcode == WS_OP_PING) {
        fl = ws_frame_encode(frame, sizeof(frame), 1, WS_OP_PONG, c->ctl_mask, payload, len);
    } else if (c->f.opcode == WS_OP_CLOSE && !c->closing) {
        /* echo the status code, as RFC 6455 5.5.1 suggests; the server then closes */
        fl = ws_frame_encode(frame, sizeof(frame), 1, WS_OP_CLOSE, c->ctl_mask, payload,
                             len >= 2 ? 2 : 0);
        c->closing = 1;
        unsigned code = len >= 2
                            ? ((unsigned)(unsigned char)payload[0] << 8) | (unsigned char)payload[1]
                            : 1000;
        planned = (code == 1000 || code == 1001) && c->msg_len == 0; /* not between fragments */
    } else {
        return 0; /* pong, or a repeated close */
    }
    /* a full ctl buffer drops the answer: the engine sized it for a few control frames */
    buf_append(ctl, frame, fl);
    return planned;
}

static void ws_message_done(struct ws_conn *c, struct wl_tally *t)
{
    t->replies++;
    if (c->msg_opcode != WS_OP_BINARY || c->mismatch || c->msg_len != c->sh->payload)
        t->verify++;
    else
        t->ok++;
    c->msg_len = 0;
    c->mismatch = 0;
}

static ssize_t ws_feed(void *st, const char *p, size_t n, struct wl_tally *t, struct buf *ctl)
{
    struct ws_conn *c = st;
    const struct ws_shared *sh = c->sh;
    size_t off = 0;
    while (off < n) {
        if (c->left == 0) {
            ssize_t hl = ws_frame_parse(p + off, n - off, WL_WS_MAX_FRAME, &c->f);
            if (hl == WS_NEED_MORE)
                break;
            if (hl < 0 || c->f.masked)
                return -1; /* servers never mask (RFC 6455 5.1) */
            if (c->f.opcode & 0x8) {
                /* control frames are answered whole: wait until all of it is here */
                if (n - off - (size_t)hl < c->f.len)
                    break;
                int planned = ws_control(c, p + off + hl, ctl);
                off += (size_t)hl + (size_t)c->f.len;
                if (planned) {
                    t->closing = 1;
                    break;
                }
                continue;
            }
            if (ws_seq_frame(&c->seq, &c->f, &c->msg_opcode) < 0)
                return -1;
            off += (size_t)hl;
            c->left = c->f.len;
            if (c->left == 0 && c->f.fin)
                ws_message_done(c, t);
            continue;
        }
        size_t take = n - off < c->left ? n - off : (size_t)c->left;
        if (!c->mismatch) {
            if (c->msg_len + take > sh->payload ||
                memcmp(sh->expect + c->msg_len, p + off, take) != 0)
                c->mismatch = 1;
        }
        c->msg_len += take;
        c->left -= take;
        off += take;
        if (c->left == 0 && c->f.fin)
            ws_message_done(c, t);
    }
    return (ssize_t)off;
}

const struct workload wl_ws = {
    .name = "ws",
    .unit = "round trips/s",
    .setup = ws_setup,
    .teardown = ws_teardown,
    .conn_new = ws_conn_new,
    .conn_free = ws_conn_free,
    .hello = ws_hello,
    .hello_feed = ws_hello_feed,
    .batch = ws_batch,
    .feed = ws_feed,
};
