/* drift_run: the engine of `compare drift --history DIR [--add RUNDIR] [--window K]
 * [--threshold METRIC=PCT]...` (cmd/drift.c parses its argv): keeps the nightly history (a copy of
 * each night's run directory under DIR/runs/ and one line per night in DIR/index.jsonl, appended
 * and fsync'd), builds the per-configuration, per-metric series of the newest night's environment,
 * analyses them (drift.c) and writes DIR/drift.md and DIR/drift.html. Exit 1 when a gated metric's
 * newest night is a regression step, else 0. */
#ifndef PAIRBENCH_DRIFT_RUN_H
#define PAIRBENCH_DRIFT_RUN_H

#include <stddef.h>

#include <jansson.h>

#include "analysis/drift.h"
#include "analysis/gate.h"
#include "report/render.h"
#include "run/history.h"

/* The state of one `compare drift`, shared by its steps. */
struct drift_cmd {
    const char *history, *add, *lang;
    struct render_opts accept; /* --accept-modified, --unverified: --add such a night */
    unsigned window;
    struct gate_config gc;
    struct history h;      /* the store: locked, its index read */
    json_t **all_nights;   /* the index's nights, oldest first */
    const json_t **nights; /* those kept: the newest DRIFT_MAX_NIGHTS whose summary reads */
    json_t **summaries;
    size_t n;             /* nights kept */
    size_t n_left_out;    /* nights left out: their summary.json could not be used */
    char left_out[2048];  /* what was left out, for the report */
    char newest_out[512]; /* why the index's newest night is not the one judged, or "" */
    struct drift_night *dn;
    struct drift_series **series;
    size_t n_series, cap_series;
    char reason[2048];
};

/* Opens the history (adding --add's night first), loads its nights, builds and judges the
 * series and writes DIR/drift.md and DIR/drift.html. Returns the exit code: EXIT_OK,
 * EXIT_REGRESSION, EXIT_USAGE or EXIT_HARNESS (the reason on stderr). */
int drift_execute(struct drift_cmd *d);

/* Frees what d holds and unlocks the history. */
void drift_cmd_release(struct drift_cmd *d);

#endif
