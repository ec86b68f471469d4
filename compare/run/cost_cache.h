/* cost_cache: estimated cycles per operation from callgrind's cache simulation (`--cache-sim`,
 * spec "cache_sim": true): the counted runs of cost.h with --cache-sim=yes, whose profiles
 * carry L1 and last-level misses beside the instructions (analysis/cgprof.h's events).
 *
 *   accesses        = Ir + Dr + Dw (instruction fetches, data reads, data writes)
 *   L1 misses       = I1mr + D1mr + D1mw
 *   LL misses       = ILmr + DLmr + DLmw (RAM accesses)
 *   L1 hits         = accesses − L1 misses
 *   LL hits         = L1 misses − LL misses
 *   estimated_cycles = L1 hits + 5 × LL hits + 35 × RAM accesses
 *
 * Each figure per operation, the idle phase's subtracted at the instructions' scale. */
#ifndef PAIRBENCH_COST_CACHE_H
#define PAIRBENCH_COST_CACHE_H

#include <jansson.h>

#include "analysis/cgprof.h"
#include "run/cost.h"

/* The weights of the estimate: an LL hit, a RAM access, in L1 hits. */
#define COST_CACHE_LL_WEIGHT 5
#define COST_CACHE_RAM_WEIGHT 35

/* When win's profiles carry the cache events, sets per["(estimated_cycles)"] = {"per_op",
 * "l1_misses_per_op", "ll_misses_per_op", "by_part": {"L1 hits", "5 × LL hits", "35 × RAM
 * accesses", "L1 misses", "LL misses"} per operation, "formula", "throughput_traced"} with
 * idle's events times idle_scale subtracted; nothing otherwise. */
void cost_cache_add(json_t *per, const struct cgprof *idle, const struct cgprof *win,
                    double idle_scale, double ops, double win_s);

/* Moves line.instructions.functions["(estimated_cycles)"] (where cost.c's figures put it
 * among the functions, as the allocations) to line.estimated_cycles, the metric's place. */
void cost_cache_lift(json_t *line);

/* --cache-sim (force) or the spec's "cache_sim" (j: true/false, may be NULL) into cs: on,
 * it turns the instructions on and needs valgrind ("source" "counters" is refused). 0, or -1
 * with err naming file, the key, the value and what was expected. */
int cost_cache_settings(struct cost_settings *cs, const json_t *j, int force, const char *file,
                        char *err, size_t errlen);

#endif
