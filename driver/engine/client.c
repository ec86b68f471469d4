/* The client engine (see client.h and docs/driver.md). Per worker thread: one epoll loop,
 * its share of the connections (round robin), a histogram and counters merged at the end.
 * Per connection: buffers and the in-flight ring are allocated at setup; batches are
 * written directly, those that start together in one write (EPOLLOUT only after a short
 * write), EPOLLIN stays registered, and one clock read is taken per batch sent and per read
 * event. A worker with one plain TCP connection waits for its replies in a blocking read
 * instead of epoll_wait (loop_solo_read): two system calls per round trip. */
#include "client.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "clock.h"
#include "conn.h"
#include "loop.h"
#include "tls.h"
#include "winmark.h"
#include "workload.h"

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
    /* in-flight batches, oldest at head (includes the one being written) */
    struct flight *ring;
    unsigned head, count;
    unsigned head_done; /* replies already seen for the head batch */
    uint64_t replies_seen, ok_seen, verify_seen, protocol_seen;
    struct wl_tally tally;
    uint32_t events;
    int read_wants_write; /* TLS read needs EPOLLOUT */
    int head_started;     /* bytes of the head batch's replies are in (its reply is coming) */
    uint64_t retry_at, backoff_ns, deadline;
    uint64_t ready_ns; /* when the transport last became ready (0: never) */
    int lost;          /* dropped while the measured window was open */
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
    char first_err[ERR_MAX];
    unsigned drops;
    char drop_err[ERR_MAX];
    char err1[ERR_MAX]; /* the worker's first error of any kind, and when it happened */
    uint64_t err1_ns;
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
    struct worker *workers;
};

static void set_events(struct cconn *cc, uint32_t ev)
{
    if (cc->events == ev || cc->c.fd < 0)
        return;
    if (loop_mod(&cc->w->loop, cc->c.fd, ev, cc) == 0)
        cc->events = ev;
}

static void note_err(char *dst, size_t n, const char *msg)
{
    if (dst[0] == '\0')
        snprintf(dst, n, "%s", msg);
}

/* The worker's first error of any kind (the result's first_error is the earliest of all
 * workers'). Off the hot path: errors only. */
static void note_first(struct worker *w, const char *msg, uint64_t now)
{
    if (w->err1[0] != '\0')
        return;
    snprintf(w->err1, sizeof(w->err1), "%s", msg);
    w->err1_ns = now ? now : clock_now_ns();
}

static uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Ops of measured batches in flight (minus replies already seen for the head). */
static uint64_t inflight_measured_ops(const struct cconn *cc)
{
    uint64_t ops = 0;
    unsigned i, slot, win = cc->w->run->o->window;

    for (i = 0; i < cc->count; i++) {
        slot = (cc->head + i) % win;
        if (cc->ring[slot].measured)
            ops += cc->ring[slot].n - (i == 0 ? cc->head_done : 0);
    }
    return ops;
}

static void clear_flights(struct cconn *cc)
{
    cc->w->inflight -= cc->count;
    cc->head = cc->count = cc->head_done = 0;
    cc->head_started = 0;
    cc->wdata = NULL;
    cc->wlen = cc->woff = 0;
    cc->out.off = cc->out.len = 0;
}

static void conn_close_transport(struct cconn *cc)
{
    if (cc->c.fd >= 0) {
        if (cc->w->solo.fd == cc->c.fd)
            loop_solo_reset(&cc->w->solo);
        loop_del(&cc->w->loop, cc->c.fd);
        cc->c.ops->close(&cc->c);
    }
    cc->c.fd = -1;
    cc->events = 0;
    cc->in.off = cc->in.len = 0;
    cc->ctl.off = cc->ctl.len = 0;
    buf_release(&cc->hello);
    cc->read_wants_write = 0;
}

static void enter_state(struct cconn *cc, enum cstate s)
{
    int was = cc->state != C_READY && cc->state != C_DONE;
    int is = s != C_READY && s != C_DONE;

    if (was && !is)
        cc->w->notready--;
    else if (!was && is)
        cc->w->notready++;
    cc->state = s;
}

/* The connection failed or was dropped: its in-flight measured ops are errors of class
 * *counter; reconnect after a backoff unless the run no longer sends. */
static void conn_fail(struct cconn *cc, uint64_t *counter, uint64_t ops_weight, const char *why,
                      uint64_t now)
{
    struct worker *w = cc->w;

    *counter += ops_weight ? inflight_measured_ops(cc) : 0;
    note_first(w, why, now);
    if (w->sending && now >= w->run->t0)
        cc->lost = 1;
    if (w->drops++ == 0 || w->drop_err[0] == '\0')
        snprintf(w->drop_err, sizeof(w->drop_err), "%s", why);
    clear_flights(cc);
    conn_close_transport(cc);
    if (w->running && !w->sending) {
        enter_state(cc, C_DONE);
        return;
    }
    cc->backoff_ns = cc->backoff_ns ? cc->backoff_ns * 2 : BACKOFF_MIN_NS;
    if (cc->backoff_ns > BACKOFF_MAX_NS)
        cc->backoff_ns = BACKOFF_MAX_NS;
    cc->retry_at = now + cc->backoff_ns;
    enter_state(cc, C_IDLE);
}

