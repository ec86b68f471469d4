/* cmd/run.c: `compare run` and `compare report` (argv only), and the run flags every command
 * that runs shares (run_flags, run_flag_apply). What a run does is run/execute.c. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "num.h"
#include "run/sshhost.h"
#include "run/proc.h"
#include "report/render.h"
#include "run/run.h"
#include "cmd/run_cli.h"
#include "run/schedule.h"
#include "report/term.h"

const struct flag_def run_flags[] = {
    {"--spec", 1, RUN_FLAG_SPEC},
    {"--grid", 1, RUN_FLAG_GRID},
    {"--runs", 1, RUN_FLAG_RUNS},
    {"--warmup", 1, RUN_FLAG_WARMUP},
    {"--duration", 1, RUN_FLAG_DURATION},
    {"--out", 1, RUN_FLAG_OUT},
    {"--shard", 1, RUN_FLAG_SHARD},
    {"--lang", 1, RUN_FLAG_LANG},
    {"--pin-driver", 1, RUN_FLAG_PIN_DRIVER},
    {"--pin-server", 1, RUN_FLAG_PIN_SERVER},
    {"--confirm", 1, RUN_FLAG_CONFIRM},
    {"--resume", 0, RUN_FLAG_RESUME},
    {"--instructions", 0, RUN_FLAG_INSTRUCTIONS},
    {"--syscalls", 0, RUN_FLAG_SYSCALLS},
    {"--cache-sim", 0, RUN_FLAG_CACHE_SIM},
};
const size_t run_flags_count = sizeof(run_flags) / sizeof(run_flags[0]);

/* The one-line form (run/inline.c), for run and gate. */
const struct flag_def inline_flags[RUN_INLINE_FLAGS] = {
    {"--baseline", 1, RUN_FLAG_BASELINE},
    {"--candidate", 1, RUN_FLAG_CANDIDATE},
    {"--redis", 1, RUN_FLAG_REDIS},
    {"--tcp", 0, RUN_FLAG_TCP},
    {"--http", 1, RUN_FLAG_HTTP},
    {"--ws", 0, RUN_FLAG_WS},
    {"--pipeline", 1, RUN_FLAG_PIPELINE},
    {"--connections", 1, RUN_FLAG_CONNECTIONS},
    {"--payload", 1, RUN_FLAG_PAYLOAD},
    {"--save-spec", 1, RUN_FLAG_SAVE_SPEC},
    {"--workers", 1, RUN_FLAG_WORKERS},
    {"--window", 1, RUN_FLAG_WINDOW},
    {"--rate", 1, RUN_FLAG_RATE},
    {"--keyspace", 1, RUN_FLAG_KEYSPACE},
    {"--command", 1, RUN_FLAG_COMMAND},
    {"--setup", 1, RUN_FLAG_SETUP},
    {"--server-host", 1, RUN_FLAG_SERVER_HOST},
};
const size_t inline_flags_count = sizeof(inline_flags) / sizeof(inline_flags[0]);

