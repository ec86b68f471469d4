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
 * standard error of est is √s2 · scale. df 0: no variance of its own (one run a side).
 *
 * Paired rounds alternate who runs first, so an odd number of rounds puts the candidate second
 * once more than first (3 rounds: 2 and 1), and an effect of running second (a warmer page
 * cache, a cooler CPU, the previous server's sockets) leaks into est. k_after and k_before
 * count the rounds where the candidate ran after and before the baseline; position is half the
 * difference of their mean log ratios (the row's own view of running second; 0 unless both
 * orders are there). host is the run's estimate of that effect from every row
 * (mod_position_fit) and host_rel_var its variance in units of the noise: mod_test takes est,
 * s2 and the standard error net of it (mod_net); both 0 until it is fitted. */
struct mod_evidence {
    double est, s2, df, scale;
    int paired;
    double k_after, k_before, position;
    double host, host_rel_var;
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
 * the n_pairs per-round ratios cand/base; after[i] (NULL: unknown) says whether the candidate
 * ran after the baseline in pair i's round. Paired when every run is in a pair (n_pairs ==
 * na == nb ≥ 2), else unpaired. Values ≤ 0 are taken as 1e-12 of the unit. Returns 0, or -1
 * when a side has no value. */
int mod_evidence_from(const double *a, size_t na, const double *b, size_t nb, const double *ratios,
                      const unsigned char *after, size_t n_pairs, struct mod_evidence *e);

/* The run's effect of running second, from the n rows' paired evidence ev[0..n) that saw both
 * orders: the mean of their positions weighted by the rounds behind each (4·k_after·k_before
 * / pairs, the inverse of a position's variance in units of the noise), into *host, and the
 * variance of that mean in the same units into *rel_var. Returns 0, or -1 (both 0) when fewer
 * than MOD_PRIOR_MIN_ROWS rows saw both orders. */
int mod_position_fit(const struct mod_evidence *ev, size_t n, double *host, double *rel_var);

/* e net of the run's effect of running second (e->host): est less host times the share of
 * rounds the candidate ran second beyond first, s2 from the log ratios less host where the
 * candidate ran second and plus it where first, the scale widened by host's own variance. A
 * copy of e when it is not paired or nothing was fitted. */
void mod_net(const struct mod_evidence *e, struct mod_evidence *net);

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
