/* RFC 6455 framing: the RFC's own examples (section 5.7 and the handshake example of 1.3),
 * 7/16/64-bit lengths round-tripped, partial headers, refusals, masking in pieces, and the
 * message sequence rules. */
#include <stdlib.h>

#include "proto/http_parse.h"
#include "srv/srvproto.h"
#include "t.h"
#include "wl/workload.h"
#include "proto/ws_frame.h"

static void test_rfc_examples(void)
{
    static const uint8_t hello_unmasked[] = {0x81, 0x05, 'H', 'e', 'l', 'l', 'o'};
    static const uint8_t hello_masked[] = {0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d,
                                           0x7f, 0x9f, 0x4d, 0x51, 0x58};
    static const uint8_t mask[4] = {0x37, 0xfa, 0x21, 0x3d};
    uint8_t out[64];
    struct ws_frame f;

    CHECK(ws_frame_encode(out, sizeof(out), 1, WS_OP_TEXT, NULL, "Hello", 5) == 7);
    CHECK(memcmp(out, hello_unmasked, 7) == 0);
    CHECK(ws_frame_encode(out, sizeof(out), 1, WS_OP_TEXT, mask, "Hello", 5) == 11);
    CHECK(memcmp(out, hello_masked, 11) == 0);

    CHECK(ws_frame_parse(hello_masked, sizeof(hello_masked), 1 << 20, &f) == 6);
    CHECK(f.fin == 1 && f.opcode == WS_OP_TEXT && f.masked == 1 && f.len == 5);
    CHECK(memcmp(f.mask, mask, 4) == 0);
    memcpy(out, hello_masked + 6, 5);
    ws_mask(out, 5, f.mask, 0);
    CHECK(memcmp(out, "Hello", 5) == 0);

    /* fragmented: "Hel" then "lo" */
    static const uint8_t frag1[] = {0x01, 0x03, 'H', 'e', 'l'};
    static const uint8_t frag2[] = {0x80, 0x02, 'l', 'o'};
    CHECK(ws_frame_parse(frag1, sizeof(frag1), 100, &f) == 2 && !f.fin && f.opcode == 1);
    CHECK(ws_frame_parse(frag2, sizeof(frag2), 100, &f) == 2 && f.fin && f.opcode == 0);

    /* 256 bytes and 64 KiB binary headers */
    uint8_t h[WS_MAX_HEADER];
    static const uint8_t h256[] = {0x82, 0x7e, 0x01, 0x00};
    static const uint8_t h64k[] = {0x82, 0x7f, 0, 0, 0, 0, 0, 1, 0, 0};
    CHECK(ws_frame_header(h, 1, WS_OP_BINARY, 256, NULL) == 4 && memcmp(h, h256, 4) == 0);
    CHECK(ws_frame_header(h, 1, WS_OP_BINARY, 65536, NULL) == 10 && memcmp(h, h64k, 10) == 0);

    char acc[WS_ACCEPT_LEN + 1];
    const char *key = "dGhlIHNhbXBsZSBub25jZQ==";
    CHECK(ws_accept_for(key, strlen(key), acc) == 0);
    CHECK_STR(acc, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    CHECK(ws_accept_for(key, 0, acc) == -1);

    static const uint8_t raw[16] = "the sample nonce";
    char k[WS_KEY_LEN + 1];
    ws_key_encode(raw, k);
    CHECK_STR(k, key);
}

static void test_lengths(void)
{
    static const uint64_t lens[] = {0, 1, 125, 126, 127, 65535, 65536, 70000, 1u << 24};
    static const uint8_t mask[4] = {1, 2, 3, 4};
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        for (int m = 0; m < 2; m++) {
            uint8_t h[WS_MAX_HEADER];
            size_t hl = ws_frame_header(h, 1, WS_OP_BINARY, lens[i], m ? mask : NULL);
            size_t want = (lens[i] < 126 ? 2 : lens[i] <= 65535 ? 4 : 10) + (m ? 4 : 0);
            CHECK_MSG(hl == want, "len %llu: header %zu", (unsigned long long)lens[i], hl);
            struct ws_frame f;
            CHECK(ws_frame_parse(h, hl, UINT64_MAX >> 1, &f) == (ssize_t)hl);
            CHECK(f.len == lens[i] && f.masked == m && f.opcode == WS_OP_BINARY && f.fin);
            for (size_t k = 0; k < hl; k++)
                CHECK_MSG(ws_frame_parse(h, k, UINT64_MAX >> 1, &f) == WS_NEED_MORE,
                          "len %llu prefix %zu", (unsigned long long)lens[i], k);
            if (lens[i] > 0)
                CHECK(ws_frame_parse(h, hl, lens[i] - 1, &f) == WS_MALFORMED);
        }
    }
}

