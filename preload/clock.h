/* clock.h: what wake.c and seed.c share with clock.c (the virtual clock), hidden in the
 * interposer. */
#ifndef PAIRBENCH_PRELOAD_CLOCK_H
#define PAIRBENCH_PRELOAD_CLOCK_H

#include <stddef.h>

#define PRELOAD_HIDDEN __attribute__((visibility("hidden")))

/* The timeout (ms) a wait asked for timeout really waits: at least the grace period when the
 * clock is virtual and timeout > 0, else timeout. */
PRELOAD_HIDDEN int clock_wait_ms(int timeout);

/* Advances the virtual clock after a wait that returned n (err: its errno) and asked for
 * timeout_ns (< 0: none): the quantum when n > 0, the timeout when it returned no event. */
PRELOAD_HIDDEN void clock_waited(int n, int err, long long timeout_ns);

/* 1 when the virtual clock is on in this process. */
PRELOAD_HIDDEN int clock_virtual(void);

/* One line to PAIRBENCH_SEED_LOG (seed.c). */
PRELOAD_HIDDEN void clock_log_line(const char *line, size_t len);

#endif
