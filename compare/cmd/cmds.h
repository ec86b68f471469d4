/* The compare subcommands and the exit codes they share (docs/architecture.md#exit-codes). Each
 * cmd_* gets argv starting at its own name (argv[0] = "run") and returns the process exit code. */
#ifndef PAIRBENCH_CMDS_H
#define PAIRBENCH_CMDS_H

enum {
    EXIT_OK = 0,           /* success; gate/drift: no regression */
    EXIT_REGRESSION = 1,   /* gate/drift: a regression was found */
    EXIT_USAGE = 2,        /* bad usage or bad input */
    EXIT_HARNESS = 3,      /* runs failed, a server never became ready, a build failed */
    EXIT_INCONCLUSIVE = 4, /* gate: a gated row is unstable or incomplete */
};

int cmd_run(int argc, char **argv);       /* cmd/run.c */
int cmd_report(int argc, char **argv);    /* cmd/run.c */
int cmd_demo(int argc, char **argv);      /* cmd/demo.c */
int cmd_gate(int argc, char **argv);      /* cmd/gate.c */
int cmd_commits(int argc, char **argv);   /* cmd/commits.c */
int cmd_bisect(int argc, char **argv);    /* cmd/bisect.c */
int cmd_drift(int argc, char **argv);     /* cmd/drift.c */
int cmd_merge(int argc, char **argv);     /* cmd/merge.c */
int cmd_calibrate(int argc, char **argv); /* cmd/calibrate.c */

#endif
