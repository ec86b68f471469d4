/* The reference server (see srvproto.h): one listening socket shared by `workers` threads,
 * each with its own epoll loop (EPOLLEXCLUSIVE accept; the connections are dealt round
 * robin, so each worker serves its share whichever one accepted), per-connection fixed
 * buffers, and the --delay-us knob: every reply is held back until delay_us after the read
 * that completed its request (per-reply release marks; the loop sleeps until the earliest),
 * and the --work knob: a fixed amount of CPU work per request, a slowdown whose cost per request
 * is the same in every process (a hold's is not: in a closed loop with many replies in flight
 * it lets the server batch more, and what it costs moves with the batching).
 * A misbehaving client only loses its own connection. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "buf.h"
#include "clock.h"
#include "engine/conn.h"
#include "engine/loop.h"
#include "srv/srv_extra.h"
#include "srv/srvproto.h"
#include "engine/tls.h"

#define MAX_EVENTS 256
#define MARKS_MAX 4096u
#define IN_MIN (16u * 1024)
#define OUT_MIN (64u * 1024)
#define ACCEPT_BURST 64
#define ACCEPT_PAUSE_NS (50ull * 1000 * 1000) /* out of descriptors and no spare: wait */
#define HANDOFF_MAX 1024u                     /* accepted descriptors waiting for their worker */

struct mark {
    uint64_t release_ns;
    uint64_t end; /* absolute output position the reply ends at */
};

struct sworker;

struct sconn {
    struct conn c;
    struct sworker *w;
    void *st;
    struct buf in, out;
    uint64_t out_appended, out_sent, out_released; /* absolute positions */
    struct mark *marks;
    unsigned mhead, mcount;
    uint32_t events;
    int handshaking;
    int close_after;
    int draining; /* refused and answered: our side is shut, what comes in is discarded */
    size_t drained;
    int blocked;                 /* input not fed: output or marks full */
    struct sconn *prev, *next;   /* all connections of the worker */
    struct sconn *dprev, *dnext; /* connections with pending release marks */
    int in_dlist;
};

struct sworker {
    struct server *s;
    pthread_t th;
    int started;
    struct loop loop;
    struct sconn *all, *delayed;
    int spare_fd;              /* held for running out of descriptors (srv_shed_one) */
    uint64_t accept_resume_ns; /* listener left out of this loop until then (0 = in it) */
    _Atomic unsigned long long requests;
    _Atomic unsigned long long accepted;
    /* connections another worker accepted for this one (round robin), adopted by this
     * worker's loop after loop_wake() */
    pthread_mutex_t hand_mu;
    int hand_mu_ok;
    int hand[HANDOFF_MAX];
    atomic_uint nhand;
    char pad[64];
};

struct server {
    struct drv_opts o;
    const struct srv_proto *proto;
    struct tls_ctx *tls;
    int lfd;
    char listen_tag; /* its address marks the listener's epoll events */
    unsigned nworkers;
    struct sworker *w;
    atomic_uint deal; /* accepted connections so far: the next one goes to w[deal % n] */
    atomic_int stop;
    size_t in_cap, out_cap, need; /* need: output room to feed one more request */
    uint64_t delay_ns;
    unsigned work;
    uint64_t stall_ns, stall_period_ns; /* --stall: 0 = never */
    struct srv_extra extra;             /* --extra-syscalls, --extra-allocs, --extra-wakeups */
};

/* --work: n rounds of a dependent multiply-xorshift chain (a few cycles each), kept by a
 * volatile store; fixed instructions, so the same n costs the same CPU in every process.
 * Static: inlined into feed_all, where test 644's flame graph expects the change. */
static void spend_work(unsigned n)
{
    static _Thread_local volatile uint64_t sink;
    uint64_t x = sink | 1;

    while (n--) {
        x *= 0x9e3779b97f4a7c15ull;
        x ^= x >> 29;
    }
    sink = x;
}

