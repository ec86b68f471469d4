/* outcome: the answer of a summary in a few words. A row's verdict for one candidate over
 * the headline metrics (the gate's set: throughput, cpu_efficiency, p99_us unless told
 * otherwise), and summary.json's top-level "outcome": rows per verdict, failed runs and one
 * overall word. Pure: no I/O. */
#ifndef PAIRBENCH_OUTCOME_H
#define PAIRBENCH_OUTCOME_H

#include <jansson.h>

#include "analysis/stats.h"

/* The words of a row's verdict and of the overall outcome: the metric verdicts' words
 * (stats.h), and "incomplete" for a row whose runs are missing. */
#define OUTCOME_UNCHANGED VERDICT_SAME
#define OUTCOME_INCOMPLETE "incomplete"
#define OUTCOME_INCONCLUSIVE VERDICT_UNDECIDED

/* Fills gated (METRIC_ALL entries) with the headline metrics: the gate's defaults of the
 * metric table (throughput, cpu_efficiency, p99_us, and instructions where a row counted
 * them). */
void outcome_default_gated(unsigned char gated[METRIC_ALL]);

/* Fixed-rate rows (a configuration with "rate" > 0, docs/driver.md "Fixed rate"): throughput
 * is a setting there, not a result, so throughput and cpu_efficiency get no verdict that
 * gates; what each request costs the server (server_cpu_us) and the tail latency (p99_us)
 * do. OUTCOME_RATE_SERVER_CPU_PCT and OUTCOME_RATE_P99_PCT are their thresholds on those
 * rows when none is named: the smallest changes an A/A gate of a fixed-rate row resolved
 * within five minutes on a shared 2-vCPU VM (docs/statistics.md "Closed loop or fixed rate"). */
#define OUTCOME_RATE_SERVER_CPU_PCT 10.0
#define OUTCOME_RATE_P99_PCT 25.0

/* 1 when params (a row's configuration) asks for a fixed rate. */
int outcome_rate_row(const json_t *params);

/* Adjusts a fixed-rate row's rules and gated set (either may be NULL): throughput and
 * cpu_efficiency are not gated; unless a set is named (named_set), server_cpu_us is gated;
 * server_cpu_us and p99_us take OUTCOME_RATE_SERVER_CPU_PCT and OUTCOME_RATE_P99_PCT unless
 * their thresholds were named (rules->named). Other rows are left as they are. */
void outcome_rate_rules(const json_t *params, int named_set, struct verdict_rules *rules,
                        unsigned char *gated);

/* The verdict of a summary row for one candidate over the gated metrics (METRIC_ALL entries;
 * NULL = the headline set; a metric the row did not measure is passed over), worst first:
 * "failed" (the row has failed runs), "regressed", "incomplete" (runs missing), "undecided"
 * (a gated metric is undecided), "improved", else "~" (every gated metric bounded inside its
 * threshold). A one-version row (no candidate) is "failed" or "~". The gate's table, the
 * terminal and summary.json's outcome all take this word. */
const char *outcome_row_verdict(const json_t *row, const char *candidate,
                                const unsigned char *gated);

/* {"overall": "regressed"|"improved"|"~"|"undecided"|"failed", "rows": N,
 * "verdicts": {"regressed": N, "improved": N, "~": N, "undecided": N, "incomplete": N,
 * "failed": N}, "failed_runs": N}, counting each (row, candidate) once. Overall, in the gate's
 * order: any regressed, else any failed, else any undecided or incomplete row (never "~" on
 * what was not decided), else any improved, else "~". New reference, or NULL. */
json_t *outcome_build(const json_t *summary, const unsigned char *gated);

#endif
