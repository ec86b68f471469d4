/* srv_extra: the reference server's detection knobs, costs added per request on purpose so a
 * comparison can be shown to see them (each on exactly its own metric):
 *   --extra-syscalls N  N cheap system calls (getppid through syscall(2)) per reply;
 *   --extra-allocs N    N malloc/free pairs per request, through a volatile pointer so the
 *                       compiler cannot elide them;
 *   --extra-wakeups N   N hand-offs per request to a helper thread that sleeps on a condition
 *                       variable: the worker wakes it and waits for its answer, so each one is
 *                       a wake-up of a sleeping thread (and the futex calls that takes);
 * and the costs that build up over the server's life (docs/driver.md, "Over time"):
 *   --grow-ns N         a request costs N ns more (a busy wait) for every 1000 requests the
 *                       server has served, all workers together: a registry that grows;
 *   --stall-after N --stall-ms M
 *                       once, when the N-th request is served, every worker stops answering
 *                       for M ms: a background job that wakes after a while.
 * Kept apart from serve.c so the knobs stay local. */
#ifndef PAIRBENCH_SRV_EXTRA_H
#define PAIRBENCH_SRV_EXTRA_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "opts.h"

struct srv_extra {
    unsigned syscalls, allocs, wakeups;
    /* the wake-up helper: one per server, hand-offs serialised by gate */
    pthread_mutex_t gate, mu;
    pthread_cond_t cv;
    pthread_t th;
    unsigned long long posted, answered; /* under mu */
    int started, stop;
    /* the build-up knobs: requests served so far (counted only when one is set), and the
     * end of the one stall (0: not begun) */
    unsigned grow_ns, stall_ms;
    uint64_t stall_after;
    _Atomic uint64_t served, stall_until;
};

/* Takes the knobs from o and starts the helper thread when --extra-wakeups > 0. Returns 0,
 * or -1 with err. */
int srv_extra_start(struct srv_extra *x, const struct drv_opts *o, char *err, size_t errlen);
/* The extra costs of one request (called by the worker that served it). */
void srv_extra_request(struct srv_extra *x);
/* Once per turn of a worker's loop: sleeps to the end of the --stall-after stall while it
 * lasts (the worker that served the N-th request began it). */
void srv_extra_hold(struct srv_extra *x);
void srv_extra_stop(struct srv_extra *x);

/* A closing connection's input, read and discarded (serve.c drains it so the client reads
 * our last reply rather than a reset): 0 when the socket has no more for now, -1 once the
 * client closed, failed, or sent more than 8 MiB (*drained counts it). */
int srv_drain_read(int fd, size_t *drained);

/* Out of descriptors (EMFILE/ENFILE): the listener stays readable, so epoll would report it
 * again at once and the worker would spin. Frees *spare_fd to accept the oldest pending
 * connection on lfd and close it at once (that client sees the connection closed instead of
 * waiting in the backlog), then takes the spare back. 1 = one shed, try the next; 0 =
 * nothing pending; -1 = no spare (another thread took the number): leave the listener out
 * of this loop for a while. */
int srv_shed_one(int lfd, int *spare_fd);

#endif
