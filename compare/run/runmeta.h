/* runmeta: meta.json of a run directory (docs/architecture.md#summary): versions, spec, grids,
 * settings, configurations, environment, timestamps, the SHA-256 of runs.jsonl and of the measured
 * sources. The report writers and merge read it; its keys are a contract. */
#ifndef PAIRBENCH_RUNMETA_H
#define PAIRBENCH_RUNMETA_H

#include <stddef.h>

#include <jansson.h>

#include "run/run.h"
#include "run/runner.h"
#include "run/spec.h"

/* Builds meta.json for a run about to start (no "ended", dataset hash null). selected[i] says
 * whether configuration i is part of this run (its shard). Warnings about the environment go
 * into "warnings". New reference, or NULL with err. */
json_t *runmeta_build(const struct run_request *rq, const struct runner *r,
                      const unsigned char *selected, unsigned runs, char *err, size_t errlen);

/* Completes it: "ended", the dataset hash, "driver_build" (the first ok result's build) and
 * the server versions. Returns 0, or -1 with err. */
int runmeta_finish(json_t *meta, const char *dir, const json_t *driver_build,
                   const json_t *server_versions, char *err, size_t errlen);

/* A copy of a spec document with the values of the versions' secret environment variables
 * (redact_secret_name, util/redact.h) replaced by "***". New reference. */
json_t *runmeta_redact_spec(const json_t *spec_root);

/* The program as it was invoked (compare's argv[0], set by main; "compare" by default): the
 * first word of meta.json's command_line, so that Reproduce prints the real invocation. */
extern const char *runmeta_program;

#endif
