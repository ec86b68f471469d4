/* Reference TCP echo server protocol: with --payload N the stream is framed into N-byte
 * messages (one request each, so counts and --delay-us apply per message, matching the
 * client's messages); with --payload 0 every chunk that arrives is one request. */
#include <stdlib.h>

#include "srv/srvproto.h"

#define TCP_CHUNK (16u * 1024)

struct srv_tcp_conn {
    size_t msg;  /* message size; 0 = chunk mode */
    size_t have; /* bytes of the current message echoed so far */
};

static void *srv_tcp_conn_new(const struct drv_opts *o)
{
    struct srv_tcp_conn *c = calloc(1, sizeof(*c));

    if (c)
        c->msg = o->payload;
    return c;
}

static void srv_tcp_conn_free(void *st)
{
    free(st);
}

static ssize_t srv_tcp_feed(void *st, const char *p, size_t n, struct buf *out, int *replied,
                            int *close_after)
{
    struct srv_tcp_conn *c = st;
    size_t k;

    *replied = SRV_REPLY_NONE;
    (void)close_after;
    if (n == 0)
        return 0;
    if (c->msg == 0) {
        k = n < TCP_CHUNK ? n : TCP_CHUNK;
        if (buf_append(out, p, k) < 0)
            return SRV_CLOSE;
        *replied = SRV_REPLY_REQUEST;
        return (ssize_t)k;
    }
    k = c->msg - c->have;
    if (k > n)
        k = n;
    if (buf_append(out, p, k) < 0)
        return SRV_CLOSE;
    c->have += k;
    if (c->have == c->msg) {
        c->have = 0;
        *replied = SRV_REPLY_REQUEST;
    }
    return (ssize_t)k;
}

static size_t srv_tcp_max_request(const struct drv_opts *o)
{
    return o->payload ? o->payload : TCP_CHUNK;
}

const struct srv_proto srv_tcp = {
    .name = "tcp",
    .conn_new = srv_tcp_conn_new,
    .conn_free = srv_tcp_conn_free,
    .feed = srv_tcp_feed,
    .max_request = srv_tcp_max_request,
};
