/* Known answers for compare/stats: ranges, the exact Mann–Whitney U p-value (counts checked
 * against a brute-force enumeration of every assignment), paired ratios and the verdict
 * table. */
#include <math.h>

#include "analysis/stats.h"
#include "t.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-12)
#define N(arr) (sizeof(arr) / sizeof((arr)[0]))

static void test_range(void)
{
    static const double odd[] = {5, 1, 4, 2, 3}, even[] = {10, 40, 20, 30}, one[] = {7};
    struct stats_range r;

    CHECK(stats_range(odd, N(odd), &r) == 0);
    CHECK(r.median == 3 && r.min == 1 && r.max == 5 && r.n == 5);
    CHECK(odd[0] == 5); /* input untouched */
    CHECK(stats_range(even, N(even), &r) == 0);
    CHECK(r.median == 25 && r.min == 10 && r.max == 40 && r.n == 4);
    CHECK(stats_range(one, 1, &r) == 0 && r.median == 7 && r.min == 7 && r.max == 7);
    CHECK(stats_range(one, 0, &r) == -1 && r.n == 0);
}

static void test_mwu(void)
{
    static const struct {
        double a[8], b[8];
        size_t na, nb;
        double p;
    } cases[] = {
        /* disjoint 5 vs 5: the most extreme outcome, 2 of 252 assignments */
        {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, 5, 5, 2.0 / 252},
        {{96, 97, 98, 99, 100}, {90, 91, 92, 93, 94}, 5, 5, 2.0 / 252},
        /* one swap from the extreme: rank sum 16, P(W ≤ 16) = 2/252, two-sided 4/252 */
        {{1, 2, 3, 4, 6}, {5, 7, 8, 9, 10}, 5, 5, 4.0 / 252},
        /* identical samples: the rank sum sits on its mean */
        {{5, 5, 5}, {5, 5, 5}, 3, 3, 1},
        {{1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}, 5, 5, 1},
        /* ties across the groups (mid-ranks), by enumeration: 6 of 20 */
        {{1, 2, 2}, {2, 3, 4}, 3, 3, 6.0 / 20},
        /* ties, 5 vs 5: 44 of 252 */
        {{10, 20, 20, 30, 40}, {20, 30, 35, 50, 60}, 5, 5, 44.0 / 252},
        /* unequal sizes with a tie: 14 of 210 */
        {{1, 2, 3, 4, 5, 6}, {3.5, 7, 8, 9}, 6, 4, 14.0 / 210},
    };
    size_t i;

    for (i = 0; i < N(cases); i++) {
        double p = stats_mwu_p(cases[i].a, cases[i].na, cases[i].b, cases[i].nb);
        double q = stats_mwu_p(cases[i].b, cases[i].nb, cases[i].a, cases[i].na);

        CHECK_MSG(NEAR(p, cases[i].p), "case %zu: p %.15g, expected %.15g", i, p, cases[i].p);
        CHECK_MSG(NEAR(q, cases[i].p), "case %zu swapped: p %.15g", i, q);
    }
    CHECK(NEAR(2.0 / 252, 0.0079365079365079));
    CHECK(stats_mwu_p(cases[0].a, 0, cases[0].b, 5) == 1);
    {
        /* above the exact limit: the normal approximation, still tiny for disjoint data */
        double a[40], b[40];
        for (i = 0; i < 40; i++) {
            a[i] = (double)i;
            b[i] = 100 + (double)i;
        }
        CHECK(stats_mwu_p(a, 40, b, 40) < 1e-10);
        CHECK(stats_mwu_p(a, 40, a, 40) > 0.99);
    }
}

