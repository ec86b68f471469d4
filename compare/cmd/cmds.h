/* The compare subcommands, with the exit codes they share (util/exit_codes.h). Each
 * cmd_* gets argv starting at its own name (argv[0] = "run") and returns the process exit code. */
#ifndef PAIRBENCH_CMDS_H
#define PAIRBENCH_CMDS_H

#include "util/exit_codes.h"

int cmd_run(int argc, char **argv);       /* cmd/run.c */
int cmd_report(int argc, char **argv);    /* cmd/run.c */
int cmd_demo(int argc, char **argv);      /* cmd/demo.c */
int cmd_gate(int argc, char **argv);      /* cmd/gate.c */
int cmd_commits(int argc, char **argv);   /* cmd/commits.c */
int cmd_bisect(int argc, char **argv);    /* cmd/bisect.c */
int cmd_drift(int argc, char **argv);     /* cmd/drift.c */
int cmd_merge(int argc, char **argv);     /* cmd/merge.c */
int cmd_calibrate(int argc, char **argv); /* cmd/calibrate.c */
int cmd_system(int argc, char **argv);    /* cmd/system.c */

#endif
