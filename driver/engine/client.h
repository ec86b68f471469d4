/* The client engine: runs one measurement of a workload (workload.h) over plain TCP or TLS
 * connections, `workers` threads each with its own epoll loop and share of the connections,
 * and fills a struct drv_result. docs/driver.md describes the design. */
#ifndef PAIRBENCH_CLIENT_H
#define PAIRBENCH_CLIENT_H

#include <stddef.h>

#include "opts.h"
#include "result.h"

enum {
    CLIENT_OK = 0,      /* r is filled: print it */
    CLIENT_EUSAGE = -2, /* bad options found at setup (exit 2); err says which */
    CLIENT_EFAIL = -1,  /* could not connect at all, or nothing succeeded (exit 3) */
};

/* Runs the measurement described by o (protocol, transport, connections, ...). r must be
 * result_init()ed by the caller. Returns CLIENT_OK, CLIENT_EUSAGE or CLIENT_EFAIL with err
 * set ("connect '127.0.0.1:6379': Connection refused"). Also used by --serve after the
 * in-process server is up (o->port is then the server's port). */
int client_run(const struct drv_opts *o, struct drv_result *r, char *err, size_t errlen);

#endif
