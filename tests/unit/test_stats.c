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
    double out[5], pd;
    size_t n = stats_paired_ratios(base, cand, have, 5, out);

    CHECK(n == 3); /* round 3 has a zero base, round 5 is missing */
    CHECK(NEAR(out[0], 1.1) && NEAR(out[1], 0.9) && NEAR(out[2], 0.5));
    CHECK(NEAR(stats_evidence_alpha(5, 5, 5, &pd), 2.0 / 32));
    CHECK(NEAR(pd, 2.0 / 252));
    CHECK(stats_evidence_alpha(0, 0, 0, &pd) == 1 && pd == 1);
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

static void test_verdicts(void)
{
    static const struct {
        enum metric m;
        int failed;
        double b[3], c[3]; /* median, min, max */
        double ratios[5];
        size_t nr;
        const char *want;
    } cases[] = {
        /* beyond the threshold but the ranges overlap and the pairs disagree */
        {METRIC_THROUGHPUT, 0, {100, 95, 105}, {93, 90, 99}, {0.93, 1.01, 0.9, 0.95, 0.92}, 5, "~"},
        /* disjoint and beyond the threshold, bad direction */
        {METRIC_THROUGHPUT,
         0,
         {100, 98, 102},
         {90, 88, 92},
         {0.9, 0.9, 0.9, 0.9, 0.9},
         5,
         "regressed"},
        /* good direction */
        {METRIC_THROUGHPUT,
         0,
         {100, 98, 102},
         {110, 108, 112},
         {1.1, 1.1, 1.1, 1.1, 1.1},
         5,
         "improved"},
        /* disjoint but below the threshold */
        {METRIC_THROUGHPUT,
         0,
         {100, 99, 101},
         {97, 96, 98},
         {0.97, 0.97, 0.97, 0.97, 0.97},
         5,
         "~"},
        /* overlapping ranges, every pair on one side, beyond the threshold */
        {METRIC_THROUGHPUT,
         0,
         {100, 90, 110},
         {93, 88, 104},
         {0.93, 0.95, 0.9, 0.94, 0.96},
         5,
         "regressed"},
        /* a side spreads more than 20% and the ranges overlap */
        {METRIC_THROUGHPUT,
         0,
         {100, 80, 115},
         {94, 85, 100},
         {0.94, 0.9, 0.99, 0.95, 0.9},
         5,
         "unstable"},
        /* noisy, but disjoint and far beyond: the noise did not hide it */
        {METRIC_THROUGHPUT,
         0,
         {100, 85, 110},
         {50, 45, 60},
         {0.5, 0.5, 0.5, 0.5, 0.5},
         5,
         "regressed"},
        /* a failed run */
        {METRIC_THROUGHPUT, 1, {100, 98, 102}, {90, 88, 92}, {0.9}, 1, "failed"},
        /* p99: lower is better, +12% is a regression (threshold 10) */
        {METRIC_P99_US,
         0,
         {100, 98, 102},
         {112, 110, 115},
         {1.12, 1.12, 1.12, 1.12, 1.12},
         5,
         "regressed"},
        /* p99 +8%: below its 10% threshold */
        {METRIC_P99_US, 0, {100, 98, 102}, {108, 106, 109}, {1.08, 1.08, 1.08, 1.08, 1.08}, 5, "~"},
        /* p99 falls 20%: improved */
        {METRIC_P99_US, 0, {100, 98, 102}, {80, 78, 82}, {0.8, 0.8, 0.8, 0.8, 0.8}, 5, "improved"},
        /* cpu_percent is informational: never flagged */
        {METRIC_CPU_PERCENT, 0, {100, 98, 102}, {150, 148, 152}, {1.5, 1.5, 1.5, 1.5, 1.5}, 5, "~"},
    };
    struct verdict_rules r;
    size_t i;

    verdict_rules_default(&r);
    for (i = 0; i < N(cases); i++) {
        struct verdict_input in = {
            .metric = cases[i].m,
            .failed = cases[i].failed,
            .base = {cases[i].b[0], cases[i].b[1], cases[i].b[2], 5},
            .cand = {cases[i].c[0], cases[i].c[1], cases[i].c[2], 5},
            .ratios = cases[i].ratios,
            .n_ratios = cases[i].nr,
        };
        const char *got = stats_verdict(&in, &r);

        CHECK_MSG(strcmp(got, cases[i].want) == 0, "case %zu: '%s', expected '%s'", i, got,
                  cases[i].want);
    }
    {
        /* a custom threshold: p99 at 15% turns the +12% case into ~ */
        struct verdict_input in = {.metric = METRIC_P99_US,
                                   .base = {100, 98, 102, 5},
                                   .cand = {112, 110, 115, 5},
                                   .ratios = cases[8].ratios,
                                   .n_ratios = 5};
        r.threshold_pct[METRIC_P99_US] = 15;
        CHECK_STR(stats_verdict(&in, &r), "~");
        CHECK_STR(stats_verdict(&in, NULL), "regressed");
    }
}