static void dlist_add(struct sconn *sc)
{
    struct sworker *w = sc->w;

    if (sc->in_dlist)
        return;
    sc->dprev = NULL;
    sc->dnext = w->delayed;
    if (w->delayed)
        w->delayed->dprev = sc;
    w->delayed = sc;
    sc->in_dlist = 1;
}

static void dlist_del(struct sconn *sc)
{
    if (!sc->in_dlist)
        return;
    if (sc->dprev)
        sc->dprev->dnext = sc->dnext;
    else
        sc->w->delayed = sc->dnext;
    if (sc->dnext)
        sc->dnext->dprev = sc->dprev;
    sc->in_dlist = 0;
}

/* Frees what a connection owns besides its socket and protocol state: buffers, release
 * marks, the struct. */
static void sconn_release(struct sconn *sc)
{
    buf_release(&sc->in);
    buf_release(&sc->out);
    free(sc->marks);
    free(sc);
}

static void sconn_free(struct sconn *sc)
{
    struct sworker *w = sc->w;

    dlist_del(sc);
    if (sc->prev)
        sc->prev->next = sc->next;
    else
        w->all = sc->next;
    if (sc->next)
        sc->next->prev = sc->prev;
    if (sc->c.fd >= 0) {
        loop_del(&w->loop, sc->c.fd);
        sc->c.ops->close(&sc->c);
    }
    if (sc->st)
        w->s->proto->conn_free(sc->st);
    sconn_release(sc);
}

static void set_events(struct sconn *sc, uint32_t ev)
{
    if (sc->events == ev)
        return;
    if (loop_mod(&sc->w->loop, sc->c.fd, ev, sc) == 0)
        sc->events = ev;
}

/* Moves due marks' replies into the releasable range. */
static void release_due(struct sconn *sc, uint64_t now)
{
    if (sc->w->s->delay_ns == 0) {
        sc->out_released = sc->out_appended;
        return;
    }
    while (sc->mcount && sc->marks[sc->mhead].release_ns <= now) {
        sc->out_released = sc->marks[sc->mhead].end;
        sc->mhead = (sc->mhead + 1) % MARKS_MAX;
        sc->mcount--;
    }
    if (sc->mcount)
        dlist_add(sc);
    else
        dlist_del(sc);
}

/* --delay-us: the output appended so far is released at release_ns. */
static void mark_add(struct sconn *sc, uint64_t release_ns)
{
    unsigned slot = (sc->mhead + sc->mcount) % MARKS_MAX;
    sc->marks[slot].release_ns = release_ns;
    sc->marks[slot].end = sc->out_appended;
    sc->mcount++;
    dlist_add(sc);
}

/* Feeds buffered input to the protocol, one request at a time. -1: close the connection. */
static int feed_all(struct sconn *sc, uint64_t read_ns)
{
    struct server *s = sc->w->s;
    size_t before;
    ssize_t rc;
    int replied;

    sc->blocked = 0;
    while (buf_used(&sc->in) > 0 && !sc->close_after) {
        if (buf_space(&sc->out) < s->need) {
            buf_compact(&sc->out);
            if (buf_space(&sc->out) < s->need) {
                sc->blocked = 1;
                break;
            }
        }
        if (s->delay_ns && sc->mcount == MARKS_MAX) {
            sc->blocked = 1;
            break;
        }
        replied = 0;
        before = buf_used(&sc->out);
        rc = s->proto->feed(sc->st, sc->in.data + sc->in.off, buf_used(&sc->in), &sc->out, &replied,
                            &sc->close_after);
        if (rc == SRV_CLOSE || rc < 0)
            return -1;
        if (rc == 0) {
            /* a request that cannot fit the input buffer is a misbehaving client */
            if (sc->in.off == 0 && buf_space(&sc->in) == 0)
                return -1;
            break;
        }
        buf_consume(&sc->in, (size_t)rc);
        sc->out_appended += buf_used(&sc->out) - before;
        if (replied == SRV_REPLY_REQUEST) {
            atomic_fetch_add_explicit(&sc->w->requests, 1, memory_order_relaxed);
            if (s->work)
                spend_work(s->work);
            srv_extra_request(&s->extra);
        }
        /* Held back: every reply, and also the echo of a partial message (a TCP peer that
         * sends fewer bytes than --payload, such as compare's readiness probe, gets them
         * back after the delay instead of never). */
        if ((replied || buf_used(&sc->out) > before) && s->delay_ns)
            mark_add(sc, read_ns + s->delay_ns);
    }
    return 0;
}

