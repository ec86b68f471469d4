/* Log-linear histogram (see hist.h). Values below 256 ns have one bucket each; above, every
 * power of two is split into 128 equal buckets, so a bucket is at most 1/128 of its lower
 * bound wide and its midpoint is within 0.4% of any value in it. */
#include "hist.h"

#include <stdlib.h>
#include <string.h>

#define SUB_BITS 7
#define SUB_COUNT (1u << SUB_BITS)  /* buckets per power of two */
#define LINEAR_MAX (2u * SUB_COUNT) /* values below this are exact */
#define TOP_EXP 40                  /* largest power of two tracked: 2^40 .. 2^41-1 */
#define NBUCKETS (LINEAR_MAX + (TOP_EXP - SUB_BITS) * SUB_COUNT)
#define VALUE_MAX ((UINT64_C(1) << (TOP_EXP + 1)) - 1)

struct hist {
    uint64_t count;
    uint64_t min, max;
    long double sum;
    uint64_t buckets[NBUCKETS];
};

static unsigned bucket_of(uint64_t v)
{
    unsigned e, shift;

    if (v < LINEAR_MAX)
        return (unsigned)v;
    if (v > VALUE_MAX)
        v = VALUE_MAX;
    e = 63u - (unsigned)__builtin_clzll(v); /* SUB_BITS+1 .. TOP_EXP */
    shift = e - SUB_BITS;
    return LINEAR_MAX + (e - SUB_BITS - 1) * SUB_COUNT + (unsigned)((v >> shift) - SUB_COUNT);
}

/* Midpoint of bucket i (its value when exact). */
static double bucket_mid(unsigned i)
{
    unsigned e, sub;
    uint64_t low, width;

    if (i < LINEAR_MAX)
        return (double)i;
    e = (i - LINEAR_MAX) / SUB_COUNT + SUB_BITS + 1;
    sub = (i - LINEAR_MAX) % SUB_COUNT + SUB_COUNT;
    low = (uint64_t)sub << (e - SUB_BITS);
    width = UINT64_C(1) << (e - SUB_BITS);
    return (double)low + (double)(width - 1) / 2.0;
}

struct hist *hist_new(void)
{
    struct hist *h = malloc(sizeof(*h));

    if (h)
        hist_reset(h);
    return h;
}

void hist_free(struct hist *h)
{
    free(h);
}

void hist_reset(struct hist *h)
{
    memset(h, 0, sizeof(*h));
    h->min = UINT64_MAX;
}

void hist_record(struct hist *h, uint64_t value_ns)
{
    h->buckets[bucket_of(value_ns)]++;
    h->count++;
    h->sum += (long double)value_ns;
    if (value_ns < h->min)
        h->min = value_ns;
    if (value_ns > h->max)
        h->max = value_ns;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
    unsigned i;

    if (src->count == 0)
        return;
    for (i = 0; i < NBUCKETS; i++)
        dst->buckets[i] += src->buckets[i];
    dst->count += src->count;
    dst->sum += src->sum;
    if (src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
}

uint64_t hist_count(const struct hist *h)
{
    return h->count;
}

uint64_t hist_min(const struct hist *h)
{
    return h->count ? h->min : 0;
}

uint64_t hist_max(const struct hist *h)
{
    return h->max;
}

double hist_mean(const struct hist *h)
{
    return h->count ? (double)(h->sum / (long double)h->count) : 0.0;
}

double hist_percentile(const struct hist *h, double p)
{
    uint64_t rank, seen = 0;
    unsigned i;
    double v, x;

    if (h->count == 0)
        return 0.0;
    if (p > 100.0)
        p = 100.0;
    /* the rank of the smallest sample with at least p% of the samples at or below it */
    x = (p / 100.0) * (double)h->count;
    rank = (uint64_t)x;
    if (x - (double)rank > 1e-9 * x)
        rank++;
    if (rank < 1)
        rank = 1;
    if (rank > h->count)
        rank = h->count;
    for (i = 0; i < NBUCKETS; i++) {
        seen += h->buckets[i];
        if (seen >= rank)
            break;
    }
    v = bucket_mid(i < NBUCKETS ? i : NBUCKETS - 1);
    /* the extremes are known exactly */
    if (v < (double)h->min)
        v = (double)h->min;
    if (v > (double)h->max)
        v = (double)h->max;
    return v;
}

/* Midpoint of coarse bucket i (hist.h): 8 buckets per power of two from 8 up. */
static double coarse_mid(unsigned i)
{
    unsigned e = i / 8 + 3;
    uint64_t low = (uint64_t)(i % 8 + 8) << (e - 3), width = UINT64_C(1) << (e - 3);

    return (double)low + (double)(width - 1) * 0.5;
}

double hist_coarse_percentile(const uint32_t *counts, uint64_t total, double p)
{
    uint64_t rank, seen = 0;
    unsigned i;
    double x;

    if (total == 0)
        return 0.0;
    if (p > 100.0)
        p = 100.0;
    x = (p / 100.0) * (double)total;
    rank = (uint64_t)x;
    if (x - (double)rank > 1e-9 * x)
        rank++;
    if (rank < 1)
        rank = 1;
    for (i = 0; i < HIST_COARSE_BUCKETS; i++) {
        seen += counts[i];
        if (seen >= rank)
            break;
    }
    return coarse_mid(i < HIST_COARSE_BUCKETS ? i : HIST_COARSE_BUCKETS - 1);
}