/* The one-line form's flags into rq->inl (the values are checked by run_inline_prepare). */
static int run_flag_inline(struct run_request *rq, struct flags *f, int id)
{
    struct run_inline *in = &rq->inl;
    static const char *const protocols[] = {
        [RUN_FLAG_REDIS - RUN_FLAG_REDIS] = "redis",
        [RUN_FLAG_TCP - RUN_FLAG_REDIS] = "tcp",
        [RUN_FLAG_HTTP - RUN_FLAG_REDIS] = "http",
        [RUN_FLAG_WS - RUN_FLAG_REDIS] = "ws",
    };
    const char **text[] = {
        [RUN_FLAG_BASELINE - RUN_FLAG_BASELINE] = &in->baseline,
        [RUN_FLAG_CANDIDATE - RUN_FLAG_BASELINE] = &in->candidate,
        [RUN_FLAG_PIPELINE - RUN_FLAG_BASELINE] = &in->pipeline,
        [RUN_FLAG_CONNECTIONS - RUN_FLAG_BASELINE] = &in->connections,
        [RUN_FLAG_PAYLOAD - RUN_FLAG_BASELINE] = &in->payload,
        [RUN_FLAG_SAVE_SPEC - RUN_FLAG_BASELINE] = &in->save_spec,
        [RUN_FLAG_WORKERS - RUN_FLAG_BASELINE] = &in->workers,
        [RUN_FLAG_WINDOW - RUN_FLAG_BASELINE] = &in->window,
        [RUN_FLAG_RATE - RUN_FLAG_BASELINE] = &in->rate,
        [RUN_FLAG_KEYSPACE - RUN_FLAG_BASELINE] = &in->keyspace,
        [RUN_FLAG_COMMAND - RUN_FLAG_BASELINE] = &in->command,
        [RUN_FLAG_SETUP - RUN_FLAG_BASELINE] = &in->setup,
        [RUN_FLAG_SERVER_HOST - RUN_FLAG_BASELINE] = &in->server_host,
    };

    if (id >= RUN_FLAG_REDIS && id <= RUN_FLAG_WS) {
        const char *p = protocols[id - RUN_FLAG_REDIS];
        if (in->protocol && strcmp(in->protocol, p) != 0)
            return flags_fail(f, "%s: one load at a time (--%s was given already)", f->flag,
                              in->protocol);
        in->protocol = p;
        if (id == RUN_FLAG_REDIS)
            in->commands = f->value;
        if (id == RUN_FLAG_HTTP && f->value[0] != '/')
            return flags_bad_value(f, "a request path starting with '/'");
        if (id == RUN_FLAG_HTTP)
            in->path = f->value;
        return 0;
    }
    if (!f->value[0])
        return flags_bad_value(f, id == RUN_FLAG_SAVE_SPEC ? "a file name" : "a value");
    if (id == RUN_FLAG_SERVER_HOST) { /* checked now: the spec it goes into is printed */
        struct server_host h;
        char why[512];
        if (sshhost_parse(f->value, &h, why, sizeof(why)) < 0)
            return flags_fail(f, "%s: %s", f->flag, why);
    }
    if (id == RUN_FLAG_COMMAND) { /* a command template is a Redis load */
        if (in->protocol && strcmp(in->protocol, "redis") != 0)
            return flags_fail(f, "%s: a Redis command template, but --%s was given", f->flag,
                              in->protocol);
        in->protocol = "redis";
    }
    *text[id - RUN_FLAG_BASELINE] = f->value;
    return 0;
}

static int run_flag_number(struct flags *f, int id, struct run_request *rq)
{
    const char *v = f->value;
    unsigned n;

    switch (id) {
    case RUN_FLAG_RUNS:
        if (num_parse_uint(v, 1, 1000, &n) < 0)
            return flags_bad_value(f, "an integer from 1 to 1000");
        rq->runs = (int)n;
        return 0;
    case RUN_FLAG_WARMUP:
        if (num_parse_double(v, 0, 3600, &rq->warmup_s) < 0)
            return flags_bad_value(f, "seconds from 0 to 3600");
        return 0;
    case RUN_FLAG_DURATION:
        if (num_parse_double(v, 0.001, 86400, &rq->duration_s) < 0)
            return flags_bad_value(f, "seconds from 0.001 to 86400");
        return 0;
    default: /* RUN_FLAG_CONFIRM */
        if (num_parse_uint(v, 0, 100, &n) < 0)
            return flags_bad_value(f, "extra rounds from 0 to 100");
        rq->confirm_rounds = (int)n;
        return 0;
    }
}

