/* jemalloc: keeps jemalloc's background thread off in a counted server that runs on the
 * virtual clock (part of the interposer, with clock.c). redis and valkey turn the thread on
 * at start (`jemalloc-bg-thread yes`: mallctl("background_thread", true)); it purges and
 * gathers statistics on its own schedule in real time (pthread_cond_timedwait with absolute
 * deadlines, which the virtual clock does not convert), so its work, and the main thread's
 * hand-offs to it, follow the window's wall-clock length: redis SET at one connection, three
 * counts of one seed, 6837.59/6839.07/6838.85 instructions per request with it, 6841.14 in all
 * three without. The request to turn it on is passed to jemalloc as "off" (mallctl answers as
 * if it had been taken), and the log says so ("J <pid> background_thread"). Only jemalloc that
 * the server links dynamically (Debian's libjemalloc) is reached; a bundled, prefixed jemalloc
 * (je_mallctl inside the binary) is not. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "next_fn.h"

typedef int (*mallctl_fn)(const char *, void *, size_t *, void *, size_t);

/* jemalloc's, not in a header the build has. */
int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);

int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
{
    mallctl_fn real = (mallctl_fn)next_fn("mallctl");
    bool off = false;
    char line[64];
    int len;

    if (!real)
        return 2; /* ENOENT: no jemalloc behind this one */
    if (clock_virtual() && name && strcmp(name, "background_thread") == 0 && newp &&
        newlen == sizeof(bool) && *(const bool *)newp) {
        len = snprintf(line, sizeof(line), "J %ld background_thread\n", (long)getpid());
        if (len > 0 && (size_t)len < sizeof(line))
            clock_log_line(line, (size_t)len);
        return real(name, oldp, oldlenp, &off, newlen);
    }
    return real(name, oldp, oldlenp, newp, newlen);
}
