/* The worker's event loop (client_impl.h), the engine's hot path: batches are started and
 * written (gathered into one write when several start together), replies are read, fed to
 * the workload and accounted batch by batch, reconnect and connect timers are checked, and
 * at the end the batches in flight are drained or abandoned. A worker with one plain TCP
 * connection waits for its replies in a blocking read instead of epoll_wait
 * (loop_solo_read). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/client_impl.h"
#include "clock.h"

static void pump(struct cconn *cc);

void cconn_ready(struct cconn *cc, uint64_t now)
{
    struct worker *w = cc->w;

    buf_release(&cc->hello);
    enter_state(cc, C_READY);
    cc->backoff_ns = 0;
    if (!cc->reopening)
        cc->ready_ns = now; /* a reopened connection is held as before (not lost) */
    cc->reopening = 0;
    cc->replies_at_open = cc->tally.replies;
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
 * in the ring. Under --rate only a batch already due by this pump's clock reading starts, and
 * its round trip counts from its due time (a stall of the server or of the driver is
 * counted in full). 1: started, 0: none may start now, -1: the connection failed. */
static int start_batch(struct cconn *cc)
{
    struct worker *w = cc->w;
    struct run *run = w->run;
    const struct drv_opts *o = run->o;
    uint64_t now, due;
    unsigned take, slot;
    int measured;
    char err[ERR_MAX];

    if (!w->running || !w->sending || cc->count >= cc->cap)
        return 0;
    if (o->lockstep && (!w->wave_open || cc->count > 0))
        return 0; /* one batch per connection per wave, and only while the wave goes out */
    if (run->rated) {
        now = w->pump_now;
        due = cc->sched.next_ns;
        if (due > now || (run->t_end && due >= run->t_end))
            return 0;
    } else {
        now = due = clock_now_ns();
    }
    if (window_closed(w, now, 1)) {
        w->sending = 0;
        w->stop_ns = now;
        return 0;
    }
    measured = due >= run->t0;
    take = o->pipeline;
    if (o->requests && measured) {
        take = reserve(run, o->pipeline);
        if (take == 0) {
            w->sending = 0;
            w->stop_ns = now;
            return 0;
        }
    }
    if (run->wl->batch(cc->st, take, &cc->wdata, &cc->wlen) < 0) {
        cc->wdata = NULL;
        snprintf(err, sizeof(err), "%s: batch of %u ops could not be built", run->wl->name, take);
        w->e_protocol += measured ? take : 0;
        cconn_fail(cc, &w->e_protocol, 1, err, now);
        return -1;
    }
    cc->woff = 0;
    slot = (cc->head + cc->count) % cc->cap;
    cc->ring[slot].sent_ns = due;
    cc->ring[slot].n = take;
    cc->ring[slot].measured = (unsigned)measured;
    w->measured_sent += (unsigned)measured;
    cc->count++;
    w->inflight++;
    if (run->rated) {
        arrival_advance(&cc->sched);
        if (measured) {
            arrival_note(&w->lag, due, now);
            w->rate_ops += take;
        }
    }
    return 1;
}

