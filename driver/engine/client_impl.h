/* Inside the client engine (client.h is its public face): the state a worker thread and its
 * connections share between the engine's files, and the calls between them.
 *   client.c        client_run: workers, threads, the measured window
 *   client_conn.c   a connection's life: setup, connect, TLS handshake, hello, failure,
 *                   reconnect backoff, teardown
 *   client_loop.c   the worker's event loop: batches out, replies in, timers, the drain
 *   client_merge.c  the workers' counts merged into the result after they joined
 * Only client*.c include this header. All calls here run on the connection's worker thread
 * unless they say otherwise. */
#ifndef PAIRBENCH_CLIENT_IMPL_H
#define PAIRBENCH_CLIENT_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/arrival.h"
#include "buf.h"
#include "engine/conn.h"
#include "hist.h"
#include "engine/loop.h"
#include "engine/series.h"
#include "opts.h"
#include "result.h"
#include "engine/tls.h"
#include "wl/workload.h"

#define NS_PER_S 1000000000ull
#define IN_CAP_MIN (16u * 1024)
#define IN_CAP_START_MAX (256u * 1024)
#define IN_CAP_MAX (1024u * 1024 * 1024)
#define CTL_CAP (4u * 1024) /* a few WebSocket control frames */
#define OUT_GATHER_MIN (4u * 1024)
#define OUT_GATHER_MAX (64u * 1024)
#define HELLO_BASE (64u * 1024) /* workload.h promises hello() this much room */
#define HELLO_BIG_MAX (256u * 1024 * 1024)
#define BACKOFF_MIN_NS (20ull * 1000 * 1000)
#define BACKOFF_MAX_NS (1000ull * 1000 * 1000)
#define MAX_EVENTS 256
#define READ_BURST 32 /* full reads per readable event before the loop checks its deadlines */
#define ERR_MAX 600
#define RATE_RING_MIN 64u
#define RATE_RING_MAX 65536u

enum cstate {
    C_IDLE,       /* not connected, retry at retry_at */
    C_CONNECTING, /* non-blocking connect in progress */
    C_HANDSHAKE,  /* transport (TLS) handshake */
    C_HELLO,      /* workload hello bytes being written / answered */
    C_READY,      /* running batches */
    C_DONE,       /* closed for good */
};

struct flight {
    uint64_t sent_ns;
    unsigned n;
    unsigned measured;
};

struct worker;

struct cconn {
    struct conn c;
    struct worker *w;
    unsigned index;
    enum cstate state;
    void *st;
    struct buf in, ctl, hello;
    struct buf out; /* batches gathered for one write (window > 1; else cap 0) */
    /* the batch being written: bytes owned by the workload until the next batch() */
    const char *wdata;
    size_t wlen, woff;
    /* in-flight batches, oldest at head (includes the one being written); cap entries:
     * --window, or under --rate room for the batches due over --timeout */
    struct flight *ring;
    unsigned head, count, cap;
    struct arrival sched; /* --rate: when this connection's next batch is due */
    unsigned head_done;   /* replies already seen for the head batch */
    uint64_t replies_seen, ok_seen, verify_seen, protocol_seen;
    struct wl_tally tally;
    uint32_t events;
    int read_wants_write; /* TLS read needs EPOLLOUT */
    int head_started;     /* bytes of the head batch's replies are in (its reply is coming) */
    uint64_t retry_at, backoff_ns, deadline;
    uint64_t ready_ns; /* when the transport last became ready, reopens aside (0: never) */
    int lost;          /* dropped while the measured window was open */
    /* reopening after a close on purpose (docs/driver.md, "Connections the server closes"):
     * the flights at the ring's tail still to be written again on the new transport, a
     * reopen under way, the replies when this transport opened, whether requests were sent
     * again and not answered since, and the reopenings inside the measured window */
    unsigned resend;
    int reopening;
    uint64_t replies_at_open;
    int resent_unanswered;
    uint64_t reopened;
};

struct run;

struct worker {
    struct run *run;
    unsigned id;
    pthread_t th;
    int started;
    struct loop loop;
    struct loop_solo solo; /* one plain connection: its blocking-read wait */
    int solo_ok;           /* nconns == 1 and plain TCP */
    struct cconn *conns;
    unsigned nconns;
    struct hist *hist;
    uint64_t ops, batches, e_connect, e_io, e_protocol, e_verify, e_timeout;
    uint64_t last_done_ns, last_progress_ns, stop_ns;
    unsigned inflight; /* batches in flight on all this worker's connections */
    unsigned notready; /* connections not in C_READY/C_DONE (timers to check) */
    unsigned ever_ready;
    uint64_t measured_sent; /* measured batches started */
    int running;            /* past the start barrier */
    int sending;            /* may start new batches */
    int wave_open;          /* --lockstep: a wave is being sent (start_batch may start) */
    char first_err[ERR_MAX];
    unsigned drops;
    char drop_err[ERR_MAX];
    char err1[ERR_MAX]; /* the worker's first error of any kind, and when it happened */
    uint64_t err1_ns;
    /* --rate: measured batches sent against their due times, their ops, and the clock read
     * of the current pump() (one per pump: the batches due by then start together) */
    struct arrival_lag lag;
    uint64_t rate_ops;
    uint64_t pump_now;
    struct series series; /* the window interval by interval, the reply gaps (series.h) */
};

struct run {
    const struct drv_opts *o;
    const struct workload *wl;
    void *shared;
    struct tls_ctx *tls;
    pthread_barrier_t bar;
    uint64_t t0, t_end, timeout_ns;
    atomic_uint_fast64_t remaining; /* --requests: measured ops not yet reserved */
    atomic_int abort;
    int rated; /* --rate: open loop, batches start when due (arrival.h) */
    struct worker *workers;
};

