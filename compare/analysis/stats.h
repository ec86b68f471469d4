/* Statistics of docs/architecture.md#statistics, free of I/O: median [min–max] of a sample, the
 * exact two-sided Mann–Whitney U p-value, paired per-round ratios, and the verdict rules
 * (per-metric thresholds, the moderated evidence of moderate.h) that turn them into regressed /
 * improved / ~ / undecided / failed. */
#ifndef PAIRBENCH_STATS_H
#define PAIRBENCH_STATS_H

#include <stddef.h>

#include "analysis/metrics.h"
#include "analysis/moderate.h"

/* Verdict words, exactly as they appear in summary.json and the reports: three outcomes, as
 * Pinpoint's DIFFERENT / SAME / UNKNOWN, and failed. "~" only when the evidence bounds the change
 * inside ±threshold; "undecided" carries a reason (STATS_REASON_*) and, where the measured noise
 * tells, the runs a side that would decide it. */
#define VERDICT_REGRESSED "regressed"
#define VERDICT_IMPROVED "improved"
#define VERDICT_SAME "~"
#define VERDICT_UNDECIDED "undecided"
#define VERDICT_FAILED "failed"
/* The verdict word of pairbench.summary/1 for what is now "undecided" with reason
 * STATS_REASON_NOISE: read in old summaries (summary_upgrade), never written. */
#define VERDICT_OLD_UNSTABLE "unstable"

struct verdict_rules {
    /* Minimum |change| in percent for regressed/improved; 0 = metric not gated (its verdict
     * is "~" or "failed", never regressed/improved/unstable). */
    double threshold_pct[METRIC_ALL];
    /* 1 where a threshold was named (--threshold, the spec's gate thresholds): a fixed-rate
     * row's defaults (outcome.h) leave it as named */
    unsigned char named[METRIC_ALL];
    /* The spread a side may show, (max−min)/median in percent, before the gate's comment
     * points at it; no longer a verdict rule: the moderated evidence weighs noise against
     * the change (docs/statistics.md "Moderated evidence"). */
    double noise_limit_pct;
    /* The noise recorded outside this run (calibrate, the drift history): per metric, a
     * prior on the log scale that the run's own prior is pooled with (df 0: none). */
    struct mod_prior outside[METRIC_ALL];
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
    const unsigned char
        *after; /* per ratio: the candidate ran after the baseline (NULL: unknown) */
    size_t n_ratios;
    /* Adaptive confirmation (confirm.c). planned: the rounds the run planned (0: unknown).
     * When a side has more runs than planned the row was confirmed: its change is the paired
     * one (stats_paired_change) and its evidence must reach stats_extra_alpha(planned, looks,
     * n), looks being how many times the confirmation cap lets the row be judged again. p is
     * the exact U-test p of the raw values, reported for every row; no rule uses it. */
    size_t planned, looks;
    double p, p_paired;
    const double *base_v, *cand_v; /* base.n and cand.n raw values */
    const struct mod_prior *prior; /* the run's noise for this metric (NULL: none yet) */
    double floor_abs; /* > 0: this row's absolute floor, instead of the metric's (stall) */
};

/* What a verdict rests on, beside its word. */
struct verdict_out {
    const char *verdict;
    const char *reason; /* STATS_REASON_* of an undecided verdict, else NULL */
    int has_evidence;   /* a timed metric's moderated test ran: ev, res, alpha hold */
    struct mod_evidence ev;
    struct mod_result res;
    double alpha;       /* the p the evidence had to reach */
    size_t runs_needed; /* runs a side that would decide an undecided verdict; 0: unknown */
};

/* Reasons of an "undecided" verdict (summary.json "reason"). */
#define STATS_REASON_TOO_FEW "too few runs"     /* more runs would decide it */
#define STATS_REASON_NOISE "unstable"           /* noise too large against the threshold */
#define STATS_REASON_DISTURBED "disturbed runs" /* other work could have made the change */

/* The evidence level of one metric of a row before the family (family.h) shares it. */
#define STATS_EVIDENCE_LEVEL 0.05
/* Fewest runs a side with a variance of their own (the moderated test needs 2). */
#define STATS_MIN_RUNS 2

/* The false-alarm budget that the extra looks of a confirmed row share. */
#define STATS_EXTRA_ALPHA (2.0 / 252.0)

/* The p a confirmed row must reach at a look with n runs a side (Haybittle–Peto style): a
 * look before the cap gets STATS_EXTRA_ALPHA / (4 × looks), so all of them together spend
 * at most a quarter of the budget, and the look at the cap (n ≥ planned + 2 × looks) gets
 * the other three quarters. */
double stats_extra_alpha(size_t planned, size_t looks, size_t n);

/* The spread a side shows in percent of its median: (max−min)/median with at most five
 * runs; with more, 1.7245 × the interquartile range / median, the five-run range a normal
 * sample with that IQR would have (2.326σ ÷ 1.349σ). v holds r->n values (may be NULL: then
 * the range is used). Reported, not a verdict rule. */
double stats_spread_pct(const struct stats_range *r, const double *v);

/* change = cand median / base median − 1 (0 when the base median is 0). */
double stats_change(const struct stats_range *base, const struct stats_range *cand);

/* The verdict of one metric under rules r (NULL: the defaults), in this order:
 *   failed    — in->failed;
 *   ~         — metric not gated (threshold 0), or the change within the metric's absolute
 *               floor (a count per operation near zero);
 * Timed metrics (everything but metric_counted()): the moderated t-test of moderate.h on the
 * log scale, with in->prior:
 *   regressed / improved — |change| ≥ threshold in the bad / good direction AND p ≤ alpha
 *               (STATS_EVIDENCE_LEVEL, or stats_extra_alpha() for a confirmed row, whose
 *               change is the paired one);
 *   ~         — the 90% interval of the change inside ±threshold (two one-sided 5% tests);
 *   undecided — otherwise: STATS_REASON_TOO_FEW when a side has fewer than STATS_MIN_RUNS
 *               runs and no prior, or when more runs would decide (runs_needed), else
 *               STATS_REASON_NOISE.
 * Counted costs (instructions, system calls, allocations, estimated cycles) repeat closely
 * but for per-process luck that only adds, so the cheapest run is a program's cost: ~ when,
 * with at least 2 runs a side, every value of one side lies within ±threshold of every value
 * of the other; else fewer than 3 runs a side is undecided (too few runs); regressed /
 * improved when |change| ≥ threshold, the sides' minima also differ past it in the same
 * direction and the ranges are disjoint or every paired ratio (≥ 5) lies on the change's
 * side; else undecided (unstable). */
void stats_judge(const struct verdict_input *in, const struct verdict_rules *r,
                 struct verdict_out *out);

/* The timed rule of stats_judge alone, for a metric whose evidence is already known (the
 * summary judges every row again once the run's prior is fitted): change is the reported
 * change (the paired one for a confirmed row), higher_better its direction. */
void stats_judge_timed(double threshold_pct, int higher_better, double change,
                       const struct mod_evidence *ev, const struct mod_prior *pr, double alpha,
                       struct verdict_out *out);

/* stats_judge's word and reason alone. */
const char *stats_verdict(const struct verdict_input *in, const struct verdict_rules *r);
const char *stats_verdict_reason(const struct verdict_input *in, const struct verdict_rules *r);

/* Whether a counted metric's runs can reach its evidence (3 runs a side). */
int stats_counted_reachable(size_t na, size_t nb);

#endif
