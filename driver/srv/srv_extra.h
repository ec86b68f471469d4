/* srv_extra: the reference server's detection knobs, costs added per request on purpose so a
 * comparison can be shown to see them (each on exactly its own metric):
 *   --extra-syscalls N  N cheap system calls (getppid through syscall(2)) per reply;
 *   --extra-allocs N    N malloc/free pairs per request, through a volatile pointer so the
 *                       compiler cannot elide them;
 *   --extra-wakeups N   N hand-offs per request to a helper thread that sleeps on a condition
 *                       variable: the worker wakes it and waits for its answer, so each one is
 *                       a wake-up of a sleeping thread (and the futex calls that takes).
 * Kept apart from serve.c so the knobs stay local. */
#ifndef PAIRBENCH_SRV_EXTRA_H
#define PAIRBENCH_SRV_EXTRA_H

#include <pthread.h>
#include <stddef.h>

struct srv_extra {
    unsigned syscalls, allocs, wakeups;
    /* the wake-up helper: one per server, hand-offs serialised by gate */
    pthread_mutex_t gate, mu;
    pthread_cond_t cv;
    pthread_t th;
    unsigned long long posted, answered; /* under mu */
    int started, stop;
};

/* Starts the helper thread when wakeups > 0. Returns 0, or -1 with err. */
int srv_extra_start(struct srv_extra *x, unsigned syscalls, unsigned allocs, unsigned wakeups,
                    char *err, size_t errlen);
/* The extra costs of one request (called by the worker that served it). */
void srv_extra_request(struct srv_extra *x);
void srv_extra_stop(struct srv_extra *x);

#endif