int run_flag_apply(struct run_request *rq, struct flags *f, int id)
{
    const char *v = f->value;
    cpu_set_t set;

    switch (id) {
    case RUN_FLAG_INSTRUCTIONS:
        rq->instructions = 1;
        return 0;
    case RUN_FLAG_BASELINE:
    case RUN_FLAG_CANDIDATE:
    case RUN_FLAG_REDIS:
    case RUN_FLAG_TCP:
    case RUN_FLAG_HTTP:
    case RUN_FLAG_WS:
    case RUN_FLAG_PIPELINE:
    case RUN_FLAG_CONNECTIONS:
    case RUN_FLAG_PAYLOAD:
    case RUN_FLAG_SAVE_SPEC:
    case RUN_FLAG_WORKERS:
    case RUN_FLAG_WINDOW:
    case RUN_FLAG_RATE:
    case RUN_FLAG_KEYSPACE:
    case RUN_FLAG_COMMAND:
    case RUN_FLAG_SETUP:
    case RUN_FLAG_SERVER_HOST:
        return run_flag_inline(rq, f, id);
    case RUN_FLAG_SYSCALLS:
        rq->syscalls = 1;
        return 0;
    case RUN_FLAG_CACHE_SIM:
        rq->cache_sim = 1;
        return 0;
    case RUN_FLAG_RESUME:
        rq->resume = 1;
        return 0;
    case RUN_FLAG_SPEC:
        rq->spec_path = v;
        return 0;
    case RUN_FLAG_GRID:
        if (rq->n_grids == RUN_MAX_GRIDS)
            return flags_fail(f, "--grid: at most %d grids", RUN_MAX_GRIDS);
        rq->grid_paths[rq->n_grids++] = v;
        return 0;
    case RUN_FLAG_RUNS:
    case RUN_FLAG_WARMUP:
    case RUN_FLAG_DURATION:
    case RUN_FLAG_CONFIRM:
        return run_flag_number(f, id, rq);
    case RUN_FLAG_OUT:
        if (!*v)
            return flags_bad_value(f, "a directory");
        rq->out_dir = v;
        return 0;
    case RUN_FLAG_SHARD:
        if (sched_parse_shard(v, &rq->shard_k, &rq->shard_n) < 0)
            return flags_bad_value(f, "K/N with 1 <= K <= N");
        return 0;
    case RUN_FLAG_LANG:
        if (strcmp(v, "en") != 0 && strcmp(v, "zh") != 0)
            return flags_bad_value(f, "'en' or 'zh'");
        rq->lang = v;
        return 0;
    case RUN_FLAG_PIN_DRIVER:
    case RUN_FLAG_PIN_SERVER: {
        char why[320];
        if (num_parse_cpus(v, &set) < 0)
            return flags_bad_value(f, "a CPU list like 0,2-3");
        /* the server's CPUs are checked where it runs (runner_check_host) */
        if (id == RUN_FLAG_PIN_DRIVER && proc_check_cpus(&set, why, sizeof(why)) < 0)
            return flags_fail(f, "%s '%s': %s", f->flag, v, why);
        if (id == RUN_FLAG_PIN_DRIVER)
            rq->pin_driver = v;
        else
            rq->pin_server = v;
        return 0;
    }
    default:
        return flags_fail(f, "%s: not a run flag", f->flag ? f->flag : "?");
    }
}

