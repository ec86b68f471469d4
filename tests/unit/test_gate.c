/* The gate's pure parts: --threshold and spec "gate" parsing (messages exact), per-row rules,
 * the decision and exit code over hand-made summaries, the comment Markdown, and the post
 * body / own-comment lookup. */
#include <math.h>
#include <stdlib.h>

#include <jansson.h>

#include "util/exit_codes.h"
#include "analysis/gate.h"
#include "report/gate_report.h"
#include "util/post.h"
#include "t.h"

static void test_threshold_flags(void)
{
    static const struct {
        const char *arg;
        int ok;
        const char *err;
    } cases[] = {
        {"throughput=5", 1, ""},
        {"p99=10", 1, ""},
        {"p50_us=2.5", 1, ""},
        {"p99_us=10", 1, ""},
        {"rss=10", 1, ""},
        {"rss_mib=10", 1, ""},
        {"efficiency=7", 1, ""},
        {"latency=5", 0,
         "--threshold 'latency=5': unknown metric 'latency' (expected throughput, "
         "cpu_efficiency, p50_us, p99_us, rss_mib, server_cpu_us, instructions, context_switches, "
         "page_faults, cpu_migrations, syscalls, allocations, estimated_cycles, "
         "reopened_per_1k, stall, decay)"},
        {"cpu=5", 0,
         "--threshold 'cpu=5': unknown metric 'cpu' (expected throughput, cpu_efficiency, "
         "p50_us, p99_us, rss_mib, server_cpu_us, instructions, context_switches, page_faults, "
         "cpu_migrations, syscalls, allocations, estimated_cycles, "
         "reopened_per_1k, stall, decay)"},
        {"throughput", 0, "--threshold 'throughput': expected METRIC=PERCENT (e.g. throughput=5)"},
        {"=5", 0, "--threshold '=5': expected METRIC=PERCENT (e.g. throughput=5)"},
        {"throughput=abc", 0,
         "--threshold 'throughput=abc': bad percent 'abc' (expected a number in (0, 1000])"},
        {"throughput=0", 0,
         "--threshold 'throughput=0': bad percent '0' (expected a number in (0, 1000])"},
        {"throughput=-3", 0,
         "--threshold 'throughput=-3': bad percent '-3' (expected a number in (0, 1000])"},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gate_config gc;
        char err[320] = "";
        int rc;

        gate_config_init(&gc);
        rc = gate_parse_threshold(&gc, cases[i].arg, err, sizeof(err));
        CHECK_MSG((rc == 0) == cases[i].ok, "%s", cases[i].arg);
        if (!cases[i].ok)
            CHECK_STR(err, cases[i].err);
        gate_config_release(&gc);
    }
}

static void test_gated_set(void)
{
    struct gate_config gc;
    char err[256];

    gate_config_init(&gc);
    CHECK(gc.gated[METRIC_THROUGHPUT] && gc.gated[METRIC_CPU_EFFICIENCY] &&
          gc.gated[METRIC_P99_US]);
    CHECK(!gc.gated[METRIC_P50_US] && !gc.gated[METRIC_RSS_MIB] && !gc.gated[METRIC_CPU_PERCENT]);
    /* naming a threshold gates exactly the named metrics */
    CHECK(gate_parse_threshold(&gc, "p99=12", err, sizeof(err)) == 0);
    CHECK(gc.gated[METRIC_P99_US] && !gc.gated[METRIC_THROUGHPUT]);
    CHECK(gc.rules.threshold_pct[METRIC_P99_US] == 12);
    CHECK(gate_parse_threshold(&gc, "throughput=3", err, sizeof(err)) == 0);
    CHECK(gc.gated[METRIC_THROUGHPUT] && gc.rules.threshold_pct[METRIC_THROUGHPUT] == 3);
    gate_config_release(&gc);
}

