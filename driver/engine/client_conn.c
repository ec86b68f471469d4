/* A client connection's life (client_impl.h): setup of its buffers and workload state, the
 * non-blocking connect, the TLS handshake, the workload's hello, failure with its reconnect
 * backoff, and teardown. None of it runs per batch: the batches are client_loop.c's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/client_impl.h"
#include "clock.h"

void client_note_err(char *dst, size_t n, const char *msg)
{
    if (dst[0] == '\0')
        snprintf(dst, n, "%s", msg);
}

/* The worker's first error of any kind (the result's first_error is the earliest of all
 * workers'). Off the hot path: errors only. */
void client_note_first(struct worker *w, const char *msg, uint64_t now)
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
uint64_t cconn_inflight_measured_ops(const struct cconn *cc)
{
    uint64_t ops = 0;
    unsigned i, slot, win = cc->cap;

    for (i = 0; i < cc->count; i++) {
        slot = (cc->head + i) % win;
        if (cc->ring[slot].measured)
            ops += cc->ring[slot].n - (i == 0 ? cc->head_done : 0);
    }
    return ops;
}

void cconn_clear_flights(struct cconn *cc)
{
    cc->w->inflight -= cc->count;
    cc->head = cc->count = cc->head_done = cc->resend = 0;
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

/* Waits before opening cc again, twice as long as the last time (BACKOFF_MIN_NS to
 * BACKOFF_MAX_NS), so a server that refuses or drops every connection is not hammered. */
static void backoff_idle(struct cconn *cc, uint64_t now)
{
    cc->backoff_ns = cc->backoff_ns ? cc->backoff_ns * 2 : BACKOFF_MIN_NS;
    if (cc->backoff_ns > BACKOFF_MAX_NS)
        cc->backoff_ns = BACKOFF_MAX_NS;
    cc->retry_at = now + cc->backoff_ns;
    enter_state(cc, C_IDLE);
}

/* The connection failed or was dropped: its in-flight measured ops are errors of class
 * *counter; reconnect after a backoff unless the run no longer sends. */
void cconn_fail(struct cconn *cc, uint64_t *counter, uint64_t ops_weight, const char *why,
                uint64_t now)
{
    struct worker *w = cc->w;

    *counter += ops_weight ? cconn_inflight_measured_ops(cc) : 0;
    client_note_first(w, why, now);
    if (w->sending && now >= w->run->t0)
        cc->lost = 1;
    if (w->drops++ == 0 || w->drop_err[0] == '\0')
        snprintf(w->drop_err, sizeof(w->drop_err), "%s", why);
    cconn_clear_flights(cc);
    conn_close_transport(cc);
    cc->reopening = 0;
    if (w->running && !w->sending) {
        enter_state(cc, C_DONE);
        return;
    }
    backoff_idle(cc, now);
}

/* The server closed the connection on purpose: reopen it and send again what was in flight.
 * A transport that answered nothing waits the backoff first, so a server that closes every
 * connection it accepts is not hammered; requests sent again and lost again unanswered are
 * not a close on purpose (on_readable fails the connection then). */
void cconn_reopen(struct cconn *cc, uint64_t now)
{
    struct worker *w = cc->w;
    int answered = cc->tally.replies != cc->replies_at_open;

    if (w->running && now >= w->run->t0)
        cc->reopened++;
    if (cc->count > 0)
        cc->resent_unanswered = 1;
    cc->resend = cc->count;
    cc->head_started = 0;
    cc->wdata = NULL;
    cc->wlen = cc->woff = 0;
    cc->out.off = cc->out.len = 0;
    cc->tally.closing = 0;
    conn_close_transport(cc);
    if (w->running && !w->sending && cc->count == 0) {
        enter_state(cc, C_DONE);
        return;
    }
    cc->reopening = 1;
    if (answered) {
        cconn_start(cc, now);
        return;
    }
    backoff_idle(cc, now);
}

/* The server closed a ready connection between replies (an idle timeout, CLIENT KILL):
 * nothing of a reply is pending, and the requests in flight, if any, were not already sent
 * again after a close with no reply since. Such a close is reopened, not counted a drop. */
int cconn_closed_at_rest(const struct cconn *cc)
{
    const struct workload *wl = cc->w->run->wl;

    return cc->state == C_READY && buf_used(&cc->in) == 0 && wl->at_rest && wl->at_rest(cc->st) &&
           !(cc->count > 0 && cc->resent_unanswered);
}

/* After a reopen: the next batch of the ring still to be written again, rebuilt by the
 * workload (the head without the replies already in; latency still counts from its first
 * send). 1: its bytes are in cc->wdata, 0: none is left, -1: the connection failed. */
int cconn_resend_batch(struct cconn *cc)
{
    const struct workload *wl = cc->w->run->wl;
    const struct flight *f;
    unsigned pos, n;
    char err[ERR_MAX];

    if (cc->resend == 0)
        return 0;
    pos = cc->count - cc->resend;
    f = &cc->ring[(cc->head + pos) % cc->cap];
    n = f->n - (pos == 0 ? cc->head_done : 0);
    cc->resend--;
    if (wl->batch(cc->st, n, &cc->wdata, &cc->wlen) < 0 || cc->wlen == 0) {
        cc->wdata = NULL;
        snprintf(err, sizeof(err), "%s: batch of %u ops could not be built", wl->name, n);
        cconn_fail(cc, &cc->w->e_protocol, 1, err, clock_now_ns());
        return -1;
    }
    cc->woff = 0;
    return 1;
}

/* A connect-class failure (refused, handshake, hello). */
void cconn_connect_failed(struct cconn *cc, const char *why, uint64_t now)
{
    cc->w->e_connect++;
    client_note_err(cc->w->first_err, sizeof(cc->w->first_err), why);
    cconn_fail(cc, &cc->w->e_io, 1, why, now);
}

void cconn_start(struct cconn *cc, uint64_t now)
{
    const struct drv_opts *o = cc->w->run->o;
    char err[ERR_MAX];
    int fd;

    fd = conn_connect_start(o->host, o->port, err, sizeof(err));
    if (fd < 0) {
        enter_state(cc, C_CONNECTING);
        cconn_connect_failed(cc, err, now);
        return;
    }
    conn_init_plain(&cc->c, fd);
    cc->deadline = now + cc->w->run->timeout_ns;
    if (loop_add(&cc->w->loop, fd, EPOLLIN | EPOLLOUT, cc) < 0) {
        snprintf(err, sizeof(err), "epoll_ctl: %s", strerror(errno));
        enter_state(cc, C_CONNECTING);
        cconn_connect_failed(cc, err, now);
        return;
    }
    cc->events = EPOLLIN | EPOLLOUT;
    enter_state(cc, C_CONNECTING);
}

static void hello_start(struct cconn *cc, uint64_t now)
{
    const struct drv_opts *o = cc->w->run->o;
    const struct workload *wl = cc->w->run->wl;
    size_t small = HELLO_BASE + 2 * o->payload, big;
    char err[ERR_MAX];
    int rc;

    enter_state(cc, C_HELLO);
    if (!wl->hello) {
        cconn_ready(cc, now);
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
            cconn_connect_failed(cc, err, now);
            return;
        }
    }
    if (buf_used(&cc->hello) == 0) {
        buf_release(&cc->hello);
        cconn_ready(cc, now);
        return;
    }
    set_events(cc, EPOLLIN | EPOLLOUT);
    return;
oom:
    cconn_connect_failed(cc, "out of memory for the hello buffer", now);
}

