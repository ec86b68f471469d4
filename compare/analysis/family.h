/* family: a row's false alarms bounded as a family. A row of identical versions may be called
 * regressed or improved on any of its gated timed metrics (throughput, CPU efficiency, P50,
 * P99, RSS, server CPU: the metrics before METRIC_INSTRUCTIONS); each metric's evidence rule
 * alone allows up to STATS_EVIDENCE_LEVEL per metric, so a row of three gated metrics flags
 * something far more often. Holm's step-down procedure across the row's gated timed metrics
 * keeps the chance of any false flag in the row at most FAMILY_LEVEL. Counts (instructions,
 * system calls, allocations, software events) repeat closely and keep their own rule: they
 * are not part of the family (docs/statistics.md). Pure: no I/O. */
#ifndef PAIRBENCH_FAMILY_H
#define PAIRBENCH_FAMILY_H

#include <stddef.h>

#include <jansson.h>

#include "analysis/stats.h"

/* The chance of any false regressed or improved in a row of identical versions. */
#define FAMILY_LEVEL 0.05

/* Whether metric slot m belongs to a row's timed family (when gated). */
int family_member(int m);

/* The chance, with nothing changed, of the evidence a decided metric rests on: 2/252 for a
 * confirmed row (its looks together spend no more: stats_extra_alpha), 2/C(na+nb, na) for
 * disjoint ranges, else every paired ratio on one side, 2/2^n_pairs. A valid p: a verdict
 * needs this evidence, so the chance of a verdict with p ≤ u is at most u. */
double family_evidence_p(int confirmed, int disjoint, size_t na, size_t nb, size_t n_pairs);

/* Holm's step-down at level across p[0..m): keep[i] = 1 when the i-th metric's verdict
 * stands (p sorted ascending, the k-th smallest (k from 0) needs p ≤ level / (m − k), and
 * the first that fails stops the rest). A metric not decided has p = 1. */
void family_holm(const double *p, size_t m, double level, unsigned char *keep);

/* The chance that a row of m gated timed metrics, identical versions, is called regressed
 * or improved on any of them under Holm at FAMILY_LEVEL, at na, nb runs and n_pairs pairs
 * (confirmed: extra rounds): m × the largest evidence chance a metric can show that is
 * ≤ FAMILY_LEVEL / m, at most FAMILY_LEVEL; 0 when no metric can reach it. */
double family_chance(size_t m, int confirmed, size_t na, size_t nb, size_t n_pairs);

/* Apply the family to one row's "metrics" object (summary_row.c): per candidate, the gated
 * timed metrics' decided verdicts that fail Holm become "~" with reason "too few runs"
 * (more runs give stronger evidence), and row "family" gets {"level", "metrics", "chance"}
 * (the largest over the candidates). versions[0] is the baseline. planned: the rounds the run
 * planned (0: unknown). */
void family_hold(json_t *row, json_t *metrics, const json_t *versions, size_t planned);

/* The summary's "chance"."family": {"level", "metrics", "chance"}, the largest over the rows
 * (each row's "family"); NULL when no row has gated timed metrics. */
json_t *family_summary(const json_t *rows);

#endif