/* Closing with unread input makes the kernel answer with a reset, which can reach the client
 * before it reads our last reply (a 413, a 431, a WebSocket Close 1009): the client then sees
 * a reset instead of the answer. So a plain connection that closes with input left is shut
 * for writing and drained (srv_drain_read) until the client closes. 0, or -1: close now. */
static int drain_start(struct sconn *sc)
{
    if (buf_used(&sc->in) == 0 || sc->c.ops != &conn_plain_ops || shutdown(sc->c.fd, SHUT_WR) < 0)
        return -1;
    sc->draining = 1;
    sc->in.off = sc->in.len = 0;
    set_events(sc, EPOLLIN);
    return 0;
}

/* Once out is written: what the protocol held back for lack of room (srv_proto.more),
 * released at once. 1 appended, 0 nothing, -1 close. */
static int more_output(struct sconn *sc, uint64_t now)
{
    const struct server *s = sc->w->s;
    size_t before = buf_used(&sc->out);
    int rc;

    if (!s->proto->more || sc->out_sent < sc->out_released || sc->draining ||
        (s->delay_ns && sc->mcount == MARKS_MAX))
        return 0;
    if ((rc = s->proto->more(sc->st, &sc->out)) <= 0)
        return rc;
    sc->out_appended += buf_used(&sc->out) - before;
    if (s->delay_ns)
        mark_add(sc, now);
    return 1;
}

/* Writes released output and, when input was held back for lack of room, feeds it again;
 * updates the epoll mask. -1: close the connection. */
static int flush(struct sconn *sc, uint64_t now)
{
    uint64_t appended;
    ssize_t n;

    for (;;) {
        release_due(sc, now);
        while (sc->out_sent < sc->out_released) {
            n = sc->c.ops->write(&sc->c, sc->out.data + sc->out.off,
                                 (size_t)(sc->out_released - sc->out_sent));
            if (n == CONN_RETRY)
                break;
            if (n < 0)
                return -1;
            buf_consume(&sc->out, (size_t)n);
            sc->out_sent += (uint64_t)n;
        }
        if ((n = more_output(sc, now)) != 0) {
            if (n < 0)
                return -1;
            continue;
        }
        if (!sc->blocked || sc->out_sent < sc->out_released)
            break;
        appended = sc->out_appended;
        if (feed_all(sc, now) < 0)
            return -1;
        if (sc->out_appended == appended)
            break; /* no room yet: a release time or EPOLLOUT will bring us back */
    }
    if (sc->close_after && sc->out_sent == sc->out_appended)
        return drain_start(sc);
    set_events(sc, (sc->blocked ? 0 : EPOLLIN) | (sc->out_sent < sc->out_released ? EPOLLOUT : 0));
    return 0;
}

static void on_readable(struct sconn *sc)
{
    uint64_t now;
    ssize_t n;

    if (sc->draining) {
        if (srv_drain_read(sc->c.fd, &sc->drained) < 0)
            sconn_free(sc);
        return;
    }
    for (;;) {
        if (buf_space(&sc->in) == 0)
            buf_compact(&sc->in);
        if (buf_space(&sc->in) == 0)
            break; /* full: blocked until output drains */
        n = sc->c.ops->read(&sc->c, sc->in.data + sc->in.len, buf_space(&sc->in));
        if (n == CONN_RETRY)
            break;
        if (n <= 0)
            goto close;
        sc->in.len += (size_t)n;
        if (sc->c.ops->pending(&sc->c) == 0)
            break;
    }
    now = clock_now_ns();
    if (feed_all(sc, now) < 0 || flush(sc, now) < 0)
        goto close;
    return;
close:
    sconn_free(sc);
}

