/* summary_row: one row of the summary (one configuration): its runs per version, the
 * disturbed and outlier rounds set aside (disturb.c), and per metric the values per version
 * and the comparisons against the baseline (stats.c). Pure, no I/O: summary_build() calls it
 * once per configuration. */
#ifndef PAIRBENCH_SUMMARY_ROW_H
#define PAIRBENCH_SUMMARY_ROW_H

#include <stddef.h>

#include <jansson.h>

struct verdict_rules; /* stats.h */

/* The most rounds a row holds (runs.jsonl "round" is 1..SUMMARY_MAX_ROUNDS). */
#define SUMMARY_MAX_ROUNDS 1000

/* Planned rounds and the extra looks adaptive confirmation allows (see stats_verdict). */
struct look_plan {
    size_t planned, looks;
};

/* The key of the latest line per (config, version, round) in the index summary_build()
 * keeps: "config\x1fversion\x1fround" (version "VERSION\x1fKIND" for counted runs). */
void summary_run_key(char *k, size_t n, const char *cfg, const char *ver, long round);

/* The row of configuration cfg (mcfg: its meta.json entry, may be NULL) from latest (the
 * index of summary_run_key() to runs.jsonl lines) for versions over nr rounds, of which
 * expected_rounds were planned: identity, status, run counts, failures, errors and metrics
 * as summary.h describes a row ("runs"."replaced" is the caller's). fallback_label names the
 * row when meta.json does not; warmup_default is the spec's warm-up for runs that do not
 * state theirs. New reference, or NULL when out of memory. */
json_t *summary_row_build(const char *cfg, const json_t *mcfg, const json_t *latest,
                          const json_t *versions, size_t nr, size_t expected_rounds,
                          const struct verdict_rules *rules, const struct look_plan *lp,
                          const char *fallback_label, double warmup_default);

#endif
