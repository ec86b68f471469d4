/* The run machinery as a library: what `compare run` does, callable by gate, commits,
 * calibrate and demo. Implemented in run/execute.c over run/schedule.c and run/runner.c; the
 * run flags in cmd/run.c. This header is the contract. */
#ifndef PAIRBENCH_RUN_H
#define PAIRBENCH_RUN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "flags.h"

struct verdict_rules;       /* stats.h */
struct interference_limits; /* interference.h */

#define RUN_MAX_GRIDS 32
#define RUN_MAX_VERSIONS 16

struct run_request {
    const char *spec_path;                 /* --spec (required) */
    const char *grid_paths[RUN_MAX_GRIDS]; /* --grid FILE...: replace the spec's grids */
    size_t n_grids;
    int runs;                            /* --runs; 0 = spec's, else 5 */
    double warmup_s;                     /* --warmup; < 0 = spec's, else 1 */
    double duration_s;                   /* --duration; < 0 = spec's, else 5 */
    const char *out_dir;                 /* --out; NULL = reports/<UTC time>-<short id>/ */
    int resume;                          /* --resume: out_dir must hold a dataset */
    int instructions;                    /* --instructions: the counted-cost channel on */
    int syscalls;                        /* --syscalls: counted runs of system calls */
    unsigned shard_k, shard_n;           /* --shard K/N; 0/0 = all configurations */
    const char *lang;                    /* --lang en|zh; NULL = en */
    const char *pin_driver, *pin_server; /* --pin-driver/--pin-server CPU lists, or NULL */
    const struct verdict_rules *rules;   /* thresholds for verdicts; NULL = defaults */
    int confirm_rounds;                  /* --confirm N: extra rounds at most for
                                          * borderline rows; < 0 = the spec's (else 0) */
    int argc;                            /* the full command line, for meta.json */
    char **argv;
    /* compare commits: {tree} in version commands expands to tree_dirs[version index]. */
    const char *tree_dirs[RUN_MAX_VERSIONS];
    size_t n_tree_dirs;
    json_t *extra_meta; /* borrowed; merged into meta.json when set */
    /* gate --budget: CLOCK_MONOTONIC ns by which the run should be done (0 = none). After
     * the planned rounds, undecided rows get alternating rounds while the budget lasts
     * (confirm.c); the cap is fixed from the time left before the first extra round. */
    uint64_t deadline_ns;
    const struct interference_limits *limits; /* disturbed-run limits; NULL = defaults */
    int repeat_disturbed;    /* gate: run a disturbed round again (confirm_repeat_disturbed) */
    int stop_when_regressed; /* gate: no extra rounds once a row is decided regressed */
};

struct run_outcome {
    char dir[PATH_MAX];  /* the run directory that was written */
    unsigned runs_total; /* runs recorded in runs.jsonl (including earlier ones on resume) */
    unsigned runs_failed;
    int interrupted; /* stopped by SIGINT/SIGTERM: partial dataset + partial report */
    json_t *summary; /* new reference to the summary (caller json_decref()s), or NULL */
};

/* Defaults: runs 0, warmup/duration/confirm_rounds -1, everything else zero/NULL. */
void run_request_init(struct run_request *rq);

/* The flags every command that runs takes (--spec, --grid, --runs, --warmup, --duration,
 * --out, --shard, --lang, --pin-driver, --pin-server, --confirm, --resume, --instructions),
 * for flags_add(). */
enum {
    RUN_FLAG_SPEC = 1000,
    RUN_FLAG_GRID,
    RUN_FLAG_RUNS,
    RUN_FLAG_WARMUP,
    RUN_FLAG_DURATION,
    RUN_FLAG_OUT,
    RUN_FLAG_SHARD,
    RUN_FLAG_LANG,
    RUN_FLAG_PIN_DRIVER,
    RUN_FLAG_PIN_SERVER,
    RUN_FLAG_CONFIRM,
    RUN_FLAG_RESUME,
    RUN_FLAG_INSTRUCTIONS, /* the counted-cost channel on (cost.h) */
    RUN_FLAG_SYSCALLS,     /* counted runs of system calls (syscount.h) */
};
extern const struct flag_def run_flags[];
extern const size_t run_flags_count;

/* Applies run flag id (its value in f->value) to rq. Returns 0, or FLAGS_ERROR with f->err
 * naming the flag, the value and what was expected. */
int run_flag_apply(struct run_request *rq, struct flags *f, int id);

/* Loads and validates the spec and grids (nothing runs when they are bad), runs every
 * configuration × version × round in alternating order, appends runs.jsonl (fsync per run),
 * writes meta.json, summary.json, report.md, report.html. Returns EXIT_OK, EXIT_USAGE (bad
 * input; err says what), EXIT_HARNESS (runs failed or a server never became ready; the
 * dataset and reports are still written and out is filled). */
int run_execute(const struct run_request *rq, struct run_outcome *out, char *err, size_t errlen);

void run_outcome_release(struct run_outcome *out);

#endif
