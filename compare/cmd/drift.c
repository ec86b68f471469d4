/* compare drift --history DIR [--add RUNDIR] [--window K] [--threshold METRIC=PCT]...:
 * keeps the nightly history (a copy of each night's run directory under DIR/runs/ and one
 * line per night in DIR/index.jsonl, appended and fsync'd), builds the per-configuration,
 * per-metric series of the newest night's environment, analyses them (drift.c) and writes
 * DIR/drift.md and DIR/drift.html. Exit 1 when a gated metric's newest night is a regression
 * step, else 0. Here argv only; the engine is run/drift_run.c. */
#include <stdio.h>
#include <string.h>

#include "analysis/drift.h"
#include "analysis/gate.h"
#include "cmd/cmds.h"
#include "cmd/flags.h"
#include "num.h"
#include "run/drift_run.h"

#define DRIFT_STR(x) #x
#define DRIFT_XSTR(x) DRIFT_STR(x)

/* clang-format off */
static const char usage[] =
    "usage: compare drift --history DIR [--add RUNDIR] [--window K]\n"
    "                     [--threshold METRIC=PERCENT]... [--lang en|zh]\n"
    "                     [--accept-modified] [--unverified]\n"
    "  --add RUNDIR   copy a night's run directory into the history first (its runs.jsonl\n"
    "                 must be what its meta.json recorded)\n"
    "  --accept-modified  --add it even when it is not (its reports then say so first)\n"
    "  --unverified   --add one whose meta.json holds no dataset record (said first too)\n"
    "  --window K     compare the newest night with the median of the previous K\n"
    "                 (default " DRIFT_XSTR(DRIFT_DEFAULT_WINDOW) ")\n"
    "  --threshold    size of change that counts (default throughput 5, cpu_efficiency\n"
    "                 5, p99_us 10, ...); naming one gates exactly the named metrics\n"
    "  --lang en|zh   language of drift.md and drift.html (default en)\n"
    "exit: 0 no regression step, 1 regression step in a gated metric, 2 bad input\n";
/* clang-format on */

enum { DF_HISTORY, DF_ADD, DF_WINDOW, DF_THRESHOLD, DF_LANG, DF_ACCEPT, DF_UNVERIFIED };

static const struct flag_def drift_flags[] = {
    {"--history", 1, DF_HISTORY},       {"--add", 1, DF_ADD},   {"--window", 1, DF_WINDOW},
    {"--threshold", 1, DF_THRESHOLD},   {"--lang", 1, DF_LANG}, {"--accept-modified", 0, DF_ACCEPT},
    {"--unverified", 0, DF_UNVERIFIED},
};

static int drift_flag(void *ctx, struct flags *f, int id)
{
    struct drift_cmd *d = ctx;
    char msg[sizeof(f->err)];

    if (id == DF_HISTORY)
        d->history = f->value;
    else if (id == DF_ADD)
        d->add = f->value;
    else if (id == DF_ACCEPT)
        d->accept.accept_modified = 1;
    else if (id == DF_UNVERIFIED)
        d->accept.unverified = 1;
    else if (id == DF_LANG && strcmp(f->value, "en") != 0 && strcmp(f->value, "zh") != 0)
        return flags_bad_value(f, "'en' or 'zh'");
    else if (id == DF_LANG)
        d->lang = f->value;
    else if (id == DF_WINDOW && num_parse_uint(f->value, 1, 365, &d->window) < 0)
        return flags_bad_value(f, "a number of nights in [1, 365]");
    else if (id == DF_THRESHOLD && gate_parse_threshold(&d->gc, f->value, msg, sizeof(msg)) < 0)
        return flags_fail(f, "%s", msg);
    return 0;
}

static const struct flags_cmd drift_cmd = {
    "compare drift", usage, {FLAGS_TABLE(drift_flags)}, 0, drift_flag};

int cmd_drift(int argc, char **argv)
{
    struct drift_cmd d;
    int rc;

    memset(&d, 0, sizeof(d));
    d.window = DRIFT_DEFAULT_WINDOW;
    gate_config_init(&d.gc);
    rc = flags_parse(&drift_cmd, &d, argc, argv);
    if (rc < 0 && !d.history) {
        fprintf(stderr, "compare: drift: --history DIR is required\n");
        rc = EXIT_USAGE;
    }
    if (rc < 0) /* not help, not bad usage */
        rc = drift_execute(&d);
    drift_cmd_release(&d);
    return rc;
}