/* The signed-rank p by brute force: every one of the 2^n sign assignments of the ranks. */
static double signed_rank_brute(const double *d, size_t n)
{
    double r2[16], a[16], w2 = 0, tot2 = 0, tail = 0;
    size_t i, j, m = 0;
    unsigned long mask, all;

    for (i = 0; i < n; i++)
        if (d[i] != 0)
            a[m++] = d[i];
    for (i = 0; i < m; i++) { /* doubled mid-rank of |a[i]|: 2·(#smaller) + #equal + 1 */
        double less = 0, eq = 0;
        for (j = 0; j < m; j++) {
            less += fabs(a[j]) < fabs(a[i]);
            eq += fabs(a[j]) == fabs(a[i]);
        }
        r2[i] = 2 * less + eq + 1;
        tot2 += r2[i];
        if (a[i] > 0)
            w2 += r2[i];
    }
    all = 1UL << m;
    for (mask = 0; mask < all; mask++) {
        double s = 0;
        for (i = 0; i < m; i++)
            if (mask & (1UL << i))
                s += r2[i];
        tail += fabs(2 * s - tot2) >= fabs(2 * w2 - tot2);
    }
    return m ? tail / (double)all : 1;
}

static void test_signed_rank(void)
{
    static const struct {
        double d[12];
        size_t n;
        double p;
    } cases[] = {
        /* five of five on one side: the most extreme outcome, 2 of 32 */
        {{-0.1, -0.2, -0.05, -0.3, -0.15}, 5, 2.0 / 32},
        {{0.1, 0.2, 0.05, 0.3, 0.15}, 5, 2.0 / 32},
        /* the smallest |d| has the other sign: W+ = 1, P(W+ <= 1) = 2/32, two-sided 4/32 */
        {{0.01, -0.2, -0.05, -0.3, -0.15}, 5, 4.0 / 32},
        /* the largest has the other sign: W+ = 5, 2.5 below its mean 7.5; subsets of {1..5}
         * summing to at most 5 or at least 10: 10 + 10 of 32 */
        {{0.3, -0.2, -0.05, -0.1, -0.15}, 5, 20.0 / 32},
        /* symmetric: W+ on its mean */
        {{0.1, -0.1, 0.2, -0.2}, 4, 1},
        /* zeros are dropped: the same as the first case */
        {{0, -0.1, -0.2, 0, -0.05, -0.3, -0.15}, 7, 2.0 / 32},
        /* ties among |d| (mid-ranks), checked against the enumeration below */
        {{0.1, -0.1, -0.1, -0.2, -0.2, 0.3, -0.4}, 7, -1},
        {{-0.05, -0.05, -0.05, 0.05, -0.1, -0.2, -0.3, -0.3, 0.4, -0.5, -0.6, -0.7}, 12, -1},
    };
    size_t i;

    for (i = 0; i < N(cases); i++) {
        double p = stats_signed_rank_p(cases[i].d, cases[i].n);
        double want = cases[i].p >= 0 ? cases[i].p : signed_rank_brute(cases[i].d, cases[i].n);

        CHECK_MSG(NEAR(p, want), "case %zu: p %.15g, expected %.15g", i, p, want);
        CHECK_MSG(NEAR(p, signed_rank_brute(cases[i].d, cases[i].n)), "case %zu: brute force", i);
    }
    CHECK(stats_signed_rank_p(cases[0].d, 0) == 1);
    {
        static const double zeros[3] = {0, 0, 0};
        CHECK(stats_signed_rank_p(zeros, 3) == 1);
    }
    {
        /* above the exact limit: the normal approximation, tiny for one-sided data and
         * close to the exact p for mixed signs */
        static double d[300];
        double pe, pa;
        for (i = 0; i < 300; i++)
            d[i] = -(double)(i + 1);
        CHECK(stats_signed_rank_p(d, 300) < 1e-30);
        for (i = 0; i < 300; i++)
            d[i] = (i % 3 == 0 ? 1 : -1) * (double)(i + 1);
        pa = stats_signed_rank_p(d, 300);
        pe = stats_signed_rank_p(d, STATS_SIGNED_RANK_EXACT_MAX);
        CHECK(pa > 0 && pa < 1e-3);
        CHECK(pe > 0 && pe < 1e-2);
        for (i = 0; i < 300; i++)
            d[i] = (i % 2 ? 1 : -1) * (double)(i + 1);
        CHECK(stats_signed_rank_p(d, 300) > 0.8);
        /* at the limit (exact) and one past it (approximated) alternating signs: no change */
        pe = stats_signed_rank_p(d, STATS_SIGNED_RANK_EXACT_MAX);
        pa = stats_signed_rank_p(d, STATS_SIGNED_RANK_EXACT_MAX + 1);
        CHECK_MSG(pe > 0.8 && pa > 0.8, "exact %.6f, approximate %.6f", pe, pa);
    }
}

