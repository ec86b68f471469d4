/* syscount_run: the counted rounds of system calls (`--syscalls`, spec "syscalls"): after the
 * timed rounds, each configuration and version again for `runs` rounds (default 3), the
 * server started as in a timed run, traced (syscount.h) from ready to the end, the driver run
 * for the configuration's warm-up and duration, the system calls counted between its window
 * marks. Each makes a runs.jsonl line of kind "syscalls" ({"syscalls": {per_op, ops, total,
 * by_name: {name: per op}, threads, source "ptrace", counted "server"}}); its timing is not
 * used. */
#ifndef PAIRBENCH_SYSCOUNT_RUN_H
#define PAIRBENCH_SYSCOUNT_RUN_H

#include <stddef.h>

#include <jansson.h>

#include "run/runner.h"

struct syscount_settings {
    int enabled;
    unsigned runs; /* rounds; default 3 */
};

/* Settings from the spec's "syscalls" (true/false, or {"enabled", "runs"}; NULL = off);
 * force (--syscalls) turns it on. Returns 0, or -1 with err naming the file, the key, the
 * value and what was expected. */
int syscount_settings_parse(const json_t *j, int force, const char *file,
                            struct syscount_settings *ss, char *err, size_t errlen);

/* Runs the counted rounds of the selected configurations (those `existing` holds as ok
 * skipped), appending each line to fd. Returns the number of failed runs, or -1 on a harness
 * error (err set). */
int syscount_schedule(struct runner *r, const struct syscount_settings *ss,
                      const unsigned char *selected, unsigned shard_k, unsigned shard_n,
                      const json_t *existing, int fd, char *err, size_t errlen);

#endif
