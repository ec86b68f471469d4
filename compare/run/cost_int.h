/* cost_int: what cost.c shares with cost_driver.c (the counted-cost channel's valgrind
 * pieces). Not for other rooms. */
#ifndef PAIRBENCH_COST_INT_H
#define PAIRBENCH_COST_INT_H

#include <stddef.h>
#include <sys/types.h>

#include <jansson.h>

#include "analysis/cgprof.h"
#include "run/cost.h"

/* Runs the version's driver for exactly `requests` operations, the words of wrap (NULL-ended,
 * may be NULL: e.g. valgrind's) in front of it. 0 ok (*result set), 1 failed (reason set), 2
 * interrupted, -1 internal error (err set). */
int cost_drive(struct runner *r, size_t version, const json_t *eff, unsigned requests,
               char *const *wrap, const char *cfg_path, const char *log, json_t **result,
               char *reason, size_t reasonlen, char *err, size_t errlen);

/* The valgrind words (callgrind, cs's exclusions, profiles written to dir/out_name, "%p" the
 * pid) in front of a command. Free the array (not the words) and *owned with words_free(). */
char **cost_valgrind_wrap(const struct cost_settings *cs, const char *dir, const char *out_name,
                          char ***owned);

/* Parses the profile files "cg.PID.*" in dir not yet in `seen` (a JSON object used as a set)
 * into p. Returns 0, or -1 with why. */
int cost_parse_dumps(const char *dir, json_t *seen, struct cgprof *p, char *why, size_t whylen);

/* vgdb --vgdb-prefix=prefix --pid=PID cmd ("zero", "dump") for every live process of the
 * process group pgid (the server and what it forked). A process that ends while it is asked
 * is reported at once ("process N ended while …"), not after the answer's timeout. Returns 0,
 * or -1 with why. */
int cost_vgdb_all(struct runner *r, const char *prefix, pid_t pgid, const char *cmd, char *why,
                  size_t whylen);

/* Removes the files and directories under dir (dir itself stays). */
void cost_rm_dir_files(const char *dir);

/* The counted part of a run when cs->count_driver, the server (eff's port) already started
 * normally: a warm-up of cs->warmup_requests, then the version's driver under valgrind for N
 * = cs->requests and for 2N operations (profiles in dir); instructions/op = (count(2N) −
 * count(N)) / N, so the driver's start-up, connection set-up and shut-down, the same in both,
 * cancel out. 0 ok (*inst set: per_op, functions, counted "driver", source vg), 1 failed
 * (reason), 2 interrupted, -1 internal error (err). */
int cost_count_driver(struct runner *r, const struct sched_run *sr, const struct cost_settings *cs,
                      const json_t *eff, const char *dir, const char *vg, json_t **inst,
                      char *reason, size_t reasonlen, char *err, size_t errlen);

#endif
