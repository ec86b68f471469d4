/* summary_workload: a row's Redis workload facts from its runs, for the report. Pure.
 *   "commands": {version: [{command, weight, throughput, p99_us}]}: a mix's commands, each
 *               with the median over the version's ok runs (only when the runs have them);
 *   "setup":    {version: {sha256: [...], keys: [...]}, same_data: bool}: the distinct setup
 *               digests and key counts, and whether every run of every version got the same
 *               data (one digest, equal across versions);
 *   "state_after": {version: {keys, used_memory, rss_kib, sockets}, same_keys}: in a sequence
 *               run, what the server held after the step (the medians of its rounds'
 *               sequence.state), and whether every version held the same keys (within 1%): the
 *               state the next step began from. */
#ifndef PAIRBENCH_SUMMARY_WORKLOAD_H
#define PAIRBENCH_SUMMARY_WORKLOAD_H

#include <stddef.h>

#include <jansson.h>

/* Whether two servers' key counts are the same state: within 1% of the larger, and 1 key. */
int summary_same_keys(double a, double b);

void summary_row_workload(json_t *row, const char *cfg, const json_t *latest,
                          const json_t *versions, size_t nr);

#endif
