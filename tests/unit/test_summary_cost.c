/* summary_cost: the verdict rule for exact counts. Both versions' counted lines exact (one
 * seed per round for both): regressed/improved only when every seed pair moves the same way
 * past a tenth of the threshold, else "~"; a version not exact keeps the runs' verdict and
 * the reason is named. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "analysis/summary_cost.h"
#include "t.h"

/* latest with the counted lines of versions a and b: per_op of round r = a[r] / b[r]. */
static json_t *latest_of(const double *a, const double *b, size_t n, int b_exact)
{
    json_t *l = json_object();
    size_t r;

    for (r = 0; r < n; r++) {
        const double *v[2] = {a, b};
        int k;
        for (k = 0; k < 2; k++) {
            char key[64];
            int exact = k == 0 || b_exact;
            snprintf(key, sizeof(key), "cfg\x1f%s\x1finstructions\x1f%zu", k ? "b" : "a", r + 1);
            json_object_set_new(l, key,
                                json_pack("{s:s,s:{s:f,s:{s:i,s:b,s:s?}}}", "status", "ok",
                                          "instructions", "per_op", v[k][r], "fixed", "seed",
                                          (int)r + 1, "exact", exact, "reason",
                                          exact ? NULL : "'/x/redis-server' is statically linked"));
        }
    }
    return l;
}

static const char *verdict_of(const double *a, const double *b, size_t n, int b_exact,
                              const char *runs_verdict, char *rule, size_t rulelen)
{
    static char out[32];
    json_t *versions = json_pack("[s,s]", "a", "b"), *l = latest_of(a, b, n, b_exact);
    json_t *metric = json_pack("{s:f,s:{s:{s:s}}}", "threshold_pct", 1.0, "vs_baseline", "b",
                               "verdict", runs_verdict);
    const json_t *vs;

    summary_cost_annotate(metric, "cfg", l, versions, n);
    vs = json_object_get(json_object_get(metric, "vs_baseline"), "b");
    snprintf(out, sizeof(out), "%s", json_string_value(json_object_get(vs, "verdict")));
    snprintf(rule, rulelen, "%s",
             json_string_value(json_object_get(json_object_get(vs, "exact"), "rule")));
    json_decref(metric);
    json_decref(l);
    json_decref(versions);
    return out;
}

int main(void)
{
    static const struct {
        double a[3], b[3];
        int b_exact;
        const char *runs_verdict, *want, *rule;
    } cases[] = {
        /* +0.3% in every pair: regressed at 0.15%, though the runs' rule said ~ (1%) */
        {{5000, 5100, 4950}, {5015, 5115.3, 4964.85}, 1, "~", "regressed", "seed pairs"},
        {{5000, 5100, 4950}, {4985, 5084.7, 4935.15}, 1, "~", "improved", "seed pairs"},
        /* +0.18% in every pair: past 0.15% */
        {{5000, 5100, 4950}, {5009, 5109.18, 4958.91}, 1, "~", "regressed", "seed pairs"},
        /* pairs at +0.1%: the worst one-seed A/A spread is below 0.15% */
        {{5000, 5100, 4950}, {5005, 5105.1, 4954.95}, 1, "~", "~", "seed pairs"},
        /* A/A: pairs within 0.05% */
        {{5000, 5100, 4950}, {5001, 5099, 4950.5}, 1, "~", "~", "seed pairs"},
        /* one pair against the others: ~ */
        {{5000, 5100, 4950}, {5015, 5115.3, 4950}, 1, "~", "~", "seed pairs"},
        /* the candidate not exact: the runs' verdict stays */
        {{5000, 5100, 4950}, {5015, 5115.3, 4964.85}, 0, "~", "~", "runs"},
    };
    char rule[32];
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *v = verdict_of(cases[i].a, cases[i].b, 3, cases[i].b_exact,
                                   cases[i].runs_verdict, rule, sizeof(rule));
        CHECK_MSG(strcmp(v, cases[i].want) == 0, "case %zu: '%s' != '%s'", i, v, cases[i].want);
        CHECK_MSG(strcmp(rule, cases[i].rule) == 0, "case %zu: rule '%s'", i, rule);
    }
    return T_DONE();
}
