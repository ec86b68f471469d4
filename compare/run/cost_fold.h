/* cost_fold: the folded call stacks of a counted run's window (analysis/cgfold.h), written
 * beside the report as OUT/flame/<configuration id>.<version>.folded, instructions per
 * operation on each path (flamegraph.pl and speedscope open them). */
#ifndef PAIRBENCH_COST_FOLD_H
#define PAIRBENCH_COST_FOLD_H

#include <stddef.h>

#include <jansson.h>

/* Reads the window's dump files (names in `files`, relative to dump_dir), folds them and
 * writes the file; ops > 0. 0, or -1 with why. */
int cost_fold_write(const char *dump_dir, const json_t *files, const char *out_dir,
                    const char *config_id, const char *version, double ops, char *why,
                    size_t whylen);

struct runner;
struct sched_run;

/* The window's stacks: the dump files in `seen` and not in `before`, ops from the driver's
 * result. 0, 1 (a reason set), never -1. */
int cost_fold_window(struct runner *r, const struct sched_run *sr, const char *dir,
                     const json_t *seen, const json_t *before, const json_t *result, char *reason,
                     size_t reasonlen);

#endif
