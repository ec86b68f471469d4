/* confirm: adaptive confirmation with a cap fixed in advance (see confirm.c). */
#ifndef PAIRBENCH_CONFIRM_H
#define PAIRBENCH_CONFIRM_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "report/confirm_words.h"
#include "analysis/stats.h"

struct runner;
struct gate_config;

/* Whether a summary row (docs/architecture.md#summary shape) is borderline under rules: status ok
 * and, for a gated metric and some candidate, verdict "undecided". A fixed-rate row is judged
 * by its own rules (outcome_rate_rules: server CPU per request and P99 at their fixed-rate
 * thresholds, throughput and CPU efficiency not gated). planned is unused. Pure. */
int confirm_row_borderline(const json_t *row, const struct verdict_rules *rules, size_t planned);

/* The same for a gate: an undecided metric bounded on its bad side (gate.h's gate_bounded)
 * needs no more rounds, since the gate passes it. */
int confirm_row_open_for_gate(const json_t *row, const struct verdict_rules *rules);

struct confirm_ctx {
    struct runner *r;
    const unsigned char *selected; /* configurations of this shard */
    unsigned cap;    /* extra rounds at most per row; even (rounds come in pairs, an odd cap is
                      * rounded down by the caller) */
    int fd;          /* runs.jsonl, open for appending */
    const char *dir; /* the run directory */
    json_t *meta;    /* gets "confirmation": {max_extra_rounds, rule, rows} */
    const struct verdict_rules *rules;
    /* gate: a row is judged by its own rules (per-row thresholds, calibration floors) and on
     * the metrics that decide the gate only (gate_extra_round_rules); NULL: rules, all rows */
    const struct gate_config *gc;
    uint64_t deadline_ns; /* gate --budget: no extra round starts unless it fits (0 = none) */
    uint64_t round_ns;    /* one round of one row, as measured over the planned rounds */
    /* gate: stop once some row is regressed on a gated metric and not borderline (no extra
     * round can take a gate's exit 1 back then: confirm_row_regressed) */
    int stop_when_regressed;
};

/* Whether a summary row is decided regressed: status ok, and verdict "regressed" on a gated
 * counted metric (instructions, system calls, allocations, estimated cycles: final whatever the
 * timed metrics still need), on a gated timed metric whose evidence p is at most the extra
 * rounds' strictest level (¾ × 2/252), or on a gated metric of a row that is not borderline
 * (confirm_row_borderline), for some candidate; no extra round can take that back. Pure. */
int confirm_row_regressed(const json_t *row, const struct verdict_rules *rules, size_t planned);

/* gate --budget: when deadline_ns is set, fixes cx->cap (before any extra round, so the
 * verdicts' false-alarm budget is split over a known number of looks) to the even number of
 * rounds of one row that fit in the time left, at most CONFIRM_BUDGET_MAX_CAP; run_ns is the
 * mean time of one planned timed run (counted runs left out), nv the versions per round. */
#define CONFIRM_BUDGET_MAX_CAP 40
void confirm_plan_budget(struct confirm_ctx *cx, uint64_t deadline_ns, uint64_t run_ns, size_t nv);

/* Disturbed runs (runs.jsonl interference.disturbed): each round of a row holding one is run
 * again once, under the same round number (the newer line replaces the older in the
 * summary), at most CONFIRM_DISTURBED_REPEATS rounds per row. The disturbed runs found and
 * their interference go into meta.json "disturbed_runs" [{config, label, version, round,
 * other_cpu_cores, steal_pct}] for the reports. Returns 0, or -1 with err. */
#define CONFIRM_DISTURBED_REPEATS 2
int confirm_repeat_disturbed(struct confirm_ctx *cx, char *err, size_t errlen);

/* Whether some selected row of runs.jsonl as it stands is decided regressed
 * (confirm_row_regressed, under cx's rules): 1 with its label in label, 0 none, -1 with err.
 * A gate asks it before the counted runs: no count can take that exit 1 back. */
int confirm_regressed_now(const struct confirm_ctx *cx, char *label, size_t n, char *err,
                          size_t errlen);

/* A gate whose timed runs already decided a regression needs no counted runs: no count can
 * take its exit 1 back, and a server whose replies wait on timers is slow to count
 * (docs/statistics.md "Exact counts"). 1 when that is so (said on stderr), 0 otherwise or on
 * an error (the counted runs then go ahead). */
int confirm_counted_needless(const struct confirm_ctx *cx, char *err, size_t errlen);

/* Runs extra rounds for borderline rows until none is left or the cap is reached (or a stop
 * signal). Returns 0, or -1 with err set (a run could not be started or recorded). */
int confirm_run(struct confirm_ctx *cx, char *err, size_t errlen);

#endif
