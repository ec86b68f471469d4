/* Which summary rows adaptive confirmation measures more (confirm_row_borderline): after
 * the planned rounds, a gated change past its threshold without strong evidence, a noisy
 * side, or a verdict on paired ratios alone weaker than 2/252; with extra rounds, a paired
 * change past the threshold or an interval of it that still reaches past. */
#include <jansson.h>
#include <string.h>

#include "run/confirm.h"
#include "analysis/stats.h"
#include "t.h"

/* A one-candidate row whose throughput sides have n runs each. lo/hi < 0: no interval
 * (fewer than five pairs). */
static json_t *row(const char *status, int n, const char *verdict, double change, double median,
                   double lo, double hi)
{
    json_t *pr = json_pack("{s:f, s:i}", "median", median, "n", n);
    json_t *r;

    if (lo >= 0) {
        json_object_set_new(pr, "lo", json_real(lo));
        json_object_set_new(pr, "hi", json_real(hi));
    }
    r = json_pack("{s:s, s:{s:{s:{s:{s:i}, s:{s:i}}, s:{s:{s:s, s:f, s:o}}}}}", "status", status,
                  "metrics", "throughput", "values", "baseline", "n", n, "candidate", "n", n,
                  "vs_baseline", "candidate", "verdict", verdict, "change", change, "paired_ratio",
                  pr);
    return r;
}

/* r with a p99_us metric (same runs, verdict ~) whose paired ratio is median [lo, hi] */
static json_t *with_p99(json_t *r, double median, double lo, double hi)
{
    json_t *p = row("ok", 9, "~", median - 1, median, lo, hi);

    json_object_set(json_object_get(r, "metrics"), "p99_us",
                    json_object_get(json_object_get(p, "metrics"), "throughput"));
    json_decref(p);
    return r;
}

/* r with the throughput's overlap flag and signed-rank p set */
static json_t *with_ev(json_t *r, int overlap, double p_paired)
{
    json_t *c = json_object_get(
        json_object_get(json_object_get(json_object_get(r, "metrics"), "throughput"),
                        "vs_baseline"),
        "candidate");

    json_object_set_new(c, "overlap", json_boolean(overlap));
    json_object_set_new(c, "p_paired", json_real(p_paired));
    return r;
}

static int border(json_t *r, const struct verdict_rules *rules)
{
    int b = confirm_row_borderline(r, rules, 5);

    json_decref(r);
    return b;
}

