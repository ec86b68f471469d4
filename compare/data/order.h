/* order: the alternating run order, as one pure rule shared by the planner (run/schedule.c)
 * and the dataset check (data/verify.c): in round r every version runs once, and the order
 * rotates between rounds (A B, B A, ... ; with more versions, A B C, B C A, ...). */
#ifndef PAIRBENCH_ORDER_H
#define PAIRBENCH_ORDER_H

#include <stddef.h>

/* The version (0-based index) that runs at 1-based position in 1-based round, of
 * n_versions; 0 when n_versions is 0. */
size_t sched_version_at(size_t n_versions, unsigned round, unsigned position);

/* Whether version b runs after version a (0-based indices below n_versions) in 1-based round:
 * an effect of running second falls on b in exactly these rounds. */
int sched_runs_after(size_t n_versions, unsigned round, size_t a, size_t b);

#endif
