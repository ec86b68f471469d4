/* Statistics of docs/architecture.md#statistics, free of I/O: median [min–max] of a sample, the
 * exact two-sided Mann–Whitney U p-value, paired per-round ratios, and the verdict rules
 * (per-metric thresholds, noise limit) that turn them into regressed / improved / ~ / unstable /
 * failed. */
#ifndef PAIRBENCH_STATS_H
#define PAIRBENCH_STATS_H

#include <stddef.h>

#include "analysis/metrics.h"

/* Verdict words, exactly as they appear in summary.json and the reports. */
#define VERDICT_REGRESSED "regressed"
#define VERDICT_IMPROVED "improved"
#define VERDICT_SAME "~"
#define VERDICT_UNSTABLE "unstable"
#define VERDICT_FAILED "failed"

struct verdict_rules {
    /* Minimum |change| in percent for regressed/improved; 0 = metric not gated (its verdict
     * is "~" or "failed", never regressed/improved/unstable). */
    double threshold_pct[METRIC_ALL];
    /* 1 where a threshold was named (--threshold, the spec's gate thresholds): a fixed-rate
     * row's defaults (outcome.h) leave it as named */
    unsigned char named[METRIC_ALL];
    /* A side whose (max−min)/median exceeds this (percent) makes the metric "unstable". */
    double noise_limit_pct;
};

/* Each metric's threshold_pct from the metric table (throughput 5, cpu_percent 0
 * (informational), cpu_efficiency 5, p50 5, p99 10, rss 10); noise limit 20. */
void verdict_rules_default(struct verdict_rules *r);

/* median [min–max] of a sample. */
struct stats_range {
    double median, min, max;
    size_t n;
};

/* Fills r from v[0..n) (v is not modified; even n: mean of the two middle values).
 * Returns 0, or -1 when n is 0 (r zeroed). */
int stats_range(const double *v, size_t n, struct stats_range *r);

/* Exact two-sided Mann–Whitney U (Wilcoxon rank-sum) p-value of samples a and b: the share
 * of all C(na+nb, na) assignments of the pooled mid-ranks to group a whose rank sum is at
 * least as far from its mean as the observed one. Ties get mid-ranks and the distribution is
 * the exact permutation distribution of those mid-ranks, so ties are handled exactly. Above
 * STATS_MWU_EXACT_MAX pooled values it falls back to the normal approximation with tie
 * correction. Returns 1 when either sample is empty. 5 vs 5 disjoint: 2/252. */
#define STATS_MWU_EXACT_MAX 60
double stats_mwu_p(const double *a, size_t na, const double *b, size_t nb);

/* Exact two-sided Wilcoxon signed-rank p-value of the paired differences d[0..n) (here the
 * logs of the per-round ratios cand/base): zeros are dropped (they carry no sign), the |d|
 * get mid-ranks, and the p-value is the share of the 2^n equally likely sign assignments
 * whose positive rank sum is at least as far from its mean as the observed one — the exact
 * permutation test of symmetry about 0, conditional on the ties. Above
 * STATS_SIGNED_RANK_EXACT_MAX nonzero differences: the normal approximation with tie and
 * continuity corrections. Returns 1 when no difference is nonzero. 5 of 5 on one side: 2/32.
 * Unlike the U test it uses the pairing: runs of one round share the machine's slow drift,
 * which cancels in their ratio. */
#define STATS_SIGNED_RANK_EXACT_MAX 200
double stats_signed_rank_p(const double *d, size_t n);

/* The paired change of a row: the median of its per-round ratios cand/base, minus 1 (0 when
 * there are none). Each ratio compares two runs of one round, so the machine's slow drift,
 * which both share, cancels in it; a row with extra rounds is judged on this change (the
 * change of the sides' medians stays the reported one, docs/architecture.md#statistics). */
double stats_paired_change(const double *ratios, size_t n);

/* A distribution-free interval for the median of v[0..n): the order statistics
 * [v_(k), v_(n+1-k)] of the sorted values, k the largest with P(Binomial(n, 1/2) < k) <=
 * (1 - level) / 2, so it covers the median with probability at least level whatever the
 * values' distribution. Returns 0, or -1 when n is too small for any k >= 1 (for level 0.9:
 * n < 5; then *lo = -inf, *hi = +inf: nothing is excluded) or memory ran out. */
#define STATS_MEDIAN_INTERVAL_LEVEL 0.90
int stats_median_interval(const double *v, size_t n, double level, double *lo, double *hi);

/* Whether the [min, max] ranges of a and b share at least one value. */
int stats_ranges_overlap(const struct stats_range *a, const struct stats_range *b);

/* Paired per-round ratios cand[i]/base[i] for the rounds where both are present (have[i]
 * nonzero) and the base is nonzero; written to out (capacity n). Returns how many. */
size_t stats_paired_ratios(const double *base, const double *cand, const unsigned char *have,
                           size_t n, double *out);

/* Everything the verdict needs about one metric of one candidate against the baseline. */
struct verdict_input {
    enum metric metric;
    int failed; /* any run of the row failed, or a side has no values */
    struct stats_range base, cand;
    const double *ratios; /* paired per-round ratios (may be NULL when n_ratios 0) */
    size_t n_ratios;
    /* Adaptive confirmation (confirm.c). planned: the rounds the run planned (0: unknown,
     * the rules below for planned rounds apply whatever n is). When a side has more runs
     * than planned, the row was confirmed, and the extra-look rule applies: the change is
     * the paired one (stats_paired_change of ratios), the evidence is
     * the exact signed-rank p of the paired ratios' logs (p_paired) at most
     * stats_extra_alpha(planned, looks, n), where looks is how many times the confirmation
     * cap lets the row be judged again (half the cap, at least 1); the noise is read from
     * the raw values base_v/cand_v of base.n and cand.n runs. p is the exact U-test p of
     * the raw values, reported for every row (docs/architecture.md#statistics); no rule uses it. */
    size_t planned, looks;
    double p, p_paired;
    const double *base_v, *cand_v;
};

