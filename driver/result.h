/* One measurement's outcome and its JSON rendering (docs/architecture.md#driver-result, schema
 * pairbench.result/1). The epoll engine (client.c) fills it; main.c prints it. */
#ifndef PAIRBENCH_RESULT_H
#define PAIRBENCH_RESULT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "hist.h"
#include "opts.h"

/* first_error is at most this many bytes of valid UTF-8. */
#define RESULT_ERRTEXT_MAX 200
#define RESULT_REASON_MAX 512

/* Process CPU time and involuntary context switches (all threads, ended ones too) at one
 * instant. */
struct drv_cpu {
    double user_s, sys_s;
    long nivcsw;
};

struct drv_result {
    const char *unit;    /* "commands/s", "round trips/s", "requests/s" (static string) */
    uint64_t ops;        /* successful (verified) operations in the measured window */
    uint64_t batches;    /* completed measured batches (= hist samples) */
    uint64_t elapsed_ns; /* measured window: t0 .. last completion */
    struct hist *hist;   /* per-batch round trip in ns, all workers merged; owned by the
                          * runner that filled it (result_release frees it) */
    /* errors by class, in operations (connect: failed connection attempts) */
    uint64_t err_connect, err_io, err_protocol, err_verify, err_timeout;
    struct drv_cpu cpu; /* CPU time spent in the measured window (end - start) */
    /* connections: configured, and held = open from the window's start to its end */
    unsigned conns_configured, conns_held;
    /* connections the server closed on purpose and the driver reopened, inside the measured
     * window: in all, and the most on one connection */
    uint64_t reopened, reopened_max;
    double window_s; /* the configured window (duration); 0 with --requests (not printed) */
    char first_error[RESULT_ERRTEXT_MAX + 1]; /* the run's first error ("" = none) */
    /* --rate (rate_target 0: closed loop): measured ops and batches sent on the schedule,
     * batches sent late (arrival.h) and the largest lag behind it */
    double rate_target;
    uint64_t rate_ops, rate_sent, rate_late, rate_max_lag_ns;
    /* result_judge()'s verdict: failed runs still print their result, then exit 3 */
    int failed;
    char reason[RESULT_REASON_MAX];
    /* why no measured batch was started, when none was (a --rate schedule that fell behind in
     * the warm-up, no warm-up reply): added to reason ("" = a batch was, or ops > 0) */
    char no_batch[192];
    json_t *extra; /* the workload's keys added to the result ("setup"), or NULL; owned */
    /* the window interval by interval (engine/series.h), NULL when off; owned. With it, the
     * longest gap in which no reply arrived and when it began (from the window's start) */
    json_t *series;
    uint64_t stall_ns, stall_at_ns;
};

/* Zeroes r and allocates its histogram. 0, or -1 on out of memory. */
int result_init(struct drv_result *r, const char *unit);
void result_release(struct drv_result *r);

/* getrusage(RUSAGE_SELF) now. */
void result_cpu_now(struct drv_cpu *c);
/* r->cpu = end - start. */
void result_cpu_delta(struct drv_result *r, const struct drv_cpu *start, const struct drv_cpu *end);

/* Stores text (any bytes) as r->first_error unless one is set already: control characters
 * become ' ', bytes that are not valid UTF-8 become '?', and the text is cut to
 * RESULT_ERRTEXT_MAX bytes at a character boundary. Pure. */
void result_note_error(struct drv_result *r, const char *text);

/* Decides whether the run measured what it claims, from r's counts alone (pure). The run
 * fails when: nothing succeeded; fewer connections were held than configured; any request
 * timed out; connect + io + protocol + verify errors exceed error_limit_pct percent of the
 * successful operations; or errors of all classes outnumber the successful operations.
 * Sets r->failed and r->reason (every failed rule, joined by "; "); returns r->failed. */
int result_judge(struct drv_result *r, double error_limit_pct);

/* The relative error of every latency percentile (common/hist: a bucket's midpoint is within
 * 0.4% of any value in it); printed as latency_us.rel_error. */
#define RESULT_LATENCY_REL_ERROR 0.004

/* --rate: the achieved rate (measured ops sent per second of the window) and whether the
 * schedule was kept (arrival_kept). Pure. */
double result_rate_achieved(const struct drv_result *r);
int result_rate_kept(const struct drv_result *r);

/* The result object (new reference): schema, protocol, transport, config (opts_to_json),
 * status, reason, ops, batches, window_s (duration runs), elapsed_s, throughput, unit,
 * latency_us, errors, connections, first_error, cpu, rss_peak_kib, build, stall_ms,
 * stall_at_s and series when the series was on and, for TLS, tls.insecure. NULL on out of
 * memory. */
json_t *result_to_json(const struct drv_opts *o, const struct drv_result *r);
/* Prints result_to_json() as one line on f. 0 or -1. */
int result_print(FILE *f, const struct drv_opts *o, const struct drv_result *r);

/* The build section alone (driver, hiredis, openssl, nghttp2, jansson, cc, cflags). */
json_t *result_build_json(void);

#endif