/* Whether another batch may start on cc now (pump() gathers while it may). */
static int may_start_more(const struct cconn *cc)
{
    if (cc->w->run->rated)
        return cc->count < cc->cap && cc->sched.next_ns <= cc->w->pump_now;
    return cc->count < cc->cap;
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
    char err[ERR_MAX];
    int r;

    if (cc->w->run->rated)
        cc->w->pump_now = clock_now_ns();
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
        if (cc->resend) {
            if (cconn_resend_batch(cc) < 0)
                return;
            continue;
        }
        if ((r = start_batch(cc)) <= 0)
            break;
        /* gather: from the first batch on if another may start (cc->out is empty here) */
        while (cc->wlen <= buf_space(&cc->out) && (buf_used(&cc->out) || may_start_more(cc))) {
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
    cconn_fail(cc, &cc->w->e_io, 1, err, clock_now_ns());
}

/* The first failed reply's text: the workload's (tally.why: "NOAUTH ...", "HTTP status 500")
 * or, when it gave none, what kind of failure it counted. */
static void note_reply_error(struct cconn *cc, const char *kind, uint64_t now)
{
    char msg[ERR_MAX];

    snprintf(msg, sizeof(msg), "%s: %s", cc->w->run->wl->name,
             cc->tally.why[0] ? cc->tally.why : kind);
    client_note_first(cc->w, msg, now);
}

/* Accounts replies the workload reported since the last call: completes batches in order. */
static int account(struct cconn *cc, uint64_t now)
{
    struct worker *w = cc->w;
    uint64_t nrep = cc->tally.replies - cc->replies_seen;
    uint64_t nok = cc->tally.ok - cc->ok_seen, nver = cc->tally.verify - cc->verify_seen;
    uint64_t nprot = cc->tally.protocol - cc->protocol_seen;
    uint64_t m = 0, ver_m, prot_m;
    struct series_bin *sb = NULL; /* this read's interval (series.h) */
    struct flight *f;
    unsigned take;

    cc->replies_seen = cc->tally.replies;
    cc->ok_seen = cc->tally.ok;
    cc->verify_seen = cc->tally.verify;
    cc->protocol_seen = cc->tally.protocol;
    (void)nok;
    if (nrep > 0) {
        cc->resent_unanswered = 0;
        sb = series_reply(&w->series, now);
    }
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
                series_done(sb, now - f->sent_ns);
                w->batches++;
                w->last_done_ns = now;
            }
            if (w->run->wl->batch_done)
                w->run->wl->batch_done(cc->st, f->n, now - f->sent_ns, f->measured);
            cc->head = (cc->head + 1) % cc->cap;
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
    series_ops(sb, m - ver_m - prot_m);
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

/* Part of the head batch's replies is in: the server is sending it, and the rest is waited
 * for asleep. A poll there would catch each piece as it comes, a few microseconds apart, and
 * spend the client's CPU waiting on a busy server (the figures: docs/results/driver.md,
 * "Polling only until a reply starts"); a sleep wakes to several pieces at once. Polling is
 * for the wait until a reply starts. */
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
            cconn_fail(cc, &w->e_protocol, 1, err, clock_now_ns());
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
        if (n == 0 && cconn_closed_at_rest(cc)) {
            cconn_reopen(cc, now);
            return;
        }
        if (n == 0 || n < 0) {
            if (n == 0)
                snprintf(err, sizeof(err), "connection %u: closed by the server%s", cc->index,
                         cc->state == C_READY && wl->at_rest && !wl->at_rest(cc->st)
                             ? " in the middle of a reply"
                             : "");
            else
                snprintf(err, sizeof(err), "connection %u: %s", cc->index, cc->c.err);
            if (cc->state == C_READY)
                cconn_fail(cc, &w->e_io, 1, err, now);
            else
                cconn_connect_failed(cc, err, now);
            return;
        }
        cc->read_wants_write = 0;
        cc->in.len += (size_t)n;
        if (cc->state == C_HELLO) {
            cconn_hello_read(cc, now);
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
            cconn_fail(cc, &w->e_protocol, 1, err, now);
            return;
        }
        buf_consume(&cc->in, (size_t)used);
        before = cc->count;
        if (account(cc, now) < 0) {
            snprintf(err, sizeof(err), "connection %u: %s: reply without a request", cc->index,
                     wl->name);
            w->e_protocol++;
            cconn_fail(cc, &w->e_protocol, 1, err, now);
            return;
        }
        if (cc->tally.closing) {
            /* its last reply is in: the server closes it on purpose. The answer to a
             * WebSocket Close goes out if the socket takes it at once (a courtesy only) */
            if (buf_used(&cc->ctl))
                (void)cc->c.ops->write(&cc->c, cc->ctl.data + cc->ctl.off, buf_used(&cc->ctl));
            cconn_reopen(cc, now);
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

static void on_event(struct cconn *cc, uint32_t ev)
{
    uint64_t now;

    switch (cc->state) {
    case C_CONNECTING:
        cconn_connect_step(cc, clock_now_ns());
        break;
    case C_HANDSHAKE:
        cconn_handshake_step(cc, clock_now_ns());
        break;
    case C_HELLO:
        now = clock_now_ns();
        if ((ev & EPOLLOUT) && buf_used(&cc->hello))
            cconn_hello_write(cc, now);
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

static void abandon_all(struct worker *w, uint64_t now)
{
    uint64_t before = w->e_timeout;
    unsigned i;
    char msg[ERR_MAX];

    for (i = 0; i < w->nconns; i++) {
        w->e_timeout += cconn_inflight_measured_ops(&w->conns[i]);
        cconn_clear_flights(&w->conns[i]);
    }
    if (w->e_timeout > before) {
        snprintf(msg, sizeof(msg), "%llu requests not answered within --timeout %gs",
                 (unsigned long long)(w->e_timeout - before), w->run->o->timeout_s);
        client_note_first(w, msg, now);
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

/* --rate: pumps the ready connections whose next batch is due by now; returns the earliest
 * due time still to wait for (0: none), skipping connections that cannot send (a full ring
 * or socket: a reply or EPOLLOUT brings them back) and due times past the window. */
static uint64_t rate_pump_due(struct worker *w, uint64_t now)
{
    const struct run *run = w->run;
    uint64_t next = 0;
    struct cconn *cc;
    unsigned i;

    for (i = 0; i < w->nconns; i++) {
        cc = &w->conns[i];
        if (cc->state != C_READY || cc->count >= cc->cap || (cc->events & EPOLLOUT))
            continue;
        if (cc->sched.next_ns <= now) {
            pump(cc);
            if (cc->state != C_READY || cc->count >= cc->cap || (cc->events & EPOLLOUT))
                continue;
        }
        if (run->t_end && cc->sched.next_ns >= run->t_end)
            continue;
        if (!next || cc->sched.next_ns < next)
            next = cc->sched.next_ns;
    }
    return next;
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

/* --lockstep: the next wave, one batch on every ready connection in connection order, once
 * every batch of the last one is back. Returns whether a wave went out. */
static int send_wave(struct worker *w)
{
    unsigned i;

    if (!w->run->o->lockstep || !w->sending || w->inflight > 0)
        return 0;
    w->wave_open = 1;
    for (i = 0; i < w->nconns && w->sending; i++)
        if (w->conns[i].state == C_READY)
            pump(&w->conns[i]);
    w->wave_open = 0;
    return w->inflight > 0;
}

void *client_worker_main(void *arg)
{
    struct worker *w = arg;
    struct run *run = w->run;
    const struct drv_opts *o = run->o;
    uint64_t now, deadline, t, drain_at;
    unsigned i;

    /* setup: one connection attempt each, bounded by --timeout */
    now = clock_now_ns();
    for (i = 0; i < w->nconns; i++)
        cconn_start(&w->conns[i], now);
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
            cconn_check_timers(w, now); /* fails the attempts still pending, naming why */
            break;
        }
        run_events(w, min_nz(cconn_check_timers(w, now), deadline));
    }
    pthread_barrier_wait(&run->bar);
    pthread_barrier_wait(&run->bar);
    if (atomic_load(&run->abort))
        return NULL;

    w->running = 1;
    w->sending = 1;
    series_start(&w->series, run->t0);
    now = clock_now_ns();
    w->last_progress_ns = now;
    if (run->rated)
        client_rate_start(w, now);
    w->wave_open = 1;
    for (i = 0; i < w->nconns; i++) {
        struct cconn *cc = &w->conns[i];
        if (cc->state == C_READY)
            pump(cc);
        else if (cc->state == C_IDLE)
            cc->retry_at = now + BACKOFF_MIN_NS;
    }
    w->wave_open = 0;
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
            client_note_err(w->first_err, sizeof(w->first_err), "no progress within --timeout");
            client_note_first(w, "no reply and no connection within --timeout", now);
        }
        if (send_wave(w))
            continue;
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
        t = cconn_check_timers(w, now);
        deadline = min_nz(t, drain_at);
        if (w->sending && run->rated)
            deadline = min_nz(deadline, rate_pump_due(w, now));
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