/* A connect-class failure (refused, handshake, hello). */
static void connect_failed(struct cconn *cc, const char *why, uint64_t now)
{
    cc->w->e_connect++;
    note_err(cc->w->first_err, sizeof(cc->w->first_err), why);
    conn_fail(cc, &cc->w->e_io, 0, why, now);
}

static void conn_start(struct cconn *cc, uint64_t now)
{
    const struct drv_opts *o = cc->w->run->o;
    char err[ERR_MAX];
    int fd;

    fd = conn_connect_start(o->host, o->port, err, sizeof(err));
    if (fd < 0) {
        enter_state(cc, C_CONNECTING);
        connect_failed(cc, err, now);
        return;
    }
    conn_init_plain(&cc->c, fd);
    cc->deadline = now + cc->w->run->timeout_ns;
    if (loop_add(&cc->w->loop, fd, EPOLLIN | EPOLLOUT, cc) < 0) {
        snprintf(err, sizeof(err), "epoll_ctl: %s", strerror(errno));
        enter_state(cc, C_CONNECTING);
        connect_failed(cc, err, now);
        return;
    }
    cc->events = EPOLLIN | EPOLLOUT;
    enter_state(cc, C_CONNECTING);
}

static void conn_ready(struct cconn *cc, uint64_t now);

static void hello_start(struct cconn *cc, uint64_t now)
{
    const struct drv_opts *o = cc->w->run->o;
    const struct workload *wl = cc->w->run->wl;
    size_t small = HELLO_BASE + 2 * o->payload, big;
    char err[ERR_MAX];
    int rc;

    enter_state(cc, C_HELLO);
    if (!wl->hello) {
        conn_ready(cc, now);
        return;
    }
    if (buf_init(&cc->hello, small) < 0)
        goto oom;
    rc = wl->hello(cc->st, &cc->hello);
    if (rc < 0) {
        big = o->payload + 64 > (HELLO_BIG_MAX - HELLO_BASE) / 1024
                  ? HELLO_BIG_MAX
                  : HELLO_BASE + 1024 * (o->payload + 64);
        buf_release(&cc->hello);
        if (buf_init(&cc->hello, big) < 0)
            goto oom;
        rc = wl->hello(cc->st, &cc->hello);
        if (rc < 0) {
            snprintf(err, sizeof(err), "%s: could not build the connection's hello bytes",
                     wl->name);
            connect_failed(cc, err, now);
            return;
        }
    }
    if (buf_used(&cc->hello) == 0) {
        buf_release(&cc->hello);
        conn_ready(cc, now);
        return;
    }
    set_events(cc, EPOLLIN | EPOLLOUT);
    return;
oom:
    connect_failed(cc, "out of memory for the hello buffer", now);
}

static void handshake_step(struct cconn *cc, uint64_t now)
{
    char err[ERR_MAX];
    int rc = cc->c.ops->handshake(&cc->c);

    if (rc == CONN_OK) {
        hello_start(cc, now);
        return;
    }
    if (rc == CONN_RETRY) {
        set_events(cc, cc->c.want_write ? EPOLLIN | EPOLLOUT : EPOLLIN);
        return;
    }
    /* The transport's message already names the peer ("tls handshake with 'H:P': ..."). */
    snprintf(err, sizeof(err), "%s", cc->c.err);
    connect_failed(cc, err, now);
}

static void connect_step(struct cconn *cc, uint64_t now)
{
    const struct drv_opts *o = cc->w->run->o;
    struct run *run = cc->w->run;
    char err[ERR_MAX];
    int fd = cc->c.fd;

    if (conn_finish_connect(fd, o->host, o->port, err, sizeof(err)) < 0) {
        connect_failed(cc, err, now);
        return;
    }
    if (run->tls) {
        if (conn_init_tls_client(&cc->c, fd, run->tls, o->sni[0] ? o->sni : o->host) < 0) {
            snprintf(err, sizeof(err), "tls '%s:%d': %s", o->host, o->port, cc->c.err);
            cc->c.fd = fd;
            cc->c.ops = &conn_plain_ops;
            connect_failed(cc, err, now);
            return;
        }
        enter_state(cc, C_HANDSHAKE);
        handshake_step(cc, now);
        return;
    }
    hello_start(cc, now);
}

static void pump(struct cconn *cc);

static void conn_ready(struct cconn *cc, uint64_t now)
{
    struct worker *w = cc->w;

    buf_release(&cc->hello);
    enter_state(cc, C_READY);
    cc->backoff_ns = 0;
    cc->ready_ns = now;
    w->ever_ready++;
    /* not progress for --requests: a server that accepts and then drops every request
     * would otherwise keep the run going for as many reconnects as there are requests */
    set_events(cc, EPOLLIN);
    if (w->running)
        pump(cc);
}

/* Duration mode: whether the worker must stop starting batches at now. No batch starts at
 * or after t_end, with one exception that keeps a run from ending with nothing measured:
 * a worker that has not started a measured batch yet, while a connection can still send
 * one (can_send: pump() on a ready connection; otherwise: batches are in flight, all of
 * them warm-up ones, whose completion lets their connection send), starts one more, at
 * most until t_end + --timeout. That happens when the process was descheduled across the
 * whole window or a round trip is longer than the window. Warm-up replies stay counted
 * nowhere, so this is the only way such a run measures something (its elapsed time is
 * then longer than --duration, and throughput is ops / elapsed as always). */
