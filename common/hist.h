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

#endif