static void test_paired(void)
{
    static const double base[] = {100, 100, 0, 200, 50}, cand[] = {110, 90, 5, 100, 50};
    static const unsigned char have[] = {1, 1, 1, 1, 0};
    double out[5];
    size_t n = stats_paired_ratios(base, cand, have, 5, out);

    CHECK(n == 3); /* round 3 has a zero base, round 5 is missing */
    CHECK(NEAR(out[0], 1.1) && NEAR(out[1], 0.9) && NEAR(out[2], 0.5));
}

/* P(Binomial(n, 1/2) <= j), from exact counts (n <= 60 fits a double exactly enough) */
static double binom_cdf(unsigned n, unsigned j)
{
    double c = 1, sum = 0;
    unsigned i;

    for (i = 0; i <= j; i++) {
        sum += c;
        c = c * (n - i) / (i + 1);
    }
    return sum / pow(2, n);
}

static void test_median_interval(void)
{
    double v[2000], lo, hi;
    unsigned n, k, i;

    for (i = 0; i < 2000; i++)
        v[i] = (double)((i * 7919u) % 2000u) + 1; /* 1..2000, shuffled */
    CHECK(stats_median_interval(v, 4, 0.9, &lo, &hi) == -1 && isinf(lo) && lo < 0 && isinf(hi) &&
          hi > 0); /* 1/16 > 5%: four values exclude nothing */
    /* the order statistics for every n up to 60 against the binomial tails */
    for (n = 5; n <= 60; n++) {
        unsigned above = 0;
        CHECK(stats_median_interval(v, n, 0.9, &lo, &hi) == 0);
        k = 0;
        for (i = 0; i < n; i++) {
            k += v[i] <= lo;     /* lo is the k-th smallest */
            above += v[i] >= hi; /* hi the above-th largest */
        }
        CHECK_MSG(binom_cdf(n, k - 1) <= 0.05 + 1e-12 && binom_cdf(n, k) > 0.05, "n %u k %u", n, k);
        CHECK_MSG(above == k, "n %u: lo is the %u-th smallest, hi the %u-th largest", n, k, above);
    }
    CHECK(stats_median_interval(v, 9, 0.9, &lo, &hi) == 0); /* k = 2: 2nd and 8th of nine */
    {
        static const double nine[] = {0.91, 0.94, 0.93, 1.13, 0.89, 1.10, 0.90, 1.00, 1.03};
        CHECK(stats_median_interval(nine, 9, 0.9, &lo, &hi) == 0);
        CHECK(NEAR(lo, 0.90) && NEAR(hi, 1.10));
        CHECK(nine[0] == 0.91); /* input untouched */
    }
    /* large n: 2^-n underflows a double; the interval is still near the median's +-1.645 sd */
    CHECK(stats_median_interval(v, 2000, 0.9, &lo, &hi) == 0);
    CHECK_MSG(lo >= 955 && lo <= 970 && hi == 2001 - lo, "lo %g hi %g", lo, hi);
}

