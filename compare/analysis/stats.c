/* Statistics of docs/architecture.md#statistics: ranges, the exact Mann–Whitney U test, the exact
 * Wilcoxon signed-rank test of the paired per-round ratios, paired ratios, verdicts. Pure
 * functions, no I/O; known-answer tests in tests/unit/test_stats.c.
 *
 * Why these choices: with 5 runs a side nothing but order statistics are honest. The exact
 * U test is computed by counting: a dynamic programme over the pooled sample (sorted, ties
 * given mid-ranks, ranks doubled so they stay integers) counts, for every possible rank sum,
 * how many of the C(N, na) ways to pick group a reach it; the p-value is the share whose
 * doubled rank sum is at least as far from its mean na·(N+1) as the observed one. That is
 * the exact permutation test conditional on the observed ties, so ties need no correction. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"

void verdict_rules_default(struct verdict_rules *r)
{
    int m;

    memset(r, 0, sizeof(*r));
    for (m = 0; m < METRIC_ALL; m++)
        r->threshold_pct[m] = metric_def((enum metric)m)->threshold_pct;
    r->noise_limit_pct = 20;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y ? 1 : 0;
}

/* A sorted copy of v[0..n) (n > 0), or NULL when memory ran out; the caller frees it. */
static double *sorted_copy(const double *v, size_t n)
{
    double *s = malloc(n * sizeof(*s));

    if (!s)
        return NULL;
    memcpy(s, v, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);
    return s;
}

int stats_range(const double *v, size_t n, struct stats_range *r)
{
    double *s;

    memset(r, 0, sizeof(*r));
    if (n == 0 || !(s = sorted_copy(v, n)))
        return -1;
    r->n = n;
    r->min = s[0];
    r->max = s[n - 1];
    r->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return 0;
}

int stats_median_interval(const double *v, size_t n, double level, double *lo, double *hi)
{
    double tail = (1 - level) / 2, logp, cdf = 0;
    size_t k = 0, i;
    double *s;

    *lo = -HUGE_VAL;
    *hi = HUGE_VAL;
    /* the binomial(n, 1/2) probabilities in logs: 2^-n underflows past n = 1074 */
    logp = -(double)n * log(2.0);
    for (i = 0; i < n; i++) {
        cdf += exp(logp); /* P(X <= i) */
        if (cdf > tail)
            break;
        k = i + 1;
        logp += log((double)(n - i)) - log((double)(i + 1));
    }
    if (k == 0 || 2 * k > n + 1 || !(s = sorted_copy(v, n)))
        return -1;
    *lo = s[k - 1];
    *hi = s[n - k];
    free(s);
    return 0;
}

/* A value to rank, and the mark its test sums ranks over: in group a (rank-sum test), or
 * a positive difference (signed-rank test, v = |d|). */
struct pooled {
    double v;
    int in_a;
};

static int cmp_pooled(const void *a, const void *b)
{
    return cmp_double(&((const struct pooled *)a)->v, &((const struct pooled *)b)->v);
}

/* Sorts p[0..n) by value and gives each position its doubled mid-rank (ties share the
 * mean of their ranks; doubled, it stays an integer) in rank2. Returns the tie correction
 * sum of t³ − t over the groups of t equal values. Both rank tests below use it: the
 * rank-sum test on the pooled values, the signed-rank test on the |differences|. */
static double mid_ranks2(struct pooled *p, size_t n, long *rank2)
{
    size_t i, j, k;
    double tie_sum = 0;

    qsort(p, n, sizeof(*p), cmp_pooled);
    for (i = 0; i < n; i = j) {
        double t;

        for (j = i + 1; j < n && p[j].v == p[i].v; j++)
            ;
        /* positions i..j-1 hold ranks i+1..j; their mid-rank doubled is i+1+j */
        for (k = i; k < j; k++)
            rank2[k] = (long)(i + 1 + j);
        t = (double)(j - i);
        tie_sum += t * t * t - t;
    }
    return tie_sum;
}

/* Normal approximation with tie correction and continuity correction, for large samples. */
static double mwu_normal(double w_a, size_t na, size_t nb, double tie_sum)
{
    double N = (double)(na + nb), u = w_a - (double)na * ((double)na + 1) / 2;
    double mu = (double)na * (double)nb / 2;
    double var = (double)na * (double)nb / 12 * ((N + 1) - tie_sum / (N * (N - 1)));
    double z;

    if (var <= 0)
        return 1;
    z = (fabs(u - mu) - 0.5) / sqrt(var);
    if (z < 0)
        return 1;
    return fmin(1, erfc(z / sqrt(2)));
}