static void test_spec_section(void)
{
    static const struct {
        const char *json;
        const char *err; /* NULL = accepted */
    } cases[] = {
        {"{\"thresholds\": {\"throughput\": 5, \"p99\": 10}}", NULL},
        {"{\"thresholds\": {\"throughput\": 5}, \"noise_limit\": 15, \"rows\": [{\"match\": "
         "{\"protocol\": \"redis\"}, \"thresholds\": {\"p99\": 20}}]}",
         NULL},
        {"{\"thresholds\": {\"latency\": 5}}",
         "spec.json: $.gate.thresholds.latency: unknown metric 'latency' (expected throughput, "
         "cpu_efficiency, p50_us, p99_us, rss_mib, server_cpu_us, instructions, context_switches, "
         "page_faults, cpu_migrations, syscalls, allocations, estimated_cycles, "
         "reopened_per_1k, stall, decay)"},
        {"{\"thresholds\": {\"p99\": \"10\"}}", "spec.json: $.gate.thresholds.p99: expected a "
                                                "percent in [0, 1000] (0 = not gated), got \"10\""},
        {"{\"treshold\": {}}",
         "spec.json: $.gate.treshold: unknown key (expected thresholds, noise_limit, rows, budget, "
         "disturbed_limit)"},
        {"{\"budget\": \"5 minutes\"}",
         "spec.json: $.gate.budget: expected a duration like "
         "\"5m\", \"90s\" or seconds in (0, 86400], got \"5 minutes\""},
        {"{\"disturbed_limit\": {\"other_cpu_cores\": -1}}",
         "spec.json: $.gate.disturbed_limit: expected {\"other_cpu_cores\": CORES, "
         "\"steal_pct\": PERCENT} with positive numbers"},
        {"{\"rows\": [{\"match\": 3, \"thresholds\": {}}]}",
         "spec.json: $.gate.rows[0]: expected {\"match\": {key: value}, \"thresholds\": "
         "{metric: percent}}"},
        {"{\"rows\": [{\"match\": {}, \"thresholds\": {\"rss\": 2000}}]}",
         "spec.json: $.gate.rows[0].thresholds.rss: expected a percent in [0, 1000] (0 = not "
         "gated), got 2000"},
        {"[]", "spec.json: $.gate: expected an object with thresholds, noise_limit, rows"},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gate_config gc;
        char err[512] = "";
        json_t *g = json_loads(cases[i].json, 0, NULL);
        int rc;

        CHECK(g != NULL);
        gate_config_init(&gc);
        rc = gate_parse_spec(&gc, g, "spec.json", err, sizeof(err));
        if (cases[i].err) {
            CHECK_MSG(rc == -1, "case %zu accepted", i);
            CHECK_STR(err, cases[i].err);
        } else {
            CHECK_MSG(rc == 0, "case %zu: %s", i, err);
        }
        gate_config_release(&gc);
        json_decref(g);
    }
}

static void test_row_rules(void)
{
    struct gate_config gc;
    struct verdict_rules r;
    unsigned char gated[METRIC_ALL];
    char err[256];
    json_t *g = json_loads("{\"thresholds\": {\"throughput\": 5, \"p99\": 10}, \"rows\": ["
                           "{\"match\": {\"protocol\": \"redis\", \"pipeline\": 16}, "
                           "\"thresholds\": {\"p99\": 0, \"p50\": 7}}]}",
                           0, NULL);
    json_t *redis16 =
        json_loads("{\"protocol\": \"redis\", \"pipeline\": 16, \"payload\": 64}", 0, NULL);
    json_t *redis1 = json_loads("{\"protocol\": \"redis\", \"pipeline\": 1}", 0, NULL);

    gate_config_init(&gc);
    CHECK(gate_parse_spec(&gc, g, "s.json", err, sizeof(err)) == 0);
    CHECK(gate_parse_threshold(&gc, "throughput=8", err, sizeof(err)) == 0); /* flag wins */
    CHECK(gate_row_match(&gc, redis16) == 0);
    CHECK(gate_row_match(&gc, redis1) == -1);
    gate_row_rules(&gc, redis16, &r, gated);
    CHECK(gated[METRIC_THROUGHPUT] && r.threshold_pct[METRIC_THROUGHPUT] == 8);
    CHECK(!gated[METRIC_P99_US]);
    CHECK(gated[METRIC_P50_US] && r.threshold_pct[METRIC_P50_US] == 7);
    gate_row_rules(&gc, redis1, &r, gated);
    CHECK(gated[METRIC_P99_US] && !gated[METRIC_P50_US]);
    /* extra rounds judge a row by its own thresholds, on the metrics that decide the gate */
    gate_extra_round_rules(&gc, redis16, &r);
    CHECK(r.threshold_pct[METRIC_P50_US] == 7 && r.threshold_pct[METRIC_THROUGHPUT] == 8);
    CHECK(r.threshold_pct[METRIC_P99_US] == 0 && r.threshold_pct[METRIC_RSS_MIB] == 0);
    gate_extra_round_rules(&gc, redis1, &r);
    CHECK(r.threshold_pct[METRIC_P99_US] > 0 && r.threshold_pct[METRIC_P50_US] == 0);
    CHECK(r.threshold_pct[METRIC_CPU_MIGRATIONS] == 0);
    gate_config_release(&gc);
    json_decref(g);
    json_decref(redis16);
    json_decref(redis1);
}