static int window_closed(const struct worker *w, uint64_t now, int can_send)
{
    const struct run *run = w->run;

    if (!run->t_end || now < run->t_end)
        return 0;
    if (w->measured_sent > 0 || now >= run->t_end + run->timeout_ns)
        return 1;
    return !can_send && w->inflight == 0;
}

/* When the worker's sending ends at the latest (0: --requests, no fixed end). */
static uint64_t window_end(const struct worker *w, uint64_t now)
{
    const struct run *run = w->run;

    if (!run->t_end || now < run->t_end)
        return run->t_end;
    return run->t_end + run->timeout_ns;
}

/* Reserves up to want measured ops under --requests; 0 when none are left. */
static unsigned reserve(struct run *run, unsigned want)
{
    uint_fast64_t cur = atomic_load_explicit(&run->remaining, memory_order_relaxed), take;

    do {
        if (cur == 0)
            return 0;
        take = cur < want ? cur : want;
    } while (!atomic_compare_exchange_weak_explicit(&run->remaining, &cur, cur - take,
                                                    memory_order_relaxed, memory_order_relaxed));
    return (unsigned)take;
}

/* Starts one batch if the window and the run allow: its bytes in cc->wdata/wlen, its flight
 * in the ring. 1: started, 0: none may start now, -1: the connection failed. */
static int start_batch(struct cconn *cc)
{
    struct worker *w = cc->w;
    struct run *run = w->run;
    const struct drv_opts *o = run->o;
    uint64_t now;
    unsigned take, slot;
    int measured;
    char err[ERR_MAX];

    if (!w->running || !w->sending || cc->count >= o->window)
        return 0;
    now = clock_now_ns();
    if (window_closed(w, now, 1)) {
        w->sending = 0;
        w->stop_ns = now;
        return 0;
    }
    measured = now >= run->t0;
    take = o->pipeline;
    if (o->requests && measured) {
        take = reserve(run, o->pipeline);
        if (take == 0) {
            w->sending = 0;
            w->stop_ns = now;
            return 0;
        }
    }
    if (run->wl->batch(cc->st, take, &cc->wdata, &cc->wlen) < 0 || cc->wlen == 0) {
        cc->wdata = NULL;
        snprintf(err, sizeof(err), "%s: batch of %u ops could not be built", run->wl->name, take);
        w->e_protocol += measured ? take : 0;
        conn_fail(cc, &w->e_protocol, 1, err, now);
        return -1;
    }
    cc->woff = 0;
    slot = (cc->head + cc->count) % o->window;
    cc->ring[slot].sent_ns = now;
    cc->ring[slot].n = take;
    cc->ring[slot].measured = (unsigned)measured;
    w->measured_sent += (unsigned)measured;
    cc->count++;
    w->inflight++;
    return 1;
}

/* Writes p[*off..n). 1: all written, 0: the socket is full (a short write: wait for
 * EPOLLOUT rather than spend a call on EAGAIN), -1: an error. */
static int write_from(struct cconn *cc, const char *p, size_t n, size_t *off)
{
    ssize_t k;

    if (*off == n)
        return 1;
    k = cc->c.ops->write(&cc->c, p + *off, n - *off);
    if (k == CONN_RETRY)
        return 0;
    if (k < 0)
        return -1;
    *off += (size_t)k;
    return *off == n;
}

static int write_buf(struct cconn *cc, struct buf *b)
{
    size_t off = 0;
    int r;

    if (!buf_used(b))
        return 1;
    r = write_from(cc, b->data + b->off, buf_used(b), &off);
    buf_consume(b, off);
    return r;
}

/* Writes what is pending in order (gathered batches, the rest of the current batch, control
 * bytes), then starts new batches while the window allows. Batches that start together -
 * the replies read at once freed several of the window's slots - are gathered in cc->out and
 * go out in one write, as a pipelining client sends them, instead of one system call each;
 * a batch too large for cc->out is written from the workload's memory. EPOLLOUT is
 * registered only while a write is short. */
static void pump(struct cconn *cc)
{
    unsigned window = cc->w->run->o->window;
    char err[ERR_MAX];
    int r;

    for (;;) {
        if ((r = write_buf(cc, &cc->out)) <= 0)
            goto written;
        if (cc->wdata) {
            if ((r = write_from(cc, cc->wdata, cc->wlen, &cc->woff)) <= 0)
                goto written;
            cc->wdata = NULL;
        }
        if ((r = write_buf(cc, &cc->ctl)) <= 0)
            goto written;
        if ((r = start_batch(cc)) <= 0)
            break;
        /* gather: from the first batch on if another may start (cc->out is empty here) */
        while (cc->wlen <= buf_space(&cc->out) && (buf_used(&cc->out) || cc->count < window)) {
            buf_append(&cc->out, cc->wdata, cc->wlen);
            cc->wdata = NULL;
            if ((r = start_batch(cc)) <= 0)
                break;
        }
        if (r < 0)
            return; /* start_batch() failed the connection */
    }
    if (r < 0)
        return;
    set_events(cc, cc->read_wants_write ? EPOLLIN | EPOLLOUT : EPOLLIN);
    return;
written:
    if (r == 0) {
        set_events(cc, EPOLLIN | EPOLLOUT);
        return;
    }
    snprintf(err, sizeof(err), "connection %u: %s", cc->index, cc->c.err);
    conn_fail(cc, &cc->w->e_io, 1, err, clock_now_ns());
}

