/* wake: marks the time-driven wake-ups of a counted server (part of the interposer,
 * bin/libpairbench-seed.so, with seed.c). A server's event loop sleeps in epoll_wait or poll
 * with a timeout set by its next timer; a call that waited (timeout not 0) and returned no
 * event woke because time passed, not because of a request. Each such return calls
 * pairbench_time_wakeup, a function of exactly one instruction, so its count in a callgrind
 * profile is the number of time-driven wake-ups. compare measures the instructions of one
 * wake-up while the server idles and subtracts that many per wake-up of the window: a
 * correction by count, not by wall-clock time (run/cost.c). Calls that returned events, or
 * polled with a zero timeout, are the requests' own work and left alone. Every return that
 * waited (timeout not 0) also calls pairbench_loop_wait, also one instruction: its count is
 * the event loop's iterations, which at many connections depend on how the requests arrived
 * (how many one wake-up found ready), the honest limit of an exact count there. */
#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <time.h>

#include "next_fn.h"

/* One instruction ("ret"): in a profile, its self cost is its number of calls. Hidden, so the
 * calls below are direct (no PLT stub between). */
__asm__(".text\n"
        ".globl pairbench_time_wakeup\n"
        ".hidden pairbench_time_wakeup\n"
        ".type pairbench_time_wakeup, @function\n"
        "pairbench_time_wakeup:\n"
        "\tret\n"
        ".size pairbench_time_wakeup, .-pairbench_time_wakeup\n");
void pairbench_time_wakeup(void);
__asm__(".text\n"
        ".globl pairbench_loop_wait\n"
        ".hidden pairbench_loop_wait\n"
        ".type pairbench_loop_wait, @function\n"
        "pairbench_loop_wait:\n"
        "\tret\n"
        ".size pairbench_loop_wait, .-pairbench_loop_wait\n");
void pairbench_loop_wait(void);

/* Marks a return of a wait that may have slept (timeout not 0): every one, and those that
 * found no event. */
static void mark(int n, int waited)
{
    if (!waited)
        return;
    pairbench_loop_wait();
    if (n == 0)
        pairbench_time_wakeup();
}

typedef int (*epoll_wait_fn)(int, struct epoll_event *, int, int);
typedef int (*epoll_pwait_fn)(int, struct epoll_event *, int, int, const sigset_t *);
typedef int (*poll_fn)(struct pollfd *, nfds_t, int);
typedef int (*ppoll_fn)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);

int epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout)
{
    epoll_wait_fn real = (epoll_wait_fn)next_fn("epoll_wait");
    int n = real(epfd, ev, max, timeout);

    mark(n, timeout != 0);
    return n;
}

int epoll_pwait(int epfd, struct epoll_event *ev, int max, int timeout, const sigset_t *mask)
{
    epoll_pwait_fn real = (epoll_pwait_fn)next_fn("epoll_pwait");
    int n = real(epfd, ev, max, timeout, mask);

    mark(n, timeout != 0);
    return n;
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
    poll_fn real = (poll_fn)next_fn("poll");
    int n = real(fds, nfds, timeout);

    mark(n, timeout != 0);
    return n;
}

int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *tmo, const sigset_t *mask)
{
    ppoll_fn real = (ppoll_fn)next_fn("ppoll");
    int n = real(fds, nfds, tmo, mask);

    mark(n, !tmo || tmo->tv_sec || tmo->tv_nsec);
    return n;
}