static void test_rules(void)
{
    struct verdict_rules r;

    verdict_rules_default(&r);
    CHECK(r.threshold_pct[METRIC_THROUGHPUT] == 5 && r.threshold_pct[METRIC_P99_US] == 10);
    CHECK(r.threshold_pct[METRIC_CPU_PERCENT] == 0 && r.noise_limit_pct == 20);
    CHECK(metric_lookup("throughput") == METRIC_THROUGHPUT);
    CHECK(metric_lookup("p99") == METRIC_P99_US && metric_lookup("p99_us") == METRIC_P99_US);
    CHECK(metric_lookup("p50") == METRIC_P50_US && metric_lookup("rss") == METRIC_RSS_MIB);
    CHECK(metric_lookup("efficiency") == METRIC_CPU_EFFICIENCY);
    CHECK(metric_lookup("cpu_efficiency") == METRIC_CPU_EFFICIENCY);
    CHECK(metric_lookup("latency") == -1 && metric_lookup(NULL) == -1);
    CHECK_STR(metric_name(METRIC_RSS_MIB), "rss_mib");
    CHECK(metric_higher_is_better(METRIC_THROUGHPUT) && !metric_higher_is_better(METRIC_P99_US));
}

/* One metric of five runs a side, judged as summary_row.c judges it (raw values, paired
 * ratios of the rounds), with no prior. */
static const char *judge5(enum metric m, int failed, const double *b, const double *c,
                          const struct verdict_rules *r, struct verdict_out *out)
{
    double ratios[5];
    struct verdict_input in;
    size_t i;

    memset(&in, 0, sizeof(in));
    in.metric = m;
    in.failed = failed;
    stats_range(b, 5, &in.base);
    stats_range(c, 5, &in.cand);
    for (i = 0; i < 5; i++)
        ratios[i] = c[i] / b[i];
    in.ratios = ratios;
    in.n_ratios = 5;
    in.base_v = b;
    in.cand_v = c;
    stats_judge(&in, r, out);
    return out->verdict;
}

static void test_verdicts(void)
{
    static const struct {
        enum metric m;
        int failed;
        double b[5], c[5];
        const char *want, *reason;
    } cases[] = {
        /* a clear fall past the threshold, tight runs */
        {METRIC_THROUGHPUT, 0, {100, 98, 102, 99, 101}, {90, 88, 92, 89, 91}, "regressed", NULL},
        /* good direction */
        {METRIC_THROUGHPUT,
         0,
         {100, 98, 102, 99, 101},
         {110, 108, 112, 109, 111},
         "improved",
         NULL},
        /* −3%, tight: bounded inside ±5% */
        {METRIC_THROUGHPUT, 0, {100, 99, 101, 100, 100.5}, {97, 96, 98, 97, 97.5}, "~", NULL},
        /* noisy (a side spreads 25%), but far beyond: the noise cannot make −50% */
        {METRIC_THROUGHPUT, 0, {100, 85, 110, 95, 105}, {50, 45, 60, 52, 48}, "regressed", NULL},
        /* noise of ±30% against a 5% threshold: no count of runs resolves it */
        {METRIC_THROUGHPUT,
         0,
         {100, 70, 130, 90, 115},
         {94, 120, 75, 100, 88},
         "undecided",
         STATS_REASON_NOISE},
        /* −7% in 4% noise: more runs would decide it */
        {METRIC_THROUGHPUT,
         0,
         {100, 96, 104, 98, 103},
         {93, 97, 89, 94, 92},
         "undecided",
         STATS_REASON_TOO_FEW},
        /* a failed run */
        {METRIC_THROUGHPUT, 1, {100, 98, 102, 99, 101}, {90, 88, 92, 89, 91}, "failed", NULL},
        /* p99: lower is better, +12% is a regression (threshold 10) */
        {METRIC_P99_US, 0, {100, 98, 102, 99, 101}, {112, 110, 114, 111, 113}, "regressed", NULL},
        /* p99 +3%, tight: inside its 10% threshold */
        {METRIC_P99_US, 0, {100, 98, 102, 99, 101}, {103, 101, 105, 102, 104}, "~", NULL},
        /* p99 falls 20%: improved */
        {METRIC_P99_US, 0, {100, 98, 102, 99, 101}, {80, 78, 82, 79, 81}, "improved", NULL},
        /* cpu_percent is informational: never flagged */
        {METRIC_CPU_PERCENT, 0, {100, 98, 102, 99, 101}, {150, 148, 152, 149, 151}, "~", NULL},
    };
    struct verdict_rules r;
    struct verdict_out out;
    size_t i;

    verdict_rules_default(&r);
    for (i = 0; i < N(cases); i++) {
        const char *got = judge5(cases[i].m, cases[i].failed, cases[i].b, cases[i].c, &r, &out);

        CHECK_MSG(strcmp(got, cases[i].want) == 0, "case %zu: '%s', expected '%s'", i, got,
                  cases[i].want);
        CHECK_MSG(cases[i].reason ? out.reason && !strcmp(out.reason, cases[i].reason)
                                  : out.reason == NULL,
                  "case %zu: reason '%s'", i, out.reason ? out.reason : "(none)");
        /* "~" only where the interval is inside the threshold */
        if (!strcmp(got, "~") && out.has_evidence)
            CHECK(out.res.lo > -r.threshold_pct[cases[i].m] / 100 &&
                  out.res.hi < r.threshold_pct[cases[i].m] / 100);
    }
    CHECK(out.has_evidence == 0); /* cpu_percent is not judged */
    judge5(METRIC_THROUGHPUT, 0, cases[5].b, cases[5].c, &r, &out);
    CHECK_MSG(out.runs_needed > 5 && out.runs_needed <= MOD_RUNS_CAP, "runs needed %zu",
              out.runs_needed);
    /* a custom threshold: p99 at 15% turns the +12% case into ~ */
    r.threshold_pct[METRIC_P99_US] = 15;
    CHECK_STR(judge5(METRIC_P99_US, 0, cases[7].b, cases[7].c, &r, &out), "~");
    CHECK_STR(judge5(METRIC_P99_US, 0, cases[7].b, cases[7].c, NULL, &out), "regressed");
}

