/* drift_analyse on hand-made nightly series: a recent bad step is a regression step (the exit
 * 1 case), a fixed regression, an improvement, an old step, a single bad night and a slow
 * drift are not; metric direction (P99 up is worse); newest vs the previous K; the trend
 * (last K vs the K before) flags the slow drift. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/drift.h"
#include "t.h"

static const double noise[] = {0.3, -0.8, 0.9, -0.4, 0.1, -1.1, 0.6, -0.2, 0.4, -0.9,
                               0.2, -0.3, 0.7, -0.6, 0.5, -0.1, 0.8, -0.7, 0.0, 0.35};

/* n nights at 100 (+1% noise); from night `at` on the level is 100 * (1 + step); back to
 * 100 from night `until` (0 = never); plus drift_pct per night. */
static struct drift_series *series(enum metric m, size_t n, size_t at, double step, size_t until,
                                   double drift_pct)
{
    struct drift_series *s = calloc(1, sizeof(*s));
    size_t i;

    if (!s)
        return NULL;
    s->metric = m;
    s->n = n;
    for (i = 0; i < n; i++) {
        double level = 100 * (1 + (at && i >= at && (!until || i < until) ? step : 0));

        s->values[i] = level + noise[i % 20] + drift_pct * (double)i;
        s->night[i] = i;
    }
    return s;
}

static void test_cases(void)
{
    static const struct {
        const char *what;
        enum metric m;
        size_t n, at;
        double step;
        size_t until;
        double drift;
        int regression_step, newest_dir, flagged;
    } cases[] = {
        {"recent 12% drop, 3 nights", METRIC_THROUGHPUT, 13, 10, -0.12, 0, 0, 1, -1, 1},
        {"recent 12% drop, 5 nights", METRIC_THROUGHPUT, 15, 10, -0.12, 0, 0, 1, 0, 1},
        {"drop fixed again", METRIC_THROUGHPUT, 20, 8, -0.12, 14, 0, 0, 0, 1},
        {"12% improvement", METRIC_THROUGHPUT, 13, 10, 0.12, 0, 0, 0, 1, 1},
        {"old drop (beyond K)", METRIC_THROUGHPUT, 20, 5, -0.12, 0, 0, 0, 0, 1},
        {"one bad night", METRIC_THROUGHPUT, 13, 12, -0.15, 0, 0, 0, -1, 1},
        {"flat", METRIC_THROUGHPUT, 15, 0, 0, 0, 0, 0, 0, 0},
        {"small step under threshold", METRIC_THROUGHPUT, 15, 9, -0.03, 0, 0, 0, 0, 0},
        {"P99 up 20% is worse", METRIC_P99_US, 13, 10, 0.20, 0, 0, 1, -1, 1},
        {"P99 down 20% is better", METRIC_P99_US, 13, 10, -0.20, 0, 0, 0, 1, 1},
        {"slow drift -1%/night", METRIC_THROUGHPUT, 20, 0, 0, 0, -1.0, 0, 0, 1},
    };
    struct verdict_rules rules;
    size_t c;

    verdict_rules_default(&rules);
    for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct drift_series *s = series(cases[c].m, cases[c].n, cases[c].at, cases[c].step,
                                        cases[c].until, cases[c].drift);

        CHECK(s != NULL);
        if (!s)
            continue;
        CHECK(drift_analyse(s, &rules, 7, 42) == 0);
        CHECK_MSG(s->regression_step == cases[c].regression_step, "%s: regression_step %d",
                  cases[c].what, s->regression_step);
        CHECK_MSG(s->newest_dir == cases[c].newest_dir, "%s: newest_dir %d (change %.3f)",
                  cases[c].what, s->newest_dir, s->change);
        CHECK_MSG(s->flagged == cases[c].flagged, "%s: flagged %d", cases[c].what, s->flagged);
        free(s);
    }
}

static void test_details(void)
{
    struct verdict_rules rules;
    struct drift_series *s = series(METRIC_THROUGHPUT, 13, 10, -0.12, 0, 0);
    size_t k, steps = 0;

    verdict_rules_default(&rules);
    CHECK(drift_analyse(s, &rules, 7, 42) == 0);
    /* newest against the median of nights 5..11 (5 before the drop, 2 after): the 4th
     * smallest = the second smallest of 98.9 100.6 99.8 100.4 99.1 */
    CHECK(fabs(s->prev_median - 99.1) < 1e-9);
    for (k = 0; k < s->cp.n_changes; k++)
        if (s->kind[k] == DRIFT_KIND_STEP) {
            steps++;
            CHECK(s->cp.changes[k].index == 10);
            CHECK(s->step_change[k] < -0.10 && s->step_change[k] > -0.14);
        }
    CHECK(steps == 1);
    /* the slow drift: no night is 5% below the previous 7, the trend is; its reported
     * changes are drift, not steps */
    free(s);
    s = series(METRIC_THROUGHPUT, 20, 0, 0, 0, -1.0);
    CHECK(drift_analyse(s, &rules, 7, 42) == 0);
    CHECK(s->newest_dir == 0 && s->trend_dir == -1 && s->flagged && !s->regression_step);
    for (k = 0; k < s->cp.n_changes; k++)
        CHECK(s->kind[k] != DRIFT_KIND_STEP);
    free(s);
    /* empty and one-night series */
    s = series(METRIC_THROUGHPUT, 1, 0, 0, 0, 0);
    CHECK(drift_analyse(s, &rules, 7, 42) == 0);
    CHECK(isnan(s->change) && !s->flagged && !s->regression_step);
    s->n = 0;
    CHECK(drift_analyse(s, &rules, 7, 42) == 0);
    free(s);
}

