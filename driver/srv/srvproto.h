/* The server side of one protocol, as the reference server (serve.c) drives it:
 * srv_tcp.c (echo), srv_http.c, srv_ws.c. Byte-level logic with no I/O.
 *
 * serve.c owns listening, accepting, epoll, TLS, and the --delay-us reply delay. For each
 * connection it feeds received bytes to feed(), which handles at most ONE complete request
 * per call and appends that request's reply to out (so serve.c can hold each reply back by
 * delay_us, and count requests exactly). */
#ifndef PAIRBENCH_SRVPROTO_H
#define PAIRBENCH_SRVPROTO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "buf.h"
#include "opts.h"

enum {
    SRV_CLOSE = -1, /* malformed or refused input: close this connection (others go on) */
};

/* What feed() set *replied to. */
enum { SRV_REPLY_NONE = 0, SRV_REPLY_REQUEST = 1, SRV_REPLY_PROTOCOL = 2 };

struct srv_proto {
    const char *name;
    /* Per connection; o is the server's options (payload = HTTP body size). NULL on OOM. */
    void *(*conn_new)(const struct drv_opts *o);
    void (*conn_free)(void *st);
    /* Consumes at most one complete request from p[0..n), appending its reply to out.
     * Returns bytes consumed: 0 = need more bytes, > 0 = consumed (then *replied says
     * what was appended: SRV_REPLY_REQUEST a request's reply — counted, and held back by
     * --delay-us; SRV_REPLY_PROTOCOL a protocol reply that is not a request, such as the
     * WebSocket handshake — held back too, not counted; 0 nothing), or SRV_CLOSE. Set *close_after
     * when the connection must close once out is flushed (HTTP "Connection: close", WebSocket close
     * frame). */
    ssize_t (*feed)(void *st, const char *p, size_t n, struct buf *out, int *replied,
                    int *close_after);
    /* Appends output the protocol held back for lack of room in out (HTTP/2 DATA its session
     * still has to send); serve.c calls it once out is written. 1 appended, 0 nothing, or
     * SRV_CLOSE. NULL: none is ever held back. */
    int (*more)(void *st, struct buf *out);
    /* Largest input one request may need buffered (the server sizes its buffers). */
    size_t (*max_request)(const struct drv_opts *o);
};

extern const struct srv_proto srv_tcp;
extern const struct srv_proto srv_http;
extern const struct srv_proto srv_ws;

const struct srv_proto *srv_proto_for(enum drv_proto p);

/* --stall MS/PERIOD_MS (srv_stall.c): o->stall in nanoseconds (both 0 when unset). */
void srv_stall_parse(const struct drv_opts *o, uint64_t *stall_ns, uint64_t *period_ns);
/* In the first stall_ns of every period_ns of CLOCK_MONOTONIC, sleeps to the stall's end;
 * otherwise returns at once (period_ns 0: never stalls). */
void srv_stall_hold(uint64_t stall_ns, uint64_t period_ns);

/* Reference server API (serve.c), used by "driver serve" and by --serve. */
struct server;
/* Starts listening and o->workers (or serve_workers for --serve) threads. *bound_port gets
 * the actual port. NULL with err set. */
struct server *server_start(const struct drv_opts *o, unsigned workers, int *bound_port, char *err,
                            size_t errlen);
/* Requests served so far (complete requests, all workers). */
unsigned long long server_requests(const struct server *s);
/* The server's worker threads, and the connections worker i has served so far (dealt round
 * robin: they differ by at most one, bar a worker whose hand-off queue was full). */
unsigned server_workers(const struct server *s);
unsigned long long server_worker_connections(const struct server *s, unsigned i);
/* Stops the threads, closes every connection, frees. */
void server_stop(struct server *s);

#endif