static void test_refusals(void)
{
    struct ws_frame f;
    static const uint8_t rsv[] = {0xc2, 0x00};       /* RSV1 */
    static const uint8_t op3[] = {0x83, 0x00};       /* reserved opcode */
    static const uint8_t opb[] = {0x8b, 0x00};       /* reserved control opcode */
    static const uint8_t ping_frag[] = {0x09, 0x00}; /* control frame without FIN */
    static const uint8_t ping_big[] = {0x89, 0x7e, 0x00, 0x7e};
    static const uint8_t top_bit[] = {0x82, 0x7f, 0x80, 0, 0, 0, 0, 0, 0, 0};
    CHECK(ws_frame_parse(rsv, 2, 100, &f) == WS_MALFORMED);
    CHECK(ws_frame_parse(op3, 2, 100, &f) == WS_MALFORMED);
    CHECK(ws_frame_parse(opb, 2, 100, &f) == WS_MALFORMED);
    CHECK(ws_frame_parse(ping_frag, 2, 100, &f) == WS_MALFORMED);
    CHECK(ws_frame_parse(ping_big, 4, 1000, &f) == WS_MALFORMED);
    CHECK(ws_frame_parse(top_bit, 10, UINT64_MAX, &f) == WS_MALFORMED);
    static const uint8_t ping_ok[] = {0x89, 0x7d};
    CHECK(ws_frame_parse(ping_ok, 2, 0, &f) == WS_MALFORMED); /* max_len applies to all */
    CHECK(ws_frame_parse(ping_ok, 2, 125, &f) == 2 && f.opcode == WS_OP_PING);
    uint8_t small[8];
    CHECK(ws_frame_encode(small, sizeof(small), 1, WS_OP_BINARY, NULL, "0123456789", 10) == 0);
}

static void test_mask_pieces(void)
{
    static const uint8_t mask[4] = {0xa1, 0xb2, 0xc3, 0xd4};
    uint8_t ref[100], buf[100];
    for (int i = 0; i < 100; i++)
        ref[i] = buf[i] = (uint8_t)(i * 7);
    ws_mask(ref, sizeof(ref), mask, 0);
    /* unmask-in-pieces equals one pass, whatever the split points */
    size_t cuts[] = {0, 3, 4, 13, 21, 22, 64, 99, 100};
    for (size_t c = 0; c + 1 < sizeof(cuts) / sizeof(cuts[0]); c++)
        ws_mask(buf + cuts[c], cuts[c + 1] - cuts[c], mask, cuts[c]);
    CHECK(memcmp(ref, buf, sizeof(buf)) == 0);
    for (int i = 0; i < 100; i++)
        CHECK(ref[i] == (uint8_t)((i * 7) ^ mask[i % 4]));
}