/* A summary row: label, status, and throughput/p99 verdicts for "candidate". */
static json_t *row(const char *label, const char *status, const char *tput, double tchange,
                   const char *p99)
{
    return json_pack("{s:s, s:s, s:s, s:{s:s}, s:{s:{s:{s:{s:f, s:s}}}, s:{s:{s:{s:f, s:s}}}}}",
                     "config", "c0ffee00", "label", label, "status", status, "params", "protocol",
                     "tcp", "metrics", "throughput", "vs_baseline", "candidate", "change", tchange,
                     "verdict", tput, "p99_us", "vs_baseline", "candidate", "change", 0.01,
                     "verdict", p99);
}

/* metric of r for "candidate" as summary_judge leaves it: reason (NULL: none), n runs a side
 * (baseline values), the evidence's p and 90% interval lo..hi of the change (null when not
 * finite: no variance to bound it), and runs_needed (0: none) */
static json_t *judged(json_t *r, const char *metric, const char *reason, int n, double p, double lo,
                      double hi, int need)
{
    json_t *mj = json_object_get(json_object_get(r, "metrics"), metric);
    json_t *c = json_object_get(json_object_get(mj, "vs_baseline"), "candidate");

    if (reason)
        json_object_set_new(c, "reason", json_string(reason));
    if (need)
        json_object_set_new(c, "runs_needed", json_integer(need));
    json_object_set_new(c, "evidence",
                        json_pack("{s:f, s:o, s:o, s:f}", "p", p, "lo",
                                  isfinite(lo) ? json_real(lo) : json_null(), "hi",
                                  isfinite(hi) ? json_real(hi) : json_null(), "alpha", 0.05));
    json_object_set_new(mj, "values",
                        json_pack("{s:{s:i}, s:{s:i}}", "baseline", "n", n, "candidate", "n", n));
    return r;
}

static json_t *summary_of(json_t *rows)
{
    return json_pack("{s:s, s:s, s:[s,s], s:o}", "schema", "pairbench.summary/2", "baseline",
                     "baseline", "versions", "baseline", "candidate", "rows", rows);
}