int main(void)
{
    struct verdict_rules rules;

    memset(&rules, 0, sizeof(rules));
    rules.threshold_pct[METRIC_THROUGHPUT] = 5;
    rules.noise_limit_pct = 20;

    /* the planned rounds: the change of the sides' medians decides, the interval does not */
    CHECK(border(row("ok", 5, "~", -0.06, 0.97, 0.90, 1.02), &rules) == 1);
    CHECK(border(row("ok", 5, "~", -0.03, 0.93, 0.90, 1.02), &rules) == 0);
    CHECK(border(row("ok", 5, "unstable", 0.0, 1.0, 0.99, 1.01), &rules) == 1);
    /* decided by the planned rounds: on disjoint ranges, final (with three runs too, where
     * they are the strongest evidence there is); on every paired ratio on one side of 1
     * with the ranges overlapping (1 in 16 by chance with five pairs), not yet: that is
     * how an A/A comparison once came out regressed */
    CHECK(border(with_ev(row("ok", 5, "regressed", -0.10, 0.90, 0.88, 0.92), 0, 0.0625), &rules) ==
          0);
    CHECK(border(with_ev(row("ok", 3, "regressed", -0.5, 0.5, 0.5, 0.5), 0, 0.25), &rules) == 0);
    CHECK(border(with_ev(row("ok", 5, "regressed", -0.053, 0.94, 0.91, 1.0), 1, 0.0625), &rules) ==
          1);
    CHECK(border(with_ev(row("ok", 5, "improved", 0.06, 1.07, 1.01, 1.1), 1, 0.0625), &rules) == 1);
    /* with more planned pairs, all on one side is strong evidence: 2^-7 < 2/252 */
    {
        json_t *r8 = with_ev(row("ok", 8, "regressed", -0.08, 0.92, 0.9, 0.95), 1, 1.0 / 128);

        CHECK(confirm_row_borderline(r8, &rules, 8) == 0);
        json_decref(r8);
    }
    CHECK(border(row("failed", 5, "~", -0.06, 0.94, 0.90, 1.02), &rules) == 0);

    /* extra rounds: the paired median past the threshold */
    CHECK(border(row("ok", 9, "~", 0.0, 0.94, 0.90, 0.99), &rules) == 1);
    /* ... or not yet, but its interval still reaches past it, either way */
    CHECK(border(row("ok", 9, "~", -0.001, 0.999, 0.93, 1.04), &rules) == 1);
    CHECK(border(row("ok", 9, "~", -0.001, 0.999, 0.97, 1.06), &rules) == 1);
    CHECK(border(row("ok", 9, "~", -0.001, 0.999, 0.95, 1.04), &rules) == 1); /* at it */
    /* the interval within the threshold: decided, stop */
    CHECK(border(row("ok", 9, "~", -0.06, 0.999, 0.96, 1.04), &rules) == 0);
    CHECK(border(row("ok", 9, "unstable", 0.0, 1.0, 0.97, 1.03), &rules) == 0);
    CHECK(border(row("ok", 9, "unstable", 0.0, 1.0, 0.94, 1.03), &rules) == 1);
    /* no interval (a row without five pairs): the median alone, as before */
    CHECK(border(row("ok", 9, "~", 0.0, 0.99, -1, -1), &rules) == 0);
    /* the interval counts for throughput only: a p99 interval reaching past its threshold
     * does not keep a row going, its median past it does */
    rules.threshold_pct[METRIC_P99_US] = 10;
    CHECK(border(with_p99(row("ok", 9, "~", 0.0, 1.0, 0.97, 1.03), 1.02, 0.85, 1.25), &rules) == 0);
    CHECK(border(with_p99(row("ok", 9, "~", 0.0, 1.0, 0.97, 1.03), 1.12, 0.85, 1.25), &rules) == 1);
    rules.threshold_pct[METRIC_P99_US] = 0;
    /* decided verdicts are not measured more */
    CHECK(border(row("ok", 9, "regressed", -0.08, 0.92, 0.85, 0.97), &rules) == 0);
    CHECK(border(with_ev(row("ok", 9, "regressed", -0.08, 0.92, 0.85, 0.97), 1, 0.001), &rules) ==
          0);
    /* the gate stops its extra rounds at a decided regression (confirm_row_regressed): a
     * regressed row that is not borderline, not one that still is, nor a failed row, nor a
     * regressed metric the rules do not gate */
    {
        json_t *dec = with_ev(row("ok", 5, "regressed", -0.10, 0.90, 0.88, 0.92), 0, 0.0625);
        json_t *open = with_ev(row("ok", 5, "regressed", -0.053, 0.94, 0.91, 1.0), 1, 0.0625);
        json_t *failed = with_ev(row("failed", 5, "regressed", -0.10, 0.90, 0.88, 0.92), 0, 0.0);
        json_t *same = row("ok", 9, "~", -0.06, 0.999, 0.96, 1.04);

        CHECK(confirm_row_regressed(dec, &rules, 5) == 1);
        CHECK(confirm_row_regressed(open, &rules, 5) == 0);
        CHECK(confirm_row_regressed(failed, &rules, 5) == 0);
        CHECK(confirm_row_regressed(same, &rules, 9) == 0);
        rules.threshold_pct[METRIC_THROUGHPUT] = 0;
        CHECK(confirm_row_regressed(dec, &rules, 5) == 0);
        rules.threshold_pct[METRIC_THROUGHPUT] = 5;
        /* a counted regression is final while the timed metrics are still open; a counted
         * metric the rules do not gate is not */
        json_object_set(json_object_get(open, "metrics"), "instructions",
                        json_object_get(json_object_get(dec, "metrics"), "throughput"));
        CHECK(confirm_row_borderline(open, &rules, 5) == 1);
        CHECK(confirm_row_regressed(open, &rules, 5) == 0);
        rules.threshold_pct[METRIC_INSTRUCTIONS] = 1;
        CHECK(confirm_row_regressed(open, &rules, 5) == 1);
        rules.threshold_pct[METRIC_INSTRUCTIONS] = 0;
        /* a fixed-rate row: its throughput is a setting, not measured more */
        json_object_set_new(open, "params", json_pack("{s:f}", "rate", 5000.0));
        json_object_del(json_object_get(open, "metrics"), "instructions");
        CHECK(confirm_row_borderline(open, &rules, 5) == 0);
        json_decref(dec);
        json_decref(open);
        json_decref(failed);
        json_decref(same);
    }
    /* an ungated metric never makes a row borderline */
    rules.threshold_pct[METRIC_THROUGHPUT] = 0;
    CHECK(border(row("ok", 9, "~", -0.2, 0.8, 0.7, 0.9), &rules) == 0);
    /* counts per operation near zero: medians within the metric's absolute floor are `~`
     * whatever their paired ratio (25 here), so rounds cannot decide them; past the floor, the
     * same ratio is measured more */
    rules.threshold_pct[METRIC_CPU_MIGRATIONS] = 50;
    for (int k = 0; k < 2; k++) {
        json_t *r = row("ok", 9, "~", 28.0, 25.0, 10.0, 31.0);
        json_t *m = json_object_get(json_object_get(r, "metrics"), "throughput");
        json_t *vals = json_object_get(m, "values");

        json_object_set_new(json_object_get(vals, "baseline"), "median", json_real(0.0001));
        json_object_set_new(json_object_get(vals, "candidate"), "median",
                            json_real(k ? 0.5 : 0.004));
        json_object_set(json_object_get(r, "metrics"), "cpu_migrations", m);
        json_object_del(json_object_get(r, "metrics"), "throughput");
        CHECK_MSG(border(r, &rules) == k, "migrations %s the floor", k ? "past" : "within");
    }
    /* the reports' text of what a confirmed row's verdict used */
    {
        char buf[96];
        json_t *vs = json_pack("{s:f, s:{s:f, s:f, s:f}}", "p_paired", 0.0123, "paired_ratio",
                               "median", 0.969, "lo", 0.928, "hi", 1.004);

        confirm_paired_text(vs, buf, sizeof(buf));
        CHECK_MSG(strcmp(buf, "-3.1% [-7.2%, +0.4%], p 0.012") == 0, "got '%s'", buf);
        json_object_del(json_object_get(vs, "paired_ratio"), "lo");
        confirm_paired_text(vs, buf, sizeof(buf)); /* no interval: fewer than five pairs */
        CHECK_MSG(strcmp(buf, "-3.1%, p 0.012") == 0, "got '%s'", buf);
        json_object_del(vs, "p_paired");
        confirm_paired_text(vs, buf, sizeof(buf));
        CHECK(strcmp(buf, "—") == 0);
        confirm_paired_text(NULL, buf, sizeof(buf));
        CHECK(strcmp(buf, "—") == 0);
        json_decref(vs);
    }
    return T_DONE();
}