static void on_event(struct sconn *sc, uint32_t ev)
{
    int rc;

    if ((ev & (EPOLLERR | EPOLLHUP)) && !(ev & EPOLLIN)) {
        sconn_free(sc); /* reset or fully closed, nothing left to read: no reply can go out */
        return;
    }
    if (sc->handshaking) {
        rc = sc->c.ops->handshake(&sc->c);
        if (rc == CONN_RETRY) {
            set_events(sc, sc->c.want_write ? EPOLLOUT : EPOLLIN);
            return;
        }
        if (rc != CONN_OK) {
            sconn_free(sc);
            return;
        }
        sc->handshaking = 0;
        set_events(sc, EPOLLIN);
        on_readable(sc); /* the handshake may have buffered application data already */
        return;
    }
    if (ev & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
        on_readable(sc);
        return;
    }
    if ((ev & EPOLLOUT) && flush(sc, clock_now_ns()) < 0)
        sconn_free(sc);
}

/* Takes the accepted connection fd into w's loop (on w's thread); closes it on failure. */
static void adopt(struct sworker *w, int fd)
{
    struct server *s = w->s;
    struct sconn *sc = calloc(1, sizeof(*sc));

    if (!sc || buf_init(&sc->in, s->in_cap) < 0 || buf_init(&sc->out, s->out_cap) < 0 ||
        (s->delay_ns && !(sc->marks = calloc(MARKS_MAX, sizeof(*sc->marks)))) ||
        !(sc->st = s->proto->conn_new(&s->o))) {
        if (sc)
            sconn_release(sc);
        close(fd);
        return;
    }
    sc->w = w;
    conn_init_plain(&sc->c, fd);
    if (s->tls) {
        if (conn_init_tls_server(&sc->c, fd, s->tls) < 0) {
            sc->c.fd = fd;
            sc->c.ops = &conn_plain_ops;
            sc->st = (s->proto->conn_free(sc->st), NULL);
            sc->c.ops->close(&sc->c);
            sconn_release(sc);
            return;
        }
        sc->handshaking = 1;
    }
    sc->next = w->all;
    if (w->all)
        w->all->prev = sc;
    w->all = sc;
    sc->events = EPOLLIN;
    if (loop_add(&w->loop, fd, EPOLLIN, sc) < 0) {
        sc->events = 0;
        sconn_free(sc);
        return;
    }
    atomic_fetch_add_explicit(&w->accepted, 1, memory_order_relaxed);
}

/* Queues fd for worker t and wakes it. 0, or -1 when its queue is full (keep it here). */
static int hand_off(struct sworker *t, int fd)
{
    unsigned n;

    pthread_mutex_lock(&t->hand_mu);
    n = atomic_load(&t->nhand);
    if (n < HANDOFF_MAX) {
        t->hand[n] = fd;
        atomic_store(&t->nhand, n + 1);
    }
    pthread_mutex_unlock(&t->hand_mu);
    if (n >= HANDOFF_MAX)
        return -1;
    loop_wake(&t->loop);
    return 0;
}

/* The connections handed to w: adopted (adopt_them != 0) or closed. */
static void take_handed(struct sworker *w, int adopt_them)
{
    int fds[HANDOFF_MAX];
    unsigned n, i;

    if (!w->hand_mu_ok || atomic_load(&w->nhand) == 0)
        return;
    pthread_mutex_lock(&w->hand_mu);
    n = atomic_load(&w->nhand);
    memcpy(fds, w->hand, n * sizeof(fds[0]));
    atomic_store(&w->nhand, 0);
    pthread_mutex_unlock(&w->hand_mu);
    for (i = 0; i < n; i++) {
        if (adopt_them)
            adopt(w, fds[i]);
        else
            close(fds[i]);
    }
}