/* The newest night 20% down against 7 steady nights is regressed; the same night with runs
 * disturbed by 0.5 cores of other work (ln 1.5 = 0.41 > ln 1/0.8 = 0.22) is held undecided;
 * a 90% fall (ln 10 = 2.3) is more than that work explains and stays regressed. */
static void test_disturbed_night(void)
{
    struct verdict_rules rules;
    struct drift_series *s = series(METRIC_THROUGHPUT, 8, 7, -0.20, 0, 0);

    verdict_rules_default(&rules);
    s->newest_min = s->newest_max = NAN;
    CHECK(drift_analyse(s, &rules, 7, 42) == 0);
    CHECK_STR(s->newest_verdict, VERDICT_REGRESSED);
    s->newest_disturb_cores = 0.5;
    CHECK(drift_analyse(s, &rules, 7, 42) == 0);
    CHECK_STR(s->newest_verdict, VERDICT_UNDECIDED);
    CHECK_STR(s->newest_reason, STATS_REASON_DISTURBED);
    s->values[7] = 10;
    CHECK(drift_analyse(s, &rules, 7, 42) == 0);
    CHECK_STR(s->newest_verdict, VERDICT_REGRESSED);
    free(s);
}

/* Normal(0, 1) from a small deterministic generator (Box-Muller over an LCG). */
static double gauss(unsigned long long *x)
{
    double u, v;

    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    u = ((double)(*x >> 11) + 0.5) / 9007199254740992.0;
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    v = ((double)(*x >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* A row of six gated timed metrics over unchanged nights (3% noise, 3 to 5 nights before the
 * newest): each metric alone may be flagged, and the row (a family) at
 * most one in twenty (of 2000 here: alone 245, the family 49); a 50% fall of one
 * metric against 4 steady nights stays regressed inside the family. */
static void test_night_family(void)
{
    static const enum metric ms[] = {METRIC_THROUGHPUT, METRIC_CPU_EFFICIENCY,
                                     METRIC_P50_US,     METRIC_P99_US,
                                     METRIC_RSS_MIB,    METRIC_SERVER_CPU_US};
    struct verdict_rules rules;
    struct drift_series row[6], *ptr[6];
    unsigned long long x = 7;
    size_t trial, k, i, alone = 0, family = 0;

    verdict_rules_default(&rules);
    for (trial = 0; trial < 2000; trial++) {
        size_t n = 4 + trial % 3;
        int any_alone = 0, any_family = 0;

        for (k = 0; k < 6; k++) {
            memset(&row[k], 0, sizeof(row[k]));
            row[k].metric = ms[k];
            row[k].gated = 1;
            row[k].n = n;
            row[k].newest_min = row[k].newest_max = NAN;
            for (i = 0; i < n; i++)
                row[k].values[i] = 100 * exp(0.03 * gauss(&x));
            CHECK(drift_analyse(&row[k], &rules, 7, 42) == 0);
            any_alone |= strcmp(row[k].newest_verdict, VERDICT_UNDECIDED) != 0 &&
                         strcmp(row[k].newest_verdict, VERDICT_SAME) != 0;
            ptr[k] = &row[k];
        }
        drift_family(ptr, 6);
        for (k = 0; k < 6; k++)
            any_family |= strcmp(row[k].newest_verdict, VERDICT_UNDECIDED) != 0 &&
                          strcmp(row[k].newest_verdict, VERDICT_SAME) != 0;
        alone += any_alone != 0;
        family += any_family != 0;
    }
    printf("# unchanged nights flagged: %zu alone, %zu as a family, of 2000\n", alone, family);
    CHECK(alone > 120);
    CHECK(family <= 100 && family * 3 < alone);
    for (k = 0; k < 6; k++) {
        memset(&row[k], 0, sizeof(row[k]));
        row[k].metric = ms[k];
        row[k].gated = 1;
        row[k].n = 5;
        row[k].newest_min = row[k].newest_max = NAN;
        for (i = 0; i < 5; i++)
            row[k].values[i] = 100 * exp(0.02 * gauss(&x)) * (k == 0 && i == 4 ? 0.5 : 1);
        CHECK(drift_analyse(&row[k], &rules, 7, 42) == 0);
        ptr[k] = &row[k];
    }
    drift_family(ptr, 6);
    CHECK_STR(row[0].newest_verdict, VERDICT_REGRESSED);
}

int main(void)
{
    test_cases();
    test_details();
    test_disturbed_night();
    test_night_family();
    return T_DONE();
}