/* The exact two-sided p from a null distribution: count[s] (s = 0..smax) arrangements have
 * statistic s; the share of them with |scale·s − center| ≥ dev, or 1 when none is counted. */
static double tail_share(const double *count, size_t smax, long scale, long center, long dev)
{
    double tail = 0, total = 0;
    size_t s;

    for (s = 0; s <= smax; s++) {
        if (count[s] == 0)
            continue;
        total += count[s];
        if (labs(scale * (long)s - center) >= dev)
            tail += count[s];
    }
    return total > 0 ? fmin(1, tail / total) : 1;
}

double stats_mwu_p(const double *a, size_t na, const double *b, size_t nb)
{
    size_t N = na + nb, i, k, smax;
    struct pooled *p = NULL;
    long *rank2 = NULL; /* doubled mid-ranks, in pooled order */
    double *count = NULL, tie_sum = 0, result = 1;
    long w2 = 0, mu2, dev;

    if (na == 0 || nb == 0)
        return 1;
    p = malloc(N * sizeof(*p));
    rank2 = malloc(N * sizeof(*rank2));
    if (!p || !rank2)
        goto out;
    for (i = 0; i < na; i++)
        p[i] = (struct pooled){a[i], 1};
    for (i = 0; i < nb; i++)
        p[na + i] = (struct pooled){b[i], 0};
    tie_sum = mid_ranks2(p, N, rank2);
    for (i = 0; i < N; i++)
        if (p[i].in_a)
            w2 += rank2[i];
    mu2 = (long)na * (long)(N + 1);
    dev = labs(w2 - mu2);

    if (N > STATS_MWU_EXACT_MAX) {
        result = mwu_normal((double)w2 / 2, na, nb, tie_sum);
        goto out;
    }
    /* count[k * (smax+1) + s]: ways to pick k of the values seen so far with doubled sum s */
    smax = N * (N + 1);
    count = calloc((na + 1) * (smax + 1), sizeof(*count));
    if (!count)
        goto out;
    count[0] = 1;
    for (i = 0; i < N; i++) {
        size_t r2 = (size_t)rank2[i];

        for (k = (i + 1 < na ? i + 1 : na); k >= 1; k--) {
            double *dst = count + k * (smax + 1), *src = count + (k - 1) * (smax + 1);
            size_t s;

            for (s = smax; s >= r2; s--) {
                dst[s] += src[s - r2];
                if (s == r2)
                    break;
            }
        }
    }
    result = tail_share(count + na * (smax + 1), smax, 1, mu2, dev);
out:
    free(p);
    free(rank2);
    free(count);
    return result;
}

double stats_signed_rank_p(const double *d, size_t n)
{
    struct pooled *p = NULL; /* |d|, and whether d is positive */
    long *rank2 = NULL, w2 = 0, tot2, dev2;
    double *count = NULL, tie_sum, result = 1;
    size_t m = 0, i, t;

    p = malloc((n ? n : 1) * sizeof(*p));
    rank2 = malloc((n ? n : 1) * sizeof(*rank2));
    if (!p || !rank2)
        goto out;
    for (i = 0; i < n; i++)
        if (d[i] != 0 && !isnan(d[i])) /* zeros carry no sign: dropped (Wilcoxon) */
            p[m++] = (struct pooled){fabs(d[i]), d[i] > 0};
    if (m == 0)
        goto out;
    tie_sum = mid_ranks2(p, m, rank2);
    for (i = 0; i < m; i++)
        if (p[i].in_a)
            w2 += rank2[i];
    tot2 = (long)(m * (m + 1)); /* the doubled ranks' sum */
    /* |2·W+ − total|, in doubled ranks: W+ sits on total/2 under the null */
    dev2 = labs(2 * w2 - tot2);
    if (m > STATS_SIGNED_RANK_EXACT_MAX) {
        double nn = (double)m;
        double var = nn * (nn + 1) * (2 * nn + 1) / 24 - tie_sum / 48;
        double z = ((double)dev2 / 4 - 0.5) / sqrt(var);

        result = var > 0 && z > 0 ? fmin(1, erfc(z / sqrt(2))) : 1;
        goto out;
    }
    /* count[s]: sign assignments whose positive doubled ranks sum to s; each of the 2^m
     * assignments is equally likely under the null (the ratios symmetric about 1) */
    count = calloc((size_t)tot2 + 1, sizeof(*count));
    if (!count)
        goto out;
    count[0] = 1;
    for (i = 0; i < m; i++) {
        size_t r2 = (size_t)rank2[i];

        for (t = (size_t)tot2; t >= r2; t--) {
            count[t] += count[t - r2];
            if (t == r2)
                break;
        }
    }
    result = tail_share(count, (size_t)tot2, 2, tot2, dev2);
out:
    free(p);
    free(rank2);
    free(count);
    return result;
}

