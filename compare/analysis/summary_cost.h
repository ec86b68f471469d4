/* summary_cost: what the summary says about the counted runs beyond the figures — where the
 * instructions went (the functions whose instructions per operation changed most between
 * the baseline and each candidate) and the source of the counts. Pure, no I/O. */
#ifndef PAIRBENCH_SUMMARY_COST_H
#define PAIRBENCH_SUMMARY_COST_H

#include <stddef.h>

#include <jansson.h>

/* The functions listed per candidate. */
#define SUMMARY_COST_TOP 10

/* Exact counts (every counted line of both versions with instructions.fixed.exact) are
 * decided per seed pair at this share of the metric's threshold: 1% -> 0.15%. The share must
 * stay above the one-seed A/A spread of exact counts and below the smallest change the gate
 * must catch; the measurements behind it: docs/results/counted-cost.md, "The exact-pair
 * shares". */
#define SUMMARY_COST_EXACT_SHARE 0.15
/* The same when every line of both versions also ran on the virtual clock
 * (instructions.fixed.clock.kind "virtual"): 1% -> 0.05%. Counts of one seed on the virtual
 * clock repeat to the instruction, so the share is only room for servers not measured
 * (docs/results/counted-cost.md, "Exact counts" and "The exact-pair shares"). */
#define SUMMARY_COST_EXACT_SHARE_VIRTUAL 0.05

/* Adds to metric (a row's "instructions" metric object) "source" (e.g. "valgrind-3.19.0"),
 * and per candidate in vs_baseline.CANDIDATE "functions": [{"name", "baseline",
 * "candidate", "delta"}] — per function the median over the ok counted rounds of
 * instructions per operation (0 where a round does not list it), the SUMMARY_COST_TOP
 * largest |delta| first. latest maps "config\x1fversion\x1finstructions\x1fround" to the
 * runs.jsonl line (as summary.c keys counted runs); nr is the number of rounds to look at. */
/* Where both versions' counted lines are exact, also the verdict by seed pairs and
 * vs_baseline.CANDIDATE "exact" (docs/statistics.md, "Exact counts"). */
void summary_cost_annotate(json_t *metric, const char *cfg, const json_t *latest,
                           const json_t *versions, size_t nr);

/* The same per-name changes for another counted kind: line[field][sub] = {name: per op} of
 * the lines of kind `kind` (e.g. "syscalls", "syscalls", "by_name"), per candidate in
 * vs_baseline.CANDIDATE[out_key], and the baseline's own largest names in metric[out_key]
 * as {name: median per op}. */
void summary_cost_breakdown(json_t *metric, const char *kind, const char *field, const char *sub,
                            const char *out_key, const char *cfg, const json_t *latest,
                            const json_t *versions, size_t nr);

#endif