static void test_sequence(void)
{
    struct ws_seq s = {0};
    int op = -1;
    struct ws_frame text_start = {.fin = 0, .opcode = WS_OP_TEXT};
    struct ws_frame cont = {.fin = 0, .opcode = WS_OP_CONT};
    struct ws_frame cont_fin = {.fin = 1, .opcode = WS_OP_CONT};
    struct ws_frame ping = {.fin = 1, .opcode = WS_OP_PING};
    struct ws_frame bin = {.fin = 1, .opcode = WS_OP_BINARY};
    CHECK(ws_seq_frame(&s, &cont, &op) == -1);
    CHECK(ws_seq_frame(&s, &bin, &op) == 0 && op == WS_OP_BINARY && s.opcode == 0);
    CHECK(ws_seq_frame(&s, &text_start, &op) == 0 && op == WS_OP_TEXT);
    CHECK(ws_seq_frame(&s, &ping, &op) == 0);
    CHECK(ws_seq_frame(&s, &bin, &op) == -1);
    CHECK(ws_seq_frame(&s, &cont, &op) == 0 && op == WS_OP_TEXT);
    CHECK(ws_seq_frame(&s, &cont_fin, &op) == 0 && op == WS_OP_TEXT && s.opcode == 0);
    CHECK(ws_seq_frame(&s, &cont_fin, &op) == -1);
}

