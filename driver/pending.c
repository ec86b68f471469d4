/* Protocol tables and TLS not built yet. Each one's owner deletes its stub here when the
 * real one lands in its own file; this file goes away when it is empty. A table whose
 * batch/feed is NULL is "not built in": workload_for()/srv_proto_for() return NULL. */
#include <stdio.h>

#include "srvproto.h"
#include "workload.h"

#include "client.h"

int h2_run(const struct drv_opts *o, struct drv_result *r, char *err, size_t n)
{
    (void)o, (void)r;
    snprintf(err, n, "HTTP/2 is not built in yet");
    return -1;
}
