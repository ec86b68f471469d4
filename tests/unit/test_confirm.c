/* Which summary rows adaptive confirmation measures more (confirm_row_borderline): a row
 * whose status is ok and some gated metric is "undecided" (whatever its reason: too few
 * runs, unstable, disturbed runs), by the rules the row is judged by (a fixed-rate row's
 * own); "regressed", "improved" and "~" are final, however close the change or weak the
 * ranges (the moderated evidence already weighed them, summary_judge.h); for a gate, not one
 * bounded on its bad side (confirm_row_open_for_gate). And which rows a gate stops at as
 * decided regressed (confirm_row_regressed). */
#include <jansson.h>
#include <string.h>

#include "run/confirm.h"
#include "analysis/stats.h"
#include "t.h"

/* A comparison of candidate "candidate": verdict, change, and reason (NULL: none). */
static json_t *cmp(const char *verdict, double change, const char *reason)
{
    json_t *c = json_pack("{s:s, s:f}", "verdict", verdict, "change", change);

    if (reason)
        json_object_set_new(c, "reason", json_string(reason));
    return json_pack("{s:{s:{s:i}, s:{s:i}}, s:{s:o}}", "values", "baseline", "n", 5, "candidate",
                     "n", 5, "vs_baseline", "candidate", c);
}

/* A one-candidate row whose throughput comparison is cmp(verdict, change, reason). */
static json_t *row(const char *status, const char *verdict, double change, const char *reason)
{
    return json_pack("{s:s, s:{s:o}}", "status", status, "metrics", "throughput",
                     cmp(verdict, change, reason));
}