/* The engine's way of feeding: unconsumed bytes are kept and presented again. */
static int client_feed(void *st, const char *in, size_t n, size_t step, struct wl_tally *t,
                       struct buf *ctl)
{
    struct buf pend;
    int rc = 0;
    buf_init(&pend, n + 1);
    for (size_t at = 0; at < n;) {
        size_t k = n - at < step ? n - at : step;
        buf_append(&pend, in + at, k);
        at += k;
        for (;;) {
            ssize_t r = wl_ws.feed(st, pend.data + pend.off, buf_used(&pend), t, ctl);
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
        rc = -2;
out:
    buf_release(&pend);
    return rc;
}

static int server_feed(void *st, const char *in, size_t n, struct buf *out, int *close_after)
{
    int replies = 0;
    size_t off = 0;
    while (off < n) {
        int replied = 0;
        ssize_t r = srv_ws.feed(st, in + off, n - off, out, &replied, close_after);
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        off += (size_t)r;
        replies += replied != SRV_REPLY_NONE; /* a handshake is a reply too */
    }
    return replies;
}

static void ws_opts(struct drv_opts *o, size_t payload, unsigned pipeline)
{
    memset(o, 0, sizeof(*o));
    o->protocol = PROTO_WS;
    snprintf(o->host, sizeof(o->host), "127.0.0.1");
    o->port = 8080;
    o->pipeline = pipeline;
    o->window = 1;
    o->payload = payload;
    snprintf(o->path, sizeof(o->path), "/");
}

/* wl_ws against srv_ws with direct calls: handshake, pipelined echo at 7/16/64-bit sizes. */
static void test_ws_tables(void)
{
    static const size_t payloads[] = {0, 64, 200, 70000};
    for (size_t pi = 0; pi < sizeof(payloads) / sizeof(payloads[0]); pi++) {
        struct drv_opts o;
        char err[256] = "";
        void *sh = NULL;
        ws_opts(&o, payloads[pi], 2);
        CHECK_MSG(wl_ws.setup(&o, &sh, err, sizeof(err)) == 0, "setup: %s", err);
        void *cst = wl_ws.conn_new(sh, 0, 42);
        void *sst = srv_ws.conn_new(&o);
        struct buf hello, out, ctl;
        buf_init(&hello, 4096);
        buf_init(&out, 4 * (payloads[pi] + 64) + 4096);
        buf_init(&ctl, 1024);
        CHECK(wl_ws.hello(cst, &hello) > 0);
        int close_after = 0, done = 0;
        CHECK(server_feed(sst, hello.data, hello.len, &out, &close_after) == 1);
        /* the handshake reply, in pieces */
        for (size_t k = 0; k < out.len; k++)
            CHECK(wl_ws.hello_feed(cst, out.data, k, &done, err, sizeof(err)) == 0 && !done);
        CHECK_MSG(wl_ws.hello_feed(cst, out.data, out.len, &done, err, sizeof(err)) ==
                          (ssize_t)out.len &&
                      done,
                  "hello_feed: %s", err);
        out.off = out.len = 0;
        const char *b1, *b2;
        size_t l1, l2;
        CHECK(wl_ws.batch(cst, 2, &b1, &l1) == 0);
        struct buf req;
        buf_init(&req, 2 * l1 + 16);
        buf_append(&req, b1, l1);
        CHECK(wl_ws.batch(cst, 1, &b2, &l2) == 0 && l2 * 2 == l1);
        CHECK(b1 != b2 || payloads[pi] > 1000); /* a ring of differently masked batches */
        buf_append(&req, b2, l2);
        CHECK(server_feed(sst, req.data, req.len, &out, &close_after) == 3);
        static const size_t steps[] = {1, 5, 1000000};
        for (size_t s = 0; s < 3; s++) {
            struct wl_tally t = {0};
            CHECK(client_feed(cst, out.data, out.len, steps[s], &t, &ctl) == 0);
            CHECK_MSG(t.replies == 3 && t.ok == 3, "payload %zu step %zu: ok %llu", payloads[pi],
                      steps[s], (unsigned long long)t.ok);
        }
        if (payloads[pi]) {
            struct wl_tally t = {0};
            out.data[out.len - 1] ^= 1;
            CHECK(client_feed(cst, out.data, out.len, 999, &t, &ctl) == 0);
            CHECK(t.replies == 3 && t.ok == 2 && t.verify == 1);
        }
        buf_release(&req);
        buf_release(&hello);
        buf_release(&out);
        buf_release(&ctl);
        srv_ws.conn_free(sst);
        wl_ws.conn_free(cst);
        wl_ws.teardown(sh);
    }
}

/* Server-side frames the client must accept: fragmented echoes, pings between fragments, a
 * 64-bit length; and what it must refuse (masked frames, bad sequences). */
static void test_ws_client_frames(void)
{
    struct drv_opts o;
    char err[256];
    void *sh = NULL;
    ws_opts(&o, 10, 1);
    CHECK(wl_ws.setup(&o, &sh, err, sizeof(err)) == 0);
    char pat[10];
    http_pattern(pat, 10, 0);
    uint8_t in[256];
    size_t n = 0;
    n += ws_frame_encode(in + n, sizeof(in) - n, 0, WS_OP_BINARY, NULL, pat, 3);
    n += ws_frame_encode(in + n, sizeof(in) - n, 1, WS_OP_PING, NULL, "hi", 2);
    n += ws_frame_encode(in + n, sizeof(in) - n, 0, WS_OP_CONT, NULL, pat + 3, 0);
    n += ws_frame_encode(in + n, sizeof(in) - n, 1, WS_OP_CONT, NULL, pat + 3, 7);
    /* the same message with a (non-minimal) 64-bit length header */
    uint8_t h64[] = {0x82, 127, 0, 0, 0, 0, 0, 0, 0, 10};
    memcpy(in + n, h64, sizeof(h64));
    n += sizeof(h64);
    memcpy(in + n, pat, 10);
    n += 10;
    n += ws_frame_encode(in + n, sizeof(in) - n, 1, WS_OP_TEXT, NULL, pat, 10);
    n += ws_frame_encode(in + n, sizeof(in) - n, 1, WS_OP_BINARY, NULL, pat, 9);
    for (size_t step = 1; step < 300; step += 37) {
        void *st = wl_ws.conn_new(sh, 0, 1);
        struct buf ctl;
        buf_init(&ctl, 1024);
        struct wl_tally t = {0};
        CHECK(client_feed(st, (const char *)in, n, step, &t, &ctl) == 0);
        CHECK_MSG(t.replies == 4 && t.ok == 2 && t.verify == 2, "step %zu: %llu ok", step,
                  (unsigned long long)t.ok);
        /* the ping was answered with a masked pong carrying "hi" */
        struct ws_frame f;
        CHECK(ws_frame_parse(ctl.data, ctl.len, 125, &f) == 6);
        CHECK(f.opcode == WS_OP_PONG && f.masked && f.len == 2 && ctl.len == 8);
        ws_mask(ctl.data + 6, 2, f.mask, 0);
        CHECK(memcmp(ctl.data + 6, "hi", 2) == 0);
        buf_release(&ctl);
        wl_ws.conn_free(st);
    }
    static const uint8_t masked[] = {0x82, 0x81, 1, 2, 3, 4, 'x'};
    static const uint8_t cont_first[] = {0x80, 0x00};
    static const uint8_t rsv[] = {0xf2, 0x00};
    const uint8_t *bad[] = {masked, cont_first, rsv};
    size_t bad_len[] = {sizeof(masked), sizeof(cont_first), sizeof(rsv)};
    for (size_t i = 0; i < 3; i++) {
        void *st = wl_ws.conn_new(sh, 0, 1);
        struct buf ctl;
        buf_init(&ctl, 1024);
        struct wl_tally t = {0};
        CHECK_MSG(client_feed(st, (const char *)bad[i], bad_len[i], 100, &t, &ctl) == -1,
                  "bad frame %zu accepted", i);
        buf_release(&ctl);
        wl_ws.conn_free(st);
    }
    /* close: answered once with a masked close echoing the code */
    {
        void *st = wl_ws.conn_new(sh, 0, 1);
        struct buf ctl;
        buf_init(&ctl, 1024);
        struct wl_tally t = {0};
        uint8_t cl[16];
        size_t cn = ws_frame_encode(cl, sizeof(cl), 1, WS_OP_CLOSE, NULL,
                                    "\x03\xe8"
                                    "bye",
                                    5);
        CHECK(client_feed(st, (const char *)cl, cn, 100, &t, &ctl) == 0);
        struct ws_frame f;
        CHECK(ws_frame_parse(ctl.data, ctl.len, 125, &f) == 6 && f.opcode == WS_OP_CLOSE &&
              f.len == 2);
        buf_release(&ctl);
        wl_ws.conn_free(st);
    }
    wl_ws.teardown(sh);
}

/* Handshake failures on the client side. */
static void test_ws_handshake_refusals(void)
{
    struct drv_opts o;
    char err[256];
    void *sh = NULL;
    ws_opts(&o, 10, 1);
    CHECK(wl_ws.setup(&o, &sh, err, sizeof(err)) == 0);
    const char *bad[] = {
        "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"),
        "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n\r\n",
        "garbage\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        void *st = wl_ws.conn_new(sh, 0, 1);
        int done = 0;
        err[0] = 0;
        CHECK_MSG(wl_ws.hello_feed(st, bad[i], strlen(bad[i]), &done, err, sizeof(err)) == -1,
                  "bad handshake %zu accepted", i);
        CHECK(err[0] != 0);
        wl_ws.conn_free(st);
    }
    wl_ws.teardown(sh);
}

/* The server refuses unmasked frames, oversized frames, bad handshakes; answers ping and close;
 * echoes fragments with their own FIN/opcode. */
static void test_ws_server(void)
{
    struct drv_opts o;
    ws_opts(&o, 16, 1);
    const char *hs = "GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n";
    static const uint8_t mask[4] = {9, 8, 7, 6};
    uint8_t fr[256];
    struct buf out;
    int close_after = 0, replied = 0;
    buf_init(&out, 1 << 20);
    void *st = srv_ws.conn_new(&o);
    CHECK(server_feed(st, hs, strlen(hs), &out, &close_after) == 1);
    CHECK(strstr(out.data, "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n") != NULL);
    out.off = out.len = 0;
    size_t n = 0;
    n += ws_frame_encode(fr + n, sizeof(fr) - n, 0, WS_OP_TEXT, mask, "Hel", 3);
    n += ws_frame_encode(fr + n, sizeof(fr) - n, 1, WS_OP_PING, mask, "p", 1);
    n += ws_frame_encode(fr + n, sizeof(fr) - n, 1, WS_OP_CONT, mask, "lo", 2);
    n += ws_frame_encode(fr + n, sizeof(fr) - n, 1, WS_OP_PONG, mask, "", 0);
    CHECK(server_feed(st, (const char *)fr, n, &out, &close_after) == 3);
    static const uint8_t want[] = {0x01, 3, 'H', 'e', 'l', 0x8a, 1, 'p', 0x80, 2, 'l', 'o'};
    CHECK(out.len == sizeof(want) && memcmp(out.data, want, sizeof(want)) == 0);
    CHECK(!close_after);
    /* partial frame: need more */
    CHECK(srv_ws.feed(st, (const char *)fr, 5, &out, &replied, &close_after) == 0);
    /* close → close, then close_after */
    out.off = out.len = 0;
    n = ws_frame_encode(fr, sizeof(fr), 1, WS_OP_CLOSE, mask, "\x03\xe8", 2);
    CHECK(server_feed(st, (const char *)fr, n, &out, &close_after) == 1 && close_after);
    CHECK(out.len == 4 && (uint8_t)out.data[0] == 0x88 && out.data[2] == 0x03);
    srv_ws.conn_free(st);

    /* refusals, each on a fresh open connection */
    uint8_t big_hdr[WS_MAX_HEADER];
    size_t bl = ws_frame_header(big_hdr, 1, WS_OP_BINARY, (1 << 20), mask);
    struct {
        const void *p;
        size_t n;
    } bad[] = {
        {"\x82\x03"
         "abc",
         5},                             /* unmasked */
        {"\x80\x80\x01\x02\x03\x04", 6}, /* continuation without a message */
        {"\x83\x80\x01\x02\x03\x04", 6}, /* reserved opcode */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        st = srv_ws.conn_new(&o);
        CHECK(server_feed(st, hs, strlen(hs), &out, &close_after) == 1);
        CHECK_MSG(srv_ws.feed(st, bad[i].p, bad[i].n, &out, &replied, &close_after) == SRV_CLOSE,
                  "bad frame %zu not refused", i);
        srv_ws.conn_free(st);
    }
    /* a message longer than the limit: Close 1009 "message too big", then the connection
     * closes (the header alone is enough to answer) */
    st = srv_ws.conn_new(&o);
    out.off = out.len = 0;
    CHECK(server_feed(st, hs, strlen(hs), &out, &close_after) == 1);
    out.off = out.len = 0;
    close_after = 0;
    CHECK(srv_ws.feed(st, (const char *)big_hdr, bl, &out, &replied, &close_after) == (ssize_t)bl);
    CHECK(close_after == 1 && replied == SRV_REPLY_PROTOCOL);
    CHECK(out.len == 2 + 2 + 15 && (uint8_t)out.data[0] == 0x88 && out.data[1] == 17);
    CHECK((uint8_t)out.data[2] == 0x03 && (uint8_t)out.data[3] == 0xf1);
    CHECK(memcmp(out.data + 4, "message too big", 15) == 0);
    srv_ws.conn_free(st);
    const char *bad_hs[] = {
        "GET / HTTP/1.1\r\n\r\n",
        ("GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Version: 13\r\n\r\n"),
        ("GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
         "a\r\nSec-WebSocket-Version: 8\r\n\r\n"),
        ("POST / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
         "a\r\nSec-WebSocket-Version: 13\r\n\r\n"),
        "\x82\x85",
    };
    for (size_t i = 0; i < sizeof(bad_hs) / sizeof(bad_hs[0]); i++) {
        st = srv_ws.conn_new(&o);
        CHECK_MSG(srv_ws.feed(st, bad_hs[i], strlen(bad_hs[i]), &out, &replied, &close_after) ==
                      SRV_CLOSE,
                  "bad handshake %zu not refused", i);
        srv_ws.conn_free(st);
    }
    buf_release(&out);
}

int main(void)
{
    test_ws_tables();
    test_ws_client_frames();
    test_ws_handshake_refusals();
    test_ws_server();
    test_rfc_examples();
    test_lengths();
    test_refusals();
    test_mask_pieces();
    test_sequence();
    return T_DONE();
}
