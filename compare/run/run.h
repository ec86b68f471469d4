/* The run machinery as a library: what `compare run` does, callable by gate, commits,
 * calibrate and demo. Implemented in run/execute.c over run/schedule.c and run/runner.c; the
 * run flags are cmd/run_cli.h's. This header is the contract. */
#ifndef PAIRBENCH_RUN_H
#define PAIRBENCH_RUN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

struct verdict_rules;       /* stats.h */
struct interference_limits; /* interference.h */
struct gate_config;         /* gate.h */

#define RUN_MAX_GRIDS 32
#define RUN_MAX_VERSIONS 16

/* The one-line form (run/inline.c): two server commands and the load, instead of a spec. */
struct run_inline {
    const char *baseline, *candidate; /* --baseline/--candidate server commands ({port}) */
    const char *protocol;             /* redis, tcp, http, ws (--redis/--tcp/--http/--ws) */
    const char *commands;             /* --redis LIST */
    const char *path;                 /* --http PATH */
    const char *pipeline, *connections, *payload; /* --pipeline/--connections/--payload */
    const char *workers, *window, *rate;          /* --workers/--window/--rate lists */
    const char *keyspace;                         /* --keyspace list (redis) */
    const char *command, *setup;                  /* --command TEMPLATE, --setup (redis) */
    const char *save_spec;                        /* --save-spec FILE */
    const char *server_host;                      /* --server-host URL (run/sshhost.h) */
    char spec_file[PATH_MAX + 32];                /* the spec written for the run */
    char dir[PATH_MAX];                           /* the run directory chosen for it */
};

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
    int cache_sim;                       /* --cache-sim: estimated cycles (run/cost_cache.h) */
    unsigned shard_k, shard_n;           /* --shard K/N; 0/0 = all configurations */
    const char *lang;                    /* --lang en|zh; NULL = en */
    const char *pin_driver, *pin_server; /* --pin-driver/--pin-server CPU lists, or NULL */
    const struct verdict_rules *rules;   /* thresholds for verdicts; NULL = defaults */
    const struct gate_config *gate;      /* gate: per-row rules and the gated metrics, which
                                          * extra rounds judge rows by; NULL = rules */
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
    struct run_inline inl;   /* the one-line form's flags (run and gate) */
    const char *resume_hint; /* said on SIGINT/SIGTERM instead of "--resume --out DIR" (bisect:
                                its own directory, not the step's); NULL: the run's */
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

/* The one-line form: when rq->inl names a baseline or a candidate, checks the flags, builds
 * the spec and its grid, writes them into the run directory's input/ (chosen now: --out or
 * reports/<UTC time>-<id>), and --save-spec's FILE (its grid next to it, FILE's name with
 * .grid.json), prints the spec on out, and points rq->spec_path and rq->out_dir at them.
 * Returns 0 (also when the form is not used), or -1 with err naming the flag and what was
 * expected. cmd names the command in messages. */
int run_inline_prepare(struct run_request *rq, FILE *out, char *err, size_t errlen);

/* Loads and validates the spec and grids (nothing runs when they are bad), runs every
 * configuration × version × round in alternating order, appends runs.jsonl (fsync per run),
 * writes meta.json, summary.json, report.md, report.html. Returns EXIT_OK, EXIT_USAGE (bad
 * input; err says what), EXIT_HARNESS (runs failed or a server never became ready; the
 * dataset and reports are still written and out is filled). */
int run_execute(const struct run_request *rq, struct run_outcome *out, char *err, size_t errlen);

void run_outcome_release(struct run_outcome *out);

/* A new run directory's name: reports/<UTC time>-<6 random hex digits>. */
void run_default_out_dir(char *out, size_t outlen);

#endif
