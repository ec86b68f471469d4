/* libFuzzer target: the HTTP/1.1 request scanner and the reference HTTP server's feed(),
 * one request per call as serve.c drives it. Must never crash, hang or overrun out. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/http_parse.h"
#include "srv/srvproto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data;
    struct http_request r;
    struct drv_opts o;
    ssize_t hl = http_parse_request(p, size, 4096, &r);
    if (hl > 0 && ((size_t)hl > size || r.path + r.path_len > p + size))
        abort();
    memset(&o, 0, sizeof(o));
    o.payload = 32;
    void *st = srv_http.conn_new(&o);
    struct buf out;
    if (!st || buf_init(&out, srv_http.max_request(&o) + 4096) < 0)
        abort();
    size_t off = 0;
    while (off < size) {
        int replied = 0, close_after = 0;
        out.off = out.len = 0;
        ssize_t k = srv_http.feed(st, p + off, size - off, &out, &replied, &close_after);
        if (k <= 0)
            break;
        if ((size_t)k > size - off)
            abort();
        off += (size_t)k;
    }
    buf_release(&out);
    srv_http.conn_free(st);
    return 0;
}