static void accept_some(struct sworker *w)
{
    struct server *s = w->s;
    struct sworker *t;
    int fd, i, rc, one = 1;

    for (i = 0; i < ACCEPT_BURST; i++) {
        fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            if (errno == EMFILE || errno == ENFILE) {
                rc = srv_shed_one(w->s->lfd, &w->spare_fd);
                if (rc > 0)
                    continue;
                if (rc < 0 && loop_del(&w->loop, s->lfd) == 0)
                    w->accept_resume_ns = clock_now_ns() + ACCEPT_PAUSE_NS;
            }
            return; /* EAGAIN, or out of memory and the like: try again on the next event */
        }
        (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        /* dealt round robin: EPOLLEXCLUSIVE wakes one worker, which then accepts the whole
         * queue; kept, 16 connections split anywhere from 8/8 to 16/0 across two workers,
         * and a server-bound run's rate followed the split */
        t = &s->w[atomic_fetch_add(&s->deal, 1) % s->nworkers];
        if (t == w || !t->hand_mu_ok || hand_off(t, fd) < 0)
            adopt(w, fd);
    }
}

static void *sworker_main(void *arg)
{
    struct sworker *w = arg;
    struct server *s = w->s;
    struct epoll_event ev[MAX_EVENTS];
    struct sconn *sc, *next;
    uint64_t deadline, now;
    int n, i;

    while (!atomic_load(&s->stop)) {
        take_handed(w, 1); /* first: a wake-up may have come before this loop existed */
        deadline = 0;
        for (sc = w->delayed; sc; sc = sc->dnext) {
            uint64_t t = sc->marks[sc->mhead].release_ns;
            if (!deadline || t < deadline)
                deadline = t;
        }
        if (w->accept_resume_ns && (!deadline || w->accept_resume_ns < deadline))
            deadline = w->accept_resume_ns;
        n = loop_wait(&w->loop, ev, MAX_EVENTS, deadline);
        if (n < 0)
            break;
        srv_stall_hold(s->stall_ns, s->stall_period_ns);
        srv_extra_hold(&s->extra);
        for (i = 0; i < n; i++) {
            if (ev[i].data.ptr == NULL)
                continue;
            if (ev[i].data.ptr == &s->listen_tag)
                accept_some(w);
            else
                on_event(ev[i].data.ptr, ev[i].events);
        }
        if (w->delayed) {
            now = clock_now_ns();
            for (sc = w->delayed; sc; sc = next) {
                next = sc->dnext;
                /* next was taken before flush(): flush may move sc to the list's head */
                if (sc->marks[sc->mhead].release_ns <= now && flush(sc, now) < 0)
                    sconn_free(sc);
            }
        }
        if (w->accept_resume_ns && clock_now_ns() >= w->accept_resume_ns) {
            if (loop_add(&w->loop, s->lfd, EPOLLIN | EPOLLEXCLUSIVE, &s->listen_tag) == 0)
                w->accept_resume_ns = 0;
            else
                w->accept_resume_ns = clock_now_ns() + ACCEPT_PAUSE_NS;
        }
    }
    for (sc = w->all; sc; sc = next) { /* next first: sconn_free() unlinks and frees sc */
        next = sc->next;
        sconn_free(sc);
    }
    return NULL;
}

unsigned long long server_requests(const struct server *s)
{
    unsigned long long n = 0;
    unsigned i;

    for (i = 0; i < s->nworkers; i++)
        n += atomic_load_explicit(&s->w[i].requests, memory_order_relaxed);
    return n;
}

unsigned server_workers(const struct server *s)
{
    return s->nworkers;
}

