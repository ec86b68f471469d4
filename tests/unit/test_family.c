/* A row's false alarms bounded as a family (analysis/family.c): Holm's step-down on known
 * tables; a simulated A/A of rows with three gated timed metrics, judged by the moderated test
 * (stats_judge), flags at most FAMILY_LEVEL of them at 3 and 5 runs a side, while an 80%
 * change in the same noise is decided at 3; family_hold turns a decided metric whose p fails
 * Holm into "undecided" (too few runs) and keeps a counted instructions verdict. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "analysis/family.h"
#include "analysis/stats.h"
#include "t.h"

static const struct {
    double p[4];
    size_t m;
    unsigned char keep[4];
} holm_cases[] = {
    {{0.01, 0.04, 0.03, 1}, 4, {1, 0, 0, 0}}, /* 0.01 ≤ 0.0125, 0.03 > 0.0167: stop */
    {{0.01, 0.02, 0.03, 1}, 3, {1, 1, 1, 0}}, /* 0.0167, 0.025, 0.05 */
    {{0.1, 1, 1, 1}, 1, {0, 0, 0, 0}},        /* one metric, 3 runs a side */
    {{0.04, 1, 1, 1}, 1, {1, 0, 0, 0}},       /* one metric at 0.05 */
    {{2 / 252.0, 2 / 252.0, 1, 1}, 3, {1, 1, 0, 0}},
    {{0.0286, 0.0286, 1, 1}, 3, {0, 0, 0, 0}}, /* 4 runs a side, three metrics */
};

static void test_holm(void)
{
    size_t i, j;

    for (i = 0; i < sizeof(holm_cases) / sizeof(holm_cases[0]); i++) {
        unsigned char keep[4] = {9, 9, 9, 9};

        family_holm(holm_cases[i].p, holm_cases[i].m, FAMILY_LEVEL, keep);
        for (j = 0; j < holm_cases[i].m; j++)
            CHECK_MSG(keep[j] == holm_cases[i].keep[j], "case %zu metric %zu: %d", i, j, keep[j]);
    }
}

static void test_chance(void)
{
    CHECK(family_chance(3, 1) == FAMILY_LEVEL);
    CHECK(family_chance(3, 0) == 0);
    CHECK(family_chance(0, 1) == 0);
    CHECK(family_member(METRIC_THROUGHPUT) && family_member(METRIC_P99_US));
    CHECK(!family_member(METRIC_INSTRUCTIONS) && !family_member(METRIC_SYSCALLS));
}

static uint64_t t_rng = 41;

