/* libFuzzer target: HTTP/2 frames from a hostile server into the client workload (wl_h2.c,
 * after its hello and four requests in flight), then the same bytes from a hostile client into
 * the reference server (srv_http.c's HTTP/2 side, after the preface). Must never crash, hang
 * or overrun a buffer, and every reply the client counts is ok, verify or protocol. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv/srvproto.h"
#include "wl/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void *shared;
static struct drv_opts opts;

static void setup_once(void)
{
    char err[256];
    if (shared)
        return;
    snprintf(opts.host, sizeof(opts.host), "127.0.0.1");
    snprintf(opts.path, sizeof(opts.path), "/");
    snprintf(opts.method, sizeof(opts.method), "GET");
    snprintf(opts.http_version, sizeof(opts.http_version), "2");
    opts.protocol = PROTO_HTTP;
    opts.port = 80;
    opts.pipeline = 2;
    opts.payload = 64;
    if (wl_h2.setup(&opts, &shared, err, sizeof(err)) < 0)
        abort();
}

static void client_side(const char *p, size_t size)
{
    static const char settings[] = {0, 0, 0, 4, 0, 0, 0, 0, 0};
    void *st = wl_h2.conn_new(shared, 0, 1);
    struct wl_tally t = {0};
    struct buf hello, ctl;
    const char *b;
    size_t bl;
    int done = 0;
    char err[256];

    if (!st || buf_init(&hello, 1 << 16) < 0 || buf_init(&ctl, wl_h2.ctl_cap) < 0)
        abort();
    if (wl_h2.hello(st, &hello) < 0 ||
        wl_h2.hello_feed(st, settings, sizeof(settings), &done, err, sizeof(err)) < 0 || !done ||
        wl_h2.batch(st, 2, &b, &bl) < 0 || wl_h2.batch(st, 2, &b, &bl) < 0)
        abort();
    /* in pieces of up to 97 bytes, as reads would bring them */
    for (size_t off = 0; off < size && !t.closing;) {
        size_t n = size - off < 97 ? size - off : 97;
        ssize_t k = wl_h2.feed(st, p + off, n, &t, &ctl);
        if (k <= 0)
            break;
        off += (size_t)k;
        ctl.off = ctl.len = 0;
    }
    if (t.ok + t.verify + t.protocol != t.replies || t.replies > 4)
        abort();
    (void)wl_h2.at_rest(st);
    buf_release(&hello);
    buf_release(&ctl);
    wl_h2.conn_free(st);
}

static void server_side(const char *p, size_t size)
{
    static const char preface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    void *ss = srv_http.conn_new(&opts);
    struct buf out;
    int replied = 0, close_after = 0;

    if (!ss || buf_init(&out, srv_http.max_request(&opts) + 65536) < 0)
        abort();
    if (srv_http.feed(ss, preface, sizeof(preface) - 1, &out, &replied, &close_after) <= 0)
        abort();
    for (size_t off = 0; off < size && !close_after;) {
        out.off = out.len = 0;
        ssize_t k = srv_http.feed(ss, p + off, size - off, &out, &replied, &close_after);
        if (k <= 0)
            break;
        off += (size_t)k;
        out.off = out.len = 0;
        (void)srv_http.more(ss, &out);
    }
    buf_release(&out);
    srv_http.conn_free(ss);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup_once();
    client_side((const char *)data, size);
    server_side((const char *)data, size);
    return 0;
}
