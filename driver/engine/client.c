/* The client engine (see client.h and docs/driver.md). Per worker thread: one epoll loop,
 * its share of the connections (round robin), a histogram and counters merged at the end.
 * Per connection: buffers and the in-flight ring are allocated at setup; batches are
 * written directly, those that start together in one write (EPOLLOUT only after a short
 * write), EPOLLIN stays registered, and one clock read is taken per batch sent and per read
 * event. A worker with one plain TCP connection waits for its replies in a blocking read
 * instead of epoll_wait (loop_solo_read): two system calls per round trip.
 * This file sets the run up, starts the workers and opens the measured window; a
 * connection's life is client_conn.c, the workers' loop client_loop.c, and the merge of
 * their counts client_merge.c (client_impl.h). */
#include "engine/client.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/client_impl.h"
#include "clock.h"
#include "engine/loop.h"
#include "engine/tls.h"
#include "engine/winmark.h"
#include "wl/workload.h"

static void workers_free(struct run *run, unsigned n)
{
    unsigned i, j;

    for (i = 0; i < n; i++) {
        struct worker *w = &run->workers[i];
        for (j = 0; j < w->nconns; j++)
            cconn_teardown(&w->conns[j]);
        free(w->conns);
        hist_free(w->hist);
        series_release(&w->series);
        if (w->loop.epfd >= 0)
            loop_release(&w->loop);
    }
    free(run->workers);
}

/* Allocates run->workers (nw of them) and each one's loop, histogram and share of the
 * connections (connection k goes to worker k % nw). *made = the workers to free. 0, or -1
 * with err set. */
static int workers_make(struct run *run, unsigned nw, unsigned *made, char *err, size_t errlen)
{
    const struct drv_opts *o = run->o;
    unsigned i;

    run->workers = calloc(nw, sizeof(*run->workers));
    if (!run->workers) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (i = 0; i < nw; i++) {
        struct worker *w = &run->workers[i];
        unsigned j, count = o->connections / nw + (i < o->connections % nw ? 1 : 0);
        w->run = run;
        w->id = i;
        w->loop.epfd = w->loop.wakefd = -1;
        loop_solo_reset(&w->solo);
        /* --rate sends on a schedule: a worker never waits in a read */
        w->solo_ok = count == 1 && !run->tls && !run->rated && !getenv("PAIRBENCH_NO_SOLO");
        w->hist = hist_new();
        w->conns = calloc(count ? count : 1, sizeof(*w->conns));
        *made = i + 1;
        if (!w->hist || !w->conns || series_init(&w->series, o->interval_ms) < 0 ||
            loop_init(&w->loop, err, errlen) < 0) {
            snprintf(err, errlen, "out of memory or descriptors for worker %u", i);
            return -1;
        }
        w->loop.poll.max_ns = (uint64_t)o->busy_poll_us * 1000;
        for (j = 0; j < count; j++) {
            w->nconns++;
            if (cconn_setup(&w->conns[j], w, i + j * nw) < 0) {
                snprintf(err, errlen, "out of memory for connection %u", i + j * nw);
                return -1;
            }
        }
    }
    return 0;
}

/* Waits until every connection was tried once. 1 when at least one got ready; 0 when none
 * did: the workers are told to stop and joined, and err says why (the first worker's first
 * connect error). */
static int workers_connected(struct run *run, unsigned nw, char *err, size_t errlen)
{
    uint64_t ever = 0;
    unsigned i;
    char first[ERR_MAX] = "";

    pthread_barrier_wait(&run->bar); /* every connection tried once */
    for (i = 0; i < nw; i++) {
        ever += run->workers[i].ever_ready;
        if (!first[0] && run->workers[i].first_err[0])
            snprintf(first, sizeof(first), "%s", run->workers[i].first_err);
    }
    if (ever == 0) {
        atomic_store(&run->abort, 1);
        pthread_barrier_wait(&run->bar);
        for (i = 0; i < nw; i++)
            pthread_join(run->workers[i].th, NULL);
        snprintf(err, errlen, "%s", first[0] ? first : "no connection could be established");
        return 0;
    }
    return 1;
}

/* Sets the warm-up's end (t0) and the window's (t_end; 0 under --requests), lets the
 * workers run, marks the window's edges and takes the process's CPU over it, and joins the
 * workers. */
static void workers_measure(struct run *run, unsigned nw, struct drv_result *r)
{
    const struct drv_opts *o = run->o;
    struct drv_cpu cpu0, cpu1;
    struct timespec ts;
    uint64_t now;
    unsigned i;

    now = clock_now_ns();
    run->t0 = now + (uint64_t)(o->warmup_s * 1e9);
    run->t_end = o->requests ? 0 : run->t0 + (uint64_t)(o->duration_s * 1e9);
    pthread_barrier_wait(&run->bar);
    ts.tv_sec = (time_t)(run->t0 / NS_PER_S);
    ts.tv_nsec = (long)(run->t0 % NS_PER_S);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
    result_cpu_now(&cpu0);
    /* the workers count from t0, however late this thread woke: the mark says t0, so a tracer
     * or sampler reading back to it counts the window the ops were counted in */
    winmark_start(run->t0);
    for (i = 0; i < nw; i++)
        pthread_join(run->workers[i].th, NULL);
    winmark_end();
    result_cpu_now(&cpu1);
    result_cpu_delta(r, &cpu0, &cpu1);
}

int client_run(const struct drv_opts *o, struct drv_result *r, char *err, size_t errlen)
{
    struct run run;
    unsigned i, nw = o->workers, made = 0;
    int rc = CLIENT_EFAIL, barrier = 0;

    memset(&run, 0, sizeof(run));
    run.o = o;
    run.timeout_ns = (uint64_t)(o->timeout_s * 1e9);
    run.rated = o->rate > 0;
    run.wl = workload_for(o);
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
    if (workers_make(&run, nw, &made, err, errlen) < 0)
        goto out;
    if (pthread_barrier_init(&run.bar, NULL, nw + 1) != 0) {
        snprintf(err, errlen, "pthread_barrier_init failed");
        goto out;
    }
    barrier = 1;
    for (i = 0; i < nw; i++) {
        if (pthread_create(&run.workers[i].th, NULL, client_worker_main, &run.workers[i]) != 0) {
            snprintf(err, errlen, "pthread_create: %s", strerror(errno));
            /* the started ones are waiting at the barrier: there is no clean way back */
            return CLIENT_EFAIL;
        }
        run.workers[i].started = 1;
    }
    if (!workers_connected(&run, nw, err, errlen))
        goto out;
    workers_measure(&run, nw, r);
    client_finish(&run, nw, r);
    if (run.wl->report)
        r->extra = run.wl->report(run.shared, (double)r->elapsed_ns / 1e9);
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