/* r with metric name compared as cmp(verdict, change, reason) */
static json_t *with(json_t *r, const char *name, const char *verdict, double change,
                    const char *reason)
{
    json_object_set_new(json_object_get(r, "metrics"), name, cmp(verdict, change, reason));
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

    /* undecided, for any reason: more rounds are what it needs */
    CHECK(border(row("ok", "undecided", -0.06, "too few runs"), &rules) == 1);
    CHECK(border(row("ok", "undecided", 0.0, "unstable"), &rules) == 1);
    CHECK(border(row("ok", "undecided", -0.3, "disturbed runs"), &rules) == 1);
    CHECK(border(row("ok", "undecided", -0.06, NULL), &rules) == 1);
    /* "~" is final: the 90% interval is already inside the threshold (even a change printed
     * near it, which the old rule measured more) */
    CHECK(border(row("ok", "~", -0.049, NULL), &rules) == 0);
    CHECK(border(row("ok", "~", 0.0, NULL), &rules) == 0);
    /* decided is final, however close to the threshold: the moderated test reached its level
     * (a confirmed row's at the shared extra-look budget), no sign rule to second-guess */
    CHECK(border(row("ok", "regressed", -0.053, NULL), &rules) == 0);
    CHECK(border(row("ok", "improved", 0.06, NULL), &rules) == 0);
    /* the old words of pairbench.summary/1 are not read here: summary_upgrade() turns
     * "unstable" into "undecided" first */
    CHECK(border(row("ok", "unstable", 0.0, NULL), &rules) == 0);
    /* planned is not used: the verdict alone says it */
    {
        json_t *r = row("ok", "undecided", -0.02, "unstable");

        CHECK(confirm_row_borderline(r, &rules, 0) == 1 &&
              confirm_row_borderline(r, &rules, 9) == 1);
        json_decref(r);
    }
    /* failed or incomplete rows are not measured more */
    CHECK(border(row("failed", "undecided", -0.06, "too few runs"), &rules) == 0);
    CHECK(border(row("incomplete", "undecided", -0.06, "too few runs"), &rules) == 0);
    /* any gated metric: an undecided p99 keeps a decided throughput going, an ungated one
     * does not */
    rules.threshold_pct[METRIC_P99_US] = 10;
    CHECK(border(with(row("ok", "~", 0.0, NULL), "p99_us", "undecided", 0.12, "unstable"),
                 &rules) == 1);
    CHECK(border(with(row("ok", "~", 0.0, NULL), "p99_us", "~", 0.02, NULL), &rules) == 0);
    rules.threshold_pct[METRIC_P99_US] = 0;
    CHECK(border(with(row("ok", "~", 0.0, NULL), "p99_us", "undecided", 0.12, "unstable"),
                 &rules) == 0);
    /* an ungated metric never makes a row borderline */
    rules.threshold_pct[METRIC_THROUGHPUT] = 0;
    CHECK(border(row("ok", "undecided", -0.2, "too few runs"), &rules) == 0);
    rules.threshold_pct[METRIC_THROUGHPUT] = 5;
    /* a fixed-rate row: its throughput is a setting, not measured more; its P99 is gated at
     * the fixed-rate threshold though the given rules leave it out */
    {
        json_t *r = row("ok", "undecided", -0.2, "too few runs");

        json_object_set_new(r, "params", json_pack("{s:f}", "rate", 5000.0));
        CHECK(confirm_row_borderline(r, &rules, 5) == 0);
        with(r, "p99_us", "undecided", 0.3, "unstable");
        CHECK(confirm_row_borderline(r, &rules, 5) == 1);
        json_decref(r);
    }
    /* the gate stops its extra rounds at a decided regression (confirm_row_regressed): a
     * regressed row with nothing left undecided, not one that still has an undecided gated
     * metric, nor a failed row, nor a "~" row, nor a regressed metric the rules do not gate */
    {
        json_t *dec = row("ok", "regressed", -0.10, NULL);
        json_t *open = with(row("ok", "regressed", -0.10, NULL), "cpu_efficiency", "undecided",
                            -0.04, "unstable");
        json_t *failed = row("failed", "regressed", -0.10, NULL);
        json_t *same = row("ok", "~", -0.01, NULL);

        rules.threshold_pct[METRIC_CPU_EFFICIENCY] = 5;
        CHECK(confirm_row_regressed(dec, &rules, 5) == 1);
        CHECK(confirm_row_borderline(open, &rules, 5) == 1);
        CHECK(confirm_row_regressed(open, &rules, 5) == 0);
        CHECK(confirm_row_regressed(failed, &rules, 5) == 0);
        CHECK(confirm_row_regressed(same, &rules, 9) == 0);
        rules.threshold_pct[METRIC_THROUGHPUT] = 0;
        CHECK(confirm_row_regressed(dec, &rules, 5) == 0);
        rules.threshold_pct[METRIC_THROUGHPUT] = 5;
        /* a counted regression is final while the timed metrics are still open; a counted
         * metric the rules do not gate is not */
        with(open, "instructions", "regressed", 0.02, NULL);
        CHECK(confirm_row_borderline(open, &rules, 5) == 1);
        CHECK(confirm_row_regressed(open, &rules, 5) == 0);
        rules.threshold_pct[METRIC_INSTRUCTIONS] = 1;
        CHECK(confirm_row_regressed(open, &rules, 5) == 1);
        rules.threshold_pct[METRIC_INSTRUCTIONS] = 0;
        rules.threshold_pct[METRIC_CPU_EFFICIENCY] = 0;
        json_decref(dec);
        json_decref(open);
        json_decref(failed);
        json_decref(same);
    }
    /* the reports' text of what a confirmed row's verdict used */
    {
        char buf[96];
        /* the p is the moderated test's (evidence.p), not the signed-rank p_paired */
        json_t *vs =
            json_pack("{s:f, s:{s:f}, s:{s:f, s:f, s:f}}", "p_paired", 0.5, "evidence", "p", 0.0123,
                      "paired_ratio", "median", 0.969, "lo", 0.928, "hi", 1.004);

        confirm_paired_text(vs, buf, sizeof(buf));
        /* the one formatter's changes (util/fmt.h): two decimals, U+2212 for minus */
        CHECK_MSG(strcmp(buf, "\xe2\x88\x92"
                              "3.10% [\xe2\x88\x92"
                              "7.20%, +0.40%], p 0.012") == 0,
                  "got '%s'", buf);
        json_object_del(json_object_get(vs, "paired_ratio"), "lo");
        confirm_paired_text(vs, buf, sizeof(buf)); /* no interval: fewer than five pairs */
        CHECK_MSG(strcmp(buf, "\xe2\x88\x92"
                              "3.10%, p 0.012") == 0,
                  "got '%s'", buf);
        json_object_del(vs, "evidence");
        confirm_paired_text(vs, buf, sizeof(buf));
        CHECK(strcmp(buf, "—") == 0);
        confirm_paired_text(NULL, buf, sizeof(buf));
        CHECK(strcmp(buf, "—") == 0);
        json_decref(vs);
    }
    return T_DONE();
}
