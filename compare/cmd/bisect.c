/* compare bisect --repo DIR --good REV --bad REV --spec FILE --build CMD: the first commit of
 * good..bad (first-parent unless --all-parents) at which one metric of one row moves past the
 * threshold in the bad direction against good. Each step builds its commit in the build cache
 * of `compare commits` (trees.h) and runs the spec with good as versions[0] and the commit as
 * versions[1] (the run engine of `compare run`); a commit that does not build is skipped as
 * `git bisect skip` does (a neighbour is tried) and named in the result. The counted metric
 * (instructions) decides by the change against the threshold; a timed metric by the gate's
 * verdict, an undecided step stopping the search (exit 4) rather than guessing. bisect.json
 * is rewritten after every step, so --resume takes up where an interruption left off. Here
 * argv only; the engine is run/bisect_run.c and run/bisect_search.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report/bisect_report.h"
#include "cmd/cmds.h"
#include "run/bisect_run.h"
#include "cmd/flags.h"
#include "analysis/gate.h"
#include "util/jobs_util.h"
#include "analysis/metrics.h"
#include "run/run.h"
#include "cmd/run_cli.h"
#include "run/trees.h"

static const char usage[] =
    "usage: compare bisect --repo DIR --good REV --bad REV --build CMD --spec FILE\n"
    "                      [--row ID|LABEL] [--metric NAME] [--threshold PCT] [--budget D]\n"
    "                      [--all-parents] [--cache DIR] [--build-timeout S] [--out DIR]\n"
    "                      [--resume] [run flags]\n"
    "  finds the first commit of good..bad (first-parent; --all-parents enters merges) at\n"
    "  which --metric (default instructions, counted) of --row (default: the row that moved\n"
    "  most from good to bad) moves past --threshold percent (default: the spec's gate\n"
    "  threshold for a timed metric, else the metric's) in the bad direction against good;\n"
    "  every commit built as by `compare commits` (same cache)\n"
    "  --budget D  a timed metric's time per step; --resume: go on from --out's bisect.json\n"
    "  --build-timeout S  a build still running after S seconds (default 3600) fails, its\n"
    "  commit skipped; SIGINT/SIGTERM stop the build's process group, bisect.json keeps the\n"
    "  steps so far (written from the start) and the message says how to resume (exit 3)\n"
    "exit: 0 found, 2 bad input, 3 a build or the runs failed, 4 not decidable (good and bad\n"
    "      do not differ, an inconclusive step, only skipped commits left)\n";

enum {
    BF_REPO,
    BF_GOOD,
    BF_BAD,
    BF_BUILD,
    BF_CACHE,
    BF_ROW,
    BF_METRIC,
    BF_THRESHOLD,
    BF_BUDGET,
    BF_ALL_PARENTS,
    BF_BUILD_TIMEOUT
};

static int bisect_flag(void *ctx, struct flags *f, int id)
{
    struct bisect_cli *cli = ctx;
    const char **dst[] = {&cli->repo,  &cli->good, &cli->bad,   &cli->build,
                          &cli->cache, &cli->row,  &cli->metric};
    char *end;

    if (id == BF_ALL_PARENTS) {
        cli->all_parents = 1;
        return 0;
    }
    if (id >= BF_REPO && id <= BF_METRIC) {
        if (!*f->value)
            return flags_fail(f, "%s: missing value", f->flag);
        *dst[id] = f->value;
        return 0;
    }
    if (id == BF_THRESHOLD) {
        errno = 0;
        cli->threshold = strtod(f->value, &end);
        if (errno || end == f->value || *end || !(cli->threshold > 0) || cli->threshold > 1000)
            return flags_fail(f, "%s '%s': expected a percentage above 0 (e.g. 1.5)", f->flag,
                              f->value);
        return 0;
    }
    if (id == BF_BUILD_TIMEOUT)
        return trees_timeout_parse(f->value, &cli->build_timeout_s) < 0
                   ? flags_fail(f, "%s '%s': expected seconds above 0, at most 604800 (a week)",
                                f->flag, f->value)
                   : 0;
    if (id == BF_BUDGET) {
        if (gate_parse_duration(f->value, &cli->budget_s) < 0 || cli->budget_s <= 0)
            return flags_fail(f, "%s '%s': expected a duration (90s, 5m, 1h)", f->flag, f->value);
        return 0;
    }
    if (id == RUN_FLAG_RUNS)
        cli->runs_given = 1;
    return run_flag_apply(&cli->rq, f, id);
}

static const struct flag_def bisect_flags[] = {
    {"--repo", 1, BF_REPO},
    {"--good", 1, BF_GOOD},
    {"--bad", 1, BF_BAD},
    {"--build", 1, BF_BUILD},
    {"--cache", 1, BF_CACHE},
    {"--row", 1, BF_ROW},
    {"--metric", 1, BF_METRIC},
    {"--threshold", 1, BF_THRESHOLD},
    {"--budget", 1, BF_BUDGET},
    {"--all-parents", 0, BF_ALL_PARENTS},
    {"--build-timeout", 1, BF_BUILD_TIMEOUT},
};
static const struct flags_cmd bisect_cmd = {
    "compare bisect", usage, {FLAGS_TABLE(bisect_flags)}, 0, bisect_flag};

/* A timed metric: the spec's "gate" section (thresholds, disturbed_limit, budget) as the
 * gate reads it; --budget wins over gate.budget. Returns -1 to go on, else the exit code. */
