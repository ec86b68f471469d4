/* moderate: the evidence of a timed metric, as a t-test on the log scale whose variance is
 * shrunk toward the noise of the whole run (moderated statistics, Smyth 2004, the method of
 * limma's eBayes). Each row has only a few runs a side; every other row, version and round of
 * the run measured the same host's noise, so each row's own variance s² (d degrees of
 * freedom) is replaced by the posterior (d0·s0² + d·s²) / (d0 + d), where the prior s0², d0 is
 * fitted to all rows' variances of that metric, and the t statistic gets d0 + d degrees of
 * freedom. With d0 = 0 (one row, or rows too unlike each other) it is the ordinary t-test. The
 * method, its assumptions and its validation are in docs/statistics.md ("Moderated
 * evidence"). Pure: no I/O; known answers in tests/unit/test_moderate.c. */
#ifndef PAIRBENCH_MODERATE_H
#define PAIRBENCH_MODERATE_H

#include <stddef.h>

/* A row's own evidence about one metric of one candidate, on the natural-log scale. Paired
 * (every run in a complete round): the per-round log ratios, est their mean, s2 their
 * variance, df = pairs − 1, scale = 1/√pairs. Unpaired: est = mean log cand − mean log base,
 * s2 the pooled within-version variance, df = na + nb − 2, scale = √(1/na + 1/nb). The
 * standard error of est is √s2 · scale. df 0: no variance of its own (one run a side). */
struct mod_evidence {
    double est, s2, df, scale;
    int paired;
};

/* The prior of one metric: s0² and its degrees of freedom d0 (0: none). */
struct mod_prior {
    double s2, df;
};

/* What the test concluded. */
struct mod_result {
    double se;     /* standard error of est, with the moderated variance */
    double df;     /* d0 + d */
    double p;      /* two-sided p of est = 0 (1 when df is 0) */
    double lo, hi; /* the 90% interval of the change (ratio − 1): two one-sided 5% tests */
};

/* Fills e from the values a[0..na) and b[0..nb) (base and candidate, any positive unit) and
 * the n_pairs per-round ratios cand/base. Paired when every run is in a pair (n_pairs ==
 * na == nb ≥ 2), else unpaired. Values ≤ 0 are taken as 1e-12 of the unit. Returns 0, or -1
 * when a side has no value. */
int mod_evidence_from(const double *a, size_t na, const double *b, size_t nb, const double *ratios,
                      size_t n_pairs, struct mod_evidence *e);

/* The test of e under prior pr (NULL: none). Returns 0, or -1 when neither the row nor the
 * prior gives a variance (r->p = 1, interval infinite). */
int mod_test(const struct mod_evidence *e, const struct mod_prior *pr, struct mod_result *r);

/* Fits the prior to n rows' variances s2[i] with df[i] > 0 degrees of freedom (entries with
 * df 0 or s2 ≤ 0 are passed over) by the method of moments on log s² (Smyth 2004, section 6.2,
 * as limma's fitFDist): d0 from the variance of log s² beyond what sampling explains, s0²
 * from their mean. Fewer than MOD_PRIOR_MIN_ROWS usable rows, or rows more alike than
 * sampling explains: d0 is capped at the rows' total degrees of freedom (no prior can know
 * more than the data it came from); rows far apart: d0 near 0. Returns 0, or -1 (pr zeroed)
 * when there are too few rows. */
#define MOD_PRIOR_MIN_ROWS 3
int mod_prior_fit(const double *s2, const double *df, size_t n, struct mod_prior *pr);

/* The runs a side at which the same noise would decide (p ≤ alpha against 0 when |est| is
 * past log(1 + threshold), else the 90% interval inside ±threshold), counting the prior's
 * degrees of freedom; 0 when no count up to MOD_RUNS_CAP would. */
#define MOD_RUNS_CAP 50
size_t mod_runs_needed(const struct mod_evidence *e, const struct mod_prior *pr, double threshold,
                       double alpha);

/* Student's t: the upper tail P(T > t) with df degrees of freedom (df > 0), and the quantile q
 * with P(T > q) = tail. */
double mod_t_tail(double t, double df);
double mod_t_quantile_upper(double tail, double df);

/* digamma and trigamma of x > 0. */
double mod_digamma(double x);
double mod_trigamma(double x);

#endif
