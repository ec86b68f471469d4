/* family: a row's false alarms bounded as a family. A row of identical versions may be called
 * regressed or improved on any of its gated timed metrics (throughput, CPU efficiency, P50,
 * P99, RSS, server CPU: the metrics before METRIC_INSTRUCTIONS); each metric's moderated test
 * alone allows STATS_EVIDENCE_LEVEL, so a row of several gated metrics would flag something
 * far more often. Holm's step-down procedure across the row's gated timed metrics keeps the
 * chance of any false flag in the row at most FAMILY_LEVEL. Counts (instructions, system
 * calls, allocations, software events) repeat closely and keep their own rule: they are not
 * part of the family (docs/statistics.md). Pure: no I/O. */
#ifndef PAIRBENCH_FAMILY_H
#define PAIRBENCH_FAMILY_H

#include <stddef.h>

#include <jansson.h>

#include "analysis/stats.h"

/* The chance of any false regressed or improved in a row of identical versions. */
#define FAMILY_LEVEL 0.05

/* Whether metric slot m belongs to a row's timed family (when gated). */
int family_member(int m);

/* Holm's step-down at level across p[0..m): keep[i] = 1 when the i-th metric's verdict
 * stands (p sorted ascending, the k-th smallest (k from 0) needs p ≤ level / (m − k), and
 * the first that fails stops the rest). A metric not decided has p = 1. */
void family_holm(const double *p, size_t m, double level, unsigned char *keep);

/* The chance that a row of m gated timed metrics, identical versions, is called regressed
 * or improved on any of them: FAMILY_LEVEL when some metric has evidence (the moderated test
 * holds its level at any number of runs), 0 when m is 0 or none has. */
double family_chance(size_t m, int any_evidence);

/* Apply the family to one row's "metrics" object (summary_judge.c): per candidate, the gated
 * timed metrics' decided verdicts whose evidence p (scaled by FAMILY_LEVEL / the metric's
 * alpha, so a confirmed row's smaller alpha holds) fails Holm become "undecided" with reason
 * "too few runs" and the runs a side that would decide them at the stricter level, and row
 * "family" gets {"level", "metrics", "chance"} (the largest over the candidates). versions[0]
 * is the baseline. planned: the rounds the run planned (0: unknown). */
void family_hold(json_t *row, json_t *metrics, const json_t *versions, size_t planned);

/* The summary's "chance"."family": {"level", "metrics", "chance"}, the largest over the rows
 * (each row's "family"); NULL when no row has gated timed metrics. */
json_t *family_summary(const json_t *rows);

#endif
