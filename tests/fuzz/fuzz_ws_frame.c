/* libFuzzer target: WebSocket frame parsing, then the client workload's feed() (server to
 * client bytes) and the reference server's feed() after a handshake (client to server
 * bytes) on the same input. Must never crash, hang or overrun a buffer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv/srvproto.h"
#include "wl/workload.h"
#include "proto/ws_frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void *shared;
static struct drv_opts opts;

static void setup_once(void)
{
    char err[256];
    if (shared)
        return;
    snprintf(opts.host, sizeof(opts.host), "127.0.0.1");
    opts.port = 80;
    opts.pipeline = 2;
    opts.payload = 8;
    snprintf(opts.path, sizeof(opts.path), "/");
    if (wl_ws.setup(&opts, &shared, err, sizeof(err)) < 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data;
    struct ws_frame f;
    setup_once();
    for (size_t off = 0; off < size;) {
        ssize_t hl = ws_frame_parse(p + off, size - off, 1 << 20, &f);
        if (hl <= 0 || f.len > size - off - (size_t)hl)
            break;
        char tmp[256];
        size_t n = f.len < sizeof(tmp) ? (size_t)f.len : sizeof(tmp);
        memcpy(tmp, p + off + hl, n);
        ws_mask(tmp, n, f.mask, 0);
        off += (size_t)hl + (size_t)f.len;
    }

    /* client side */
    void *st = wl_ws.conn_new(shared, 0, 1);
    struct wl_tally t = {0};
    struct buf ctl;
    if (!st || buf_init(&ctl, 4096) < 0)
        abort();
    for (size_t off = 0; off < size;) {
        ssize_t k = wl_ws.feed(st, p + off, size - off, &t, &ctl);
        if (k <= 0)
            break;
        off += (size_t)k;
    }
    if (t.ok + t.verify != t.replies)
        abort();
    buf_release(&ctl);
    wl_ws.conn_free(st);

    /* server side, after a good handshake */
    static const char hs[] = "GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                             "Sec-WebSocket-Version: 13\r\n\r\n";
    void *ss = srv_ws.conn_new(&opts);
    struct buf out;
    int replied = 0, close_after = 0;
    if (!ss || buf_init(&out, srv_ws.max_request(&opts) + 4096) < 0)
        abort();
    if (srv_ws.feed(ss, hs, sizeof(hs) - 1, &out, &replied, &close_after) <= 0)
        abort();
    for (size_t off = 0; off < size;) {
        out.off = out.len = 0;
        ssize_t k = srv_ws.feed(ss, p + off, size - off, &out, &replied, &close_after);
        if (k <= 0)
            break;
        off += (size_t)k;
    }
    buf_release(&out);
    srv_ws.conn_free(ss);
    return 0;
}
