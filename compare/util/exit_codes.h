/* The exit codes every compare command shares (docs/architecture.md#exit-codes). Constants
 * only, so any room can name an outcome without reaching up into cmd/. */
#ifndef PAIRBENCH_EXIT_CODES_H
#define PAIRBENCH_EXIT_CODES_H

enum {
    EXIT_OK = 0,           /* success; gate/drift: no regression */
    EXIT_REGRESSION = 1,   /* gate/drift: a regression was found */
    EXIT_USAGE = 2,        /* bad usage or bad input */
    EXIT_HARNESS = 3,      /* runs failed, a server never became ready, a build failed */
    EXIT_INCONCLUSIVE = 4, /* gate: a gated row is unstable or incomplete */
};

#endif