/* The false-alarm budget that the extra looks of a confirmed row share: the chance of
 * disjoint ranges by luck with five runs a side, 2/252. */
#define STATS_EXTRA_ALPHA (2.0 / 252.0)

/* The p a confirmed row must reach at a look with n runs a side (Haybittle–Peto style): a
 * look before the cap gets STATS_EXTRA_ALPHA / (4 × looks), so all of them together spend
 * at most a quarter of the budget, and the look at the cap (n ≥ planned + 2 × looks) gets
 * the other three quarters. A clear change stops early; a small one is judged at the cap
 * with nearly the whole budget. */
double stats_extra_alpha(size_t planned, size_t looks, size_t n);

/* The spread a side shows in percent of its median: (max−min)/median with at most five
 * runs; with more, 1.7245 × the interquartile range / median, the five-run range a normal
 * sample with that IQR would have (2.326σ ÷ 1.349σ), so that more runs never make a side
 * look noisier than it is. v holds r->n values (may be NULL: then the range is used). */
double stats_spread_pct(const struct stats_range *r, const double *v);

/* change = cand median / base median − 1 (0 when the base median is 0). */
double stats_change(const struct stats_range *base, const struct stats_range *cand);

/* The verdict (one of the VERDICT_* strings) under rules r. For a confirmed row (a side
 * has more runs than in->planned): failed; ~ when ungated; regressed / improved when
 * |paired change| ≥ threshold and in->p_paired ≤ stats_extra_alpha(); unstable when a side's
 * stats_spread_pct() > noise limit, unless the 90% interval of the paired change
 * (stats_median_interval of the ratios) lies inside ±threshold: the pairs have then bounded
 * the change below the threshold (two one-sided tests at 5%), which the noise of single runs
 * does not undo; ~ otherwise. For the planned rounds, in this order:
 *   failed    — in->failed;
 *   ~         — metric not gated (threshold 0);
 *   ~         — the evidence floor: !stats_evidence_reachable() (reason "too few runs");
 *               this also holds for a confirmed row;
 *   regressed / improved — |change| ≥ threshold in the bad / good direction AND the ranges
 *               are disjoint (strong evidence that noise did not hide: wins over unstable);
 *   unstable  — either side's (max−min)/median > noise limit;
 *   regressed / improved — |change| ≥ threshold AND every paired ratio on the same side of 1
 *               as the change, with enough pairs that this is rare by chance (2/2^k ≤
 *               STATS_EVIDENCE_LEVEL: k ≥ 5);
 *   ~         — otherwise.
 * A counted cost (METRIC_INSTRUCTIONS) is regressed or improved only when the sides' minima
 * also differ past the threshold in the same direction: a program's count repeats closely but
 * for per-process luck that only adds (a random hash seed that makes some runs probe longer),
 * so the cheapest run is its cost; a change to the program moves every run
 * (docs/statistics.md gives the measurements). */
const char *stats_verdict(const struct verdict_input *in, const struct verdict_rules *r);

/* Why stats_verdict() gave its verdict, when the reason is not the data: STATS_REASON_TOO_FEW
 * when the metric is gated, nothing failed and the evidence floor forced "~"; else NULL. */
const char *stats_verdict_reason(const struct verdict_input *in, const struct verdict_rules *r);

/* The evidence floor. A row may be called regressed or improved only when the runs it has
 * could show evidence at least this strong by chance no more often than this (two-sided,
 * per row and metric, when nothing changed). Three runs a side with disjoint ranges reach it
 * (2/C(6,3) = 0.1); one or two runs a side never do (2/C(4,2) = 0.33). */
#define STATS_EVIDENCE_LEVEL 0.10
#define STATS_MIN_RUNS 3
/* The reason summary.json gives for a "~" that the evidence floor forced. */
#define STATS_REASON_TOO_FEW "too few runs"
/* The reason for an "unstable" that would have been "regressed" or "improved" but rests on
 * disturbed runs (too few clean rounds to set them aside: disturb.h). */
#define STATS_REASON_DISTURBED "disturbed runs"

/* The chance, per row and metric with nothing changed, that the planned-rounds evidence
 * rule calls a row regressed or improved with na and nb runs and n_pairs complete rounds:
 * the paired rule (every ratio on one side: 2/2^k) when it may be used (k ≥ 2 and 2/2^k ≤
 * STATS_EVIDENCE_LEVEL), else the disjoint-ranges rule alone (2/C(na+nb, na)); 1 when a
 * side has no runs. An upper bound: the change must also pass its threshold. */
double stats_false_flag_chance(size_t na, size_t nb, size_t n_pairs);

/* Whether the runs can reach the evidence floor at all: each side has at least
 * STATS_MIN_RUNS runs and stats_false_flag_chance() ≤ STATS_EVIDENCE_LEVEL. */
int stats_evidence_reachable(size_t na, size_t nb, size_t n_pairs);

/* The chance of the "strong evidence" condition under the null hypothesis (no difference,
 * exchangeable runs): with k complete pairs, every ratio on one side has two-sided sign-test
 * probability 2/2^k, and disjoint ranges (which imply it) 2/C(na+nb, na). Returns the first;
 * *p_disjoint (optional) gets the second. */
double stats_evidence_alpha(size_t n_pairs, size_t na, size_t nb, double *p_disjoint);

#endif
