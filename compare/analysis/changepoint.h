/* Change-point detection over a short numeric series (one metric of one configuration over
 * nights): E-divisive means (Matteson & James, 2014, with alpha = 1) with a permutation test,
 * the method used on CI performance data. Pure: no I/O, a caller-seeded RNG, so results are
 * reproducible. docs/drift.md explains the method and its limits. */
#ifndef PAIRBENCH_CHANGEPOINT_H
#define PAIRBENCH_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

#define CP_MAX_POINTS 1024 /* the search keeps an (n+1)^2 table of pair distances */
#define CP_MAX_CHANGES 64

struct cp_options {
    double alpha;          /* significance of the permutation test (default 0.05) */
    unsigned permutations; /* permutations per test (default 199) */
    size_t min_segment;    /* fewest points on either side of a change (default 3, >= 2) */
    uint64_t seed;         /* RNG seed: same seed, same answer */
};

struct cp_change {
    size_t index;  /* first point of the new segment */
    double q;      /* the energy statistic at the split */
    double p;      /* permutation p-value */
    double before; /* median of the segment before */
    double after;  /* median of the segment after */
};

struct cp_result {
    struct cp_change changes[CP_MAX_CHANGES]; /* sorted by index */
    size_t n_changes;
};

void cp_options_default(struct cp_options *o);

/* Finds the significant change points of x[0..n). Returns 0, or -1 when n > CP_MAX_POINTS or
 * out of memory (res then holds no change). Series shorter than 2 * min_segment have none. */
int cp_detect(const double *x, size_t n, const struct cp_options *o, struct cp_result *res);

/* The E-divisive statistic of splitting x[0..n) at tau (0 < tau < n, both sides >= 2). */
double cp_energy_at(const double *x, size_t n, size_t tau);

/* Whether the points x[a..tau) and x[tau..b) around a change look like a step rather than a
 * slow drift: fits a straight line plus a jump at tau and calls it a step when the jump's t
 * statistic exceeds CP_STEP_T. Pass a window of several points on each side (drift.c uses up
 * to 10), not just the neighbouring segments: a slow drift is cut into short segments that
 * each look flat. Returns 1 for a step, 0 for a drift (or too few points: fewer than 5). */
#define CP_STEP_T 4.0
int cp_is_step(const double *x, size_t a, size_t tau, size_t b);

/* Median of x[0..n) (n >= 1); does not modify x. Helper shared with drift.c. */
double cp_median(const double *x, size_t n);

#endif