/* Sets the connection's epoll interest to ev (no call when it already is, or when the
 * connection has no descriptor). On the hot path: inline in every file. */
static inline void set_events(struct cconn *cc, uint32_t ev)
{
    if (cc->events == ev || cc->c.fd < 0)
        return;
    if (loop_mod(&cc->w->loop, cc->c.fd, ev, cc) == 0)
        cc->events = ev;
}

/* Moves cc to state s, keeping the worker's count of connections not ready (whose timers
 * check_timers visits) right. */
static inline void enter_state(struct cconn *cc, enum cstate s)
{
    int was = cc->state != C_READY && cc->state != C_DONE;
    int is = s != C_READY && s != C_DONE;

    if (was && !is)
        cc->w->notready--;
    else if (!was && is)
        cc->w->notready++;
    cc->state = s;
}

/* client_conn.c ------------------------------------------------------------------------- */

/* Copies msg into dst (n bytes) unless dst already holds a message. */
void client_note_err(char *dst, size_t n, const char *msg);

/* The worker's first error of any kind, at now (0: read the clock); later ones are dropped.
 * The result's first_error is the earliest of all workers'. Off the hot path: errors only. */
void client_note_first(struct worker *w, const char *msg, uint64_t now);

/* Ops of cc's measured batches in flight (minus replies already seen for the head). */
uint64_t cconn_inflight_measured_ops(const struct cconn *cc);

/* Forgets cc's batches in flight and its pending output (the worker's inflight drops). */
void cconn_clear_flights(struct cconn *cc);

/* The connection failed or was dropped: adds its in-flight measured ops (when ops_weight)
 * to *counter, closes it and, unless the run no longer sends, retries after a backoff
 * (C_IDLE; C_DONE when the run has stopped sending). why names the connection and cause. */
void cconn_fail(struct cconn *cc, uint64_t *counter, uint64_t ops_weight, const char *why,
                uint64_t now);

/* The server closed cc on purpose after a complete reply (tally.closing) or between
 * replies (EOF at rest): reopens it, at once when this transport answered a reply, else
 * after the backoff, and marks the batches in flight to be sent again once it is ready.
 * Counted in cc->reopened when now is inside the measured window. */
void cconn_reopen(struct cconn *cc, uint64_t now);

/* Whether the server's close (EOF) of cc is one between replies, to be reopened: cc is
 * ready, nothing of a reply is pending (workload.at_rest), and its requests in flight, if
 * any, were not already sent again after a close with no reply since. */
int cconn_closed_at_rest(const struct cconn *cc);

/* After a reopen: rebuilds the next batch of the ring still to be written again (the head
 * without the replies already in) into cc->wdata. 1: done, 0: none is left, -1: the
 * connection failed. */
int cconn_resend_batch(struct cconn *cc);

/* A connect-class failure (refused, handshake, hello): counted once in e_connect, then as
 * cconn_fail (the batches in flight of a reopened connection are io errors). */
void cconn_connect_failed(struct cconn *cc, const char *why, uint64_t now);

/* Starts a non-blocking connect to --host:--port (C_CONNECTING, deadline now + --timeout);
 * a failure at once goes through cconn_connect_failed. */
void cconn_start(struct cconn *cc, uint64_t now);

/* Retries due reconnects and fails connects past their deadline; returns the earliest timer
 * still pending (0 = none). The worker's loop calls it (client_loop.c). */
uint64_t cconn_check_timers(struct worker *w, uint64_t now);

/* The next steps of the setup, on an event of a C_CONNECTING, C_HANDSHAKE or C_HELLO
 * connection: each ends in the next state, in cconn_ready or in cconn_connect_failed. */
void cconn_connect_step(struct cconn *cc, uint64_t now);
void cconn_handshake_step(struct cconn *cc, uint64_t now);
void cconn_hello_read(struct cconn *cc, uint64_t now);
void cconn_hello_write(struct cconn *cc, uint64_t now);

/* Sets up connection number index of worker w (C_IDLE, not connected): buffers, the
 * in-flight ring, the workload's per-connection state. 0, or -1 when out of memory (what
 * was allocated is freed by cconn_teardown). Runs before the worker's thread starts. */
int cconn_setup(struct cconn *cc, struct worker *w, unsigned index);

/* --rate: starts the schedule of each of w's connections at now (connection i of n offset by
 * i/n of its gap). */
void client_rate_start(struct worker *w, uint64_t now);

/* Closes the connection and frees what cconn_setup allocated; safe on a half set-up one.
 * Runs after the worker's thread was joined. */
void cconn_teardown(struct cconn *cc);

/* client_loop.c ------------------------------------------------------------------------- */

/* The transport and the hello are done: cc is C_READY and, once the run is past its start
 * barrier, sends its first batches. */
void cconn_ready(struct cconn *cc, uint64_t now);

/* The worker thread (arg: its struct worker): one connection attempt per connection, the
 * two start barriers of client_run, then batches until the run stops sending and its
 * batches in flight are answered or abandoned. Returns NULL. */
void *client_worker_main(void *arg);

/* client_merge.c ------------------------------------------------------------------------ */

/* After the nw workers joined: merges their counts into r (histogram, ops, errors, held
 * connections, the earliest first error), sets the elapsed time, unit and configured
 * window, and says on stderr when connections dropped or nothing succeeded. */
void client_finish(const struct run *run, unsigned nw, struct drv_result *r);

#endif
