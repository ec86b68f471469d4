/* steps: the rows of a sequence run (meta.json settings.sequence: each version's server lived
 * through every configuration of a round, run/sequence.h) in step order, and per candidate the
 * first step whose verdict on a metric is regressed, and a fresh-server run of the same
 * configurations set beside the steps. Pure: reads the summaries and meta.json. */
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

/* Sets fresh (the summary and meta.json of a run of the same configurations with a fresh server
 * per run, from dir) beside summary, a sequence run's: summary's "fresh_server" {"dir",
 * "sha256"} and, in each row whose configuration fresh has a row of, "fresh_server":
 * {"throughput": {"values": {version: median}, "vs_baseline": {candidate: {"change",
 * "verdict"}}}}. Returns 0, or -1 with err naming dir and what was expected: summary is not a
 * sequence run's, fresh is one, a version of summary's is not in fresh, or no configuration is
 * in both. */
int steps_beside(json_t *summary, const json_t *meta, const json_t *fresh, const json_t *fmeta,
                 const char *dir, char *err, size_t errlen);

/* A candidate's fresh-server {"change", "verdict"} beside a step's row (steps_beside), or
 * NULL. */
const json_t *steps_fresh_vs(const json_t *row, const char *cand);

void steps_release(struct steps *st);

#endif
