/* The workers' counts merged into the result after they joined (client_impl.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/client_impl.h"

/* Merges the workers' counts into r after they joined: histogram, counters, held
 * connections, the earliest first error; *last = the last measured completion, *msent =
 * measured batches started, drop = the first dropped connection's message. */
static void collect(const struct run *run, unsigned nw, struct drv_result *r, uint64_t *last,
                    uint64_t *msent, char *drop, size_t droplen)
{
    const char *err1 = NULL;
    uint64_t err1_ns = 0;
    struct arrival_lag lag = {0};
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
        arrival_lag_merge(&lag, &w->lag);
        r->rate_ops += w->rate_ops;
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
            r->reopened += cc->reopened;
            if (cc->reopened > r->reopened_max)
                r->reopened_max = cc->reopened;
        }
    }
    if (err1)
        result_note_error(r, err1);
    r->rate_target = run->rated ? run->o->rate : 0;
    r->rate_sent = lag.sent;
    r->rate_late = lag.late;
    r->rate_max_lag_ns = lag.max_lag_ns;
}

/* The workers' series merged over the window (series.h): r->series, the longest reply gap. */
static void series_collect(const struct run *run, unsigned nw, struct drv_result *r)
{
    struct series **ws = calloc(nw ? nw : 1, sizeof(struct series *));
    unsigned i;

    if (!ws)
        return;
    for (i = 0; i < nw; i++)
        ws[i] = &run->workers[i].series;
    r->series = series_merge(ws, nw, r->elapsed_ns, &r->stall_ns, &r->stall_at_ns);
    free(ws);
}

/* Why no measured batch started (msent 0; "" when one did): under --rate, a schedule whose
 * next due time never reached the window (the warm-up's requests fell behind so far that
 * none due in the window was sent); otherwise no warm-up reply came in time. */
static void no_measured_batch_reason(const struct run *run, unsigned nw, uint64_t msent, char *why,
                                     size_t len)
{
    uint64_t next = UINT64_MAX;
    unsigned i, j;

    *why = '\0';
    if (msent)
        return;
    for (i = 0; run->rated && i < nw; i++)
        for (j = 0; j < run->workers[i].nconns; j++)
            if (run->workers[i].conns[j].sched.next_ns < next)
                next = run->workers[i].conns[j].sched.next_ns;
    if (run->rated && next < run->t0)
        snprintf(why, len,
                 "; no measured batch was started: the --rate %g schedule fell behind in the "
                 "warm-up, and its next request was still due %.3f s before the window opened "
                 "(lower --rate)",
                 run->o->rate, (double)(run->t0 - next) / 1e9);
    else
        snprintf(why, len, "; no measured batch was started (no warm-up reply in time)");
}

void client_finish(const struct run *run, unsigned nw, struct drv_result *r)
{
    const struct drv_opts *o = run->o;
    uint64_t last = 0, msent = 0;
    char drop[ERR_MAX] = "";

    collect(run, nw, r, &last, &msent, drop, sizeof(drop));

    r->unit = run->wl->unit;
    /* a duration run's window is the whole configured window even when nothing completed
     * near its end (a server that stalls is slow, not fast); batches started inside it
     * and answered after it extend it to their completion */
    if (run->t_end && last < run->t_end)
        last = run->t_end;
    r->elapsed_ns = last > run->t0 ? last - run->t0 : 0;
    series_collect(run, nw, r);
    r->window_s = o->requests ? 0 : o->duration_s;
    r->conns_configured = o->connections;
    if (drop[0])
        fprintf(stderr, "driver: warning: connections failed during the run; first: %s\n", drop);
    if (run->rated && !result_rate_kept(r))
        fprintf(stderr,
                "driver: warning: the schedule was not kept: %.1f of %.1f ops/s, %llu of %llu "
                "requests sent over %llu us late, %.1f us behind at most (result: rate.kept "
                "false)\n",
                result_rate_achieved(r), r->rate_target, (unsigned long long)r->rate_late,
                (unsigned long long)r->rate_sent, ARRIVAL_LATE_NS / 1000,
                (double)r->rate_max_lag_ns / 1e3);
    if (r->ops == 0) {
        char why[192];

        no_measured_batch_reason(run, nw, msent, why, sizeof(why));
        if (why[0]) /* the run's reason says it too (result_judge), without the "; " */
            snprintf(r->no_batch, sizeof(r->no_batch), "%s", why + 2);
        /* the result is still printed (status failed): say why on stderr as well */
        fprintf(stderr,
                "driver: no successful operation in the measured window (errors: connect %llu, io "
                "%llu, protocol %llu, verify %llu, timeout %llu)%s%s%s",
                (unsigned long long)r->err_connect, (unsigned long long)r->err_io,
                (unsigned long long)r->err_protocol, (unsigned long long)r->err_verify,
                (unsigned long long)r->err_timeout, why, drop[0] ? "; first: " : "", drop);
        fputc('\n', stderr);
    }
}
