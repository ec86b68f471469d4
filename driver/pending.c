/* Protocol tables and TLS not built yet. Each one's owner deletes its stub here when the
 * real one lands in its own file; this file goes away when it is empty. A table whose
 * batch/feed is NULL is "not built in": workload_for()/srv_proto_for() return NULL. */
#include <stdio.h>

#include "srvproto.h"
#include "workload.h"

const struct workload wl_http = {.name = "http", .unit = "round trips/s"};
const struct workload wl_ws = {.name = "ws", .unit = "round trips/s"};
const struct srv_proto srv_http = {.name = "http"};
const struct srv_proto srv_ws = {.name = "ws"};