/* Too few runs: one run a side is undecided, never "~"; three a side decide a clear change;
 * a prior (the run's noise) decides even two a side. */
static void test_few_runs(void)
{
    static const double b1[] = {100}, c1[] = {3}, b3[] = {100, 99, 101}, c3[] = {3, 3.1, 2.9};
    double r[3] = {0.03, 3.1 / 99, 2.9 / 101};
    struct verdict_input in;
    struct verdict_out out;
    struct mod_prior pr = {0.002, 20};

    memset(&in, 0, sizeof(in));
    in.metric = METRIC_THROUGHPUT;
    stats_range(b1, 1, &in.base);
    stats_range(c1, 1, &in.cand);
    in.base_v = b1;
    in.cand_v = c1;
    in.ratios = r;
    in.n_ratios = 1;
    stats_judge(&in, NULL, &out);
    CHECK_STR(out.verdict, VERDICT_UNDECIDED);
    CHECK_STR(out.reason, STATS_REASON_TOO_FEW);
    in.prior = &pr; /* the run's other rows measured the noise: −97% is decided */
    CHECK_STR(stats_verdict(&in, NULL), VERDICT_REGRESSED);
    in.prior = NULL;
    stats_range(b3, 3, &in.base);
    stats_range(c3, 3, &in.cand);
    in.base_v = b3;
    in.cand_v = c3;
    in.n_ratios = 3;
    CHECK_STR(stats_verdict(&in, NULL), VERDICT_REGRESSED);
    CHECK(stats_verdict_reason(&in, NULL) == NULL);
    in.failed = 1;
    CHECK_STR(stats_verdict(&in, NULL), "failed");
    CHECK(stats_verdict_reason(&in, NULL) == NULL);
}

/* A counted cost moves at its cheapest run or not at all (stats.h): the seed lottery of
 * ab-instr's ninth gate, then a real +2% on every run. */
