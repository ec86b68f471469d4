/* compare gate: `run` with the gate's thresholds (so the report's verdicts and the exit code
 * agree), or --from DIR to judge a run directory that exists (a merged sharded run); then
 * the decision (gate.c), gate.md in the run directory, the Markdown on stdout, a one-line
 * reason on stderr for every non-zero exit, and the optional pull-request comment (post.c)
 * whose failure never changes the exit code. */
#include <sched.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util/atomic.h"
#include "clock.h"
#include "cmd/cmds.h"
#include "data/dataset.h"
#include "cmd/flags.h"

#include "analysis/gate.h"
#include "report/gate_report.h"
#include "util/jobs_util.h"
#include "num.h"
#include "analysis/outcome.h"
#include "util/post.h"
#include "report/render.h"
#include "run/run.h"
#include "run/proc.h"
#include "cmd/run_cli.h"
#include "util/step_summary.h"
#include "report/term.h"

#define GATE_MAX_THRESHOLD_FLAGS 32
#define GATE_COMMENT_MAX 60000
/* Without --budget or gate.budget a gate spends at most this much: the ceiling users accept
 * (issue 41). bench/gate-trust.sh's A/A case decided within it in 10 of 10 tries on an idle
 * host (docs/results/verdicts.md, "The gate's defaults"); a gate stops as soon as every row
 * is decided, so a host that resolves its thresholds early pays only for the rounds it
 * needs. */
#define GATE_DEFAULT_BUDGET_S 300.0 /* GitHub refuses comment bodies over 65536 characters */

static const char usage[] =
    "usage: compare gate --spec FILE [run flags] [--threshold METRIC=PERCENT]...\n"
    "                    [--noise-limit PERCENT] [--floors CALIBRATION.json]\n"
    "                    [--budget DURATION] [--disturbed-limit CORES]\n"
    "                    [--post URL --post-token-env VAR]\n"
    "       compare gate --from RUNDIR [--accept-modified] [--unverified] [--spec FILE]\n"
    "                    [--threshold ...]\n"
    "                    [--post ...]\n"
    "       compare gate --baseline CMD --candidate CMD (--redis CMDS | --tcp | --http PATH\n"
    "                    | --ws) [--pipeline N,..] [--save-spec FILE] [gate flags]\n"
    "                    (the one-line form, as in `compare run --help`)\n"
    "  --threshold     gate METRIC (throughput, cpu_efficiency, p50_us, p99_us, rss_mib,\n"
    "                  server_cpu_us; old names p50, p99, rss, server_cpu accepted) at\n"
    "                  PERCENT;\n"
    "                  naming any gates exactly the named ones (default: throughput 5,\n"
    "                  cpu_efficiency 5, p99_us 10; on rows at a fixed rate server_cpu_us\n"
    "                  10 and p99_us 25); the spec's \"gate\" section is read first\n"
    "  --budget D      spend at most D (5m, 90s, 1h; spec gate.budget; default 5m; 0: the\n"
    "                  planned rounds only): after the planned\n"
    "                  rounds, undecided rows get alternating rounds while time is left;\n"
    "                  stops early when every row is decided, or when one is decided\n"
    "                  regressed (the gate fails then, whatever the others show)\n"
    "  --disturbed-limit CORES  a run during which other processes used more CPU than\n"
    "                  this (default 0.15 cores; or steal above 5%) is disturbed: its\n"
    "                  round is run again (at most 2 rounds per row)\n"
    "  --no-pin        leave the driver and the server where the scheduler puts them; by\n"
    "                  default, unless --pin-driver/--pin-server are given, the gate pins\n"
    "                  the driver to the lower half of the CPUs it may use and the server\n"
    "                  to the upper half (on 2 CPUs: 0 and 1)\n"
    "  --from RUNDIR   judge an existing run directory (e.g. `compare merge` output);\n"
    "                  its runs.jsonl must be what its meta.json recorded\n"
    "  --accept-modified  judge it even when it is not (gate.md then says so first)\n"
    "  --unverified    judge it when its meta.json holds no dataset record to check it\n"
    "                  against, or a modified one (gate.md then says so first)\n"
    "  --floors FILE   per-row floors from `compare calibrate` (calibration.json): a row's\n"
    "                  threshold is raised to what its A/A noise lets the runs detect\n"
    "  --post URL      create or update the pull-request comment (GitHub issue-comment\n"
    "                  API: .../repos/OWNER/REPO/issues/N/comments); the bearer token is\n"
    "                  read from the environment variable named by --post-token-env\n"
    "  --no-instructions  do not count the servers' instructions per operation; by default\n"
    "                  the gate counts them (under valgrind, or hardware counters) when\n"
    "                  valgrind is installed and the spec has no \"instructions\" key\n"
    "  --inconclusive exit|pass|fail  what an undecided gate exits with: 4 (exit, the\n"
    "                  default), 0 (pass) or 1 (fail); gate.md still says undecided\n"
    "exit: 0 pass, 1 regression, 2 bad input, 3 harness failure, 4 undecided\n";

