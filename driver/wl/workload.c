/* Protocol lookup: the workload and reference-server tables built into this driver. A
 * table without its byte-level functions is a placeholder for a protocol not built in. */
#include <string.h>

#include "srv/srvproto.h"
#include "wl/workload.h"

const struct workload *workload_for(const struct drv_opts *o)
{
    const struct workload *w = NULL;

    switch (o->protocol) {
    case PROTO_REDIS:
        w = &wl_redis;
        break;
    case PROTO_TCP:
        w = &wl_tcp;
        break;
    case PROTO_HTTP:
        w = strcmp(o->http_version, "2") == 0 ? &wl_h2 : &wl_http;
        break;
    case PROTO_WS:
        w = &wl_ws;
        break;
    }
    return w && w->batch && w->feed ? w : NULL;
}

const struct srv_proto *srv_proto_for(enum drv_proto p)
{
    const struct srv_proto *s = NULL;

    switch (p) {
    case PROTO_TCP:
        s = &srv_tcp;
        break;
    case PROTO_HTTP:
        s = &srv_http;
        break;
    case PROTO_WS:
        s = &srv_ws;
        break;
    case PROTO_REDIS:
        break;
    }
    return s && s->feed && s->conn_new ? s : NULL;
}
