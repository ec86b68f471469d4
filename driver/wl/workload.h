/* The client side of one protocol, as the engine (client.c) drives it. One file per
 * protocol implements this table: wl_redis.c, wl_tcp.c, wl_http.c, wl_ws.c. Everything here
 * is byte-level logic with no I/O, so it can be unit-tested and fuzzed without sockets.
 *
 * The engine owns sockets, epoll, timing and counting. Per connection it:
 *   1. connects (and completes TLS),
 *   2. writes hello() bytes if any and feeds replies to hello_feed() until done,
 *   3. repeatedly asks batch() for the bytes of a batch of n ops (n = pipeline, or fewer for
 *      the last batch under --requests), keeps up to `window` batches in flight,
 *   4. feeds every byte read to feed(), which reports each complete reply in order.
 * A batch is complete when `n` replies for it have been reported; its latency is from the
 * write of its first byte to the read that completed it. */
#ifndef PAIRBENCH_WORKLOAD_H
#define PAIRBENCH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "buf.h"
#include "opts.h"
#include "proto/tally.h"

struct workload {
    const char *name; /* "redis" */
    const char *unit; /* "commands/s" or "round trips/s" */

    /* Once per process, before any connection: pre-build payloads and batches, load
     * secrets. *shared is passed to conn_new. 0, or -1 with err set (exit 2 for bad
     * options, the engine decides). May be NULL. */
    int (*setup)(const struct drv_opts *o, void **shared, char *err, size_t errlen);
    void (*teardown)(void *shared);

    /* Per connection; allocates everything this connection's hot path needs. index is the
     * global connection number, seed a per-connection random seed. NULL on out of memory. */
    void *(*conn_new)(void *shared, unsigned index, uint64_t seed);
    void (*conn_free)(void *st);

    /* Bytes to send once the transport is up (AUTH/HELLO, prefill, WebSocket upgrade).
     * Appends to out; 0 means nothing to send (then hello_feed is not called). -1 error.
     * Called again on the same state for every new transport (reconnect after a drop):
     * reset per-transport parsing state here. out has room for 64 KiB + 2 x payload; when
     * hello() returns -1 the engine retries once with 64 KiB + 1024 x (payload + 64) bytes
     * (at most 256 MiB) before counting a connect error. */
    int (*hello)(void *st, struct buf *out);
    /* Consumes handshake reply bytes. Returns bytes consumed (>= 0) and sets *done when the
     * handshake is complete; -1 on failure with a message in err (wrong password, bad
     * Sec-WebSocket-Accept): the engine counts a connect error and reports err. */
    ssize_t (*hello_feed)(void *st, const char *p, size_t n, int *done, char *err, size_t errlen);

    /* The bytes of one batch of n ops. Sets *data and *len to memory owned by the workload,
     * valid until the next batch() call on this connection (pre-built when constant).
     * 0 or -1 (n too large: a bug). *len may be 0 when the protocol holds the requests back
     * (HTTP/2 over the peer's stream limit): feed() queues their bytes on ctl later. */
    int (*batch)(void *st, unsigned n, const char **data, size_t *len);

    /* Consumes reply bytes p[0..n). Returns bytes consumed (a partial reply may be left
     * unconsumed: the engine keeps it and calls again with more), or -1 when the stream is
     * malformed (the engine counts a protocol error and drops the connection). Adds each
     * complete reply to t. Control frames the protocol must answer (WebSocket ping) are
     * appended to ctl, which the engine writes before the next batch. */
    ssize_t (*feed)(void *st, const char *p, size_t n, struct wl_tally *t, struct buf *ctl);

    /* Whether the replies fed so far end on a reply boundary (no reply begun but not
     * complete), so that the server closing the connection now is a close between replies
     * (an idle timeout, `CLIENT KILL`) that the engine reopens, rather than a reply cut
     * short. Called on the close path only. NULL: every close is a failure. */
    int (*at_rest)(const void *st);

    /* Each batch that completed, in the order batch() made them (a new transport, hello(),
     * starts over): its n ops, round trip, and whether it was measured. May be NULL. */
    void (*batch_done)(void *st, unsigned n, uint64_t rtt_ns, int measured);

    /* After the run, before teardown: an object of keys added to the result ("setup",
     * "commands"), or NULL. elapsed_s: the measured window. May be NULL. */
    json_t *(*report)(void *shared, double elapsed_s);

    /* Room for ctl bytes one feed() may queue; 0: a few WebSocket control frames' worth. */
    size_t ctl_cap;
};

extern const struct workload wl_redis;
extern const struct workload wl_tcp;
extern const struct workload wl_http;
extern const struct workload wl_ws;
extern const struct workload wl_h2;

/* The workload for o's protocol (HTTP/2 for http with http_version "2"), or NULL when it is
 * not built in. */
const struct workload *workload_for(const struct drv_opts *o);

#endif