/* Replaces the rows that a per-row rule matches with rows computed under that rule. */
static int apply_row_rules(const char *dir, json_t *summary, const struct gate_config *gc,
                           char *err, size_t errlen)
{
    char path[4200];
    json_t *runs = NULL, *meta = NULL;
    int rc = -1;

    if (gc->n_rows == 0)
        return 0;
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    if (dataset_read(path, &runs, NULL, err, errlen) < 0)
        goto out;
    snprintf(path, sizeof(path), "%s/meta.json", dir);
    meta = ju_load_json(path, err, errlen);
    if (!meta)
        goto out;
    rc = gate_apply_row_rules(gc, summary, runs, meta, err, errlen);
out:
    json_decref(runs);
    json_decref(meta);
    return rc;
}

/* What the command line asked for. */
struct gate_cli {
    struct run_request rq;
    const char *thresholds[GATE_MAX_THRESHOLD_FLAGS];
    size_t n_thresholds;
    const char *post_url, *token_env, *token, *from, *floors;
    double noise, budget_s, disturbed_cores;
    int no_pin;                      /* --no-pin: no default placement */
    int accept_modified;             /* --accept-modified: judge a dataset changed since */
    int unverified;                  /* --unverified: judge one with no record to check */
    int budget_given;                /* --budget given (0 included: planned rounds only) */
    int no_instructions;             /* --no-instructions: no default counted cost */
    int inconclusive;                /* --inconclusive: EXIT_INCONCLUSIVE, EXIT_OK or
                                      * EXIT_REGRESSION */
    char pin_drv[256], pin_srv[256]; /* the default placement's CPU lists */
    uint64_t t_start;                /* when the gate started: --budget counts from here */
};

enum {
    GF_THRESHOLD,
    GF_POST,
    GF_TOKEN_ENV,
    GF_FROM,
    GF_NOISE,
    GF_FLOORS,
    GF_BUDGET,
    GF_DISTURBED,
    GF_NO_PIN,
    GF_ACCEPT_MODIFIED,
    GF_UNVERIFIED,
    GF_INCONCLUSIVE,
    GF_NO_INSTRUCTIONS
};

static int gate_flag(void *ctx, struct flags *f, int id)
{
    struct gate_cli *cli = ctx;
    const char **text[] = {
        [GF_TOKEN_ENV] = &cli->token_env, [GF_FROM] = &cli->from, [GF_FLOORS] = &cli->floors};

    switch (id) {
    case GF_THRESHOLD:
        if (cli->n_thresholds == GATE_MAX_THRESHOLD_FLAGS)
            return flags_fail(f, "more than %d --threshold flags", GATE_MAX_THRESHOLD_FLAGS);
        cli->thresholds[cli->n_thresholds++] = f->value;
        return 0;
    case GF_POST:
        if (strncmp(f->value, "http://", 7) != 0 && strncmp(f->value, "https://", 8) != 0)
            return flags_bad_value(f, "an http:// or https:// URL of an issue's comments");
        cli->post_url = f->value;
        return 0;
    case GF_TOKEN_ENV:
    case GF_FROM:
    case GF_FLOORS:
        *text[id] = f->value;
        return 0;
    case GF_NOISE:
        if (num_parse_double(f->value, 0.1, 1000, &cli->noise) < 0)
            return flags_bad_value(f, "a percent in [0.1, 1000]");
        return 0;
    case GF_BUDGET:
        cli->budget_given = 1;
        if (strcmp(f->value, "0") == 0) {
            cli->budget_s = 0; /* the planned rounds only */
            return 0;
        }
        if (gate_parse_duration(f->value, &cli->budget_s) < 0)
            return flags_bad_value(f, "a duration like 5m, 90s or 1h (at most 24h), or 0");
        return 0;
    case GF_INCONCLUSIVE:
        if (strcmp(f->value, "exit") == 0)
            cli->inconclusive = EXIT_INCONCLUSIVE;
        else if (strcmp(f->value, "pass") == 0)
            cli->inconclusive = EXIT_OK;
        else if (strcmp(f->value, "fail") == 0)
            cli->inconclusive = EXIT_REGRESSION;
        else
            return flags_bad_value(f, "'exit' (exit 4), 'pass' (exit 0) or 'fail' (exit 1)");
        return 0;
    case GF_DISTURBED:
        if (num_parse_double(f->value, 0.01, 1024, &cli->disturbed_cores) < 0)
            return flags_bad_value(f, "the CPU cores other processes may use during a run, "
                                      "from 0.01 to 1024");
        return 0;
    case GF_NO_PIN:
        cli->no_pin = 1;
        return 0;
    case GF_ACCEPT_MODIFIED:
        cli->accept_modified = 1;
        return 0;
    case GF_UNVERIFIED:
        cli->unverified = 1;
        return 0;
    case GF_NO_INSTRUCTIONS:
        cli->no_instructions = 1;
        return 0;
    default:
        return run_flag_apply(&cli->rq, f, id);
    }
}

