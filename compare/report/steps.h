/* steps: the rows of a sequence run (meta.json settings.sequence: each version's server lived
 * through every configuration of a round, run/sequence.h) in step order, and per candidate the
 * first step whose verdict on a metric is regressed. Pure: reads the summary and meta.json. */
#ifndef PAIRBENCH_STEPS_H
#define PAIRBENCH_STEPS_H

#include <stddef.h>

#include <jansson.h>

struct steps {
    size_t n;    /* steps that have a row */
    size_t *row; /* index in the summary's rows per step, in step order (malloc'd) */
};

/* Fills st with the summary's rows in the order of meta.json's configurations. Returns 1 for
 * a sequence run with rows, 0 for any other run (st empty), -1 when out of memory. Release
 * with steps_release() either way. */
int steps_find(const json_t *summary, const json_t *meta, struct steps *st);

/* The first step (1-based) whose `metric` verdict for candidate ver is regressed, or 0. */
size_t steps_first_regressed(const struct steps *st, const json_t *rows, const char *metric,
                             const char *ver);

void steps_release(struct steps *st);

#endif