static void test_decide(void)
{
    /* reason: the throughput's (undecided); too_few, unstable: what gate_decide counts (an
     * undecided verdict without a reason is taken as the noise's) */
    static const struct {
        const char *status, *tput, *p99, *reason;
        int code;
        unsigned too_few, unstable;
    } cases[] = {
        {"ok", "~", "~", NULL, EXIT_OK, 0, 0},
        {"ok", "improved", "~", NULL, EXIT_OK, 0, 0},
        {"ok", "regressed", "~", NULL, EXIT_REGRESSION, 0, 0},
        {"ok", "~", "regressed", NULL, EXIT_REGRESSION, 0, 0},
        {"ok", "undecided", "~", "unstable", EXIT_INCONCLUSIVE, 0, 1},
        {"ok", "undecided", "~", "too few runs", EXIT_INCONCLUSIVE, 1, 0},
        {"ok", "undecided", "~", "disturbed runs", EXIT_INCONCLUSIVE, 0, 1},
        {"ok", "~", "undecided", NULL, EXIT_INCONCLUSIVE, 0, 1},
        {"ok", "regressed", "undecided", NULL, EXIT_REGRESSION, 0, 1},
        {"incomplete", "~", "~", NULL, EXIT_INCONCLUSIVE, 0, 0},
        {"failed", "failed", "failed", NULL, EXIT_HARNESS, 0, 0},
        /* an ok row whose gated metric has no values: never a pass */
        {"ok", "failed", "~", NULL, EXIT_INCONCLUSIVE, 0, 0},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gate_config gc;
        struct gate_result gr;
        json_t *r = row("redis · 4 KiB", cases[i].status, cases[i].tput, -0.123, cases[i].p99);
        json_t *s;

        if (cases[i].reason)
            judged(r, "throughput", cases[i].reason, 5, 0.2, -0.3, 0.05, 0);
        s = summary_of(json_pack("[o, o]", row("tcp · 64 B", "ok", "~", 0.001, "~"), r));
        gate_config_init(&gc);
        CHECK_MSG(gate_decide(s, &gc, &gr) == cases[i].code, "case %zu: code %d", i, gr.code);
        CHECK_MSG(gr.too_few == cases[i].too_few && gr.unstable == cases[i].unstable,
                  "case %zu: too few %u, unstable %u", i, gr.too_few, gr.unstable);
        CHECK_MSG((gr.code == 0) == (gr.reason[0] == '\0'), "case %zu: reason '%s'", i, gr.reason);
        if (cases[i].code)
            CHECK_MSG(strstr(gr.reason, "'redis · 4 KiB'") != NULL, "reason '%s'", gr.reason);
        if (strcmp(cases[i].status, "ok") == 0 && strcmp(cases[i].tput, "failed") == 0)
            CHECK_MSG(gr.incomplete == 1 && strcmp(gr.reason, "undecided: 'redis · 4 KiB' "
                                                              "throughput has no values "
                                                              "(candidate)") == 0,
                      "case %zu: incomplete %u, reason '%s'", i, gr.incomplete, gr.reason);
        if (cases[i].code == EXIT_REGRESSION && strcmp(cases[i].tput, "regressed") == 0 &&
            strcmp(cases[i].p99, "~") == 0)
            CHECK_STR(gr.reason, "regression in 'redis · 4 KiB' throughput \xe2\x88\x92"
                                 "12.30% (candidate)");
        if (cases[i].reason)
            CHECK_MSG(strstr(gr.reason, "undecided: 'redis · 4 KiB' throughput \xe2\x88\x92"
                                        "12.30%: undecided, ") &&
                          strstr(gr.reason, cases[i].reason),
                      "case %zu: reason '%s'", i, gr.reason);
        gate_config_release(&gc);
        json_decref(s);
    }
}

static void test_budget_limits(void)
{
    struct gate_config gc;
    char err[256];
    double d = 0;
    json_t *g = json_loads(
        "{\"budget\": \"15m\", \"disturbed_limit\": {\"other_cpu_cores\": 0.25}}", 0, NULL);

    CHECK(gate_parse_duration("5m", &d) == 0 && d == 300);
    CHECK(gate_parse_duration("90s", &d) == 0 && d == 90);
    CHECK(gate_parse_duration("1.5h", &d) == 0 && d == 5400);
    CHECK(gate_parse_duration("42", &d) == 0 && d == 42);
    CHECK(gate_parse_duration("0m", &d) == -1 && gate_parse_duration("5x", &d) == -1);
    CHECK(gate_parse_duration("", &d) == -1 && gate_parse_duration("25h", &d) == -1);
    /* the 24 h limit, at its boundary in each unit */
    CHECK(gate_parse_duration("24h", &d) == 0 && d == 86400);
    CHECK(gate_parse_duration("1440m", &d) == 0 && d == 86400);
    CHECK(gate_parse_duration("86400", &d) == 0 && d == 86400);
    CHECK(gate_parse_duration("1441m", &d) == -1 && gate_parse_duration("86401s", &d) == -1);
    CHECK(gate_parse_duration("24.01h", &d) == -1);
    gate_config_init(&gc);
    CHECK(gc.budget_s == 0 && gc.limits.other_cpu_cores == INTERFERENCE_OTHER_CORES);
    CHECK(gate_parse_spec(&gc, g, "spec.json", err, sizeof(err)) == 0);
    CHECK(gc.budget_s == 900 && gc.limits.other_cpu_cores == 0.25);
    CHECK(gc.limits.steal_pct == INTERFERENCE_STEAL_PCT);
    gate_config_release(&gc);
    json_decref(g);
}

/* Undecided gated metrics make the gate undecided (exit 4), and the comment says why in one
 * sentence per reason: too few runs (with the runs a side that would decide it, or with one
 * run a side no noise measured at all), the noise (its 90% interval), disturbed runs. */
