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
 * (how many one wake-up found ready), the honest limit of an exact count there. With the
 * virtual clock (clock.c) each return also advances that clock, and a wait with a timeout
 * waits at least the clock's grace period of real time (select is wrapped for it too). */
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>

#include "clock.h"
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
static void mark(int n, int waited, long long timeout_ns)
{
    int err = errno;

    clock_waited(n, err, timeout_ns);
    errno = err;
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

/* Waves (PAIRBENCH_WAVE=N, set by compare when its driver sends in lockstep over N
 * connections): a wait that found some of a wave's requests ready also collects the rest,
 * re-polling without waiting and sleeping WAVE_NAP_US between polls, until N entries are
 * ready or none came for WAVE_QUIET_NAPS naps, then hands them over ordered by their data
 * (the fd, or the server's pointer), so every run's event loop sees each wave at once and in
 * one order: the number of its iterations and their work no longer follow timing. How many
 * polls that took does follow timing, so compare leaves this function out of the count
 * (callgrind --toggle-collect=pairbench_wave_gather). */
#define WAVE_NAP_US 100
#define WAVE_QUIET_NAPS 500 /* 50 ms without a new entry: the wave is smaller (accepts, closes) */
#define WAVE_MAX 4096

static int wave_size(void)
{
    static int size = -1;

    if (size < 0) {
        const char *s = getenv("PAIRBENCH_WAVE");
        long v = s ? strtol(s, NULL, 10) : 0;

        size = v > 1 && v <= WAVE_MAX ? (int)v : 0;
    }
    return size;
}

static int by_data(const void *a, const void *b)
{
    uint64_t x = ((const struct epoll_event *)a)->data.u64;
    uint64_t y = ((const struct epoll_event *)b)->data.u64;

    return x < y ? -1 : x > y;
}

/* Adds what more[0..k) holds that ev[0..n) does not (events of one entry are or-ed). */
static int merge(struct epoll_event *ev, int n, int max, const struct epoll_event *more, int k,
                 int *added)
{
    int i, j;

    for (i = 0; i < k; i++) {
        for (j = 0; j < n && ev[j].data.u64 != more[i].data.u64; j++)
            ;
        if (j < n) {
            ev[j].events |= more[i].events;
        } else if (n < max) {
            ev[n++] = more[i];
            (*added)++;
        }
    }
    return n;
}

int pairbench_wave_gather(int epfd, struct epoll_event *ev, int max, int n);
__attribute__((noinline, visibility("default"))) int
pairbench_wave_gather(int epfd, struct epoll_event *ev, int max, int n)
{
    epoll_wait_fn real = (epoll_wait_fn)next_fn("epoll_wait");
    int (*nap)(const struct timespec *, struct timespec *) =
        (int (*)(const struct timespec *, struct timespec *))next_fn("nanosleep");
    static __thread struct epoll_event more[256];
    struct timespec t = {0, WAVE_NAP_US * 1000l};
    int want = wave_size() < max ? wave_size() : max, quiet = 0;

    while (n < want && quiet < WAVE_QUIET_NAPS) {
        int added = 0, k = real(epfd, more, max < 256 ? max : 256, 0);

        if (k > 0)
            n = merge(ev, n, max, more, k, &added);
        if (n >= want)
            break;
        quiet = added ? 0 : quiet + 1;
        nap(&t, NULL);
    }
    qsort(ev, (size_t)n, sizeof(*ev), by_data);
    return n;
}

int epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout)
{
    epoll_wait_fn real = (epoll_wait_fn)next_fn("epoll_wait");
    int n = real(epfd, ev, max, clock_wait_ms(timeout));

    if (n > 0 && wave_size())
        n = pairbench_wave_gather(epfd, ev, max, n);
    mark(n, timeout != 0, timeout * 1000000ll);
    return n;
}

int epoll_pwait(int epfd, struct epoll_event *ev, int max, int timeout, const sigset_t *mask)
{
    epoll_pwait_fn real = (epoll_pwait_fn)next_fn("epoll_pwait");
    int n = real(epfd, ev, max, clock_wait_ms(timeout), mask);

    if (n > 0 && wave_size())
        n = pairbench_wave_gather(epfd, ev, max, n);
    mark(n, timeout != 0, timeout * 1000000ll);
    return n;
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
    poll_fn real = (poll_fn)next_fn("poll");
    int n = real(fds, nfds, clock_wait_ms(timeout));

    mark(n, timeout != 0, timeout * 1000000ll);
    return n;
}

int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *tmo, const sigset_t *mask)
{
    ppoll_fn real = (ppoll_fn)next_fn("ppoll");
    long long ns = tmo ? (long long)tmo->tv_sec * 1000000000ll + tmo->tv_nsec : -1;
    struct timespec t;
    int n;

    if (ns > 0 && clock_virtual() && ns < clock_wait_ms(1) * 1000000ll) {
        t.tv_sec = clock_wait_ms(1) / 1000;
        t.tv_nsec = (long)(clock_wait_ms(1) % 1000) * 1000000l;
        tmo = &t;
    }
    n = real(fds, nfds, tmo, mask);
    mark(n, ns != 0, ns);
    return n;
}

int select(int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
    int (*real)(int, fd_set *, fd_set *, fd_set *, struct timeval *) =
        (int (*)(int, fd_set *, fd_set *, fd_set *, struct timeval *))next_fn("select");
    long long ns = tv ? (long long)tv->tv_sec * 1000000000ll + tv->tv_usec * 1000ll : -1;
    struct timeval t;
    int n;

    if (ns > 0 && clock_virtual() && ns < clock_wait_ms(1) * 1000000ll) {
        t.tv_sec = clock_wait_ms(1) / 1000;
        t.tv_usec = (long)(clock_wait_ms(1) % 1000) * 1000l;
        n = real(nfds, r, w, e, &t);
        if (n == 0)
            tv->tv_sec = tv->tv_usec = 0;
    } else {
        n = real(nfds, r, w, e, tv);
    }
    mark(n, ns != 0, ns);
    return n;
}
