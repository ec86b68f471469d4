/* A row's false alarms bounded as a family (analysis/family.c): Holm's step-down on known
 * tables; the row's chance at the run counts used; a simulated A/A of rows with three gated
 * timed metrics flags at most FAMILY_LEVEL of them (3 and 5 runs a side, before and after);
 * family_hold turns a 3-run throughput verdict into "~" (too few runs) and keeps a counted
 * instructions verdict and a 5-run disjoint one. */
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
    /* 3 runs a side: 0.1 per metric, never ≤ 0.05 / m */
    CHECK(family_chance(3, 0, 3, 3, 3) == 0);
    CHECK(family_chance(1, 0, 3, 3, 3) == 0);
    /* 5 runs: disjoint ranges 2/252 per metric, three metrics */
    CHECK(fabs(family_chance(3, 0, 5, 5, 5) - 6 / 252.0) < 1e-12);
    /* 4 runs: 2/70 = 0.0286 only for a lone metric */
    CHECK(fabs(family_chance(1, 0, 4, 4, 4) - 2 / 70.0) < 1e-12);
    CHECK(family_chance(2, 0, 4, 4, 4) == 0);
    /* confirmed rows: 2/252 per metric */
    CHECK(fabs(family_chance(4, 1, 9, 9, 9) - 8 / 252.0) < 1e-12);
    CHECK(family_chance(8, 1, 9, 9, 9) <= FAMILY_LEVEL);
    CHECK(fabs(family_chance(6, 1, 9, 9, 9) - 12 / 252.0) < 1e-12);
    CHECK(family_chance(7, 1, 9, 9, 9) == 0);
    /* 10 runs: the paired rule 2/2^10 and disjoint ranges; the larger that fits counts */
    CHECK(fabs(family_chance(3, 0, 10, 10, 10) - 3 * 2 / 1024.0) < 1e-12);
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

/* Rows of identical versions with three gated timed metrics, each 30% noise (so a 5% change
 * is easily passed): how many rows are flagged on any metric, before (per metric rule alone)
 * and after Holm. */
static void simulate(size_t runs, size_t rows, size_t *before, size_t *after)
{
    const enum metric ms[3] = {METRIC_THROUGHPUT, METRIC_CPU_EFFICIENCY, METRIC_P99_US};
    struct verdict_rules rules;
    size_t row, k, i;

    verdict_rules_default(&rules);
    rules.noise_limit_pct = 0;
    *before = *after = 0;
    for (row = 0; row < rows; row++) {
        double p[3];
        unsigned char keep[3];
        int any = 0, kept = 0;

        for (k = 0; k < 3; k++) {
            double a[10], b[10], r[10];
            struct verdict_input in;
            const char *v;

            rules.threshold_pct[ms[k]] = 5;
            for (i = 0; i < runs; i++) {
                a[i] = 100 * (1 + 0.3 * uniform01());
                b[i] = 100 * (1 + 0.3 * uniform01());
                r[i] = b[i] / a[i];
            }
            memset(&in, 0, sizeof(in));
            in.metric = ms[k];
            stats_range(a, runs, &in.base);
            stats_range(b, runs, &in.cand);
            in.ratios = r;
            in.n_ratios = runs;
            v = stats_verdict(&in, &rules);
            p[k] = 1;
            if (!strcmp(v, VERDICT_REGRESSED) || !strcmp(v, VERDICT_IMPROVED)) {
                any = 1;
                p[k] = family_evidence_p(0, !stats_ranges_overlap(&in.base, &in.cand), runs, runs,
                                         runs);
            }
        }
        family_holm(p, 3, FAMILY_LEVEL, keep);
        for (k = 0; k < 3; k++)
            kept |= keep[k];
        *before += (size_t)any;
        *after += (size_t)kept;
    }
}

static void test_simulated_aa(void)
{
    size_t before, after, rows = 20000;

    simulate(3, rows, &before, &after);
    CHECK_MSG(before > rows / 5, "3 runs, per metric: %zu of %zu rows flagged", before, rows);
    CHECK_MSG(after == 0, "3 runs, Holm: %zu rows flagged", after);
    simulate(5, rows, &before, &after);
    CHECK_MSG((double)after / (double)rows <= FAMILY_LEVEL, "5 runs, Holm: %zu of %zu", after,
              rows);
    CHECK_MSG((double)after / (double)rows <= family_chance(3, 0, 5, 5, 5) * 1.2,
              "5 runs: %zu of %zu above the stated chance", after, rows);
}

/* A row as summary_row.c builds it: throughput and instructions, baseline "a", candidate "b". */
static json_t *row_metrics(size_t n, const char *tp_verdict)
{
    return json_pack("{s:{s:f, s:{s:{s:I}, s:{s:I}}, s:{s:{s:s, s:b, s:{s:I}}}},"
                     " s:{s:f, s:{s:{s:I}, s:{s:I}}, s:{s:{s:s, s:b, s:n}}}}",
                     "throughput", "threshold_pct", 5.0, "values", "a", "n", (json_int_t)n, "b",
                     "n", (json_int_t)n, "vs_baseline", "b", "verdict", tp_verdict, "overlap", 0,
                     "paired_ratio", "n", (json_int_t)n, "instructions", "threshold_pct", 1.0,
                     "values", "a", "n", (json_int_t)3, "b", "n", (json_int_t)3, "vs_baseline", "b",
                     "verdict", "regressed", "overlap", 0, "paired_ratio");
}

static const char *verdict_of(json_t *metrics, const char *m)
{
    return json_string_value(json_object_get(
        json_object_get(json_object_get(json_object_get(metrics, m), "vs_baseline"), "b"),
        "verdict"));
}

static void test_hold(void)
{
    json_t *versions = json_pack("[s, s]", "a", "b"), *row = json_object();
    json_t *m3 = row_metrics(3, "regressed"), *m5 = row_metrics(5, "regressed");
    const json_t *r;

    family_hold(row, m3, versions, 3);
    CHECK_STR(verdict_of(m3, "throughput"), "~");
    r = json_object_get(json_object_get(json_object_get(m3, "throughput"), "vs_baseline"), "b");
    CHECK_STR(json_string_value(json_object_get(r, "reason")), STATS_REASON_TOO_FEW);
    CHECK_STR(verdict_of(m3, "instructions"), "regressed");
    CHECK(json_number_value(json_object_get(json_object_get(row, "family"), "chance")) == 0);
    CHECK(json_integer_value(json_object_get(json_object_get(row, "family"), "metrics")) == 1);
    family_hold(row, m5, versions, 5);
    CHECK_STR(verdict_of(m5, "throughput"), "regressed");
    CHECK(fabs(json_number_value(json_object_get(json_object_get(row, "family"), "chance")) -
               2 / 252.0) < 1e-12);
    json_decref(m3);
    json_decref(m5);
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