/* A row with extra rounds from adaptive confirmation: the signed-rank test of the paired
 * ratios at 2/252 ÷ looks decides (the U-test p is reported, not used),
 * and the noise is read from the interquartile range, so an outlier run neither hides a
 * clear change nor makes a quiet row unstable. */
static void test_confirmed(void)
{
    /* 12 runs a side: baseline ~100 with one slow outlier, candidate ~90 (−10%) */
    static const double base[12] = {100, 101, 99, 102, 98, 100, 103, 97, 100, 101, 99, 70};
    static const double cand[12] = {90, 91, 89, 92, 88, 90, 93, 87, 90, 91, 89, 90};
    static const double same[12] = {99, 100, 102, 98, 101, 100, 97, 103, 100, 99, 101, 100};
    static const double nine[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    double rat_c[12], rat_s[12];
    struct stats_range rb, rc, rs, r9;
    struct verdict_input in;
    struct verdict_rules r;
    size_t k;

    verdict_rules_default(&r);
    stats_range(base, 12, &rb);
    stats_range(cand, 12, &rc);
    stats_range(same, 12, &rs);
    stats_range(nine, 9, &r9);
    /* five or fewer runs: (max−min)/median; more: 1.7245 × IQR / median (type-7 quartiles) */
    CHECK(fabs(stats_spread_pct(&rb, NULL) - 33.0) < 1e-9);
    CHECK(fabs(stats_spread_pct(&r9, nine) - 1.7245 * 4 / 5 * 100) < 1e-9);
    CHECK(stats_spread_pct(&rb, base) < 10);

    memset(&in, 0, sizeof(in));
    in.metric = METRIC_THROUGHPUT;
    in.base = rb;
    in.cand = rc;
    in.base_v = base;
    in.cand_v = cand;
    for (k = 0; k < 12; k++) {
        rat_c[k] = cand[k] / base[k];
        rat_s[k] = same[k] / base[k];
    }
    in.ratios = rat_c;
    in.n_ratios = 12;
    /* the paired change: the median of the rounds' ratios (0.9 here), not of the sides */
    CHECK(NEAR(stats_paired_change(rat_c, 12), 0.9 - 1));
    CHECK(stats_paired_change(NULL, 0) == 0);
    in.p = stats_mwu_p(base, 12, cand, 12);
    CHECK(in.p < 1e-3);
    {
        /* paired: eleven rounds lost ~10%, the outlier round gained 29% (the largest |log|,
         * so W+ = 12): about 2 × 70 of the 4096 sign assignments reach that far (three
         * rounds tie at 90/100, so mid-ranks shift it: 134) */
        double logs[12];
        size_t i;
        for (i = 0; i < 12; i++)
            logs[i] = log(cand[i] / base[i]);
        in.p_paired = stats_signed_rank_p(logs, 12);
        CHECK_MSG(NEAR(in.p_paired, 134.0 / 4096), "p_paired %.15g", in.p_paired);
        CHECK(NEAR(in.p_paired, signed_rank_brute(logs, 12)));
    }
    /* the planned rules (no confirmation): the outlier makes the ranges overlap and the
     * range spread unstable */
    CHECK_STR(stats_verdict(&in, &r), "unstable");
    /* planned 5, 12 runs: confirmed; 10 looks share 2/252 and p still passes */
    in.planned = 5;
    in.looks = 10;
    in.p_paired = 1e-5;
    CHECK_STR(stats_verdict(&in, &r), "regressed");
    /* the paired p decides, not the U-test p */
    in.p = 1e-5;
    in.p_paired = 0.5;
    CHECK_STR(stats_verdict(&in, &r), "~");
    in.p_paired = 1e-5;
    /* before the cap a look gets 2/252 ÷ (4 × looks); at the cap (5 + 20 runs) 3/4 of 2/252 */
    CHECK(fabs(stats_extra_alpha(5, 10, 12) - STATS_EXTRA_ALPHA / 40) < 1e-15);
    CHECK(fabs(stats_extra_alpha(5, 10, 24) - STATS_EXTRA_ALPHA / 40) < 1e-15);
    CHECK(fabs(stats_extra_alpha(5, 10, 25) - STATS_EXTRA_ALPHA * 0.75) < 1e-15);
    CHECK(fabs(stats_extra_alpha(5, 0, 7) - STATS_EXTRA_ALPHA * 0.75) < 1e-15);
    /* p above the budget of this look: not strong, not noisy either → ~ */
    in.p_paired = STATS_EXTRA_ALPHA / 40 * 1.01;
    CHECK_STR(stats_verdict(&in, &r), "~");
    in.p_paired = STATS_EXTRA_ALPHA / 40;
    CHECK_STR(stats_verdict(&in, &r), "regressed");
    /* the same p at the cap's look passes */
    in.p_paired = STATS_EXTRA_ALPHA / 2;
    in.looks = 3; /* cap 6: 12 runs > 5 + 6 */
    CHECK_STR(stats_verdict(&in, &r), "regressed");
    in.looks = 10;
    /* no change past the threshold: ~ even with a tiny p */
    in.cand = rs;
    in.cand_v = same;
    in.ratios = rat_s;
    in.p_paired = 1e-6;
    CHECK_STR(stats_verdict(&in, &r), "~");
    /* the sides' medians within the threshold, the rounds' ratios past it: the paired
     * change decides a confirmed row (the planned rules read the sides' change) */
    {
        static const double b2[12] = {100, 80, 120, 100, 80, 120, 100, 80, 120, 100, 80, 120};
        static const double c2[12] = {98, 72, 108, 98, 72, 108, 98, 72, 108, 98, 72, 108};
        double rat2[12];
        struct stats_range rb2, rc2;

        for (k = 0; k < 12; k++)
            rat2[k] = c2[k] / b2[k];
        stats_range(b2, 12, &rb2);
        stats_range(c2, 12, &rc2);
        CHECK(fabs(stats_change(&rb2, &rc2)) * 100 < 5);  /* −2% of the sides' medians */
        CHECK(stats_paired_change(rat2, 12) * 100 <= -5); /* −10% of the rounds' ratios */
        in.base = rb2;
        in.cand = rc2;
        in.base_v = b2;
        in.cand_v = c2;
        in.ratios = rat2;
        CHECK_STR(stats_verdict(&in, &r), "regressed");
        in.planned = 0; /* unconfirmed, the planned rules: no regression from the sides'
                         * change; their 40% ranges read unstable */
        CHECK_STR(stats_verdict(&in, &r), "unstable");
        in.planned = 5;
        in.base = rb;
        in.base_v = base;
        in.cand = rs;
        in.cand_v = same;
        in.ratios = rat_s;
    }
    /* a side whose IQR-based spread passes the limit is unstable while the 90% interval of
     * the paired change reaches the threshold; here the twelve pairs put it at [0.980,
     * 1.031] (order statistics 3 and 10), inside ±5%: the change is known to be below the
     * threshold whatever single runs do, ~ */
    r.noise_limit_pct = 3;
    in.p_paired = 0.5;
    CHECK_STR(stats_verdict(&in, &r), "~");
    r.threshold_pct[METRIC_THROUGHPUT] = 3; /* +3.1% reaches past it */
    CHECK_STR(stats_verdict(&in, &r), "unstable");
    r.threshold_pct[METRIC_THROUGHPUT] = 3.2;
    CHECK_STR(stats_verdict(&in, &r), "~");
    r.threshold_pct[METRIC_THROUGHPUT] = 5;
    in.n_ratios = 4; /* too few pairs for an interval: the noise decides */
    CHECK_STR(stats_verdict(&in, &r), "unstable");
    in.n_ratios = 12;
    /* looks 0 counts as one look; a failed row stays failed */
    r.noise_limit_pct = 20;
    in.cand = rc;
    in.cand_v = cand;
    in.ratios = rat_c;
    in.looks = 0;
    in.p_paired = STATS_EXTRA_ALPHA * 0.75;
    CHECK_STR(stats_verdict(&in, &r), "regressed");
    in.p_paired = STATS_EXTRA_ALPHA * 0.76;
    CHECK_STR(stats_verdict(&in, &r), "~");
    in.failed = 1;
    CHECK_STR(stats_verdict(&in, &r), "failed");
}

/* The evidence floor: one or two runs a side never give regressed/improved, however large
 * and clean the change (one run a side is always "disjoint"); three a side with disjoint
 * ranges do (2/20 = 0.1); the paired rule needs five pairs (2/32 ≤ 0.1 < 2/16). */
static void test_evidence_floor(void)
{
    static const double r1[] = {0.5}, r2[] = {0.5, 0.5}, r4[] = {0.9, 0.9, 0.9, 0.9};
    struct verdict_rules rules;
    struct verdict_input in = {.metric = METRIC_THROUGHPUT,
                               .base = {100, 100, 100, 1},
                               .cand = {50, 50, 50, 1},
                               .ratios = r1,
                               .n_ratios = 1};

    verdict_rules_default(&rules);
    CHECK_STR(stats_verdict(&in, &rules), "~");
    CHECK_STR(stats_verdict_reason(&in, &rules), STATS_REASON_TOO_FEW);
    in.base = (struct stats_range){100, 99, 101, 2};
    in.cand = (struct stats_range){50, 49, 51, 2};
    in.ratios = r2;
    in.n_ratios = 2;
    CHECK_STR(stats_verdict(&in, &rules), "~");
    CHECK_STR(stats_verdict_reason(&in, &rules), STATS_REASON_TOO_FEW);
    /* also when the row got extra rounds on one side only */
    in.planned = 2;
    in.looks = 1;
    in.p_paired = 0;
    in.cand.n = 9;
    CHECK_STR(stats_verdict(&in, &rules), "~");
    in.planned = 0;
    in.looks = 0;
    in.p_paired = -1;
    /* a failed row stays failed; an ungated metric has no floor reason */
    in.failed = 1;
    CHECK_STR(stats_verdict(&in, &rules), "failed");
    CHECK(stats_verdict_reason(&in, &rules) == NULL);
    in.failed = 0;
    in.metric = METRIC_CPU_PERCENT;
    CHECK(stats_verdict_reason(&in, &rules) == NULL);
    in.metric = METRIC_THROUGHPUT;
    /* three a side, disjoint: 0.1 reaches the level */
    in.base = (struct stats_range){100, 99, 101, 3};
    in.cand = (struct stats_range){50, 49, 51, 3};
    CHECK_STR(stats_verdict(&in, &rules), "regressed");
    CHECK(stats_verdict_reason(&in, &rules) == NULL);
    /* four pairs all on one side with overlapping ranges: 2/16 > 0.1, not enough */
    in.base = (struct stats_range){100, 90, 110, 4};
    in.cand = (struct stats_range){90, 85, 100, 4};
    in.ratios = r4;
    in.n_ratios = 4;
    CHECK_STR(stats_verdict(&in, &rules), "~");
    CHECK(stats_verdict_reason(&in, &rules) == NULL); /* reachable: disjoint would count */
    /* the chance per row and metric */
    CHECK(NEAR(stats_false_flag_chance(1, 1, 1), 1));
    CHECK(NEAR(stats_false_flag_chance(2, 2, 2), 2.0 / 6));
    CHECK(NEAR(stats_false_flag_chance(3, 3, 3), 2.0 / 20));
    CHECK(NEAR(stats_false_flag_chance(4, 4, 4), 2.0 / 70));
    CHECK(NEAR(stats_false_flag_chance(5, 5, 5), 2.0 / 32));
    CHECK(NEAR(stats_false_flag_chance(10, 10, 10), 2.0 / 1024));
    CHECK(!stats_evidence_reachable(2, 2, 2) && !stats_evidence_reachable(2, 9, 2));
    CHECK(stats_evidence_reachable(3, 3, 3) && stats_evidence_reachable(5, 5, 5));
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
    CHECK(strcmp(stats_verdict(&in, NULL), "~") == 0);
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
    CHECK(strcmp(stats_verdict(&in, &r), "improved") == 0);
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
    test_evidence_floor();
    test_range();
    test_mwu();
    test_signed_rank();
    test_paired();
    test_median_interval();
    test_rules();
    test_verdicts();
    test_confirmed();
    return T_DONE();
}
