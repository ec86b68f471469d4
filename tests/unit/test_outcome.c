/* outcome: fixed-rate rows (params "rate" > 0) are judged on server CPU per request and the
 * tail, never on throughput or cpu_efficiency; closed-loop rows keep the headline set. */
#include <jansson.h>

#include "analysis/outcome.h"
#include "t.h"

/* A row with the given params and one verdict per metric for candidate "c". */
static json_t *row_with(const char *params, const char *tput, const char *eff, const char *p99,
                        const char *scpu)
{
    json_error_t je;
    json_t *row = json_pack("{s:s, s:o, s:{s:{s:{s:{s:s}}}, s:{s:{s:{s:s}}}, s:{s:{s:{s:s}}}, "
                            "s:{s:{s:{s:s}}}}}",
                            "status", "ok", "params", json_loads(params, 0, &je), "metrics",
                            "throughput", "vs_baseline", "c", "verdict", tput, "cpu_efficiency",
                            "vs_baseline", "c", "verdict", eff, "p99_us", "vs_baseline", "c",
                            "verdict", p99, "server_cpu_us", "vs_baseline", "c", "verdict", scpu);
    return row;
}

static void test_verdicts(void)
{
    static const struct {
        const char *params, *tput, *eff, *p99, *scpu, *want;
    } cases[] = {
        /* closed loop: throughput decides, server CPU is not gated by default */
        /* a row whose gated metrics are all "~" is "~" (the old "unchanged") */
        {"{\"protocol\":\"tcp\"}", "regressed", "~", "~", "~", "regressed"},
        {"{\"protocol\":\"tcp\"}", "~", "~", "~", "regressed", "~"},
        /* an undecided gated metric makes the row undecided, over an improved one, but a
         * regressed one still wins */
        {"{\"protocol\":\"tcp\"}", "undecided", "improved", "~", "~", "undecided"},
        {"{\"protocol\":\"tcp\"}", "undecided", "~", "regressed", "~", "regressed"},
        /* fixed rate: throughput and efficiency pass over, server CPU and P99 decide */
        {"{\"protocol\":\"tcp\",\"rate\":5000}", "regressed", "regressed", "~", "~", "~"},
        {"{\"protocol\":\"tcp\",\"rate\":5000}", "~", "~", "~", "regressed", "regressed"},
        {"{\"protocol\":\"tcp\",\"rate\":5000}", "~", "~", "undecided", "~", "undecided"},
        {"{\"protocol\":\"tcp\",\"rate\":5000}", "undecided", "~", "~", "improved", "improved"},
        {"{\"protocol\":\"tcp\",\"rate\":0}", "regressed", "~", "~", "~", "regressed"},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *row =
            row_with(cases[i].params, cases[i].tput, cases[i].eff, cases[i].p99, cases[i].scpu);
        const char *got = row ? outcome_row_verdict(row, "c", NULL) : "null";

        CHECK_MSG(strcmp(got, cases[i].want) == 0, "case %zu: got %s, want %s", i, got,
                  cases[i].want);
        json_decref(row);
    }
}

static void test_rules(void)
{
    struct verdict_rules r;
    unsigned char gated[METRIC_ALL];
    json_t *rate = json_pack("{s:s, s:f}", "protocol", "tcp", "rate", 2000.0);
    json_t *closed = json_pack("{s:s}", "protocol", "tcp");
    int m;

    verdict_rules_default(&r);
    outcome_default_gated(gated);
    outcome_rate_rules(closed, 0, &r, gated);
    CHECK(gated[METRIC_THROUGHPUT] && !gated[METRIC_SERVER_CPU_US]);
    CHECK(r.threshold_pct[METRIC_SERVER_CPU_US] == 0);
    outcome_rate_rules(rate, 0, &r, gated);
    CHECK(!gated[METRIC_THROUGHPUT] && !gated[METRIC_CPU_EFFICIENCY]);
    CHECK(gated[METRIC_SERVER_CPU_US] && gated[METRIC_P99_US]);
    CHECK(r.threshold_pct[METRIC_SERVER_CPU_US] == OUTCOME_RATE_SERVER_CPU_PCT);
    CHECK(r.threshold_pct[METRIC_P99_US] == OUTCOME_RATE_P99_PCT);
    /* named thresholds: the named set stays (server CPU not added), a named 3% stays 3%, a
     * named P99 10% (the closed-loop default) stays 10% */
    for (m = 0; m < METRIC_ALL; m++)
        gated[m] = m == METRIC_P50_US || m == METRIC_THROUGHPUT;
    verdict_rules_default(&r);
    r.threshold_pct[METRIC_SERVER_CPU_US] = 3;
    r.named[METRIC_SERVER_CPU_US] = r.named[METRIC_P99_US] = 1;
    outcome_rate_rules(rate, 1, &r, gated);
    CHECK(gated[METRIC_P50_US] && !gated[METRIC_THROUGHPUT] && !gated[METRIC_SERVER_CPU_US]);
    CHECK(r.threshold_pct[METRIC_SERVER_CPU_US] == 3 && r.threshold_pct[METRIC_P99_US] == 10);
    json_decref(rate);
    json_decref(closed);
}

int main(void)
{
    test_verdicts();
    test_rules();
    return T_DONE();
}
