/* Protocol tables and TLS not built yet. Each one's owner deletes its stub here when the
 * real one lands in its own file; this file goes away when it is empty. A table whose
 * batch/feed is NULL is "not built in": workload_for()/srv_proto_for() return NULL. */
#include <stdio.h>

#include "srvproto.h"
#include "tls.h"
#include "workload.h"

const struct workload wl_http = {.name = "http", .unit = "round trips/s"};
const struct workload wl_ws = {.name = "ws", .unit = "round trips/s"};
const struct srv_proto srv_http = {.name = "http"};
const struct srv_proto srv_ws = {.name = "ws"};

static int tls_missing(char *err, size_t errlen)
{
    snprintf(err, errlen, "TLS is not built into this driver yet");
    return -1;
}
struct tls_ctx *tls_client_ctx_new(const struct drv_opts *o, char *err, size_t errlen)
{
    (void)o;
    tls_missing(err, errlen);
    return NULL;
}
struct tls_ctx *tls_server_ctx_new(const struct drv_opts *o, char *err, size_t errlen)
{
    (void)o;
    tls_missing(err, errlen);
    return NULL;
}
void tls_ctx_free(struct tls_ctx *t)
{
    (void)t;
}
int conn_init_tls_client(struct conn *c, int fd, struct tls_ctx *t, const char *name)
{
    (void)fd, (void)t, (void)name;
    return tls_missing(c->err, sizeof(c->err));
}
int conn_init_tls_server(struct conn *c, int fd, struct tls_ctx *t)
{
    (void)fd, (void)t;
    return tls_missing(c->err, sizeof(c->err));
}
const struct conn_ops conn_tls_ops = {0};
const char *tls_library_version(void)
{
    return "none";
}
