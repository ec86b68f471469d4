/* summary: the statistics of a run directory as one JSON object (docs/architecture.md#summary,
 * schema SUMMARY_SCHEMA) built from the runs.jsonl lines and meta.json, and its flat CSV
 * form. Pure: no file or network I/O (the caller reads and writes the files). */
#ifndef PAIRBENCH_SUMMARY_H
#define PAIRBENCH_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* The summary's schema. /2 (verdicts of three outcomes): "undecided" with a reason where /1
 * wrote "unstable", or "~" with reason "too few runs"; "evidence" and "runs_needed" per
 * comparison; "noise" at the top. summary_upgrade() reads /1 as /2. */
#define SUMMARY_SCHEMA "pairbench.summary/2"

/* Rewrites a pairbench.summary/1 object's verdicts in /2's words (in place): "unstable" becomes
 * "undecided" (reason "unstable" unless it had one), "~" whose reason is "too few runs"
 * becomes "undecided", row-level "unchanged" / "inconclusive" / "unstable" words in
 * "outcome" likewise. Other schemas are left as they are. */
void summary_upgrade(json_t *summary);

struct verdict_rules; /* stats.h */

/* Extra metric beyond enum metric: server CPU % (server cpu_s over the driver's life /
 * (warm-up + result.elapsed_s) × 100),
 * present in a row only when some run knows it. Informational (verdict "~" or "failed"). */
#define SUMMARY_SERVER_CPU "server_cpu_percent"
/* Server figures per operation over the measured window (runs.jsonl server.window), present
 * when some run has it: "server_cpu_us" (gateable, METRIC_SERVER_CPU_US), and these two,
 * informational. The row's "server_window" says which accounting the runs used:
 * {"source": "marks" | "process" | "mixed"} — "process" covers the driver's whole life,
 * warm-up included (the driver wrote no window marks). */
#define SUMMARY_SERVER_SYSCALLS "server_syscalls_per_op"
#define SUMMARY_SERVER_CTXSW "server_ctxsw_per_op"

/* Builds the summary. runs: the array of runs.jsonl objects; meta: meta.json (may be NULL;
 * missing keys tolerated); rules NULL = defaults. Versions are meta.versions in order (the
 * first is the baseline), then any other version seen in runs; rows are meta.configs in
 * order, then any other config seen. A later line for the same (config, version, round)
 * replaces an earlier one: `--resume` re-runs what failed, and the newest attempt is the
 * measurement (row "runs"."replaced" counts the lines so replaced). New reference, or NULL
 * with err set.
 *
 * Shape: {"schema", "baseline", "versions": [...], "rounds", "rows": [{"config", "label",
 * "params", "status": "ok"|"failed"|"incomplete", "runs": {"expected", "ok", "failed",
 * "replaced"}, "failures": [{"version", "round", "reason"}], "errors": {connect, io, protocol,
 * verify, timeout} (summed over ok runs), "tls_insecure", "unit", "metrics": {METRIC:
 * {"unit", "higher_is_better", "threshold_pct", "values": {VERSION: {"median", "min", "max",
 * "n", "runs": [values of the ok runs in round order]}}, "vs_baseline": {CANDIDATE: {"change",
 * "overlap", "p", "paired_ratio": {"median", "min", "max", "n"} | null, "verdict"}}}}}],
 * "chance": {"evidence", "alpha", "p_disjoint", "comparisons", "expected_false_flags",
 * "expected_disjoint_by_chance"}, "thresholds_pct": {METRIC..., "noise_limit_pct"}}.
 * render_dir() adds "dataset" {"file", "sha256", "recorded_sha256", "matches"} and
 * "warnings" (meta.json's). */
json_t *summary_build(const json_t *runs, const json_t *meta, const struct verdict_rules *rules,
                      char *err, size_t errlen);

/* One CSV line per (row, metric, version) with every figure: config, label, status, metric,
 * version, median, min, max, n, change, overlap, p, paired ratio median/min/max, verdict
 * (baseline lines leave the comparison columns empty). Returns 0, or -1 on a write error. */
int summary_write_csv(FILE *f, const json_t *summary);

/* Small accessors shared by the report writers (NULL / default when absent). */
const json_t *summary_metric(const json_t *row, const char *metric);
const json_t *summary_values(const json_t *row, const char *metric, const char *version);
const json_t *summary_vs(const json_t *row, const char *metric, const char *version);

/* Whether a row's metric (summary_metric) has more runs on some side than the planned rounds
 * (0: none planned, never): it got extra rounds (confirm.c). */
int summary_confirmed(const json_t *metric, double planned);
/* The change a verdict was judged on, for metric and its candidate's vs_baseline entry vs:
 * once confirmed (summary_confirmed), the median per-round paired ratio - 1, which is what
 * stats_verdict judges then; else the change of the sides' medians. Returns 0, or -1 when
 * there is none. */
int summary_judged_change(const json_t *metric, const json_t *vs, double planned, double *change);

#endif