int stats_ranges_overlap(const struct stats_range *a, const struct stats_range *b)
{
    return a->min <= b->max && b->min <= a->max;
}

size_t stats_paired_ratios(const double *base, const double *cand, const unsigned char *have,
                           size_t n, double *out)
{
    size_t i, k = 0;

    for (i = 0; i < n; i++)
        if (have[i] && base[i] != 0)
            out[k++] = cand[i] / base[i];
    return k;
}

double stats_change(const struct stats_range *base, const struct stats_range *cand)
{
    return base->median != 0 ? cand->median / base->median - 1 : 0;
}

/* The q-quantile of sorted s[0..n), linear between order statistics (Hyndman–Fan type 7). */
static double quantile_sorted(const double *s, size_t n, double q)
{
    double h = (double)(n - 1) * q;
    size_t lo = (size_t)h;

    return lo + 1 < n ? s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]) : s[n - 1];
}

double stats_spread_pct(const struct stats_range *r, const double *v)
{
    double *s, iqr;

    if (r->median == 0)
        return 0;
    if (r->n <= 5 || !v || !(s = sorted_copy(v, r->n)))
        return (r->max - r->min) / fabs(r->median) * 100;
    iqr = quantile_sorted(s, r->n, 0.75) - quantile_sorted(s, r->n, 0.25);
    free(s);
    return 1.7245 * iqr / fabs(r->median) * 100;
}

/* The two-sided chance that k paired ratios all fall on one side of 1 by luck: 2/2^k. */
static double stats_sign_chance(size_t k)
{
    return k == 0 ? 1 : fmin(1, 2 / ldexp(1, (int)(k < 1000 ? k : 1000)));
}

double stats_extra_alpha(size_t planned, size_t looks, size_t n)
{
    if (looks == 0)
        looks = 1;
    if (n >= planned + 2 * looks) /* the cap: the last look */
        return STATS_EXTRA_ALPHA * 0.75;
    return STATS_EXTRA_ALPHA / (4.0 * (double)looks);
}

double stats_paired_change(const double *ratios, size_t n)
{
    struct stats_range pr;

    return n && stats_range(ratios, n, &pr) == 0 ? pr.median - 1 : 0;
}

int stats_counted_reachable(size_t na, size_t nb)
{
    return na >= 3 && nb >= 3;
}

static void set_word(struct verdict_out *out, const char *verdict, const char *reason)
{
    out->verdict = verdict;
    out->reason = reason;
}

void stats_judge_timed(double threshold_pct, int higher_better, double change,
                       const struct mod_evidence *ev, const struct mod_prior *pr, double alpha,
                       struct verdict_out *out)
{
    double t = threshold_pct / 100;
    /* the 1e-9 keeps a change printed as exactly the threshold from missing it by rounding */
    int beyond = change != 0 && fabs(change * 100) + 1e-9 >= threshold_pct;
    int bad = higher_better ? change < 0 : change > 0;

    out->has_evidence = 1;
    out->ev = *ev;
    out->alpha = alpha;
    out->runs_needed = 0;
    if (mod_test(ev, pr, &out->res) < 0) {
        set_word(out, VERDICT_UNDECIDED, STATS_REASON_TOO_FEW);
        return;
    }
    /* the test's estimate must agree in sign with the reported change it decides */
    if (beyond && out->res.p <= alpha * (1 + 1e-9) && (ev->est < 0) == (change < 0)) {
        set_word(out, bad ? VERDICT_REGRESSED : VERDICT_IMPROVED, NULL);
        return;
    }
    if (out->res.lo > -t && out->res.hi < t) {
        set_word(out, VERDICT_SAME, NULL);
        return;
    }
    out->runs_needed = mod_runs_needed(ev, pr, t, alpha);
    set_word(out, VERDICT_UNDECIDED,
             ev->df == 0 || out->runs_needed ? STATS_REASON_TOO_FEW : STATS_REASON_NOISE);
}