static void test_too_few_runs(void)
{
    struct gate_config gc;
    struct gate_result gr;
    json_t *s =
        summary_of(json_pack("[o, o, o, o]",
                             judged(row("tcp · 64 B", "ok", "undecided", -0.3, "~"), "throughput",
                                    "too few runs", 3, 0.09, -0.52, 0.03, 8),
                             judged(row("tcp · 1 KiB", "ok", "undecided", -0.2, "~"), "throughput",
                                    "too few runs", 1, 1, NAN, NAN, 0),
                             judged(row("tcp · 4 KiB", "ok", "undecided", 0.06, "~"), "throughput",
                                    "unstable", 5, 0.4, -0.081, 0.214, 0),
                             judged(row("tcp · 16 KiB", "ok", "undecided", -0.4, "~"), "throughput",
                                    "disturbed runs", 5, 0.001, -0.5, -0.3, 0)));

    gate_config_init(&gc);
    CHECK(gate_decide(s, &gc, &gr) == EXIT_INCONCLUSIVE);
    CHECK(gr.too_few == 2 && gr.unstable == 2 && gr.regressed == 0);
    {
        char *md = gate_markdown(s, &gc, &gr, NULL, NULL, 65536, NULL);

        /* every undecided finding counts as undecided, too few runs as well */
        CHECK_MSG(md && strstr(md, "over 4 configurations: 0 regressed, 0 improved, 4 undecided, "
                                   "0 with failed runs, 0 incomplete."),
                  "%s", md ? md : "(null)");
        CHECK_MSG(md && strstr(md, "**Undecided.**") &&
                      strstr(md, "- **tcp · 64 B**: throughput changed \xe2\x88\x92"
                                 "30.00% on 3 "
                                 "runs a side: undecided, too few runs (the 90% interval runs from "
                                 "\xe2\x88\x92"
                                 "52.00% to +3.00%). About 8 runs a side would "
                                 "decide it: rerun with --runs 8, or --budget 15m.\n") &&
                      strstr(md, "- **tcp · 1 KiB**: throughput changed \xe2\x88\x92"
                                 "20.00% on 1 "
                                 "run a side: undecided, too few runs to measure the noise. Rerun "
                                 "with --runs 3 or more.\n") &&
                      strstr(md, "- **tcp · 4 KiB**: throughput changed +6.00%: undecided, the "
                                 "noise measured here (the 90% interval runs from \xe2\x88\x92"
                                 "8.10% to +21.40%) could make a change of that size, and no "
                                 "count of runs up to 50 a side would resolve 5% on this runner. "
                                 "Raise the threshold, or rerun on a quieter runner.\n") &&
                      strstr(md, "- **tcp · 16 KiB**: throughput changed \xe2\x88\x92"
                                 "40.00%: "
                                 "undecided, the runs it rests on were disturbed: other processes "
                                 "used the CPUs during them (the report lists how much), enough to "
                                 "make a change of that size. Rerun on an idle runner, or with "
                                 "--budget 15m.\n"),
                  "%s", md ? md : "(null)");
        free(md);
    }
    CHECK_MSG(strstr(gr.reason, "undecided: 'tcp · 64 B' throughput \xe2\x88\x92"
                                "30.00%: undecided, too few runs (candidate)") != NULL,
              "reason '%s'", gr.reason);
    CHECK_MSG(strstr(gr.reason, "'tcp · 4 KiB' throughput +6.00%: undecided, unstable "
                                "(candidate)") != NULL,
              "reason '%s'", gr.reason);
    gate_config_release(&gc);
    json_decref(s);
}

/* A gate asks one side: an undecided metric whose 90% interval's bad end is inside the
 * threshold passes (non-inferiority), whatever its good end; the noise's or too few runs'
 * undecided alike, a disturbed one never. Throughput's bad end is lo, P99's is hi. */