/* The first failed reply's text: the workload's (tally.why: "NOAUTH ...", "HTTP status 500")
 * or, when it gave none, what kind of failure it counted. */
static void note_reply_error(struct cconn *cc, const char *kind, uint64_t now)
{
    char msg[ERR_MAX];

    snprintf(msg, sizeof(msg), "%s: %s", cc->w->run->wl->name,
             cc->tally.why[0] ? cc->tally.why : kind);
    note_first(cc->w, msg, now);
}

/* Accounts replies the workload reported since the last call: completes batches in order. */
static int account(struct cconn *cc, uint64_t now)
{
    struct worker *w = cc->w;
    const struct drv_opts *o = w->run->o;
    uint64_t nrep = cc->tally.replies - cc->replies_seen;
    uint64_t nok = cc->tally.ok - cc->ok_seen, nver = cc->tally.verify - cc->verify_seen;
    uint64_t nprot = cc->tally.protocol - cc->protocol_seen;
    uint64_t m = 0, ver_m, prot_m;
    struct flight *f;
    unsigned take;

    cc->replies_seen = cc->tally.replies;
    cc->ok_seen = cc->tally.ok;
    cc->verify_seen = cc->tally.verify;
    cc->protocol_seen = cc->tally.protocol;
    (void)nok;
    while (nrep > 0) {
        if (cc->count == 0)
            return -1; /* a reply nobody asked for */
        f = &cc->ring[cc->head];
        take = f->n - cc->head_done;
        if (take > nrep)
            take = (unsigned)nrep;
        cc->head_done += take;
        nrep -= take;
        if (f->measured)
            m += take;
        if (cc->head_done == f->n) {
            if (f->measured) {
                hist_record(w->hist, now - f->sent_ns);
                w->batches++;
                w->last_done_ns = now;
            }
            cc->head = (cc->head + 1) % o->window;
            cc->count--;
            cc->head_done = 0;
            w->inflight--;
            w->last_progress_ns = now;
        }
    }
    /* errors are attributed to the measured replies of this read first (exact unless one
     * read straddles the start of the measured window) */
    if ((nver || nprot) && w->err1[0] == '\0')
        note_reply_error(cc, nprot ? "an error reply" : "a reply that failed verification", now);
    ver_m = nver < m ? nver : m;
    prot_m = nprot < m - ver_m ? nprot : m - ver_m;
    w->e_verify += ver_m;
    w->e_protocol += prot_m;
    w->ops += m - ver_m - prot_m;
    return 0;
}

static int in_make_room(struct buf *b)
{
    char *p;
    size_t cap;

    buf_compact(b);
    if (buf_space(b) > 0)
        return 0;
    if (b->cap >= IN_CAP_MAX)
        return -1;
    cap = b->cap * 2;
    p = realloc(b->data, cap);
    if (!p)
        return -1;
    b->data = p;
    b->cap = cap;
    return 0;
}

static void hello_read(struct cconn *cc, uint64_t now);

/* Part of the head batch's replies is in: the server is sending it, and the rest is waited
 * for asleep. A poll there would catch each piece as it comes, a few microseconds apart, and
 * spend the client's CPU waiting on a busy server (ECHO 1 KiB at pipeline 64: 0.90 us of
 * client CPU per command polling, 0.61 asleep, for 15% more throughput); a sleep wakes to
 * several pieces at once. Polling is for the wait until a reply starts. */
static int cc_mid_batch(const struct cconn *cc)
{
    return cc->state == C_READY && cc->count > 0 && cc->head_started;
}

/* The first read of a one-connection worker's wait (see loop_solo_read): blocks until the
 * reply, EOF, an error or the deadline; CONN_RETRY when the deadline came first. */
static ssize_t solo_read(struct cconn *cc, void *buf, size_t len, uint64_t now, uint64_t deadline)
{
    ssize_t n;

    cc->w->loop.poll.skip = cc_mid_batch(cc);
    /* the drain and progress bounds are --timeout long: overrun them by 1/16 at most */
    n = loop_solo_read_polled(&cc->w->solo, &cc->w->loop.poll, cc->c.fd, buf, len, now, deadline,
                              cc->w->run->timeout_ns / 16);

    if (n >= 0)
        return n;
    if (errno == EAGAIN || errno == EINTR) {
        cc->c.want_write = 0;
        return CONN_RETRY;
    }
    snprintf(cc->c.err, sizeof(cc->c.err), "read: %s", strerror(errno));
    return CONN_ERROR;
}

/* Reads what the connection has. block_until != 0 (one-connection worker, batches in
 * flight): the first read waits for data until then, bounded by that absolute time (block_now
 * is the caller's current clock reading). */
