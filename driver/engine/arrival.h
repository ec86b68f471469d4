/* The fixed-rate schedule of --rate (open-loop load): when each request of a connection is
 * due, uniform (evenly spaced) or Poisson (exponential gaps with the same mean), and the
 * bookkeeping of how far the driver fell behind it. Pure: no clock reads, no I/O, no
 * allocation; the engine (client_loop.c) asks for the next due time and reports when it
 * actually sent. Unit-tested in tests/unit/test_arrival.c. */
#ifndef PAIRBENCH_ARRIVAL_H
#define PAIRBENCH_ARRIVAL_H

#include <stddef.h>
#include <stdint.h>

/* A request sent more than this after its due time is late (the driver did not keep the
 * schedule for it; its latency still counts from the due time). */
#define ARRIVAL_LATE_NS 1000000ull

struct arrival {
    uint64_t start_ns; /* the schedule's origin */
    double gap_ns;     /* mean gap between due times */
    double phase;      /* uniform: offset of the first due time, in gaps (0..1) */
    uint64_t k;        /* uniform: due times handed out so far */
    uint64_t next_ns;  /* the next due time */
    uint64_t rng;      /* poisson: xorshift64* state (never 0) */
    int poisson;
};

/* Lateness of the requests sent so far. */
struct arrival_lag {
    uint64_t sent;       /* requests sent */
    uint64_t late;       /* of them, sent more than ARRIVAL_LATE_NS after their due time */
    uint64_t max_lag_ns; /* the largest send time minus due time */
};

/* A schedule of rate_per_s due times per second from start_ns. Uniform: the first is due at
 * start_ns + phase gaps (phase in [0, 1): connections spread over one gap); Poisson: after an
 * exponential gap drawn from seed. rate_per_s > 0. */
void arrival_init(struct arrival *a, uint64_t start_ns, double rate_per_s, int poisson,
                  uint64_t seed, double phase);

/* The next due time: a->next_ns. Moves the schedule to the one after it. */
void arrival_advance(struct arrival *a);

/* A request due at due_ns went out at now_ns (now_ns before due_ns counts as on time). */
void arrival_note(struct arrival_lag *l, uint64_t due_ns, uint64_t now_ns);

/* Adds src's counts into dst. */
void arrival_lag_merge(struct arrival_lag *dst, const struct arrival_lag *src);

/* Whether a run kept its schedule: achieved at least 99% of target and at most 1% of the
 * sent requests late. 1 kept, 0 not. */
int arrival_kept(double target_per_s, double achieved_per_s, uint64_t sent, uint64_t late);

/* Whether a schedule of rate_per_s (0: closed loop, always fine) can measure anything in a
 * window of window_s seconds: at least 1 request due in it (poisson: 5, so that an empty
 * window has a chance below 1%). 0, or -1 with err naming --rate, what is due and the rate
 * that would do. */
int arrival_window_check(double rate_per_s, double window_s, int poisson, char *err, size_t errlen);

#endif
