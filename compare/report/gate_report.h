/* gate_report: gate.md, the words of the gate's decision (analysis/gate.c decides). It opens
 * in plain words — the outcome, then one sentence per failing or inconclusive row and metric:
 * what changed, by how much, how sure (the chance of such evidence with no real change at the
 * row's run counts), and what to do — then the thresholds and the gated findings table. */
#ifndef PAIRBENCH_GATE_REPORT_H
#define PAIRBENCH_GATE_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "analysis/gate.h"

/* The chance of a false flag per metric for a row (stats_false_flag_chance at the runs its
 * throughput has: baseline and candidate counts, complete pairs); 1 when unknown. */
double gate_row_chance(const json_t *row, const char *candidate);

/* The Markdown of the gate (a PR comment): marker, outcome line, thresholds, the gated
 * findings table, then report_md (the full report, may be NULL) folded in <details>, cut to
 * keep the whole under max_bytes, in lang ("zh" = Chinese, else English). Returns a malloc'd string
 * (free()), or NULL. */
char *gate_markdown(const json_t *summary, const struct gate_config *gc,
                    const struct gate_result *gr, const char *report_md, const char *run_dir,
                    size_t max_bytes, const char *lang);

#endif
