/* cost_help: what a version's driver takes, asked through its --help, for the counted runs
 * (cost.c): a driver built before a key refuses it, so the key goes only to a driver whose
 * --help names its flag. The answers are cached per driver program (its file's identity and
 * words), one spawn each. */
#ifndef PAIRBENCH_COST_HELP_H
#define PAIRBENCH_COST_HELP_H

#include <stddef.h>

#include "run/runner.h"

/* Whether the version's driver takes a "seed" (its --help names --seed): 1, or 0 with why
 * (a driver built before it, or one that cannot say), so the key is not given to a driver that
 * would refuse it and the run is counted without the exact start. -1 out of memory (err). */
int cost_help_driver_seeds(const struct runner *r, size_t version, char *why, size_t whylen,
                           char *err, size_t errlen);

/* Whether every version's driver sends in lockstep waves (its --help names --lockstep): 1, 0,
 * or -1 out of memory (err). Waves are used for all versions or for none. */
int cost_help_drivers_lockstep(const struct runner *r, char *err, size_t errlen);

/* Whether the version's driver takes "no_prefill" (its --help names --no-prefill): 1, 0, or
 * -1 out of memory (err). */
int cost_help_driver_no_prefill(const struct runner *r, size_t version, char *err, size_t errlen);

/* Why a counted window leaves no count: its threads poll for work (valkey's --io-threads), so
 * the idle correction, which follows timing, is as large as the window's own count. */
#define COST_POLLING_REASON "the server's threads poll for work, so its idle cost follows timing"

/* Whether the window's idle correction is not smaller than its own count (inst: a counted
 * run's figures): then no count is left to report. 1 with reason set (COST_POLLING_REASON). */
int cost_correction_exceeds(const json_t *inst, char *reason, size_t reasonlen);

/* Whether a failed counted line means its server is not countable here (its rows judged on
 * their timed metrics): a server not ready under the counting setup (*whole: no counted run
 * of any row can work), or threads that poll for work (only that row's runs are left out). */
int cost_not_countable(const json_t *line, int *whole);

#endif