static void on_readable(struct cconn *cc, uint64_t block_now, uint64_t block_until)
{
    struct worker *w = cc->w;
    const struct workload *wl = w->run->wl;
    uint64_t now = 0;
    ssize_t n, used;
    size_t space;
    unsigned reads = 0, before;
    char err[ERR_MAX];

    for (;;) {
        if (buf_space(&cc->in) == 0 && in_make_room(&cc->in) < 0) {
            snprintf(err, sizeof(err), "%s: a reply larger than %u MiB", wl->name,
                     IN_CAP_MAX >> 20);
            conn_fail(cc, &w->e_protocol, 1, err, clock_now_ns());
            return;
        }
        space = buf_space(&cc->in);
        if (block_until) {
            n = solo_read(cc, cc->in.data + cc->in.len, space, block_now, block_until);
            block_until = 0;
        } else {
            n = cc->c.ops->read(&cc->c, cc->in.data + cc->in.len, space);
        }
        if (n == CONN_RETRY) {
            cc->read_wants_write = cc->c.want_write;
            if (cc->read_wants_write)
                set_events(cc, EPOLLIN | EPOLLOUT);
            break;
        }
        if (now == 0)
            now = clock_now_ns();
        if (n == 0 || n < 0) {
            if (n == 0)
                snprintf(err, sizeof(err), "connection %u: closed by the server", cc->index);
            else
                snprintf(err, sizeof(err), "connection %u: %s", cc->index, cc->c.err);
            if (cc->state == C_READY)
                conn_fail(cc, &w->e_io, 1, err, now);
            else
                connect_failed(cc, err, now);
            return;
        }
        cc->read_wants_write = 0;
        cc->in.len += (size_t)n;
        if (cc->state == C_HELLO) {
            hello_read(cc, now);
            if (cc->state != C_READY)
                return;
            continue;
        }
        used = wl->feed(cc->st, cc->in.data + cc->in.off, buf_used(&cc->in), &cc->tally, &cc->ctl);
        if (used < 0) {
            account(cc, now);
            snprintf(err, sizeof(err), "connection %u: %s: malformed reply stream%s%s", cc->index,
                     wl->name, cc->tally.why[0] ? ": " : "", cc->tally.why);
            w->e_protocol++;
            conn_fail(cc, &w->e_protocol, 1, err, now);
            return;
        }
        buf_consume(&cc->in, (size_t)used);
        before = cc->count;
        if (account(cc, now) < 0) {
            snprintf(err, sizeof(err), "connection %u: %s: reply without a request", cc->index,
                     wl->name);
            w->e_protocol++;
            conn_fail(cc, &w->e_protocol, 1, err, now);
            return;
        }
        /* a read that completed no batch brought part of the head's replies (a workload
         * may consume a partial reply, so the input buffer alone cannot tell) */
        cc->head_started = cc->count == before || cc->head_done > 0 || buf_used(&cc->in) > 0;
        if (cc->c.ops->pending(&cc->c) == 0 && ((size_t)n < space || ++reads >= READ_BURST))
            break; /* a peer that never stops sending must not keep us from the deadlines */
    }
    /* the batches these replies freed go out now, before the next connection is read: the
     * server works on them while we read the rest (docs/driver.md, step 5) */
    if (cc->state == C_READY)
        pump(cc);
}

static void hello_read(struct cconn *cc, uint64_t now)
{
    const struct workload *wl = cc->w->run->wl;
    char err[ERR_MAX] = "";
    int done = 0;
    ssize_t used;

    if (!wl->hello_feed) {
        conn_ready(cc, now);
        return;
    }
    used = wl->hello_feed(cc->st, cc->in.data + cc->in.off, buf_used(&cc->in), &done, err,
                          sizeof(err));
    if (used < 0) {
        connect_failed(cc, err[0] ? err : "handshake reply rejected", now);
        return;
    }
    buf_consume(&cc->in, (size_t)used);
    if (done)
        conn_ready(cc, now);
}

static void hello_write(struct cconn *cc, uint64_t now)
{
    ssize_t n;
    char err[ERR_MAX];

    while (buf_used(&cc->hello)) {
        n = cc->c.ops->write(&cc->c, cc->hello.data + cc->hello.off, buf_used(&cc->hello));
        if (n == CONN_RETRY)
            return;
        if (n < 0) {
            snprintf(err, sizeof(err), "connection %u: %s", cc->index, cc->c.err);
            connect_failed(cc, err, now);
            return;
        }
        buf_consume(&cc->hello, (size_t)n);
    }
    set_events(cc, EPOLLIN);
}

static void on_event(struct cconn *cc, uint32_t ev)
{
    uint64_t now;

    switch (cc->state) {
    case C_CONNECTING:
        connect_step(cc, clock_now_ns());
        break;
    case C_HANDSHAKE:
        handshake_step(cc, clock_now_ns());
        break;
    case C_HELLO:
        now = clock_now_ns();
        if ((ev & EPOLLOUT) && buf_used(&cc->hello))
            hello_write(cc, now);
        if (cc->state == C_HELLO && (ev & (EPOLLIN | EPOLLERR | EPOLLHUP)))
            on_readable(cc, 0, 0);
        break;
    case C_READY:
        if (ev & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
            on_readable(cc, 0, 0);
        } else if (cc->read_wants_write) {
            on_readable(cc, 0, 0);
        }
        if (cc->state == C_READY && (ev & EPOLLOUT))
            pump(cc);
        break;
    case C_IDLE:
    case C_DONE:
        break;
    }
}

/* Retries due reconnects and fails connects past their deadline; returns the earliest
 * timer still pending (0 = none). */
