/* Protocol lookup: the workload tables built into this driver (the reference servers' are in
 * srv/srvproto.c). A table without its byte-level functions is a placeholder for a protocol
 * not built in. */
#include <string.h>

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
