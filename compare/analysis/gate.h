/* gate: the pre-merge performance gate. Thresholds per metric (from `--threshold METRIC=PCT`
 * flags and the spec's "gate" section, optionally per grid row), the decision over a summary
 * (docs/architecture.md#summary) and its exit code (docs/architecture.md#exit-codes), and the
 * Markdown a pull-request comment carries. The parsing and the decision are pure; cmd_gate
 * (cmd/gate.c) runs and posts. */
#ifndef PAIRBENCH_GATE_H
#define PAIRBENCH_GATE_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/interference_rule.h"
#include "analysis/stats.h"

#define GATE_MAX_ROWS 256
#define GATE_MARKER "<!-- pairbench-gate -->"

/* A per-row override from the spec: rows whose params contain every key of match (equal
 * JSON values) use these thresholds; < 0 = inherit, 0 = not gated for those rows. */
struct gate_row_rule {
    json_t *match; /* owned */
    double threshold_pct[METRIC_ALL];
};

struct gate_config {
    struct verdict_rules rules;      /* global: defaults, then spec thresholds, then flags */
    unsigned char gated[METRIC_ALL]; /* metrics that decide the exit code */
    int explicit_set;                /* some threshold was named: gated = the named ones */
    struct gate_row_rule rows[GATE_MAX_ROWS];
    size_t n_rows;
    double budget_s;                   /* --budget / spec gate.budget; 0 = none */
    struct interference_limits limits; /* --disturbed-limit / spec gate.disturbed_limit */
};

/* "90", "90s", "5m", "1.5h" as seconds in (0, 86400]. Returns 0, or -1. */
int gate_parse_duration(const char *s, double *seconds);

/* Default rules (stats.h); gated until a threshold is named: throughput, cpu_efficiency and
 * p99 (design: throughput, CPU efficiency or tail latency). Release with gate_config_release. */
void gate_config_init(struct gate_config *gc);
void gate_config_release(struct gate_config *gc);

/* One `--threshold METRIC=PERCENT` value (PERCENT in (0, 1000]). Returns 0, or -1 with err
 * like "--threshold 'latency=5': unknown metric 'latency' (expected throughput,
 * cpu_efficiency, p50_us, p99_us, rss_mib, server_cpu_us)"; the aliases p50, p99, rss are
 * accepted). */
int gate_parse_threshold(struct gate_config *gc, const char *arg, char *err, size_t errlen);

/* The spec's "gate" object: {"thresholds": {METRIC: PCT}, "noise_limit": PCT,
 * "rows": [{"match": {KEY: VALUE}, "thresholds": {...}}], "budget": "5m" | SECONDS,
 * "disturbed_limit": {"other_cpu_cores": CORES, "steal_pct": PCT}}. Apply it before the flags
 * (flags win for the global thresholds). file names the spec in messages. Returns 0, or -1 with err
 * naming the JSON path. */
int gate_parse_spec(struct gate_config *gc, const json_t *gate, const char *file, char *err,
                    size_t errlen);

/* Raises each calibrated row's thresholds to its floors from `compare calibrate`
 * (calibration.json, schema pairbench.calibration/1): for every gated metric the row's
 * threshold becomes max(its effective threshold, floor_pct). The floors become per-row rules
 * placed before the spec's (first match wins), matched on the row's params without warm-up
 * and duration. Call after the spec and the flags. file names the calibration in messages.
 * Returns 0, or -1 with err. */
int gate_apply_floors(struct gate_config *gc, const json_t *calibration, const char *file,
                      char *err, size_t errlen);

/* Effective rules and gated set for a row with these params (first matching row rule). */
void gate_row_rules(const struct gate_config *gc, const json_t *params, struct verdict_rules *out,
                    unsigned char gated[METRIC_ALL]);
/* Index of the row rule params match, or -1. */
int gate_row_match(const struct gate_config *gc, const json_t *params);
/* The rules extra rounds judge a row with these params by: its effective rules
 * (gate_row_rules), with every metric that does not decide the gate left without a threshold,
 * so rounds are spent only where the exit code waits on them. */
void gate_extra_round_rules(const struct gate_config *gc, const json_t *params,
                            struct verdict_rules *out);
/* Replaces the metrics of each summary row that a per-row rule matches with those of a
 * summary built (from runs and meta) under that row's rules. Returns 0, or -1 with err. */
int gate_apply_row_rules(const struct gate_config *gc, json_t *summary, const json_t *runs,
                         const json_t *meta, char *err, size_t errlen);

struct gate_result {
    int code;           /* EXIT_OK, EXIT_REGRESSION, EXIT_HARNESS or EXIT_INCONCLUSIVE */
    unsigned regressed; /* (row, candidate, metric) findings per kind */
    unsigned improved;
    unsigned unstable;   /* "undecided" findings for the noise or disturbed runs */
    unsigned failed;     /* gated rows with failed runs */
    unsigned incomplete; /* gated rows with missing runs (interrupted, resumed short) */
    unsigned too_few;    /* "undecided" findings with reason "too few runs" */
    unsigned bounded;    /* "undecided" findings bounded on the bad side (gate_bounded): passed */
    unsigned rows;       /* rows looked at */
    char reason[2048];   /* one line for a non-zero exit (empty for 0) */
};

/* Whether vs (a candidate's comparison of metric m), undecided for too few runs or the noise,
 * is bounded on its bad side: the 90% interval's bad end (lo where higher is better, hi
 * otherwise) falls short of the threshold, a one-sided 5% test that the change is no
 * regression past it (non-inferiority). A gate asks only that; `~` needs both ends inside.
 * A verdict held for disturbed runs is never bounded: the disturbance could have made it. */
int gate_bounded(const json_t *vs, enum metric m, double threshold_pct);

/* Whether a failed row failed through its candidates alone, on what was measured: every
 * failure is a candidate's (none of base's) and either measured (the driver printed a result
 * that failed its checks: timeouts, connections not held, errors, a stalled window) or "server
 * ended during the run". The baseline ran the same load on the same harness, so the candidate
 * is at fault: the gate counts such a row as regressed, not as a harness failure. *reason:
 * the first failure's reason (borrowed). */
int gate_candidate_fault(const json_t *row, const char *base, const char **reason);

/* Decides over a summary whose verdicts were computed with each row's gate rules. The exit
 * code's order: regression (1) before harness failure (3) before inconclusive (4): a clear
 * regression is reported even when another row could not run. Returns gr->code. */
int gate_decide(const json_t *summary, const struct gate_config *gc, struct gate_result *gr);

/* The judged change (summary_judged_change) of metric for vs as "+1.23%" / "−1.23%", or
 * "n/a". planned: the summary's planned rounds. */
void gate_fmt_change(char *out, size_t len, const json_t *metric, const json_t *vs, double planned);

#endif