static uint64_t check_timers(struct worker *w, uint64_t now)
{
    uint64_t next = 0, t;
    unsigned i;
    struct cconn *cc;
    char err[ERR_MAX];

    if (w->notready == 0)
        return 0;
    for (i = 0; i < w->nconns; i++) {
        cc = &w->conns[i];
        t = 0;
        switch (cc->state) {
        case C_IDLE:
            if (w->running && !w->sending) {
                enter_state(cc, C_DONE);
                break;
            }
            if (!w->running)
                break; /* setup phase: one attempt per connection */
            if (now >= cc->retry_at)
                conn_start(cc, now);
            t = cc->state == C_IDLE ? cc->retry_at : cc->deadline;
            break;
        case C_CONNECTING:
        case C_HANDSHAKE:
        case C_HELLO:
            if (now >= cc->deadline) {
                snprintf(err, sizeof(err), "connect '%s:%d': timed out after %gs%s",
                         w->run->o->host, w->run->o->port, w->run->o->timeout_s,
                         cc->state == C_HELLO       ? " (handshake not answered)"
                         : cc->state == C_HANDSHAKE ? " (tls handshake)"
                                                    : "");
                connect_failed(cc, err, now);
                t = cc->state == C_IDLE ? cc->retry_at : 0;
            } else {
                t = cc->deadline;
            }
            break;
        default:
            break;
        }
        if (t && (!next || t < next))
            next = t;
    }
    return next;
}

static void abandon_all(struct worker *w, uint64_t now)
{
    uint64_t before = w->e_timeout;
    unsigned i;
    char msg[ERR_MAX];

    for (i = 0; i < w->nconns; i++) {
        w->e_timeout += inflight_measured_ops(&w->conns[i]);
        clear_flights(&w->conns[i]);
    }
    if (w->e_timeout > before) {
        snprintf(msg, sizeof(msg), "%llu requests not answered within --timeout %gs",
                 (unsigned long long)(w->e_timeout - before), w->run->o->timeout_s);
        note_first(w, msg, now);
    }
}

static int mid_batch(const struct worker *w)
{
    unsigned i;

    for (i = 0; i < w->nconns; i++)
        if (cc_mid_batch(&w->conns[i]))
            return 1;
    return 0;
}

static void run_events(struct worker *w, uint64_t deadline)
{
    struct epoll_event ev[MAX_EVENTS];
    int n, i;

    if (w->loop.poll.max_ns)
        w->loop.poll.skip = mid_batch(w);
    n = loop_wait(&w->loop, ev, MAX_EVENTS, deadline);
    for (i = 0; i < n; i++)
        if (ev[i].data.ptr)
            on_event(ev[i].data.ptr, ev[i].events);
}

static uint64_t min_nz(uint64_t a, uint64_t b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return a < b ? a : b;
}

/* The worker's only connection is plain TCP, ready, with a batch in flight and nothing
 * left to write: its next event can only be a reply (or the connection closing). */
static int solo_can_wait(const struct worker *w)
{
    const struct cconn *cc = &w->conns[0];

    return w->solo_ok && cc->state == C_READY && cc->count > 0 && !cc->wdata &&
           buf_used(&cc->out) == 0 && buf_used(&cc->ctl) == 0 && !cc->read_wants_write &&
           cc->events == EPOLLIN;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct run *run = w->run;
    const struct drv_opts *o = run->o;
    uint64_t now, deadline, t, drain_at;
    unsigned i;

    /* setup: one connection attempt each, bounded by --timeout */
    now = clock_now_ns();
    for (i = 0; i < w->nconns; i++)
        conn_start(&w->conns[i], now);
    deadline = now + run->timeout_ns;
    while (w->notready > 0 && !atomic_load(&run->abort)) {
        unsigned waiting = 0;
        for (i = 0; i < w->nconns; i++)
            if (w->conns[i].state != C_READY && w->conns[i].state != C_IDLE &&
                w->conns[i].state != C_DONE)
                waiting++;
        now = clock_now_ns();
        if (waiting == 0)
            break;
        if (now >= deadline) {
            check_timers(w, now); /* fails the attempts still pending, naming why */
            break;
        }
        run_events(w, min_nz(check_timers(w, now), deadline));
    }
    pthread_barrier_wait(&run->bar);
    pthread_barrier_wait(&run->bar);
    if (atomic_load(&run->abort))
        return NULL;

    w->running = 1;
    w->sending = 1;
    now = clock_now_ns();
    w->last_progress_ns = now;
    for (i = 0; i < w->nconns; i++) {
        struct cconn *cc = &w->conns[i];
        if (cc->state == C_READY)
            pump(cc);
        else if (cc->state == C_IDLE)
            cc->retry_at = now + BACKOFF_MIN_NS;
    }
    for (;;) {
        now = clock_now_ns();
        if (w->sending && window_closed(w, now, 0)) {
            w->sending = 0;
            w->stop_ns = now;
        }
        if (w->sending && o->requests && now - w->last_progress_ns > run->timeout_ns) {
            /* no completion and no connection for --timeout: the server is gone */
            w->sending = 0;
            w->stop_ns = now;
            note_err(w->first_err, sizeof(w->first_err), "no progress within --timeout");
            note_first(w, "no reply and no connection within --timeout", now);
        }
        if (!w->sending && w->inflight == 0)
            break;
        drain_at = 0;
        if (!w->sending) {
            drain_at =
                (run->t_end && run->t_end < w->stop_ns ? run->t_end : w->stop_ns) + run->timeout_ns;
            if (now >= drain_at) {
                abandon_all(w, now);
                break;
            }
        }
        t = check_timers(w, now);
        deadline = min_nz(t, drain_at);
        if (w->sending)
            deadline = min_nz(deadline, window_end(w, now));
        if (w->sending && o->requests)
            deadline = min_nz(deadline, w->last_progress_ns + run->timeout_ns + 1);
        if (solo_can_wait(w)) {
            /* a batch in flight on the only connection: nothing but its reply (or the
             * drain/progress deadline) can happen, so wait for it in the read; --duration's
             * end is noticed when the reply is in, it only stops new batches */
            if (!w->sending)
                t = drain_at;
            else if (o->requests)
                t = w->last_progress_ns + run->timeout_ns + 1;
            else
                t = run->t_end + run->timeout_ns;
            on_readable(&w->conns[0], now, t);
            continue;
        }
        run_events(w, deadline);
    }
    return NULL;
}