void cconn_handshake_step(struct cconn *cc, uint64_t now)
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
    cconn_connect_failed(cc, err, now);
}

void cconn_connect_step(struct cconn *cc, uint64_t now)
{
    const struct drv_opts *o = cc->w->run->o;
    struct run *run = cc->w->run;
    char err[ERR_MAX];
    int fd = cc->c.fd;

    if (conn_finish_connect(fd, o->host, o->port, err, sizeof(err)) < 0) {
        cconn_connect_failed(cc, err, now);
        return;
    }
    if (run->tls) {
        if (conn_init_tls_client(&cc->c, fd, run->tls, o->sni[0] ? o->sni : o->host) < 0) {
            snprintf(err, sizeof(err), "tls '%s:%d': %s", o->host, o->port, cc->c.err);
            cc->c.fd = fd;
            cc->c.ops = &conn_plain_ops;
            cconn_connect_failed(cc, err, now);
            return;
        }
        enter_state(cc, C_HANDSHAKE);
        cconn_handshake_step(cc, now);
        return;
    }
    hello_start(cc, now);
}

void cconn_hello_read(struct cconn *cc, uint64_t now)
{
    const struct workload *wl = cc->w->run->wl;
    char err[ERR_MAX] = "";
    int done = 0;
    ssize_t used;

    if (!wl->hello_feed) {
        cconn_ready(cc, now);
        return;
    }
    used = wl->hello_feed(cc->st, cc->in.data + cc->in.off, buf_used(&cc->in), &done, err,
                          sizeof(err));
    if (used < 0) {
        cconn_connect_failed(cc, err[0] ? err : "handshake reply rejected", now);
        return;
    }
    buf_consume(&cc->in, (size_t)used);
    if (done)
        cconn_ready(cc, now);
}

