/* run_cli: the command line of every command that runs (run, calibrate, gate, commits),
 * defined in cmd/run.c next to the run flags (run/run.h). */
#ifndef PAIRBENCH_RUN_CLI_H
#define PAIRBENCH_RUN_CLI_H

#include "flags.h"
#include "run.h"

/* Starts rq (run_request_init(), with argc/argv kept for meta.json's command line) and parses
 * argv with flags_parse(c, ctx), the run flags taken after c's own tables (c leaves a table
 * free). A c without a handler applies each flag to rq with run_flag_apply() (ctx unused). Returns
 * what flags_parse() returns: -1 to go on, else the exit code (help: 0; bad usage: 2, the error
 * printed). */
int run_cli_parse(struct run_request *rq, const struct flags_cmd *c, void *ctx, int argc,
                  char **argv);

#endif
