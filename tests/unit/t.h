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

/* Whether s is valid UTF-8 (no cut character), for outputs cut to a byte count. */
static inline int valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    while (*p) {
        int n = *p < 0x80             ? 0
                : (*p & 0xE0) == 0xC0 ? 1
                : (*p & 0xF0) == 0xE0 ? 2
                : (*p & 0xF8) == 0xF0 ? 3
                                      : -1;
        if (n < 0)
            return 0;
        for (p++; n > 0; n--, p++)
            if ((*p & 0xC0) != 0x80)
                return 0;
    }
    return 1;
}

#endif
