/* series: what happened during a measured window, interval by interval (docs/driver.md,
 * "Over time"). Each worker keeps its own struct series: per interval the successful
 * operations and a coarse histogram of the batch round trips (common/hist.h), and the gaps
 * in which none of its connections received a reply. The workers' series are merged after
 * they joined: the intervals add up, and the run's longest reply gap is the longest time no
 * worker received one. Memory is allocated once (series_init); the calls on the hot path
 * (series_done, series_reply) never allocate, lock or read the clock: they take the clock
 * reading of the read event that brought the replies. Pure: no I/O. */
#ifndef PAIRBENCH_SERIES_H
#define PAIRBENCH_SERIES_H

#include <stdint.h>

#include <jansson.h>

#include "hist.h"

/* Intervals kept: when the window needs more, neighbouring pairs merge and the interval
 * doubles, so a run of any length keeps at most this many. */
#define SERIES_CAP 512u
/* Reply gaps kept per worker: past it the shortest are dropped and the threshold doubles. */
#define SERIES_GAPS_CAP 256u
/* Gaps longer than this are recorded from the start (shorter ones are ordinary spacing). */
#define SERIES_GAP_MIN_NS 1000000ull

struct series_bin {
    uint64_t ops;
    uint32_t lat[HIST_COARSE_BUCKETS]; /* batch round trips completed in the interval */
};

struct series_gap {
    uint64_t start_ns, end_ns;
};

struct series {
    uint64_t interval_ns;   /* 0: off (every call returns at once) */
    uint64_t t0;            /* the window's start */
    uint64_t bin_end;       /* the end of bins[cur] (a completion at or past it moves on) */
    struct series_bin *bin; /* bins[cur] */
    unsigned cur;           /* the interval being filled */
    unsigned used;          /* intervals touched so far (cur + 1 once anything came) */
    struct series_bin *bins;
    uint64_t last_reply; /* the last reply's clock reading (0: none yet) */
    uint64_t gap_min_ns; /* gaps longer than this are in gaps[] */
    struct series_gap *gaps;
    unsigned ngaps;
};

/* Allocates s for intervals of interval_ms (0: off, nothing allocated). 0, or -1 on out of
 * memory. series_start() sets the window's start before the first call on the hot path. */
int series_init(struct series *s, unsigned interval_ms);
void series_start(struct series *s, uint64_t t0);
void series_release(struct series *s);

/* Moves s->cur to the interval holding now (slow path of series_reply). */
struct series_bin *series_advance(struct series *s, uint64_t now);
/* Records a gap ending at now (slow path of series_reply). */
void series_gap_end(struct series *s, uint64_t now);

/* Replies arrived at now (any batch, warm-up or measured): a gap ends if there was one.
 * Returns the interval holding now for the measured batches these replies complete
 * (series_done, series_ops), or NULL when the series is off. */
static inline struct series_bin *series_reply(struct series *s, uint64_t now)
{
    if (now > s->last_reply + s->gap_min_ns)
        series_gap_end(s, now);
    s->last_reply = now;
    if (now < s->bin_end)
        return s->bin;
    return s->interval_ns ? series_advance(s, now) : NULL;
}

/* A measured batch completed in interval b (series_reply's; NULL: off) after rt_ns. */
static inline void series_done(struct series_bin *b, uint64_t rt_ns)
{
    if (b)
        b->lat[hist_coarse_bucket(rt_ns)]++;
}

/* ok successful operations counted in interval b (NULL: off). */
static inline void series_ops(struct series_bin *b, uint64_t ok)
{
    if (b)
        b->ops += ok;
}

/* The merged series of n workers' (NULL entries skipped) over the window [t0, t0 +
 * elapsed_ns): the longest gap in which no worker received a reply (*stall_ns, *stall_at_ns
 * from t0; replies stopping before the window's end count up to it) and, as a new JSON
 * object, the intervals: interval_ms, n, and per interval ops, throughput (per second of
 * the interval's part inside the window; the last runs to the window's end, a piece shorter
 * than half an interval joining it), batches, p50_us, p99_us. NULL when the
 * series is off or out of memory (*stall_ns is then 0). */
json_t *series_merge(struct series *const *w, unsigned n, uint64_t elapsed_ns, uint64_t *stall_ns,
                     uint64_t *stall_at_ns);

#endif