unsigned long long server_worker_connections(const struct server *s, unsigned i)
{
    return i < s->nworkers ? atomic_load_explicit(&s->w[i].accepted, memory_order_relaxed) : 0;
}

void server_stop(struct server *s)
{
    unsigned i;

    if (!s)
        return;
    atomic_store(&s->stop, 1);
    for (i = 0; i < s->nworkers; i++)
        if (s->w[i].started)
            loop_wake(&s->w[i].loop);
    for (i = 0; i < s->nworkers; i++) {
        if (s->w[i].started)
            pthread_join(s->w[i].th, NULL);
        if (s->w[i].loop.epfd >= 0)
            loop_release(&s->w[i].loop);
        if (s->w[i].spare_fd >= 0)
            close(s->w[i].spare_fd);
    }
    for (i = 0; i < s->nworkers; i++) { /* after every join: nothing is handed any more */
        take_handed(&s->w[i], 0);
        if (s->w[i].hand_mu_ok)
            pthread_mutex_destroy(&s->w[i].hand_mu);
    }
    srv_extra_stop(&s->extra);
    if (s->lfd >= 0)
        close(s->lfd);
    if (s->tls)
        tls_ctx_free(s->tls);
    free(s->w);
    free(s);
}

struct server *server_start(const struct drv_opts *o, unsigned workers, int *bound_port, char *err,
                            size_t errlen)
{
    struct server *s = calloc(1, sizeof(*s));
    size_t maxreq;
    unsigned i;

    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->o = *o;
    s->lfd = -1;
    atomic_init(&s->stop, 0);
    s->proto = srv_proto_for(o->protocol);
    if (!s->proto) {
        snprintf(err, errlen, "serve '%s': not built into this driver",
                 opts_proto_name(o->protocol));
        goto fail;
    }
    if (workers < 1)
        workers = 1;
    s->delay_ns = (uint64_t)o->delay_us * 1000u;
    s->work = o->work;
    srv_stall_parse(o, &s->stall_ns, &s->stall_period_ns);
    if (srv_extra_start(&s->extra, o, err, errlen) < 0)
        goto fail;
    maxreq = s->proto->max_request ? s->proto->max_request(o) : IN_MIN;
    s->in_cap = maxreq + 1 > IN_MIN ? maxreq + 1 : IN_MIN;
    s->need = maxreq + o->payload + 4096;
    s->out_cap = 2 * s->need > OUT_MIN ? 2 * s->need : OUT_MIN;
    if (o->transport == TRANSPORT_TLS) {
        s->tls = tls_server_ctx_new(o, err, errlen);
        if (!s->tls)
            goto fail;
    }
    s->lfd = conn_listen(o->host, o->port, 4096, bound_port, err, errlen);
    if (s->lfd < 0)
        goto fail;
    s->w = calloc(workers, sizeof(*s->w));
    if (!s->w) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    s->nworkers = workers;
    for (i = 0; i < workers; i++) {
        s->w[i].loop.epfd = s->w[i].loop.wakefd = -1;
        s->w[i].spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* -1: no shedding */
        s->w[i].hand_mu_ok = pthread_mutex_init(&s->w[i].hand_mu, NULL) == 0;
        atomic_init(&s->w[i].nhand, 0);
    }
    for (i = 0; i < workers; i++) {
        struct sworker *w = &s->w[i];
        w->s = s;
        if (loop_init(&w->loop, err, errlen) < 0)
            goto fail;
        if (loop_add(&w->loop, s->lfd, EPOLLIN | EPOLLEXCLUSIVE, &s->listen_tag) < 0) {
            snprintf(err, errlen, "epoll_ctl: %s", strerror(errno));
            goto fail;
        }
        if (pthread_create(&w->th, NULL, sworker_main, w) != 0) {
            snprintf(err, errlen, "pthread_create failed");
            goto fail;
        }
        w->started = 1;
    }
    return s;
fail:
    server_stop(s);
    return NULL;
}
