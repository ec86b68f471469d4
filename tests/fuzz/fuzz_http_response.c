/* libFuzzer target: the HTTP/1.1 response scanner and body decoder, then the whole HTTP
 * client workload's feed() on the same bytes (split at a fuzzer-chosen point, the way the
 * engine re-presents unconsumed bytes). Must never crash, hang or read out of bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/http_parse.h"
#include "wl/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void *shared;

static void setup_once(void)
{
    struct drv_opts o;
    char err[256];
    if (shared)
        return;
    memset(&o, 0, sizeof(o));
    snprintf(o.host, sizeof(o.host), "127.0.0.1");
    o.port = 80;
    o.pipeline = 4;
    o.payload = 16;
    snprintf(o.path, sizeof(o.path), "/");
    snprintf(o.method, sizeof(o.method), "GET");
    if (wl_http.setup(&o, &shared, err, sizeof(err)) < 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data;
    struct http_response r;
    setup_once();
    ssize_t hl = http_parse_response(p, size, 4096, &r);
    if (hl > 0) {
        struct http_body b;
        size_t off = (size_t)hl;
        http_body_init(&b, &r.framing);
        while (!b.done && off < size) {
            const char *d;
            size_t dl;
            ssize_t k = http_body_feed(&b, p + off, size - off, &d, &dl);
            if (k <= 0)
                break;
            if (dl && (d < p + off || d + dl > p + size))
                abort();
            off += (size_t)k;
        }
    }
    /* the workload, fed in two pieces */
    void *st = wl_http.conn_new(shared, 0, 1);
    struct wl_tally t = {0};
    struct buf ctl;
    if (!st || buf_init(&ctl, 256) < 0)
        abort();
    size_t cut = size ? data[0] % (size + 1) : 0, off = 0;
    ssize_t k = wl_http.feed(st, p, cut, &t, &ctl);
    if (k >= 0) {
        off = (size_t)k;
        while (off < size) {
            k = wl_http.feed(st, p + off, size - off, &t, &ctl);
            if (k <= 0)
                break;
            off += (size_t)k;
        }
    }
    if (t.ok + t.verify + t.protocol != t.replies)
        abort();
    buf_release(&ctl);
    wl_http.conn_free(st);
    return 0;
}