static const char run_usage[] =
    "usage: compare run --spec FILE [--grid FILE]... [--runs N] [--warmup S] "
    "[--duration S]\n"
    "                   [--out DIR] [--resume] [--shard K/N] [--lang en|zh]\n"
    "                   [--pin-driver CPUS] [--pin-server CPUS] [--confirm N]\n"
    "                   [--instructions] [--syscalls] [--cache-sim]\n"
    "       compare run --baseline CMD --candidate CMD (--redis CMDS | --command TEMPLATE |\n"
    "                   --tcp | --http PATH | --ws) [--pipeline N,..] [--connections N,..]\n"
    "                   [--workers N,..] [--window N,..] [--payload N,..] [--rate R,..]\n"
    "                   [--keyspace N,..] [--setup CMDS] [--save-spec FILE]\n"
    "                   [--server-host ssh://[USER@]HOST[:PORT][?keyfile=F&known_hosts=F]]\n"
    "                   [run flags]\n"
    "Runs every configuration of the grids for every version of the spec, in fresh\n"
    "processes, rounds in alternating order; writes DIR/runs.jsonl, meta.json,\n"
    "summary.json, report.md and report.html, and prints DIR on stdout.\n"
    "--confirm N: a borderline row (change past its threshold without strong\n"
    "evidence, or unstable) gets up to N extra rounds, two at a time; fixed in\n"
    "advance and stated in the report (the spec's \"confirm_rounds\" sets it too).\n"
    "--instructions: also count the server's instructions per operation under\n"
    "valgrind, in 3 counted rounds of their own (the spec's \"instructions\").\n"
    "The one-line form: two server commands ({port} is the free port) and the load;\n"
    "4 connections, min(4, connections) workers, 64-byte values, window 1, a closed\n"
    "loop unless told (--rate R: R operations/s, or \"N%\" of the saturation rate);\n"
    "a list makes an axis. It prints the spec it builds (kept in DIR/input/); --save-spec FILE\n"
    "writes it and its grid (FILE.grid.json) for `compare run --spec FILE`.\n"
    "--server-host URL: both servers run on that host over ssh, started by the driver\n"
    "there (`driver agent`); the spec's \"server_host\" (docs/remote.md).\n"
    "--syscalls: also count the server's system calls per operation, by name, with\n"
    "ptrace, in 3 counted rounds of their own (the spec's \"syscalls\").\n"
    "--cache-sim: count the instructions with callgrind's cache simulation too, for\n"
    "estimated cycles per operation (implies --instructions; the spec's \"cache_sim\").\n"
    "exit: 0 ok, 2 bad input, 3 runs failed or interrupted (SIGINT/SIGTERM: partial\n"
    "report; continue with --resume --out DIR)\n";

static int run_flag_handler(void *rq, struct flags *f, int id)
{
    return run_flag_apply(rq, f, id);
}

int run_cli_parse(struct run_request *rq, const struct flags_cmd *c, void *ctx, int argc,
                  char **argv)
{
    struct flags_cmd full = *c;
    size_t t = 0;

    while (t + 1 < FLAGS_MAX_TABLES && full.tables[t].defs)
        t++;
    full.tables[t].defs = run_flags;
    full.tables[t].n = run_flags_count;
    if (!full.handle) {
        full.handle = run_flag_handler;
        ctx = rq;
    }
    run_request_init(rq);
    rq->argc = argc;
    rq->argv = argv;
    return flags_parse(&full, ctx, argc, argv);
}

static const struct flags_cmd run_cmd = {
    .cmd = "compare run", .usage = run_usage, .tables = {FLAGS_TABLE(inline_flags)}};

/* Prints the outcome of run_execute(): the directory on stdout, the error on stderr. */
static void print_outcome(int rc, const struct run_outcome *o, const char *err)
{
    if (err[0])
        fprintf(stderr, "compare: %s\n", err);
    if (rc != EXIT_USAGE && o->dir[0]) {
        /* No summary means the reports could not be written (err says why): say where the
         * dataset is, and how to render it once the cause is fixed. */
        if (o->summary) {
            term_table(stderr, o->summary, NULL, 100);
            fprintf(stderr, "compare: %u runs recorded, %u failed; report: %s/report.md\n",
                    o->runs_total, o->runs_failed, o->dir);
        } else
            fprintf(stderr,
                    "compare: %u runs recorded, %u failed, in %s/runs.jsonl; no report "
                    "(render it with: compare report %s)\n",
                    o->runs_total, o->runs_failed, o->dir, o->dir);
        printf("%s\n", o->dir);
    }
}

