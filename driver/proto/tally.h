/* tally: what the replies of a connection were, counted as a codec reads them (proto/resp.c)
 * and as a workload's feed() reports them to the engine (wl/workload.h). Here, below both,
 * so that a codec can count without knowing the workloads. */
#ifndef PAIRBENCH_TALLY_H
#define PAIRBENCH_TALLY_H

#include <stdint.h>

/* What feed() saw, added to by each call. replies = complete replies (ok + failed ones). */
struct wl_tally {
    uint64_t replies;  /* complete replies, in order; each completes one op */
    uint64_t ok;       /* of those, verified correct */
    uint64_t verify;   /* of those, well-formed but wrong (bad payload, wrong type...) */
    uint64_t protocol; /* server error replies (-ERR), bad status; counted per reply */
    /* The first failed reply's text ("NOAUTH Authentication required.", "HTTP status 500"),
     * written by the workload only while it is empty (the error path, never per reply);
     * when feed() returns -1 it may overwrite it with why the stream is malformed. The
     * engine reports it as the run's first error. */
    char why[160];
    /* Set by feed() when the reply it just completed is the last the server sends on this
     * connection on purpose (HTTP `Connection: close`, a WebSocket Close with status 1000 or
     * 1001): feed() returns right after that reply, and the engine reopens the connection
     * and sends again the requests in flight after it (they were never answered). The
     * engine clears it. */
    int closing;
};

#endif
