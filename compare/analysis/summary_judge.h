/* summary_judge: the second look at a summary's rows. summary_row.c judges each row on its
 * own runs; once every row is built, the run's noise is known: per timed metric (and per kind
 * of evidence, paired or not) a prior fitted to every row's variance (moderate.h), pooled
 * with the noise recorded outside the run (verdict_rules.outside). Each row's timed verdicts
 * are judged again with it, then the disturbed rounds (a decided timed verdict resting on them that
 * they could explain becomes undecided) and the row's family (family.h) have their say.
 * summary.json keeps the priors under "noise". Pure: no I/O. */
#ifndef PAIRBENCH_SUMMARY_JUDGE_H
#define PAIRBENCH_SUMMARY_JUDGE_H

#include <stddef.h>

#include <jansson.h>

#include "analysis/stats.h"

/* Writes a metric comparison's verdict, reason and evidence into c (summary.json
 * "vs_baseline"."VERSION"): "verdict", "reason" (removed when NULL), and for a timed metric
 * "evidence" {"est", "s2", "df", "scale", "paired", "se", "df_total", "p", "alpha", "lo",
 * "hi", "prior_s2", "prior_df"} and "runs_needed" of an undecided verdict (when known). pr is
 * the prior the judgement used (NULL: none). */
void summary_put_judgement(json_t *c, const struct verdict_out *vo, const struct mod_prior *pr);

/* Reads back what summary_put_judgement() wrote about the evidence. Returns 0, or -1 when c
 * has none. */
int summary_get_evidence(const json_t *c, struct mod_evidence *ev, double *alpha);

/* Judges rows again with the run's noise and finishes them (see above); planned: the rounds
 * the run planned. Returns the "noise" object for summary.json (new reference, NULL when out
 * of memory): {"METRIC": {"paired": {"s2", "df"}, "unpaired": {...}}} for the metrics whose
 * prior could be fitted. */
json_t *summary_judge_rows(json_t *rows, const json_t *versions, const struct verdict_rules *rules,
                           size_t planned);

/* The most other CPU (in cores) any disturbed run of a row saw beside it, from the row's
 * "interference" object (0: none disturbed). */
double summary_disturbance_cores(const json_t *interf);

/* Whether work of `cores` cores beside the runs could explain a log change: it can slow one
 * side by at most (1 + cores)x, so |log_change| <= ln(1 + cores) plus three standard errors
 * of the measured noise (docs/statistics.md, "Interference"). */
int summary_disturbance_explains(double log_change, double cores, double se);

#endif
