/* The reference WebSocket server's protocol logic (RFC 6455), one request per feed() call:
 * the opening handshake (GET with Upgrade: websocket, version 13, a key → 101 with the
 * accept value), then every data frame echoed back unmasked with its own FIN and opcode (so
 * a fragmented message comes back fragmented the same way), ping → pong, close → close and
 * then the connection closes. A message longer than the limit (max(payload, 64 KiB), over
 * all its fragments) gets a Close frame with status 1009 "message too big" (RFC 6455 7.4.1)
 * before the connection closes. Unmasked client frames, bad opcodes or a broken fragment
 * sequence close that connection at once. */
#include <stdlib.h>
#include <string.h>

#include "proto/http_parse.h"
#include "srv/srvproto.h"
#include "proto/ws_frame.h"

#define SRV_WS_MAX_HEAD (16 * 1024)
#define SRV_WS_MIN_LIMIT (64 * 1024)

struct srv_ws_conn {
    int open;       /* handshake done */
    uint64_t limit; /* largest message payload accepted */
    uint64_t msg;   /* payload bytes of the data message in progress */
    struct ws_seq seq;
};

static uint64_t srv_ws_limit(const struct drv_opts *o)
{
    return o->payload > SRV_WS_MIN_LIMIT ? o->payload : SRV_WS_MIN_LIMIT;
}

static void *srv_ws_conn_new(const struct drv_opts *o)
{
    struct srv_ws_conn *c = calloc(1, sizeof(*c));
    if (c)
        c->limit = srv_ws_limit(o);
    return c;
}

static void srv_ws_conn_free(void *st)
{
    free(st);
}

static ssize_t srv_ws_handshake(struct srv_ws_conn *c, const char *p, size_t n, struct buf *out)
{
    struct http_request r;
    const struct http_header *h;
    char acc[WS_ACCEPT_LEN + 1], reply[200];
    ssize_t hl = http_parse_request(p, n, SRV_WS_MAX_HEAD, &r);
    if (hl == HTTP_NEED_MORE)
        return 0;
    if (hl < 0 || r.framing.body != HTTP_BODY_NONE || r.method_len != 3 ||
        memcmp(r.method, "GET", 3) != 0 || !r.framing.upgrade)
        return SRV_CLOSE;
    h = http_header_find(r.headers, r.num_headers, "upgrade");
    if (!h || !http_header_has_token(h, "websocket"))
        return SRV_CLOSE;
    h = http_header_find(r.headers, r.num_headers, "sec-websocket-version");
    if (!h || h->value_len != 2 || memcmp(h->value, "13", 2) != 0)
        return SRV_CLOSE;
    h = http_header_find(r.headers, r.num_headers, "sec-websocket-key");
    if (!h || ws_accept_for(h->value, h->value_len, acc) < 0)
        return SRV_CLOSE;
    int len = snprintf(reply, sizeof(reply),
                       "HTTP/1.1 101 Switching Protocols\r\nServer: pairbench\r\n"
                       "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                       "Sec-WebSocket-Accept: %s\r\n\r\n",
                       acc);
    if (buf_append(out, reply, (size_t)len) < 0)
        return SRV_CLOSE;
    c->open = 1;
    return hl;
}

/* A message past the limit: Close 1009, then the connection closes (serve.c drains what the
 * client still sends so the Close frame is read, not reset). Returns consumed. */
static ssize_t srv_ws_too_big(size_t consumed, struct buf *out, int *replied, int *close_after)
{
    static const char reason[] = "message too big";
    uint8_t h[WS_MAX_HEADER], code[2] = {1009 >> 8, 1009 & 0xff};
    size_t hlen = ws_frame_header(h, 1, WS_OP_CLOSE, 2 + sizeof(reason) - 1, NULL);

    if (buf_append(out, h, hlen) < 0 || buf_append(out, code, 2) < 0 ||
        buf_append(out, reason, sizeof(reason) - 1) < 0)
        return SRV_CLOSE;
    *replied = SRV_REPLY_PROTOCOL;
    *close_after = 1;
    return (ssize_t)consumed;
}

static ssize_t srv_ws_feed(void *st, const char *p, size_t n, struct buf *out, int *replied,
                           int *close_after)
{
    struct srv_ws_conn *c = st;
    struct ws_frame f;
    int msg_opcode, opcode;
    *replied = SRV_REPLY_NONE;
    if (!c->open) {
        ssize_t k = srv_ws_handshake(c, p, n, out);
        *replied = k > 0 ? SRV_REPLY_PROTOCOL : SRV_REPLY_NONE; /* not a message */
        return k;
    }
    /* any length parses here; the limit is applied to the message below */
    ssize_t hl = ws_frame_parse(p, n, UINT64_MAX, &f);
    if (hl == WS_NEED_MORE)
        return 0;
    if (hl < 0 || !f.masked)
        return SRV_CLOSE; /* clients must mask (RFC 6455 5.1) */
    if (f.opcode != WS_OP_PING && f.opcode != WS_OP_PONG && f.opcode != WS_OP_CLOSE) {
        uint64_t before = f.opcode == WS_OP_CONT ? c->msg : 0;
        if (f.len > c->limit || before + f.len > c->limit)
            return srv_ws_too_big((size_t)hl, out, replied, close_after);
        c->msg = before + f.len;
    }
    if (n - (size_t)hl < f.len)
        return 0;
    size_t len = (size_t)f.len;
    opcode = f.opcode;
    switch (f.opcode) {
    case WS_OP_PONG:
        return hl + (ssize_t)len; /* nothing to answer */
    case WS_OP_PING:
        opcode = WS_OP_PONG;
        break;
    case WS_OP_CLOSE:
        if (len == 1)
            return SRV_CLOSE;
        if (len > 2)
            len = 2; /* echo the status code only */
        *close_after = 1;
        break;
    default:
        if (ws_seq_frame(&c->seq, &f, &msg_opcode) < 0)
            return SRV_CLOSE;
        break;
    }
    uint8_t h[WS_MAX_HEADER];
    size_t hlen = ws_frame_header(h, f.fin, opcode, len, NULL);
    if (buf_space(out) + out->off < hlen + len)
        return SRV_CLOSE;
    buf_append(out, h, hlen);
    buf_append(out, p + hl, len);
    ws_mask(out->data + out->len - len, len, f.mask, 0);
    *replied = SRV_REPLY_REQUEST;
    return hl + (ssize_t)f.len;
}

static size_t srv_ws_max_request(const struct drv_opts *o)
{
    uint64_t l = srv_ws_limit(o) + WS_MAX_HEADER;
    return l > SRV_WS_MAX_HEAD ? (size_t)l : SRV_WS_MAX_HEAD;
}

const struct srv_proto srv_ws = {
    .name = "ws",
    .conn_new = srv_ws_conn_new,
    .conn_free = srv_ws_conn_free,
    .feed = srv_ws_feed,
    .max_request = srv_ws_max_request,
};