static void test_bounded(void)
{
    static const struct {
        const char *metric, *reason;
        double lo, hi;
        int bounded;
    } cases[] = {
        {"throughput", "unstable", -0.04, 0.09, 1},
        {"throughput", "too few runs", -0.049, 0.30, 1},
        {"throughput", "unstable", -0.051, 0.01, 0},
        {"throughput", "disturbed runs", -0.01, 0.01, 0},
        {"p99_us", "unstable", -0.30, 0.09, 1},
        {"p99_us", "unstable", -0.01, 0.11, 0},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gate_config gc;
        struct gate_result gr;
        int tp = strcmp(cases[i].metric, "throughput") == 0;
        json_t *r = row("tcp · 64 B", "ok", tp ? "undecided" : "~", 0.02, tp ? "~" : "undecided");
        json_t *s = summary_of(json_pack("[o]", judged(r, cases[i].metric, cases[i].reason, 5, 0.4,
                                                       cases[i].lo, cases[i].hi, 0)));
        char *md;

        gate_config_init(&gc);
        CHECK_MSG(gate_decide(s, &gc, &gr) == (cases[i].bounded ? EXIT_OK : EXIT_INCONCLUSIVE) &&
                      gr.bounded == (unsigned)cases[i].bounded,
                  "case %zu: code %d, bounded %u", i, gr.code, gr.bounded);
        md = gate_markdown(s, &gc, &gr, NULL, NULL, 65536, NULL);
        CHECK_MSG(md && (strstr(md, "but its bad end is inside the") != NULL) == cases[i].bounded,
                  "case %zu: %s", i, md ? md : "(null)");
        if (i == 0)
            CHECK_MSG(md && strstr(md, "**Pass.**") &&
                          strstr(md, "- **tcp · 64 B**: throughput changed +2.00%: undecided as a "
                                     "change (the 90% interval runs from \xe2\x88\x92"
                                     "4.00% to +9.00%), but its bad end is inside the 5% "
                                     "threshold: no regression past it, which is what the gate "
                                     "asks, so it passes.\n"),
                      "%s", md ? md : "(null)");
        free(md);
        gate_config_release(&gc);
        json_decref(s);
    }
}

/* A counted cost decided regressed (instructions: no p, stats_judge's counted rule) fails the
 * gate, and its sentence says what decided it, the cheapest runs, with no p of a test it did
 * not take. */
static void test_counted_sentence(void)
{
    struct gate_config gc;
    struct gate_result gr;
    json_t *r = row("redis · SET · 64 B", "ok", "~", 0.001, "~"), *s;
    char *md;

    json_object_set_new(json_object_get(r, "metrics"), "instructions",
                        json_pack("{s:{s:{s:i}, s:{s:i}}, s:{s:{s:f, s:s}}}", "values", "baseline",
                                  "n", 3, "candidate", "n", 3, "vs_baseline", "candidate", "change",
                                  0.0197, "verdict", "regressed"));
    s = summary_of(json_pack("[o]", r));
    gate_config_init(&gc);
    CHECK(gate_decide(s, &gc, &gr) == EXIT_REGRESSION && gr.regressed == 1);
    md = gate_markdown(s, &gc, &gr, NULL, NULL, 65536, NULL);
    CHECK_MSG(md &&
                  strstr(md, "- **redis · SET · 64 B**: instructions per operation changed "
                             "+1.97% (threshold 1%) on 3 runs a side, and the cheapest runs of "
                             "the two sides differ as much: a count repeats closely from run "
                             "to run, so this is the candidate's change, not noise.\n") &&
                  !strstr(md, "nan"),
              "%s", md ? md : "(null)");
    free(md);
    gate_config_release(&gc);
    json_decref(s);
}

/* Many failed rows with multi-byte labels: the reason is cut to its bound at a character
 * boundary, whatever the alignment of the labels, and the gate's whole Markdown (labels,
 * reason, a multi-byte report cut to fit) is valid UTF-8. */
