/* outcome: the answer of a summary in a few words. A row's verdict for one candidate over
 * the headline metrics (the gate's set: throughput, cpu_efficiency, p99_us unless told
 * otherwise), and summary.json's top-level "outcome": rows per verdict, failed runs and one
 * overall word. Pure: no I/O. */
#ifndef PAIRBENCH_OUTCOME_H
#define PAIRBENCH_OUTCOME_H

#include <jansson.h>

#include "stats.h"

/* The words of a row's verdict and of the overall outcome. */
#define OUTCOME_UNCHANGED "unchanged"
#define OUTCOME_INCOMPLETE "incomplete"
#define OUTCOME_INCONCLUSIVE "inconclusive"

/* Fills gated (METRIC_ALL entries) with the headline metrics: the gate's defaults of the
 * metric table (throughput, cpu_efficiency, p99_us, and instructions where a row counted
 * them). */
void outcome_default_gated(unsigned char gated[METRIC_ALL]);

/* The verdict of a summary row for one candidate over the gated metrics (METRIC_ALL entries;
 * NULL = the headline set; a metric the row did not measure is passed over), worst first:
 * "failed" (the row has failed runs), "regressed", "unstable",
 * "incomplete" (runs missing), "inconclusive" (a gated metric is "~" only because too few
 * runs could reach the evidence level: nothing was decided), "improved", else "unchanged". A
 * one-version row (no candidate) is "failed" or "unchanged". The gate's table, the terminal
 * and summary.json's outcome all take this word. */
const char *outcome_row_verdict(const json_t *row, const char *candidate,
                                const unsigned char *gated);

/* {"overall": "regressed"|"improved"|"unchanged"|"inconclusive"|"failed", "rows": N,
 * "verdicts": {"regressed": N, "improved": N, "unchanged": N, "unstable": N,
 * "incomplete": N, "failed": N, "inconclusive": N}, "failed_runs": N}, counting each (row,
 * candidate) once. Overall, in the gate's order: any regressed, else any failed, else any
 * unstable, incomplete or inconclusive row (inconclusive: never "unchanged" on what was not
 * decided), else any improved, else unchanged. New reference, or NULL. */
json_t *outcome_build(const json_t *summary, const unsigned char *gated);

#endif
