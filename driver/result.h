/* One measurement's outcome and its JSON rendering (docs/architecture.md#driver-result, schema
 * pairbench.result/1). The epoll engine (client.c) fills it, and so does any other runner that does
 * not fit the workload table (h2.c, HTTP/2 via libcurl); main.c prints it. */
#ifndef PAIRBENCH_RESULT_H
#define PAIRBENCH_RESULT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "hist.h"
#include "opts.h"

/* Process CPU time (all threads) at one instant. */
struct drv_cpu {
    double user_s, sys_s;
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
};

/* Zeroes r and allocates its histogram. 0, or -1 on out of memory. */
int result_init(struct drv_result *r, const char *unit);
void result_release(struct drv_result *r);

/* getrusage(RUSAGE_SELF) now. */
void result_cpu_now(struct drv_cpu *c);
/* r->cpu = end - start. */
void result_cpu_delta(struct drv_result *r, const struct drv_cpu *start, const struct drv_cpu *end);

/* The result object (new reference): schema, protocol, transport, config (opts_to_json),
 * ops, batches, elapsed_s, throughput, unit, latency_us, errors, cpu, rss_peak_kib, build
 * and, for TLS, tls.insecure. NULL on out of memory. */
json_t *result_to_json(const struct drv_opts *o, const struct drv_result *r);
/* Prints result_to_json() as one line on f. 0 or -1. */
int result_print(FILE *f, const struct drv_opts *o, const struct drv_result *r);

/* The build section alone (driver, hiredis, openssl, libcurl, jansson, cc, cflags). */
json_t *result_build_json(void);

#endif