static double uniform01(void)
{
    uint64_t z = (t_rng += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

/* A standard normal draw (Box–Muller). */
static double normal01(void)
{
    return sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

/* Rows with three gated timed metrics, each with 10% log-normal noise per run and the
 * candidate changed by factor (1 = identical versions): how many rows are flagged on any
 * metric after Holm, and how many have throughput decided in the change's direction. */
static void simulate(size_t runs, size_t rows, double factor, size_t *flagged, size_t *decided)
{
    const enum metric ms[3] = {METRIC_THROUGHPUT, METRIC_CPU_EFFICIENCY, METRIC_P99_US};
    struct verdict_rules rules;
    size_t row, k, i;

    verdict_rules_default(&rules);
    *flagged = *decided = 0;
    for (row = 0; row < rows; row++) {
        double p[3];
        unsigned char keep[3];
        int kept = 0;

        for (k = 0; k < 3; k++) {
            double a[10], b[10], r[10];
            struct verdict_input in;
            struct verdict_out vo;

            rules.threshold_pct[ms[k]] = 5;
            for (i = 0; i < runs; i++) {
                a[i] = 100 * exp(0.1 * normal01());
                b[i] = 100 * factor * exp(0.1 * normal01());
                r[i] = b[i] / a[i];
            }
            memset(&in, 0, sizeof(in));
            in.metric = ms[k];
            stats_range(a, runs, &in.base);
            stats_range(b, runs, &in.cand);
            in.ratios = r;
            in.n_ratios = runs;
            in.base_v = a;
            in.cand_v = b;
            stats_judge(&in, &rules, &vo);
            p[k] = !strcmp(vo.verdict, VERDICT_REGRESSED) || !strcmp(vo.verdict, VERDICT_IMPROVED)
                       ? vo.res.p
                       : 1;
        }
        family_holm(p, 3, FAMILY_LEVEL, keep);
        for (k = 0; k < 3; k++)
            kept |= keep[k];
        *flagged += (size_t)kept;
        *decided += keep[0];
    }
}

static void test_simulated_aa(void)
{
    size_t flagged, decided, rows = 20000;

    simulate(3, rows, 1, &flagged, &decided);
    CHECK_MSG((double)flagged / (double)rows <= FAMILY_LEVEL, "3 runs A/A: %zu of %zu flagged",
              flagged, rows);
    simulate(5, rows, 1, &flagged, &decided);
    CHECK_MSG((double)flagged / (double)rows <= FAMILY_LEVEL, "5 runs A/A: %zu of %zu flagged",
              flagged, rows);
    simulate(3, 2000, 0.2, &flagged, &decided);
    CHECK_MSG(decided >= 1900, "3 runs, -80%%: %zu of 2000 decided", decided);
    simulate(5, 2000, 0.7, &flagged, &decided);
    CHECK_MSG(decided >= 1800, "5 runs, -30%%: %zu of 2000 decided", decided);
}

/* A row as summary_judge.c leaves it: throughput, P99 and instructions, baseline "a",
 * candidate "b"; the timed metrics decided with evidence p tp_p and p99_p. */
static json_t *row_metrics(double tp_p, double p99_p)
{
    return json_pack("{s:{s:f, s:{s:{s:s, s:{s:f, s:f, s:f, s:f, s:b, s:f, s:f, s:f, s:f}}}},"
                     " s:{s:f, s:{s:{s:s, s:{s:f, s:f, s:f, s:f, s:b, s:f, s:f, s:f, s:f}}}},"
                     " s:{s:f, s:{s:{s:s}}}}",
                     "throughput", "threshold_pct", 5.0, "vs_baseline", "b", "verdict", "regressed",
                     "evidence", "est", -0.2, "s2", 0.01, "df", 2.0, "scale", 0.577, "paired", 1,
                     "df_total", 2.0, "p", tp_p, "alpha", 0.05, "prior_df", 0.0, "p99_us",
                     "threshold_pct", 10.0, "vs_baseline", "b", "verdict", "regressed", "evidence",
                     "est", 0.3, "s2", 0.04, "df", 2.0, "scale", 0.577, "paired", 1, "df_total",
                     2.0, "p", p99_p, "alpha", 0.05, "prior_df", 0.0, "instructions",
                     "threshold_pct", 1.0, "vs_baseline", "b", "verdict", "regressed");
}

static const json_t *cmp_of(json_t *metrics, const char *m)
{
    return json_object_get(json_object_get(json_object_get(metrics, m), "vs_baseline"), "b");
}

static const char *verdict_of(json_t *metrics, const char *m)
{
    return json_string_value(json_object_get(cmp_of(metrics, m), "verdict"));
}

static void test_hold(void)
{
    json_t *versions = json_pack("[s, s]", "a", "b"), *row = json_object();
    json_t *weak = row_metrics(0.04, 0.045), *strong = row_metrics(0.001, 0.04);

    /* two metrics at 0.04 and 0.045: Holm asks 0.025 of the smaller, so neither stands */
    family_hold(row, weak, versions, 3);
    CHECK_STR(verdict_of(weak, "throughput"), VERDICT_UNDECIDED);
    CHECK_STR(json_string_value(json_object_get(cmp_of(weak, "throughput"), "reason")),
              STATS_REASON_TOO_FEW);
    CHECK_STR(verdict_of(weak, "p99_us"), VERDICT_UNDECIDED);
    CHECK_STR(verdict_of(weak, "instructions"), "regressed");
    CHECK(json_number_value(json_object_get(json_object_get(row, "family"), "chance")) ==
          FAMILY_LEVEL);
    CHECK(json_integer_value(json_object_get(json_object_get(row, "family"), "metrics")) == 2);
    /* 0.001 ≤ 0.025, then 0.04 ≤ 0.05: both stand */
    family_hold(row, strong, versions, 3);
    CHECK_STR(verdict_of(strong, "throughput"), "regressed");
    CHECK_STR(verdict_of(strong, "p99_us"), "regressed");
    json_decref(weak);
    json_decref(strong);
    json_decref(row);
    json_decref(versions);
}

int main(void)
{
    test_holm();
    test_chance();
    test_simulated_aa();
    test_hold();
    return T_DONE();
}