static const struct flag_def gate_flags[] = {
    {"--threshold", 1, GF_THRESHOLD},
    {"--post", 1, GF_POST},
    {"--post-token-env", 1, GF_TOKEN_ENV},
    {"--from", 1, GF_FROM},
    {"--noise-limit", 1, GF_NOISE},
    {"--floors", 1, GF_FLOORS},
    {"--budget", 1, GF_BUDGET},
    {"--disturbed-limit", 1, GF_DISTURBED},
    {"--no-pin", 0, GF_NO_PIN},
    {"--accept-modified", 0, GF_ACCEPT_MODIFIED},
    {"--unverified", 0, GF_UNVERIFIED},
    {"--inconclusive", 1, GF_INCONCLUSIVE},
    {"--no-instructions", 0, GF_NO_INSTRUCTIONS},
};
static const struct flags_cmd gate_cmd = {
    "compare gate", usage, {FLAGS_TABLE(gate_flags), FLAGS_TABLE(inline_flags)}, 0, gate_flag};

/* Fills cli from argv. Returns -1 to go on, else the exit code (help: 0; bad usage: 2). */
static int parse_args(struct gate_cli *cli, int argc, char **argv)
{
    int rc;

    memset(cli, 0, sizeof(*cli));
    cli->noise = -1;
    cli->inconclusive = EXIT_INCONCLUSIVE;
    cli->t_start = clock_now_ns();
    rc = run_cli_parse(&cli->rq, &gate_cmd, cli, argc, argv);
    if (rc >= 0)
        return rc;
    {
        char err[4096] = "";
        if (cli->from && (cli->rq.inl.baseline || cli->rq.inl.candidate)) {
            fprintf(stderr,
                    "compare: gate: --from cannot be combined with --baseline/--candidate\n");
            return EXIT_USAGE;
        }
        if (run_inline_prepare(&cli->rq, stderr, err, sizeof(err)) < 0) {
            fprintf(stderr, "compare: gate: %s\n", err);
            return EXIT_USAGE;
        }
    }
    if (!cli->rq.spec_path && !cli->from) {
        fprintf(stderr, "compare: gate: --spec FILE (or --from RUNDIR) is required\n%s", usage);
        return EXIT_USAGE;
    }
    if (cli->post_url && !cli->token_env) {
        fprintf(stderr, "compare: gate: --post needs --post-token-env VAR (the token is read "
                        "from that environment variable, never from the command line)\n");
        return EXIT_USAGE;
    }
    if (cli->token_env) {
        cli->token = getenv(cli->token_env);
        if (!cli->token || !*cli->token) {
            fprintf(stderr,
                    "compare: gate: --post-token-env '%s': the environment variable is "
                    "not set or empty\n",
                    cli->token_env);
            return EXIT_USAGE;
        }
    }
    return -1;
}

/* The names of doc's versions ($.versions[].name), comma-separated, into out. */
static void version_names(const json_t *doc, char *out, size_t len)
{
    const json_t *v;
    size_t i, o = 0;

    out[0] = '\0';
    json_array_foreach(json_object_get(doc, "versions"), i, v)
    {
        int n = snprintf(out + o, len - o, "%s%s", i ? "," : "", ju_str(v, "name", "?"));
        if (n < 0 || (size_t)n >= len - o)
            break;
        o += (size_t)n;
    }
}