/* A counted cost (instructions per operation) changed at its cheapest run too: the two
 * sides' minima differ past the threshold in the direction of the change (see stats.h). */
static int counted_min_agrees(const struct verdict_input *in, double thr, double change)
{
    double mc;

    if (!(in->base.min > 0))
        return 1;
    mc = in->cand.min / in->base.min - 1;
    return fabs(mc * 100) + 1e-9 >= thr && (mc > 0) == (change > 0);
}

/* The counted rule of stats_judge (stats.h). */
static void judge_counted(const struct verdict_input *in, double thr, struct verdict_out *out)
{
    double change = stats_change(&in->base, &in->cand), t = thr / 100;
    int beyond = change != 0 && fabs(change * 100) + 1e-9 >= thr;
    int bad = metric_higher_is_better(in->metric) ? change < 0 : change > 0;
    size_t i, same_side = 0;

    /* every count of one side within ±threshold of every count of the other: bounded, with
     * two runs a side already (a count repeats closely; a change moves every run) */
    if (in->base.n >= 2 && in->cand.n >= 2 && in->base.min > 0 &&
        in->cand.max / in->base.min - 1 < t && in->cand.min / in->base.max - 1 > -t) {
        set_word(out, VERDICT_SAME, NULL);
        return;
    }
    if (!stats_counted_reachable(in->base.n, in->cand.n)) {
        set_word(out, VERDICT_UNDECIDED, STATS_REASON_TOO_FEW);
        return;
    }
    if (beyond && counted_min_agrees(in, thr, change)) {
        for (i = 0; i < in->n_ratios; i++)
            if ((change > 0 && in->ratios[i] > 1) || (change < 0 && in->ratios[i] < 1))
                same_side++;
        if (!stats_ranges_overlap(&in->base, &in->cand) ||
            (in->n_ratios >= 5 && same_side == in->n_ratios &&
             stats_sign_chance(in->n_ratios) <= 0.1)) {
            set_word(out, bad ? VERDICT_REGRESSED : VERDICT_IMPROVED, NULL);
            return;
        }
    }
    set_word(out, VERDICT_UNDECIDED, STATS_REASON_NOISE);
}

void stats_judge(const struct verdict_input *in, const struct verdict_rules *r,
                 struct verdict_out *out)
{
    struct verdict_rules def;
    struct mod_evidence ev;
    double thr, change;
    int confirmed;

    memset(out, 0, sizeof(*out));
    if (!r) {
        verdict_rules_default(&def);
        r = &def;
    }
    if (in->failed || in->base.n == 0 || in->cand.n == 0) {
        set_word(out, VERDICT_FAILED, NULL);
        return;
    }
    set_word(out, VERDICT_SAME, NULL);
    if ((unsigned)in->metric >= METRIC_ALL)
        return;
    thr = r->threshold_pct[in->metric];
    if (!(thr > 0))
        return;
    /* counts per operation near zero: a change below the metric's absolute floor is none */
    if (in->floor_abs > 0 ? fabs(in->cand.median - in->base.median) < in->floor_abs
                          : metric_within_floor(in->metric, in->cand.median, in->base.median))
        return;
    if (metric_counted(in->metric)) {
        judge_counted(in, thr, out);
        return;
    }
    confirmed = in->planned && (in->base.n > in->planned || in->cand.n > in->planned);
    change = confirmed ? stats_paired_change(in->ratios, in->n_ratios)
                       : stats_change(&in->base, &in->cand);
    if (mod_evidence_from(in->base_v, in->base.n, in->cand_v, in->cand.n, in->ratios, in->after,
                          in->n_ratios, &ev) < 0) {
        set_word(out, VERDICT_UNDECIDED, STATS_REASON_TOO_FEW);
        return;
    }
    stats_judge_timed(thr, metric_higher_is_better(in->metric), change, &ev, in->prior,
                      confirmed
                          ? stats_extra_alpha(in->planned, in->looks,
                                              in->base.n > in->cand.n ? in->base.n : in->cand.n)
                          : STATS_EVIDENCE_LEVEL,
                      out);
}

const char *stats_verdict(const struct verdict_input *in, const struct verdict_rules *r)
{
    struct verdict_out out;

    stats_judge(in, r, &out);
    return out.verdict;
}

const char *stats_verdict_reason(const struct verdict_input *in, const struct verdict_rules *r)
{
    struct verdict_out out;

    stats_judge(in, r, &out);
    return out.reason;
}
