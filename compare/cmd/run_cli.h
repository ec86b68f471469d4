/* run_cli: the command line of every command that runs (run, calibrate, gate, commits, demo):
 * the run flags and their parser, defined in cmd/run.c. What a run does is run/run.h. */
#ifndef PAIRBENCH_RUN_CLI_H
#define PAIRBENCH_RUN_CLI_H

#include "cmd/flags.h"
#include "run/run.h"

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
    RUN_FLAG_BASELINE,     /* the one-line form (inline_flags: run and gate only) */
    RUN_FLAG_CANDIDATE,
    RUN_FLAG_REDIS,
    RUN_FLAG_TCP,
    RUN_FLAG_HTTP,
    RUN_FLAG_WS,
    RUN_FLAG_PIPELINE,
    RUN_FLAG_CONNECTIONS,
    RUN_FLAG_PAYLOAD,
    RUN_FLAG_SAVE_SPEC,
    RUN_FLAG_SYSCALLS,  /* counted runs of system calls (syscount.h) */
    RUN_FLAG_CACHE_SIM, /* counted runs with cache simulation (run/cost_cache.h) */
    RUN_FLAG_WORKERS,   /* the one-line form's other load keys (inline_flags) */
    RUN_FLAG_WINDOW,
    RUN_FLAG_RATE,
    RUN_FLAG_KEYSPACE,
    RUN_FLAG_COMMAND,
    RUN_FLAG_SETUP,
    RUN_FLAG_SERVER_HOST, /* the one-line form's "server_host" (run/sshhost.h) */
};
extern const struct flag_def run_flags[];
extern const size_t run_flags_count;
#define RUN_INLINE_FLAGS 17 /* entries of inline_flags */
extern const struct flag_def inline_flags[RUN_INLINE_FLAGS];
extern const size_t inline_flags_count;

/* Applies run flag id (its value in f->value) to rq. Returns 0, or FLAGS_ERROR with f->err
 * naming the flag, the value and what was expected. */
int run_flag_apply(struct run_request *rq, struct flags *f, int id);

/* Starts rq (run_request_init(), with argc/argv kept for meta.json's command line) and parses
 * argv with flags_parse(c, ctx), the run flags taken after c's own tables (c leaves a table
 * free). A c without a handler applies each flag to rq with run_flag_apply() (ctx unused). Returns
 * what flags_parse() returns: -1 to go on, else the exit code (help: 0; bad usage: 2, the error
 * printed). */
int run_cli_parse(struct run_request *rq, const struct flags_cmd *c, void *ctx, int argc,
                  char **argv);

#endif
