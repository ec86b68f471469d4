/* cli_demo: `compare demo`, the embedded default — a short real comparison that needs nothing
 * but the install: redis-server (7.0) as baseline against valkey-server (8.0) as candidate,
 * ECHO, SET and GET at pipeline 1 and 16, 4 connections, 5 rounds (the runs a side the design
 * asks for), short windows. The spec and
 * grid are written into the run directory (input/) so that the report's "reproduce" command
 * works as is. The counted-cost channel is on for one row, SET at pipeline 1 (3 counted rounds
 * of 2000 requests under valgrind; one row keeps the demo short, timed in
 * docs/results/counted-cost.md, "The demo's counted row"): one decisive figure when the timed
 * rows are noisy.
 * Prints where the report is and its "Throughput and CPU" table. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/atomic.h"
#include "util/jobs_util.h"
#include "cmd/cmds.h"
#include "cmd/flags.h"
#include "run/run.h"
#include "cmd/run_cli.h"
#include "report/term.h"

static const char demo_grid[] =
    "{\n"
    "  \"name\": \"demo\",\n"
    "  \"description\": \"compare demo: redis ECHO, SET, GET at pipeline 1 and 16, 4 "
    "connections, 64-byte values\",\n"
    "  \"defaults\": {\"protocol\": \"redis\", \"connections\": 4, \"workers\": 4, "
    "\"payload\": 64, \"window\": 1},\n"
    "  \"axes\": {\"command\": [\"ECHO\", \"SET\", \"GET\"], \"pipeline\": [1, 16]}\n"
    "}\n";

static const char demo_spec_fmt[] =
    "{\n"
    "  \"description\": \"compare demo: Redis 7.0 (baseline) against Valkey 8.0 (candidate)\",\n"
    "  \"versions\": [\n"
    "    {\"name\": \"redis-7.0\", \"server\": {\"redis\": \"redis-server --port {port} --bind "
    "127.0.0.1 --save '' --appendonly no --dir {dir}\"}},\n"
    "    {\"name\": \"valkey-8.0\", \"server\": {\"redis\": \"valkey-server --port {port} --bind "
    "127.0.0.1 --save '' --appendonly no --dir {dir}\"}}\n"
    "  ],\n"
    "  \"grids\": [\"%s\"],\n"
    "  \"runs\": 5, \"warmup\": 0.3, \"duration\": 1,\n"
    "  \"instructions\": {\"enabled\": %s, \"runs\": 3, \"requests\": 2000, "
    "\"warmup_requests\": 300, \"idle_s\": 0.3,\n"
    "                   \"match\": {\"command\": \"SET\", \"pipeline\": 1}}\n"
    "}\n";

#define DEMO_NO_INSTRUCTIONS 1

/* The run flags the demo takes: its spec, grids and schedule are its own. */
static const struct flag_def demo_flags[] = {
    {"--out", 1, RUN_FLAG_OUT},       {"--runs", 1, RUN_FLAG_RUNS},
    {"--warmup", 1, RUN_FLAG_WARMUP}, {"--duration", 1, RUN_FLAG_DURATION},
    {"--lang", 1, RUN_FLAG_LANG},     {"--no-instructions", 0, DEMO_NO_INSTRUCTIONS},
};

/* What the demo was asked for: run flags, and whether to count instructions. */
struct demo_cli {
    struct run_request rq;
    int counted;
};

static int demo_flag(void *ctx, struct flags *f, int id)
{
    struct demo_cli *cli = ctx;

    if (id == DEMO_NO_INSTRUCTIONS) {
        cli->counted = 0; /* the counted rounds take about 35 s of the demo's two minutes */
        return 0;
    }
    return run_flag_apply(&cli->rq, f, id);
}

static const struct flags_cmd demo_cmd = {
    .cmd = "compare demo",
    .usage = "usage: compare demo [--out DIR] [--runs N] [--warmup S] [--duration S]\n"
             "                    [--no-instructions]\n"
             "A short real comparison: redis-server 7.0 (baseline) vs valkey-server 8.0\n"
             "(candidate), ECHO/SET/GET at pipeline 1 and 16, 4 connections, 5 rounds,\n"
             "and the servers' instructions per operation counted under valgrind for SET\n"
             "at pipeline 1 (3 counted rounds; --no-instructions leaves them out).\n",
    .tables = {FLAGS_TABLE(demo_flags)},
    .handle = demo_flag,
};

int cmd_demo(int argc, char **argv)
{
    struct demo_cli cli = {.counted = 1};
    struct run_request *rq = &cli.rq;
    struct run_outcome o;
    char err[4096] = "", dir[PATH_MAX], in_dir[PATH_MAX + 16], spec_path[PATH_MAX + 32],
         grid_path[PATH_MAX + 32], spec[2 * PATH_MAX];
    int rc;

    run_request_init(rq);
    rq->argc = argc;
    rq->argv = argv;
    rc = flags_parse(&demo_cmd, &cli, argc, argv);
    if (rc >= 0)
        return rc;
    if (rq->out_dir) {
        snprintf(dir, sizeof(dir), "%s", rq->out_dir);
    } else {
        time_t now = time(NULL);
        struct tm tm;
        char ts[32];
        gmtime_r(&now, &tm);
        strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
        snprintf(dir, sizeof(dir), "reports/%s-demo", ts);
    }
    snprintf(in_dir, sizeof(in_dir), "%s/input", dir);
    if (ju_mkdir_p(in_dir, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare demo: %s\n", err);
        return EXIT_USAGE;
    }
    snprintf(grid_path, sizeof(grid_path), "%s/demo-grid.json", in_dir);
    snprintf(spec_path, sizeof(spec_path), "%s/demo-spec.json", in_dir);
    snprintf(spec, sizeof(spec), demo_spec_fmt, grid_path, cli.counted ? "true" : "false");
    if (atomic_write(grid_path, demo_grid, strlen(demo_grid), err, sizeof(err)) < 0 ||
        atomic_write(spec_path, spec, strlen(spec), err, sizeof(err)) < 0) {
        fprintf(stderr, "compare demo: %s\n", err);
        return EXIT_USAGE;
    }
    rq->spec_path = spec_path;
    rq->out_dir = dir;
    fprintf(stderr,
            "compare demo: redis-server vs valkey-server, 6 configurations x 2 versions "
            "x %d rounds\n",
            rq->runs ? rq->runs : 5);
    rc = run_execute(rq, &o, err, sizeof(err));
    if (err[0])
        fprintf(stderr, "compare demo: %s\n", err);
    if (rc != EXIT_USAGE && o.dir[0]) {
        if (o.summary)
            term_table(stdout, o.summary, NULL, 100);
        printf("report: %s/report.md (and report.html, summary.json, runs.jsonl)\n", o.dir);
    }
    run_outcome_release(&o);
    return rc;
}
