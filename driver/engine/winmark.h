/* Window marks: when the environment names an inherited file descriptor in
 * PAIRBENCH_WINDOW_FD, the driver writes one line "start NS\n" when its measured window
 * opens and one line "end NS\n" when it closes (NS: CLOCK_MONOTONIC in ns at the mark), and
 * nothing else, so whoever started it (compare) can sample the server at those moments.
 * winmark_init() takes the descriptor out of the environment and marks it close-on-exec, so no
 * child (a wrapped tool, a server) inherits either. Without the variable every call is a no-op. */
#ifndef PAIRBENCH_WINMARK_H
#define PAIRBENCH_WINMARK_H

#include <stddef.h>
#include <stdint.h>

/* Reads and unsets PAIRBENCH_WINDOW_FD. 0 (also when it is absent), or -1 with err set when
 * it is not a decimal descriptor number that is open. Call once, before any thread. */
int winmark_init(char *err, size_t errlen);

/* Writes "start NS\n" (at most once per process) with NS = at_ns, the window's own start
 * (CLOCK_MONOTONIC, clock.h): a thread that writes it late on a loaded machine still marks
 * where counting began. */
void winmark_start(uint64_t at_ns);
/* Writes "end NS\n" once, NS = now, and only after winmark_start(). */
void winmark_end(void);

#endif
