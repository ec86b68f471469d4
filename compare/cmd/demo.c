/* cli_demo: `compare demo`, the embedded default — a short real comparison that needs nothing
 * but the install: redis-server (7.0) as baseline against valkey-server (8.0) as candidate,
 * ECHO, SET and GET at pipeline 1 and 16, 4 connections, 3 rounds, short windows. The spec and
 * grid are written into the run directory (input/) so that the report's "reproduce" command
 * works as is. The counted-cost channel is on for the pipeline-1 rows (3 counted rounds of
 * 2000 requests under valgrind): one decisive figure when the timed rows are noisy. Prints
 * where the report is and its "Throughput and CPU" table. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "atomic.h"
#include "cmds.h"
#include "run.h"

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
    "  \"runs\": 3, \"warmup\": 0.5, \"duration\": 1.5,\n"
    "  \"instructions\": {\"enabled\": %s, \"runs\": 3, \"requests\": 2000, "
    "\"warmup_requests\": 300, \"idle_s\": 0.3, \"match\": {\"pipeline\": 1}}\n"
    "}\n";

/* Prints the "Throughput and CPU" section of report.md (heading to the next heading). */
static void print_table(const char *dir)
{
    char path[PATH_MAX + 32], *line = NULL;
    size_t cap = 0;
    FILE *f;
    int in = 0;

    snprintf(path, sizeof(path), "%s/report.md", dir);
    f = fopen(path, "re");
    if (!f)
        return;
    while (getline(&line, &cap, f) > 0) {
        if (line[0] == '#') {
            if (in)
                break;
            in = strstr(line, "Throughput and CPU") != NULL;
        }
        if (in)
            fputs(line, stdout);
    }
    free(line);
    fclose(f);
}

int cmd_demo(int argc, char **argv)
{
    struct run_request rq;
    struct run_outcome o;
    char err[4096] = "", dir[PATH_MAX], in_dir[PATH_MAX + 16], spec_path[PATH_MAX + 32],
         grid_path[PATH_MAX + 32], spec[2 * PATH_MAX];
    int i = 1, rc, counted = 1;

    run_request_init(&rq);
    rq.argc = argc;
    rq.argv = argv;
    while (i < argc) {
        int r;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: compare demo [--out DIR] [--runs N] [--warmup S] [--duration S]\n"
                   "                    [--no-instructions]\n"
                   "A short real comparison: redis-server 7.0 (baseline) vs valkey-server 8.0\n"
                   "(candidate), ECHO/SET/GET at pipeline 1 and 16, 4 connections, 3 rounds,\n"
                   "and the servers' instructions per operation counted under valgrind at\n"
                   "pipeline 1 (3 counted rounds; --no-instructions leaves them out).\n");
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--no-instructions") == 0) {
            counted = 0; /* the counted rounds take about a minute of the demo's three */
            i++;
            continue;
        }
        r = run_flag_parse(&rq, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "compare demo: %s\n", err);
            return EXIT_USAGE;
        }
        if (r == 0 || rq.spec_path || rq.n_grids || rq.resume || rq.shard_n) {
            fprintf(stderr,
                    "compare demo: unsupported option '%s' (expected --out, --runs, "
                    "--warmup, --duration, --lang)\n",
                    argv[i - (r != 0)]);
            return EXIT_USAGE;
        }
    }
    if (rq.out_dir) {
        snprintf(dir, sizeof(dir), "%s", rq.out_dir);
    } else {
        time_t now = time(NULL);
        struct tm tm;
        char ts[32];
        gmtime_r(&now, &tm);
        strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
        snprintf(dir, sizeof(dir), "reports/%s-demo", ts);
        if (mkdir("reports", 0755) < 0 && errno != EEXIST) {
            fprintf(stderr, "compare demo: cannot create directory 'reports': %s\n",
                    strerror(errno));
            return EXIT_USAGE;
        }
    }
    snprintf(in_dir, sizeof(in_dir), "%s/input", dir);
    if ((mkdir(dir, 0755) < 0 && errno != EEXIST) || (mkdir(in_dir, 0755) < 0 && errno != EEXIST)) {
        fprintf(stderr, "compare demo: cannot create directory '%s': %s\n", in_dir,
                strerror(errno));
        return EXIT_USAGE;
    }
    snprintf(grid_path, sizeof(grid_path), "%s/demo-grid.json", in_dir);
    snprintf(spec_path, sizeof(spec_path), "%s/demo-spec.json", in_dir);
    snprintf(spec, sizeof(spec), demo_spec_fmt, grid_path, counted ? "true" : "false");
    if (atomic_write(grid_path, demo_grid, strlen(demo_grid), err, sizeof(err)) < 0 ||
        atomic_write(spec_path, spec, strlen(spec), err, sizeof(err)) < 0) {
        fprintf(stderr, "compare demo: %s\n", err);
        return EXIT_USAGE;
    }
    rq.spec_path = spec_path;
    rq.out_dir = dir;
    fprintf(stderr,
            "compare demo: redis-server vs valkey-server, 6 configurations x 2 versions "
            "x %d rounds\n",
            rq.runs ? rq.runs : 3);
    rc = run_execute(&rq, &o, err, sizeof(err));
    if (err[0])
        fprintf(stderr, "compare demo: %s\n", err);
    if (rc != EXIT_USAGE && o.dir[0]) {
        printf("report: %s/report.md (and report.html, summary.json, runs.jsonl)\n\n", o.dir);
        print_table(o.dir);
    }
    run_outcome_release(&o);
    return rc;
}