/* cc->out's room: the window's batches at an estimated size (requests carry some framing and
 * a key or path besides the payload), within OUT_GATHER_MIN..OUT_GATHER_MAX. It holds only
 * batches in flight, so what it occupies is bounded by the bytes in flight. */
static size_t gather_cap(const struct drv_opts *o)
{
    double est = (double)o->window * o->pipeline * ((double)o->payload + 256);

    return est < OUT_GATHER_MIN   ? OUT_GATHER_MIN
           : est > OUT_GATHER_MAX ? OUT_GATHER_MAX
                                  : (size_t)est;
}

static int conn_setup(struct cconn *cc, struct worker *w, unsigned index)
{
    const struct drv_opts *o = w->run->o;
    /* room for a batch of replies; grows (rarely, never per op) when one reply is larger */
    size_t in_cap = IN_CAP_START_MAX;

    if (o->payload + 64 < IN_CAP_START_MAX / o->pipeline)
        in_cap = o->pipeline * (o->payload + 64);
    if (in_cap < IN_CAP_MIN)
        in_cap = IN_CAP_MIN;
    memset(cc, 0, sizeof(*cc));
    cc->c.fd = -1;
    cc->w = w;
    cc->index = index;
    cc->state = C_IDLE;
    w->notready++;
    cc->ring = calloc(o->window, sizeof(*cc->ring));
    if (!cc->ring || buf_init(&cc->in, in_cap) < 0 || buf_init(&cc->ctl, CTL_CAP) < 0)
        return -1;
    if (o->window > 1 && buf_init(&cc->out, gather_cap(o)) < 0)
        return -1;
    cc->st = w->run->wl->conn_new(w->run->shared, index, splitmix(0x5eedull + index));
    return cc->st ? 0 : -1;
}

static void conn_teardown(struct cconn *cc)
{
    if (cc->c.fd >= 0 && cc->c.ops)
        cc->c.ops->close(&cc->c);
    if (cc->st)
        cc->w->run->wl->conn_free(cc->st);
    buf_release(&cc->in);
    buf_release(&cc->ctl);
    buf_release(&cc->hello);
    buf_release(&cc->out);
    free(cc->ring);
}

static void workers_free(struct run *run, unsigned n)
{
    unsigned i, j;

    for (i = 0; i < n; i++) {
        struct worker *w = &run->workers[i];
        for (j = 0; j < w->nconns; j++)
            conn_teardown(&w->conns[j]);
        free(w->conns);
        hist_free(w->hist);
        if (w->loop.epfd >= 0)
            loop_release(&w->loop);
    }
    free(run->workers);
}

/* Merges the workers' counts into r after they joined: histogram, counters, held
 * connections, the earliest first error; *last = the last measured completion, *msent =
 * measured batches started, drop = the first dropped connection's message. */
static void collect(const struct run *run, unsigned nw, struct drv_result *r, uint64_t *last,
                    uint64_t *msent, char *drop, size_t droplen)
{
    const char *err1 = NULL;
    uint64_t err1_ns = 0;
    unsigned i, j;

    for (i = 0; i < nw; i++) {
        const struct worker *w = &run->workers[i];
        hist_merge(r->hist, w->hist);
        r->ops += w->ops;
        r->batches += w->batches;
        r->err_connect += w->e_connect;
        r->err_io += w->e_io;
        r->err_protocol += w->e_protocol;
        r->err_verify += w->e_verify;
        r->err_timeout += w->e_timeout;
        *msent += w->measured_sent;
        if (w->last_done_ns > *last)
            *last = w->last_done_ns;
        if (!drop[0] && w->drop_err[0])
            snprintf(drop, droplen, "%s", w->drop_err);
        if (w->err1[0] && (!err1 || w->err1_ns < err1_ns)) {
            err1 = w->err1;
            err1_ns = w->err1_ns;
        }
        /* held: ready when the window opened and not dropped while it was open */
        for (j = 0; j < w->nconns; j++) {
            const struct cconn *cc = &w->conns[j];
            if (cc->ready_ns && cc->ready_ns <= run->t0 && !cc->lost)
                r->conns_held++;
        }
    }
    if (err1)
        result_note_error(r, err1);
}

