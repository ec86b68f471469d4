/* Log-linear latency histogram (HdrHistogram-style): values in nanoseconds, every value
 * recorded (no sampling), relative error <= 1% for any percentile, mergeable across
 * workers. Allocation happens once in hist_new(); hist_record() never allocates. */
#ifndef PAIRBENCH_HIST_H
#define PAIRBENCH_HIST_H

#include <stdint.h>

struct hist;

/* A histogram for values 1 ns .. ~2^40 ns (~18 minutes; larger values are clamped into the
 * top bucket but max stays exact). NULL on OOM. Free with hist_free(). */
struct hist *hist_new(void);
void hist_free(struct hist *h);
void hist_reset(struct hist *h);
void hist_record(struct hist *h, uint64_t value_ns);
/* Adds every count of src into dst. */
void hist_merge(struct hist *dst, const struct hist *src);

uint64_t hist_count(const struct hist *h);
uint64_t hist_min(const struct hist *h); /* exact */
uint64_t hist_max(const struct hist *h); /* exact */
double hist_mean(const struct hist *h);  /* exact (from the running sum) */
/* The value at percentile p (0 < p <= 100): the smallest recorded bucket value v such that
 * at least p% of the samples are <= v, reported as the bucket's midpoint (within 0.4%).
 * 0 when empty. */
double hist_percentile(const struct hist *h, double p);

/* The coarse scale, for the many small histograms of a time series (one per interval): a
 * plain array of HIST_COARSE_BUCKETS counts the caller owns, 8 buckets per power of two from
 * 8 ns up (a bucket's midpoint within 6.3% of any value in it; values below 16 ns share the
 * first 8 buckets). No branch and no clamp: on the hot path. */
#define HIST_COARSE_BUCKETS 488u
static inline unsigned hist_coarse_bucket(uint64_t value_ns)
{
    unsigned e = 63u - (unsigned)__builtin_clzll(value_ns | 8); /* 3 .. 63 */

    return (e - 3u) * 8u + (unsigned)((value_ns >> (e - 3u)) & 7u);
}
/* The value at percentile p (0 < p <= 100) of counts (total of them), as the bucket's
 * midpoint; 0 when total is 0. */
double hist_coarse_percentile(const uint32_t *counts, uint64_t total, double p);

#endif