static void test_reason_utf8(void)
{
    size_t shift;

    for (shift = 0; shift < 4; shift++) {
        struct gate_config gc;
        struct gate_result gr;
        json_t *rows = json_array(), *s;
        char label[64];
        int i;

        for (i = 0; i < 120; i++) {
            snprintf(label, sizeof(label), "%.*s配置·%d", (int)shift, "xxx", i);
            json_array_append_new(rows, row(label, "failed", "failed", 0, "failed"));
        }
        s = summary_of(rows);
        gate_config_init(&gc);
        CHECK(gate_decide(s, &gc, &gr) == EXIT_HARNESS);
        CHECK_MSG(valid_utf8(gr.reason), "shift %zu: reason ends '%s'", shift,
                  gr.reason + (strlen(gr.reason) > 20 ? strlen(gr.reason) - 20 : 0));
        CHECK(strstr(gr.reason, "...") != NULL);
        /* the whole Markdown, its folded report cut to fit, at sizes near the cut: a step of 29
         * bytes (prime to the 2- and 3-byte characters) meets every alignment */
        {
            char report[4096] = "", *md;
            const char *piece = "| 中文标签 · 64 B | µs | 配置 |\n";
            size_t max, bare, cut = 0, used = 0, pl = strlen(piece);

            while (used + pl + 1 < sizeof(report)) {
                memcpy(report + used, piece, pl + 1);
                used += pl;
            }
            md = gate_markdown(s, &gc, &gr, NULL, "reports/运行", 1 << 20, NULL);
            CHECK(md && valid_utf8(md));
            bare = md ? strlen(md) : 0;
            free(md);
            for (max = bare; max < bare + 300 + strlen(report); max += 29) {
                md = gate_markdown(s, &gc, &gr, report, "reports/运行", max, NULL);
                CHECK_MSG(md && valid_utf8(md), "shift %zu, max %zu: not UTF-8", shift, max);
                cut += md && strstr(md, "(report cut to fit") != NULL;
                free(md);
            }
            CHECK(cut > 25); /* the sizes did cut the report, at many places */
        }
        gate_config_release(&gc);
        json_decref(s);
    }
}

/* A regression beats a failure elsewhere; an ungated metric never fails the gate. */
static void test_precedence(void)
{
    struct gate_config gc;
    struct gate_result gr;
    char err[128];
    json_t *s = summary_of(json_pack("[o, o]", row("a", "ok", "regressed", -0.2, "~"),
                                     row("b", "failed", "failed", 0, "failed")));

    gate_config_init(&gc);
    CHECK(gate_decide(s, &gc, &gr) == EXIT_REGRESSION);
    CHECK(gr.regressed == 1 && gr.failed == 1);
    CHECK(strstr(gr.reason, "rows with failed runs: 'b'") != NULL);
    gate_config_release(&gc);
    json_decref(s);

    s = summary_of(json_pack("[o]", row("a", "ok", "regressed", -0.2, "~")));
    gate_config_init(&gc);
    CHECK(gate_parse_threshold(&gc, "p99=10", err, sizeof(err)) == 0);
    CHECK(gate_decide(s, &gc, &gr) == EXIT_OK);
    gate_config_release(&gc);
    json_decref(s);

    s = summary_of(json_array());
    gate_config_init(&gc);
    CHECK(gate_decide(s, &gc, &gr) == EXIT_HARNESS);
    gate_config_release(&gc);
    json_decref(s);
}

static void test_markdown(void)
{
    struct gate_config gc;
    struct gate_result gr;
    json_t *s =
        summary_of(json_pack("[o]", judged(row("redis · 4 KiB", "ok", "regressed", -0.123, "~"),
                                           "throughput", NULL, 5, 0.0031, -0.16, -0.085, 0)));
    char *md, big[3000];

    memset(big, 'x', sizeof(big));
    for (size_t i = 79; i < sizeof(big); i += 80)
        big[i] = '\n';
    big[sizeof(big) - 1] = '\0';
    gate_config_init(&gc);
    gate_decide(s, &gc, &gr);
    md = gate_markdown(s, &gc, &gr, "# report\n", "reports/x", 65536, NULL);
    CHECK(md != NULL);
    CHECK(strncmp(md, GATE_MARKER "\n## pairbench gate: regression", strlen(GATE_MARKER) + 30) ==
          0);
    CHECK(strstr(md, "| redis · 4 KiB | candidate | throughput \xe2\x88\x92"
                     "12.30% regressed (5%)") != NULL);
    CHECK(strstr(md, "<details><summary>Full report</summary>\n\n# report\n") != NULL);
    /* plain words first: the outcome, then the row in a sentence */
    CHECK(strstr(md, "## pairbench gate: regression\n\n**Regression.** The candidate is "
                     "measurably worse:\n\n- **redis · 4 KiB**: throughput fell 12.3% "
                     "(threshold 5%), with p = 0.0031 on 5 runs a side against the noise of the "
                     "whole run. Look at the candidate's change; this is not noise.\n") != NULL);
    CHECK(strstr(md, "| Gate | False-flag chance |") != NULL);
    free(md);
    md = gate_markdown(s, &gc, &gr, big, NULL, 2000, NULL);
    CHECK(md && strlen(md) <= 2000);
    CHECK(md && strstr(md, "(report cut to fit a comment") != NULL);
    free(md);
    gate_config_release(&gc);
    json_decref(s);
}