int cmd_run(int argc, char **argv)
{
    struct run_request rq;
    struct run_outcome o;
    char err[4096] = "";
    int rc = run_cli_parse(&rq, &run_cmd, NULL, argc, argv);

    if (rc >= 0)
        return rc;
    if (run_inline_prepare(&rq, stderr, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare run: %s\n", err);
        return EXIT_USAGE;
    }
    if (!rq.spec_path) {
        fprintf(stderr,
                "compare run: --spec FILE (or --baseline CMD --candidate CMD and a load) is "
                "required\n%s",
                run_usage);
        return EXIT_USAGE;
    }
    rc = run_execute(&rq, &o, err, sizeof(err));
    print_outcome(rc, &o, err);
    run_outcome_release(&o);
    return rc;
}

/* What `compare report` was asked for. */
struct report_cli {
    const char *dir, *lang, *fresh;
    int accept_modified, unverified;
};

#define REPORT_FLAG_ACCEPT (-100)     /* --accept-modified (clear of the run flags' ids) */
#define REPORT_FLAG_UNVERIFIED (-101) /* --unverified */
#define REPORT_FLAG_FRESH (-102)      /* --fresh DIR */

static int report_flag(void *ctx, struct flags *f, int id)
{
    struct report_cli *cli = ctx;

    if (id == FLAGS_POSITIONAL && cli->dir)
        return flags_fail(f, "unexpected argument '%s' (usage: compare report DIR [--lang en|zh])",
                          f->value);
    if (id == FLAGS_POSITIONAL)
        cli->dir = f->value;
    else if (id == REPORT_FLAG_ACCEPT)
        cli->accept_modified = 1;
    else if (id == REPORT_FLAG_UNVERIFIED)
        cli->unverified = 1;
    else if (id == REPORT_FLAG_FRESH)
        cli->fresh = f->value;
    else if (strcmp(f->value, "en") != 0 && strcmp(f->value, "zh") != 0)
        return flags_bad_value(f, "'en' or 'zh'");
    else
        cli->lang = f->value;
    return 0;
}

static const struct flag_def report_flags[] = {{"--lang", 1, RUN_FLAG_LANG},
                                               {"--accept-modified", 0, REPORT_FLAG_ACCEPT},
                                               {"--unverified", 0, REPORT_FLAG_UNVERIFIED},
                                               {"--fresh", 1, REPORT_FLAG_FRESH}};
static const struct flags_cmd report_cmd = {
    .cmd = "compare report",
    .usage = "usage: compare report DIR [--lang en|zh] [--accept-modified] [--unverified]\n"
             "                      [--fresh FRESH_DIR]\n"
             "Re-renders summary.json, summary.csv, report.md and report.html of a run\n"
             "directory from its runs.jsonl and meta.json (nothing is measured).\n"
             "  --fresh FRESH_DIR  DIR is a sequence run: set FRESH_DIR, a run of the same\n"
             "                     configurations with a fresh server per run, beside its\n"
             "                     steps\n"
             "  --accept-modified  render a runs.jsonl that is not what meta.json recorded\n"
             "                     (every output then says so in its first line)\n"
             "  --unverified       render one whose meta.json holds no dataset record to\n"
             "                     check it against, or a modified one (said first too)\n",
    .tables = {FLAGS_TABLE(report_flags)},
    .positional = 1,
    .handle = report_flag,
};

int cmd_report(int argc, char **argv)
{
    struct report_cli cli = {NULL, NULL, NULL, 0, 0};
    const char *dir;
    char err[2048], path[PATH_MAX + 32];
    struct render_opts ro = {0};
    int rc = flags_parse(&report_cmd, &cli, argc, argv);

    if (rc >= 0)
        return rc;
    dir = cli.dir;
    if (!dir) {
        fprintf(stderr, "compare report: missing DIR (usage: compare report DIR [--lang "
                        "en|zh])\n");
        return EXIT_USAGE;
    }
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    if (access(path, R_OK) < 0) {
        fprintf(stderr, "compare report: '%s' holds no readable runs.jsonl: %s\n", dir,
                strerror(errno));
        return EXIT_USAGE;
    }
    ro.lang = cli.lang;
    ro.accept_modified = cli.accept_modified;
    ro.unverified = cli.unverified;
    ro.fresh_dir = cli.fresh;
    rc = render_dir(dir, &ro, NULL, err, sizeof(err));
    if (rc < 0) {
        fprintf(stderr, "compare report: %s\n", err);
        return rc == RENDER_MODIFIED ? EXIT_USAGE : EXIT_HARNESS;
    }
    printf("%s/report.md\n", dir);
    return EXIT_OK;
}