static int spec_gate(struct bisect *b)
{
    char err[1024] = "";
    json_t *spec = ju_load_json(b->cli.rq.spec_path, err, sizeof(err));
    int rc = -1;

    if (!spec)
        return bisect_fail(EXIT_USAGE, "%s", err);
    if (gate_parse_spec(&b->cli.gc, json_object_get(spec, "gate"), b->cli.rq.spec_path, err,
                        sizeof(err)) < 0)
        rc = bisect_fail(EXIT_USAGE, "%s", err);
    else if (!(b->cli.budget_s > 0) && b->cli.gc.budget_s > 0)
        b->cli.budget_s = b->cli.gc.budget_s;
    json_decref(spec);
    return rc;
}

/* A timed metric's steps are judged on that metric alone, at one threshold: --threshold, else
 * the spec's gate threshold for it, else the metric's own. The gate's rules carry the same
 * threshold and gate nothing else, so the verdict a step reads, the extra rounds it gets and
 * the early stop at a regression all answer the bisect's question (a step judged at another
 * threshold than its verdict's was called inconclusive at -6% against a spec's 50%). */
static void timed_rules(struct bisect *b)
{
    struct verdict_rules *r = &b->cli.gc.rules;
    int m, self = metric_lookup(b->md->key);

    if (b->cli.threshold > 0)
        r->threshold_pct[self] = b->cli.threshold;
    b->r.threshold_pct = r->threshold_pct[self] > 0 ? r->threshold_pct[self] : b->md->threshold_pct;
    r->threshold_pct[self] = b->r.threshold_pct;
    for (m = 0; m < METRIC_ALL; m++)
        if (m != self)
            r->threshold_pct[m] = 0;
}

static int parse_args(struct bisect *b, int argc, char **argv)
{
    struct bisect_cli *cli = &b->cli;
    int rc;

    cli->build_timeout_s = TREES_BUILD_TIMEOUT_S;
    rc = run_cli_parse(&cli->rq, &bisect_cmd, cli, argc, argv);

    if (rc >= 0)
        return rc;
    if (!cli->repo || !cli->good || !cli->bad || !cli->build || !cli->rq.spec_path) {
        fprintf(stderr,
                "compare: bisect: --repo, --good, --bad, --build and --spec are required\n%s",
                usage);
        return EXIT_USAGE;
    }
    if (!cli->metric)
        cli->metric = "instructions";
    {
        int m = metric_lookup(cli->metric);

        if (m < 0 || !metric_gateable((enum metric)m))
            return bisect_fail(EXIT_USAGE, "--metric '%s': expected one of instructions, %s",
                               cli->metric, metric_gateable_names());
        b->md = metric_def((enum metric)m);
    }
    if (cli->rq.resume && !cli->rq.out_dir)
        return bisect_fail(EXIT_USAGE, "--resume needs --out DIR (the earlier bisect's directory)");
    b->r.metric = b->md->key;
    b->r.unit = b->md->unit;
    b->r.higher_better = b->md->higher_better;
    b->r.threshold_pct = cli->threshold > 0 ? cli->threshold : b->md->threshold_pct;
    b->r.lang = cli->rq.lang;
    b->r.repo = cli->repo;
    b->r.good_ref = cli->good;
    b->r.bad_ref = cli->bad;
    b->r.build = cli->build;
    b->r.spec = cli->rq.spec_path;
    /* the counted metric needs no timed rounds beyond one */
    if (strcmp(b->md->key, "instructions") == 0) {
        cli->rq.instructions = 1;
        if (!cli->runs_given)
            cli->rq.runs = 1;
    } else {
        /* a timed metric: the gate's rules, its disturbed-run handling, its budget */
        gate_config_init(&cli->gc);
        b->gc_init = 1;
        if ((rc = spec_gate(b)) >= 0)
            return rc;
        timed_rules(b);
        cli->rq.rules = &cli->gc.rules;
        cli->rq.limits = &cli->gc.limits;
        cli->rq.repeat_disturbed = 1;
        cli->rq.stop_when_regressed = 1;
    }
    if (!(b->r.threshold_pct > 0))
        b->r.threshold_pct = 1.0;
    return -1;
}

int cmd_bisect(int argc, char **argv)
{
    struct bisect *b = calloc(1, sizeof(*b));
    int rc;

    if (!b)
        return EXIT_HARNESS;
    rc = parse_args(b, argc, argv);
    trees_signals(1); /* a build interrupted stops cleanly (trees.h) */
    if (rc < 0)
        rc = bisect_execute(b);
    bisect_release(b);
    trees_signals(0);
    return rc;
}
