/* schedule (sched_*): the order of runs (docs/architecture.md#schedule). For each configuration,
 * `runs` rounds; in each round every version runs once, adjacently; the order rotates by one
 * version per round (A B, B A, A B, ... with two versions; A B C, B C A, C A B with three).
 * Sharding keeps the configurations whose stable index mod N is K-1; resuming skips runs already
 * recorded. Pure logic, no I/O. (Not named sched.h: with -Icompare it would shadow <sched.h>.) */
#ifndef PAIRBENCH_SCHEDULE_H
#define PAIRBENCH_SCHEDULE_H

#include <stddef.h>

#include "data/order.h" /* sched_version_at: the rotation rule */

struct sched_run {
    size_t config;     /* index into the spec's configuration list (stable across shards) */
    size_t version;    /* index into the spec's versions */
    unsigned round;    /* 1-based */
    unsigned position; /* 1-based position within the round */
    /* a step of a sequence (spec "sequence": true, run/sequence.h): its 1-based index among
     * the round's configurations and their count; 0 and 0 for a run with a fresh server */
    unsigned step, steps;
};

/* Parses "K/N" (1 <= K <= N <= 10000). Returns 0, or -1. */
int sched_parse_shard(const char *s, unsigned *k, unsigned *n);

/* Whether configuration `index` belongs to shard k of n (0/0: no sharding, every one does). */
int sched_in_shard(size_t index, unsigned k, unsigned n);

/* Callback: whether (config, version, round) is already recorded and must not run again. */
typedef int (*sched_done_fn)(void *ctx, size_t config, size_t version, unsigned round);

/* The runs to perform, in order: configurations in index order (those of the shard), rounds
 * 1..runs, versions in the round's rotated order, minus those done() reports (done may be
 * NULL). *out is malloc'd (free()); returns the count, or (size_t)-1 when out of memory.
 * *n_total gets the size of the full plan of the shard (what a complete dataset holds). */
size_t sched_plan(size_t n_configs, size_t n_versions, unsigned runs, unsigned shard_k,
                  unsigned shard_n, sched_done_fn done, void *ctx, struct sched_run **out,
                  size_t *n_total);

/* The runs of a sequence (spec "sequence": true): rounds 1..runs, in each round the versions
 * in the round's rotated order, and for each version every configuration in index order as
 * steps 1..n_configs against one server. A version's round already complete by done() is
 * left out; one that is partly done runs again whole (its later steps depend on the server's
 * earlier ones). No sharding. Returns and fills like sched_plan. */
size_t sched_plan_sequence(size_t n_configs, size_t n_versions, unsigned runs, sched_done_fn done,
                           void *ctx, struct sched_run **out, size_t *n_total);

#endif