/* --from DIR --spec FILE: the spec's thresholds judge DIR only when it names the versions DIR
 * measured, in the same order. Returns 0, or -1 (said on stderr). */
static int spec_matches_from(const struct gate_cli *cli, const json_t *spec)
{
    char err[4096] = "", path[4200], want[1024], got[1024];
    json_t *meta;

    snprintf(path, sizeof(path), "%s/meta.json", cli->from);
    meta = ju_load_json(path, err, sizeof(err));
    if (!meta) {
        fprintf(stderr, "compare: gate: --from '%s': %s\n", cli->from, err);
        return -1;
    }
    version_names(meta, want, sizeof(want));
    version_names(spec, got, sizeof(got));
    json_decref(meta);
    if (strcmp(want, got) == 0)
        return 0;
    fprintf(stderr,
            "compare: gate: --spec '%s': $.versions: names %s, but --from '%s' measured %s "
            "(expected the spec of that run, or no --spec)\n",
            cli->rq.spec_path, *got ? got : "none", cli->from, *want ? want : "none");
    return -1;
}

/* --from without --spec: the gate settings come from meta.json, which nothing checks; say so,
 * and what they are, on stderr and (summary's "gate_from_meta") in gate.md. */
static void say_meta_settings(const struct gate_cli *cli, const json_t *meta, json_t *summary)
{
    const json_t *gate = json_object_get(json_object_get(meta, "spec"), "gate");
    char *shown, path[4200];
    json_t *fm;

    if (!gate)
        return;
    snprintf(path, sizeof(path), "%s/meta.json", cli->from);
    fm = json_pack("{s:s, s:O}", "file", path, "gate", gate);
    if (fm) /* gate.md says it too (gate_report.c) */
        json_object_set_new(summary, "gate_from_meta", fm);
    shown = json_dumps(gate, JSON_COMPACT | JSON_PRESERVE_ORDER);
    fprintf(stderr,
            "compare: gate: the thresholds and noise settings are spec.gate of '%s/meta.json' "
            "(not checked against anything)%s: %s\n",
            cli->from,
            cli->n_thresholds || cli->noise > 0 ? "; --threshold/--noise-limit override theirs"
                                                : "",
            shown ? shown : "?");
    free(shown);
}

/* The thresholds: the spec's (or the run directory's) gate section first, then the flags,
 * the noise limit and the calibration's floors. *spec keeps the loaded document. */
