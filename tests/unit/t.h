/* Minimal table-friendly unit test helpers: CHECK() records a failure and goes on,
 * T_DONE() prints the tally and returns the exit status for main(). */
#ifndef PAIRBENCH_T_H
#define PAIRBENCH_T_H

#include <stdio.h>
#include <string.h>

static int t_checks, t_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        t_checks++;                                                                                \
        if (!(cond)) {                                                                             \
            t_failures++;                                                                          \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        t_checks++;                                                                                \
        if (!(cond)) {                                                                             \
            t_failures++;                                                                          \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_STR(a, b) CHECK_MSG(strcmp((a), (b)) == 0, "'%s' != '%s'", (a), (b))

#define T_DONE()                                                                                   \
    (printf("%s: %d checks, %d failed\n", __FILE__, t_checks, t_failures), t_failures ? 1 : 0)

#endif