int client_run(const struct drv_opts *o, struct drv_result *r, char *err, size_t errlen)
{
    struct run run;
    struct drv_cpu cpu0, cpu1;
    struct timespec ts;
    uint64_t now, last = 0, ever = 0, msent = 0;
    unsigned i, nw = o->workers, made = 0;
    int rc = CLIENT_EFAIL, barrier = 0;
    char first[ERR_MAX] = "", drop[ERR_MAX] = "";

    memset(&run, 0, sizeof(run));
    run.o = o;
    run.timeout_ns = (uint64_t)(o->timeout_s * 1e9);
    run.wl = workload_for(o->protocol);
    if (!run.wl) {
        snprintf(err, errlen, "protocol '%s' is not built into this driver",
                 opts_proto_name(o->protocol));
        return CLIENT_EUSAGE;
    }
    if (run.wl->setup && run.wl->setup(o, &run.shared, err, errlen) < 0)
        return CLIENT_EUSAGE;
    if (o->transport == TRANSPORT_TLS) {
        run.tls = tls_client_ctx_new(o, err, errlen);
        if (!run.tls) {
            rc = CLIENT_EUSAGE;
            goto out;
        }
    }
    atomic_init(&run.remaining, o->requests);
    atomic_init(&run.abort, 0);
    if (nw > o->connections)
        nw = o->connections;
    run.workers = calloc(nw, sizeof(*run.workers));
    if (!run.workers) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (i = 0; i < nw; i++) {
        struct worker *w = &run.workers[i];
        unsigned j, count = o->connections / nw + (i < o->connections % nw ? 1 : 0);
        w->run = &run;
        w->id = i;
        w->loop.epfd = w->loop.wakefd = -1;
        loop_solo_reset(&w->solo);
        w->solo_ok = count == 1 && !run.tls && !getenv("PAIRBENCH_NO_SOLO");
        w->hist = hist_new();
        w->conns = calloc(count ? count : 1, sizeof(*w->conns));
        made = i + 1;
        if (!w->hist || !w->conns || loop_init(&w->loop, err, errlen) < 0) {
            snprintf(err, errlen, "out of memory or descriptors for worker %u", i);
            goto out;
        }
        w->loop.poll.max_ns = (uint64_t)o->busy_poll_us * 1000;
        for (j = 0; j < count; j++) {
            w->nconns++;
            if (conn_setup(&w->conns[j], w, i + j * nw) < 0) {
                snprintf(err, errlen, "out of memory for connection %u", i + j * nw);
                goto out;
            }
        }
    }
    if (pthread_barrier_init(&run.bar, NULL, nw + 1) != 0) {
        snprintf(err, errlen, "pthread_barrier_init failed");
        goto out;
    }
    barrier = 1;
    for (i = 0; i < nw; i++) {
        if (pthread_create(&run.workers[i].th, NULL, worker_main, &run.workers[i]) != 0) {
            snprintf(err, errlen, "pthread_create: %s", strerror(errno));
            /* the started ones are waiting at the barrier: there is no clean way back */
            return CLIENT_EFAIL;
        }
        run.workers[i].started = 1;
    }
    pthread_barrier_wait(&run.bar); /* every connection tried once */
    for (i = 0; i < nw; i++) {
        ever += run.workers[i].ever_ready;
        if (!first[0] && run.workers[i].first_err[0])
            snprintf(first, sizeof(first), "%s", run.workers[i].first_err);
    }
    if (ever == 0) {
        atomic_store(&run.abort, 1);
        pthread_barrier_wait(&run.bar);
        for (i = 0; i < nw; i++)
            pthread_join(run.workers[i].th, NULL);
        snprintf(err, errlen, "%s", first[0] ? first : "no connection could be established");
        goto out;
    }
    now = clock_now_ns();
    run.t0 = now + (uint64_t)(o->warmup_s * 1e9);
    run.t_end = o->requests ? 0 : run.t0 + (uint64_t)(o->duration_s * 1e9);
    pthread_barrier_wait(&run.bar);
    ts.tv_sec = (time_t)(run.t0 / NS_PER_S);
    ts.tv_nsec = (long)(run.t0 % NS_PER_S);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
    result_cpu_now(&cpu0);
    winmark_start();
    for (i = 0; i < nw; i++)
        pthread_join(run.workers[i].th, NULL);
    winmark_end();
    result_cpu_now(&cpu1);
    result_cpu_delta(r, &cpu0, &cpu1);
    collect(&run, nw, r, &last, &msent, drop, sizeof(drop));

    r->unit = run.wl->unit;
    /* a duration run's window is the whole configured window even when nothing completed
     * near its end (a server that stalls is slow, not fast); batches started inside it
     * and answered after it extend it to their completion */
    if (run.t_end && last < run.t_end)
        last = run.t_end;
    r->elapsed_ns = last > run.t0 ? last - run.t0 : 0;
    r->window_s = o->requests ? 0 : o->duration_s;
    r->conns_configured = o->connections;
    if (drop[0])
        fprintf(stderr, "driver: warning: connections failed during the run; first: %s\n", drop);
    if (r->ops == 0) {
        /* the result is still printed (status failed): say why on stderr as well */
        fprintf(stderr,
                "driver: no successful operation in the measured window (errors: connect %llu, io "
                "%llu, protocol %llu, verify %llu, timeout %llu)%s%s%s",
                (unsigned long long)r->err_connect, (unsigned long long)r->err_io,
                (unsigned long long)r->err_protocol, (unsigned long long)r->err_verify,
                (unsigned long long)r->err_timeout,
                msent ? "" : "; no measured batch was started (no warm-up reply in time)",
                drop[0] ? "; first: " : "", drop);
        fputc('\n', stderr);
    }
    rc = CLIENT_OK;
out:
    if (barrier)
        pthread_barrier_destroy(&run.bar);
    if (run.workers)
        workers_free(&run, made);
    if (run.tls)
        tls_ctx_free(run.tls);
    if (run.wl->teardown)
        run.wl->teardown(run.shared);
    return rc;
}