static void test_counted_min(void)
{
    static const double lucky[] = {2893.4, 2829.3, 2893.3}, base[] = {2827.9, 2829.2, 2828.1},
                        more[] = {2886.3, 2888.0, 2887.1};
    double ratios[3];
    struct verdict_input in;
    struct verdict_rules r;
    size_t i;

    memset(&in, 0, sizeof(in));
    in.metric = METRIC_INSTRUCTIONS;
    stats_range(base, 3, &in.base);
    stats_range(lucky, 3, &in.cand);
    for (i = 0; i < 3; i++)
        ratios[i] = lucky[i] / base[i];
    in.ratios = ratios;
    in.n_ratios = 3;
    in.base_v = base;
    in.cand_v = lucky;
    CHECK(!stats_ranges_overlap(&in.base, &in.cand)); /* disjoint by 0.1 instructions */
    CHECK(strcmp(stats_verdict(&in, NULL), VERDICT_UNDECIDED) == 0); /* not bounded either */
    stats_range(more, 3, &in.cand);
    for (i = 0; i < 3; i++)
        ratios[i] = more[i] / base[i];
    in.cand_v = more;
    CHECK(strcmp(stats_verdict(&in, NULL), "regressed") == 0);
    /* the same figures as a timed metric gated at 1%: the rule is the counted cost's alone */
    verdict_rules_default(&r);
    r.threshold_pct[METRIC_THROUGHPUT] = 1;
    in.metric = METRIC_THROUGHPUT;
    stats_range(lucky, 3, &in.cand);
    for (i = 0; i < 3; i++)
        ratios[i] = lucky[i] / base[i];
    in.cand_v = lucky;
    CHECK(strcmp(stats_verdict(&in, &r), VERDICT_UNDECIDED) == 0);
}

/* Counts per operation near zero: a change of the medians below the metric's absolute floor
 * is `~` whatever its percent; past it, the usual rule (disjoint ranges). */
static void test_floor_abs(void)
{
    static const double base[] = {0.001, 0.0012, 0.0011}, tiny[] = {0.003, 0.0031, 0.0032},
                        big[] = {1.2, 1.25, 1.22}, one[] = {1.0, 1.01, 1.0};
    double ratios[3];
    struct verdict_input in;
    size_t i;

    memset(&in, 0, sizeof(in));
    in.metric = METRIC_PAGE_FAULTS; /* floor 0.05 per operation */
    stats_range(base, 3, &in.base);
    stats_range(tiny, 3, &in.cand);
    for (i = 0; i < 3; i++)
        ratios[i] = tiny[i] / base[i];
    in.ratios = ratios;
    in.n_ratios = 3;
    in.base_v = base;
    in.cand_v = tiny;
    CHECK_STR(stats_verdict(&in, NULL), "~"); /* +170%, 0.002 faults per operation */
    in.metric = METRIC_CONTEXT_SWITCHES;      /* floor 0.1, threshold 20% */
    stats_range(one, 3, &in.base);
    stats_range(big, 3, &in.cand);
    for (i = 0; i < 3; i++)
        ratios[i] = big[i] / one[i];
    in.base_v = one;
    in.cand_v = big;
    CHECK_STR(stats_verdict(&in, NULL), "regressed");
}

/* Ranges that touch overlap: a shared end point is a value both sides reached. */
static void test_overlap_bounds(void)
{
    struct stats_range a = {2, 1, 3, 3}, b = {4, 3, 5, 3}, c = {4, 3.001, 5, 3};

    CHECK(stats_ranges_overlap(&a, &b) && stats_ranges_overlap(&b, &a));
    CHECK(!stats_ranges_overlap(&a, &c) && !stats_ranges_overlap(&c, &a));
    CHECK(stats_ranges_overlap(&a, &a));
}

int main(void)
{
    test_overlap_bounds();
    test_counted_min();
    test_floor_abs();
    test_few_runs();
    test_range();
    test_mwu();
    test_signed_rank();
    test_paired();
    test_median_interval();
    test_rules();
    test_verdicts();
    return T_DONE();
}