static void test_post_logic(void)
{
    static const char *url = "http://127.0.0.1:8080/repos/o/r/issues/1/comments";
    char *b = post_body_json("hello \"world\"\n", GATE_MARKER), out[256];
    json_t *j = json_loads(b, 0, NULL);

    CHECK_STR(json_string_value(json_object_get(j, "body")), GATE_MARKER "\nhello \"world\"\n");
    json_decref(j);
    free(b);
    b = post_body_json(GATE_MARKER "\nx", GATE_MARKER); /* not doubled */
    CHECK_STR(b, "{\"body\":\"<!-- pairbench-gate -->\\nx\"}");
    free(b);

    CHECK(post_find_comment("[]", url, GATE_MARKER, out, sizeof(out)) == 0);
    CHECK(post_find_comment("{}", url, GATE_MARKER, out, sizeof(out)) == -1);
    CHECK(post_find_comment("not json", url, GATE_MARKER, out, sizeof(out)) == -1);
    CHECK(post_find_comment("[{\"id\": 5, \"body\": \"other\"}]", url, GATE_MARKER, out,
                            sizeof(out)) == 0);
    /* its url on the same origin is used */
    CHECK(post_find_comment("[{\"id\": 5, \"body\": \"other\"}, {\"id\": 7, \"url\": "
                            "\"http://127.0.0.1:8080/repos/o/r/issues/comments/7\", \"body\": "
                            "\"x <!-- pairbench-gate --> y\"}]",
                            url, GATE_MARKER, out, sizeof(out)) == 1);
    CHECK_STR(out, "http://127.0.0.1:8080/repos/o/r/issues/comments/7");
    /* no url, or one on another host: derived from the list URL (the token stays home) */
    CHECK(post_find_comment("[{\"id\": 9, \"body\": \"<!-- pairbench-gate -->\"}]", url,
                            GATE_MARKER, out, sizeof(out)) == 1);
    CHECK_STR(out, "http://127.0.0.1:8080/repos/o/r/issues/comments/9");
    CHECK(post_find_comment("[{\"id\": 9, \"url\": \"http://127.0.0.1:9999/x\", \"body\": "
                            "\"<!-- pairbench-gate -->\"}]",
                            url, GATE_MARKER, out, sizeof(out)) == 1);
    CHECK_STR(out, "http://127.0.0.1:8080/repos/o/r/issues/comments/9");
}

/* A failed row is the candidate's fault only when every failure is a candidate's and was
 * measured (or its server ended mid-run); one baseline failure, or one that never measured
 * (a server that never became ready), leaves it a harness failure. */
static void test_candidate_fault(void)
{
    const char *why;
    json_t *row = json_pack("{s:[{s:s, s:s, s:b}, {s:s, s:s, s:b}]}", "failures", "version", "cand",
                            "reason", "the driver judged the run failed: 2 requests timed out",
                            "measured", 1, "version", "cand", "reason",
                            "server ended during the run with signal 11", "measured", 0);

    CHECK(gate_candidate_fault(row, "base", &why) == 1);
    CHECK_STR(why, "the driver judged the run failed: 2 requests timed out");
    CHECK(gate_candidate_fault(row, "cand", &why) == 0 && why == NULL);
    json_array_append_new(json_object_get(row, "failures"),
                          json_pack("{s:s, s:s, s:b}", "version", "cand", "reason",
                                    "server not ready: '/bin/false' ended with status 1",
                                    "measured", 0));
    CHECK(gate_candidate_fault(row, "base", &why) == 0);
    json_decref(row);
    row = json_pack("{s:[]}", "failures");
    CHECK(gate_candidate_fault(row, "base", &why) == 0);
    json_decref(row);
}

int main(void)
{
    test_candidate_fault();
    test_threshold_flags();
    test_too_few_runs();
    test_bounded();
    test_counted_sentence();
    test_budget_limits();
    test_gated_set();
    test_spec_section();
    test_row_rules();
    test_decide();
    test_precedence();
    test_reason_utf8();
    test_markdown();
    test_post_logic();
    return T_DONE();
}