static int load_config(const struct gate_cli *cli, struct gate_config *gc, json_t **spec)
{
    char err[4096] = "", path[4200];
    const json_t *gate_section;
    const char *spec_name;
    size_t k;

    if (cli->rq.spec_path) {
        *spec = ju_load_json(cli->rq.spec_path, err, sizeof(err));
        if (!*spec) {
            fprintf(stderr, "compare: gate: %s\n", err);
            return -1;
        }
        gate_section = json_object_get(*spec, "gate");
        spec_name = cli->rq.spec_path;
    } else {
        snprintf(path, sizeof(path), "%s/meta.json", cli->from);
        *spec = ju_load_json(path, err, sizeof(err));
        if (!*spec) {
            fprintf(stderr, "compare: gate: --from '%s': %s\n", cli->from, err);
            return -1;
        }
        gate_section = json_object_get(json_object_get(*spec, "spec"), "gate");
        spec_name = "meta.json spec";
    }
    if (gate_parse_spec(gc, gate_section, spec_name, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare: %s\n", err);
        return -1;
    }
    if (cli->from && cli->rq.spec_path && spec_matches_from(cli, *spec) < 0)
        return -1;
    for (k = 0; k < cli->n_thresholds; k++)
        if (gate_parse_threshold(gc, cli->thresholds[k], err, sizeof(err)) < 0) {
            fprintf(stderr, "compare: %s\n", err);
            return -1;
        }
    if (cli->noise > 0)
        gc->rules.noise_limit_pct = cli->noise;
    if (cli->budget_given) /* --budget 0: the planned rounds only, whatever the spec says */
        gc->budget_s = cli->budget_s;
    else if (!(gc->budget_s > 0) && !cli->from)
        gc->budget_s = GATE_DEFAULT_BUDGET_S;
    if (cli->disturbed_cores > 0)
        gc->limits.other_cpu_cores = cli->disturbed_cores;
    if (cli->floors) {
        json_t *cal = ju_load_json(cli->floors, err, sizeof(err));
        int frc = cal ? gate_apply_floors(gc, cal, cli->floors, err, sizeof(err)) : -1;

        json_decref(cal);
        if (frc < 0) {
            fprintf(stderr, "compare: gate: --floors: %s\n", err);
            return -1;
        }
    }
    return 0;
}

/* Whether an executable named prog is on PATH. */
static int gate_on_path(const char *prog)
{
    const char *p = getenv("PATH");
    char path[4200];

    while (p && *p) {
        size_t n = strcspn(p, ":");

        if (n > 0 && n < 4000) {
            snprintf(path, sizeof(path), "%.*s/%s", (int)n, p, prog);
            if (access(path, X_OK) == 0)
                return 1;
        }
        p += n;
        if (*p == ':')
            p++;
    }
    return 0;
}

/* The counted channel decides on any host, so a gate counts the servers' instructions per
 * operation unless --no-instructions, the spec's own "instructions" key, or a host without
 * valgrind says otherwise (cost_resolve picks hardware counters where they work). */
static void gate_default_cost(struct gate_cli *cli, const json_t *spec)
{
    if (cli->from || cli->no_instructions || cli->rq.instructions ||
        json_object_get(spec, "instructions") || !gate_on_path("valgrind"))
        return;
    cli->rq.instructions = 1;
    fprintf(stderr, "compare: gate: counting the servers' instructions per operation "
                    "(--no-instructions leaves them out)\n");
}

/* Unless told otherwise, the gate keeps the driver and the server on disjoint CPUs: where
 * the scheduler moves them, the runs spread more and a gate takes longer to decide
 * (docs/statistics.md, "Placement", has the figures). */
static void gate_default_pins(struct gate_cli *cli)
{
    cpu_set_t have;
    char e[512];
    json_t *spec = cli->rq.spec_path ? ju_load_json(cli->rq.spec_path, e, sizeof(e)) : NULL;
    int apart = json_object_get(spec, "server_host") != NULL;

    json_decref(spec);
    if (apart && !cli->no_pin && !cli->rq.pin_driver && !cli->rq.pin_server)
        fprintf(stderr, "compare: gate: the server runs on the server host, the driver here: "
                        "nothing is pinned by default (--pin-server CPUS pins it there)\n");
    if (apart || cli->no_pin || cli->rq.pin_driver || cli->rq.pin_server ||
        sched_getaffinity(0, sizeof(have), &have) < 0 ||
        proc_split_cpus(&have, cli->pin_drv, cli->pin_srv, sizeof(cli->pin_drv)) < 0)
        return;
    cli->rq.pin_driver = cli->pin_drv;
    cli->rq.pin_server = cli->pin_srv;
    fprintf(stderr,
            "compare: gate: the driver runs on CPUs %s, the server on CPUs %s (--no-pin "
            "leaves them to the scheduler)\n",
            cli->pin_drv, cli->pin_srv);
}

/* The summary to judge: rendered from --from's directory, or from a run made now. Returns
 * -1 to go on (*summary set), else the exit code. */
static int obtain_summary(struct gate_cli *cli, struct gate_config *gc, struct run_outcome *o,
                          json_t **summary, int *run_rc)
{
    char err[4096] = "";

    cli->rq.rules = &gc->rules;
    cli->rq.gate = gc;
    cli->rq.limits = &gc->limits;
    cli->rq.repeat_disturbed = 1;
    cli->rq.stop_when_regressed = 1;
    if (gc->budget_s > 0)
        cli->rq.deadline_ns = cli->t_start + (uint64_t)(gc->budget_s * 1e9);
    if (cli->from) {
        struct render_opts ro = {NULL, &gc->rules, cli->accept_modified, cli->unverified, NULL};

        snprintf(o->dir, sizeof(o->dir), "%s", cli->from);
        if (render_dir(cli->from, &ro, summary, err, sizeof(err)) < 0) {
            fprintf(stderr, "compare: gate: --from '%s': %s\n", cli->from, err);
            return EXIT_USAGE;
        }
        return -1;
    }
    gate_default_pins(cli);
    *run_rc = run_execute(&cli->rq, o, err, sizeof(err));
    if (*run_rc == EXIT_USAGE) {
        fprintf(stderr, "compare: gate: %s\n", err);
        return EXIT_USAGE;
    }
    *summary = o->summary;
    o->summary = NULL;
    if (!*summary) {
        fprintf(stderr, "compare: gate: exit 3: nothing to judge: %s\n",
                *err ? err : "the run wrote no summary");
        return EXIT_HARNESS;
    }
    if (o->interrupted)
        *run_rc = EXIT_HARNESS;
    return -1;
}

/* gate.md in the run directory and on stdout, then the one-line verdict on stderr. */
static void write_verdict(const json_t *summary, const struct gate_config *gc,
                          const struct gate_result *gr, const char *dir, int rc, const char *lang)
{
    char err[1024] = "", path[4200];
    char *md = gate_markdown(summary, gc, gr, NULL, dir, (size_t)-1, lang);

    if (md) {
        snprintf(path, sizeof(path), "%s/gate.md", dir);
        if (atomic_write(path, md, strlen(md), err, sizeof(err)) < 0)
            fprintf(stderr, "compare: gate: warning: %s\n", err);
        if (step_summary_append(md, err, sizeof(err)) < 0)
            fprintf(stderr, "compare: gate: warning: %s\n", err);
        fputs(md, stdout);
        fflush(stdout);
        free(md);
    }
    term_table(stderr, summary, gc->gated, 100);
    fprintf(stderr, "compare: gate: run directory: %s\n", dir);
    if (rc != EXIT_OK)
        fprintf(stderr, "compare: gate: exit %d: %s\n", rc, gr->reason);
    else
        fprintf(stderr, "compare: gate: pass (%u rows gated)\n", gr->rows);
}

/* The pull-request comment; its failure is a warning, never the exit code. */
static void post_verdict(const struct gate_cli *cli, const json_t *summary,
                         const struct gate_config *gc, const struct gate_result *gr,
                         const char *dir)
{
    char err[4096] = "", path[4200];
    const char *action = NULL;
    char *report, *md;

    snprintf(path, sizeof(path), "%s/report.md", dir);
    report = ju_read_file(path, 16u << 20, NULL, err, sizeof(err));
    md = gate_markdown(summary, gc, gr, report, dir, GATE_COMMENT_MAX, cli->rq.lang);
    if (!md)
        fprintf(stderr, "compare: gate: warning: could not format the comment\n");
    else if (post_comment(cli->post_url, cli->token, md, GATE_MARKER, &action, err, sizeof(err)) <
             0)
        fprintf(stderr, "compare: gate: warning: comment not posted (the verdict stands): %s\n",
                err);
    else
        fprintf(stderr, "compare: gate: comment %s\n", action);
    free(md);
    free(report);
}

int cmd_gate(int argc, char **argv)
{
    struct gate_cli cli;
    struct run_outcome o;
    struct gate_config gc;
    struct gate_result gr;
    char err[4096] = "";
    json_t *spec = NULL, *summary = NULL;
    int rc, run_rc = EXIT_OK;

    memset(&o, 0, sizeof(o));
    gate_config_init(&gc);
    rc = parse_args(&cli, argc, argv);
    if (rc >= 0)
        goto out;
    rc = EXIT_USAGE;
    if (load_config(&cli, &gc, &spec) < 0)
        goto out;
    gate_default_cost(&cli, spec);
    rc = obtain_summary(&cli, &gc, &o, &summary, &run_rc);
    if (rc >= 0)
        goto out;
    if (cli.from && !cli.rq.spec_path)
        say_meta_settings(&cli, spec, summary);
    if (apply_row_rules(o.dir, summary, &gc, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare: gate: per-row thresholds: %s\n", err);
        rc = EXIT_HARNESS;
        goto out;
    }
    rc = gate_decide(summary, &gc, &gr);
    if (rc == EXIT_OK && run_rc == EXIT_HARNESS) {
        rc = gr.code = EXIT_HARNESS;
        snprintf(gr.reason, sizeof(gr.reason), "%s",
                 o.interrupted ? "the run was interrupted"
                               : "runs failed in rows that are not gated");
    }
    if (rc == EXIT_INCONCLUSIVE && cli.inconclusive != EXIT_INCONCLUSIVE) {
        fprintf(stderr, "compare: gate: undecided, taken as %s (--inconclusive %s)\n",
                cli.inconclusive == EXIT_OK ? "a pass" : "a failure",
                cli.inconclusive == EXIT_OK ? "pass" : "fail");
        rc = cli.inconclusive;
    }
    json_object_set_new(summary, "outcome", outcome_build(summary, gc.gated));
    write_verdict(summary, &gc, &gr, o.dir, rc, cli.rq.lang);
    if (cli.post_url)
        post_verdict(&cli, summary, &gc, &gr, o.dir);
out:
    json_decref(summary);
    json_decref(spec);
    run_outcome_release(&o);
    gate_config_release(&gc);
    return rc;
}
