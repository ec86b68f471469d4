/* Protocol tables and TLS not built yet. Each one's owner deletes its stub here when the
 * real one lands in its own file; this file goes away when it is empty. A table whose
 * batch/feed is NULL is "not built in": workload_for()/srv_proto_for() return NULL. */
#include <stdio.h>

#include "srvproto.h"
#include "workload.h"
