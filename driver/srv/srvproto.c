/* Protocol lookup: the reference-server tables built into this driver. A table without its
 * byte-level functions is a placeholder for a protocol not built in. */
#include "srv/srvproto.h"

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