void cconn_hello_write(struct cconn *cc, uint64_t now)
{
    ssize_t n;
    char err[ERR_MAX];

    while (buf_used(&cc->hello)) {
        n = cc->c.ops->write(&cc->c, cc->hello.data + cc->hello.off, buf_used(&cc->hello));
        if (n == CONN_RETRY)
            return;
        if (n < 0) {
            snprintf(err, sizeof(err), "connection %u: %s", cc->index, cc->c.err);
            cconn_connect_failed(cc, err, now);
            return;
        }
        buf_consume(&cc->hello, (size_t)n);
    }
    set_events(cc, EPOLLIN);
}

/* cc->out's room: the window's batches at an estimated size (requests carry some framing and
 * a key or path besides the payload), within OUT_GATHER_MIN..OUT_GATHER_MAX. It holds only
 * batches in flight, so what it occupies is bounded by the bytes in flight. */
static size_t gather_cap(const struct drv_opts *o)
{
    /* --rate: the batches due between two wake-ups of the worker, a few at most */
    double win = o->rate > 0 && o->window < 16 ? 16 : o->window;
    double est = win * o->pipeline * ((double)o->payload + 256);

    return est < OUT_GATHER_MIN   ? OUT_GATHER_MIN
           : est > OUT_GATHER_MAX ? OUT_GATHER_MAX
                                  : (size_t)est;
}

/* --rate: starts every ready connection's schedule at now; connection i of n is offset by
 * i/n of its gap (uniform), so the run's requests are evenly spaced. */
void client_rate_start(struct worker *w, uint64_t now)
{
    const struct drv_opts *o = w->run->o;
    double per_conn = o->rate / o->pipeline / o->connections;
    unsigned i, idx;

    for (i = 0; i < w->nconns; i++) {
        idx = w->conns[i].index;
        arrival_init(&w->conns[i].sched, now, per_conn, strcmp(o->arrival, "poisson") == 0,
                     0x9e3779b97f4a7c15ull * (idx + 1), (double)idx / o->connections);
    }
}

/* --rate: a connection's in-flight ring holds the batches due over --timeout (a server that
 * stalls that long fails the run anyway), within RATE_RING_MIN..RATE_RING_MAX; when it is
 * full the next batches wait, and count as late. */
static unsigned rate_ring_cap(const struct drv_opts *o)
{
    double per_conn = o->rate / o->pipeline / o->connections * o->timeout_s + 16;

    return per_conn < RATE_RING_MIN   ? RATE_RING_MIN
           : per_conn > RATE_RING_MAX ? RATE_RING_MAX
                                      : (unsigned)per_conn;
}

int cconn_setup(struct cconn *cc, struct worker *w, unsigned index)
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
    cc->cap = o->rate > 0 ? rate_ring_cap(o) : o->window;
    cc->ring = calloc(cc->cap, sizeof(*cc->ring));
    if (!cc->ring || buf_init(&cc->in, in_cap) < 0 ||
        buf_init(&cc->ctl, w->run->wl->ctl_cap ? w->run->wl->ctl_cap : CTL_CAP) < 0)
        return -1;
    if ((o->window > 1 || o->rate > 0) && buf_init(&cc->out, gather_cap(o)) < 0)
        return -1;
    cc->st =
        w->run->wl->conn_new(w->run->shared, index, splitmix(0x5eedull + index + (o->seed << 32)));
    return cc->st ? 0 : -1;
}

void cconn_teardown(struct cconn *cc)
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

/* client_impl.h */
uint64_t cconn_check_timers(struct worker *w, uint64_t now)
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
            if (w->running && !w->sending && cc->count == 0) {
                enter_state(cc, C_DONE);
                break;
            }
            if (!w->running)
                break; /* setup phase: one attempt per connection */
            if (now >= cc->retry_at)
                cconn_start(cc, now);
            t = cc->state == C_IDLE ? cc->retry_at : cc->deadline;
            break;
        case C_CONNECTING:
        case C_HANDSHAKE:
        case C_HELLO:
            if (now >= cc->deadline) {
                /* the hello bytes carry the --setup commands: name them, a blocking one
                 * (BLPOP) waits out any timeout */
                snprintf(err, sizeof(err), "connect '%s:%d': timed out after %gs%s",
                         w->run->o->host, w->run->o->port, w->run->o->timeout_s,
                         cc->state == C_HELLO && w->run->o->setup[0]
                             ? " (handshake and --setup not answered: a setup command may "
                               "block, e.g. BLPOP, or its data take longer than --timeout)"
                         : cc->state == C_HELLO     ? " (handshake not answered)"
                         : cc->state == C_HANDSHAKE ? " (tls handshake)"
                                                    : "");
                cconn_connect_failed(cc, err, now);
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
