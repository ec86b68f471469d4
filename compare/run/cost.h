/* cost: the counted-cost channel — user-space instructions per successful operation of the
 * server under test (or of the driver, when only the drivers differ), from one of two sources
 * (cost_resolve() picks it):
 *   - hardware counters (perf_event_open, instructions:u; cost_perf_probe() says whether they
 *     open here): counters.h counts the server's process tree during the timed runs, between
 *     the driver's window marks; no runs of their own;
 *   - valgrind: runs of their own (kind "instructions" in runs.jsonl), one of which is:
 *   1. the version's server under `valgrind --tool=callgrind` (--trace-children=yes for
 *      servers that fork, threads native), its timer entry points (settings "exclude",
 *      default serverCron) left out of the count with --toggle-collect;
 *   2. a warm-up driver run of `warmup_requests`;
 *   3. the idle rate: every process of the server's group zeroed, `idle_s` of quiet, dumped;
 *   4. the window: zeroed, a driver run of exactly `requests` operations, dumped;
 *   5. instructions/op = (window count − idle correction) / operations: the idle count times
 *      the window's time-driven wake-ups over the idle phase's (the interposer marks them,
 *      cost_exact_idle), or times window seconds over idle seconds where none were marked.
 * Start-up, warm-up and shut-down are outside the window; work that scales with time is
 * excluded by name and the rest subtracted per wake-up (or by time). The per-function counts of the
 * window (cgprof.h) say where the instructions went. */
#ifndef PAIRBENCH_COST_H
#define PAIRBENCH_COST_H

#include <signal.h>
#include <stddef.h>

#include <jansson.h>

#include "run/counters.h"
#include "run/runner.h"
#include "run/schedule.h"

#define COST_MAX_EXCLUDE 16

enum { COST_SOURCE_AUTO, COST_SOURCE_VALGRIND, COST_SOURCE_COUNTERS };

struct cost_settings {
    int enabled;
    unsigned runs;                         /* rounds; default 3 */
    unsigned requests;                     /* operations in the window; default 5000 */
    unsigned warmup_requests;              /* operations before it; default 1000 */
    double idle_s;                         /* idle measurement; default 0.5 */
    const char *exclude[COST_MAX_EXCLUDE]; /* functions left out (timers); default serverCron */
    size_t n_exclude;
    const json_t *match; /* count only configurations with these key/values; NULL = all */
    int source;          /* COST_SOURCE_*: "source", default auto */
    unsigned seed;       /* round k's seed: seed + k - 1 ("seed", default 1; cost_exact.h) */
    int exact;           /* fixed randomness, layout, environment ("exact", default true) */
    /* settled by cost_resolve(): */
    int use_counters; /* count the server with counters (ev) during the timed runs */
    int count_driver; /* the versions differ only in their driver: count it under valgrind */
    struct counters_event ev;
};

/* Settings from the spec's "instructions" value (true/false, or an object with "runs",
 * "requests", "warmup_requests", "idle_s", "exclude", "match", "enabled", "seed", "exact";
 * NULL = off); `force`
 * (--instructions) turns it on. Returns 0, or -1 with err naming file, the JSON path, the value and
 * what was expected. Strings are borrowed from j. */
int cost_settings_parse(const json_t *j, int force, const char *file, struct cost_settings *cs,
                        char *err, size_t errlen);

/* Settles what is counted and how (cs enabled): the driver under valgrind when every version
 * has the same server commands and the versions' drivers differ (count_driver); otherwise the
 * server, with counters (use_counters, ev: counters_event_pick) when "source" is "counters",
 * or "auto" and they can be opened, else under valgrind. Says the choice on stderr. Returns
 * 0, or -1 with err when "source" is "counters" and they cannot be opened, or the event named
 * by COUNTERS_ENV is not one. */
int cost_resolve(struct cost_settings *cs, const struct spec *sp, char *err, size_t errlen);

/* Whether hardware instruction counters can be opened here (1), or not (0, why says so, e.g.
 * "perf_event_open(instructions:u): No such file or directory: no hardware counters"). */
int cost_perf_probe(char *why, size_t whylen);

/* "valgrind-3.19.0", or "" when valgrind cannot be run. */
void cost_valgrind_version(char *out, size_t outlen);

/* One counted run of sr's version and configuration. Returns the runs.jsonl line (new
 * reference; "kind": "instructions", "instructions": {per_op, ...} when ok, a reason naming
 * the version and what to install or change when not), or NULL when interrupted by *r->stop
 * or on an internal error (err set). */
json_t *cost_run(struct runner *r, const struct sched_run *sr, const struct cost_settings *cs,
                 char *err, size_t errlen);

/* A counted line (kind "instructions") of sr: ok with inst (taken), or failed with reason
 * when inst is NULL. New reference, NULL when out of memory. */
json_t *cost_line(struct runner *r, const struct sched_run *sr, const char *started,
                  pid_t server_pid, json_t *inst, const char *reason);

/* Runs the counted rounds of every selected configuration (rotation as sched_plan), skipping
 * those `existing` (runs.jsonl lines, may be NULL) already holds as ok, appending each line to
 * fd (none when cs->use_counters: the timed runs count). Returns the number of failed runs, or
 * -1 on a harness error (err set). */
int cost_schedule(struct runner *r, const struct cost_settings *cs, const unsigned char *selected,
                  unsigned shard_k, unsigned shard_n, const json_t *existing, int fd, char *err,
                  size_t errlen);

#endif
