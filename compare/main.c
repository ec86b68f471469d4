/* bin/compare: the orchestrator. Dispatches to one subcommand; never measures anything in
 * its own process (it forks, execs, waits, reads, computes and writes). */
#include <stdio.h>
#include <string.h>

#include "cmd/cmds.h"
#include "run/runmeta.h"

static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *what;
} commands[] = {
    {"run", cmd_run, "run a grid against versions, write a run directory and reports"},
    {"report", cmd_report, "re-render reports from a run directory (no re-measurement)"},
    {"gate", cmd_gate, "run + thresholds + exit code + optional PR comment"},
    {"commits", cmd_commits, "build two commits of a repo in worktrees, then run"},
    {"bisect", cmd_bisect, "find the commit of a range at which a metric moved"},
    {"drift", cmd_drift, "add a run to a history directory; report drift and step changes"},
    {"merge", cmd_merge, "merge shard datasets into one run directory"},
    {"calibrate", cmd_calibrate, "run the baseline against itself; report noise per row"},
    {"system", cmd_system, "show, tune (root) or reset the host knobs that move measurements"},
    {"demo", cmd_demo, "a short real comparison: redis-server 7.0 vs valkey-server 8.0"},
};

static void usage(FILE *f)
{
    size_t i;

    fprintf(f, "usage: compare <command> [options]   (compare <command> --help)\n\n");
    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].what);
    fprintf(f, "\nexit codes: 0 ok, 1 regression, 2 bad usage or input, 3 harness failure,\n"
               "            4 inconclusive\n");
}

int main(int argc, char **argv)
{
    size_t i;

    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("pairbench %s (%s)\n", PAIRBENCH_RELEASE, PAIRBENCH_VERSION);
        return EXIT_OK;
    }
    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            runmeta_program = argv[0];
            return commands[i].fn(argc - 1, argv + 1);
        }
    fprintf(stderr,
            "compare: unknown command '%s' (expected one of: run, report, gate, commits, bisect, "
            "drift, merge, calibrate, system, demo)\n",
            argv[1]);
    return EXIT_USAGE;
}
