/* clock: the virtual clock of a counted server (part of the interposer,
 * bin/libpairbench-seed.so, with seed.c and wake.c; on when PAIRBENCH_CLOCK is
 * "virtual:QUANTUM_NS", set by compare for counted runs only). A server's time-driven work
 * (redis' serverCron: incremental rehashing, clientsCron; nginx's cached date strings) runs as
 * often as its clock says time passed; with the real clock that follows how long the counted
 * window took in wall-clock time, not the requests. The virtual clock advances by rule instead:
 *
 * - QUANTUM_NS per event-loop wake-up that returned events (epoll_wait, epoll_pwait, poll,
 *   ppoll, select returning > 0: wake.c calls clock_waited);
 * - the requested timeout when a wait returned no event or was interrupted (so timers fire:
 *   a signal such as SIGTERM still reaches redis' serverCron, which shuts it down);
 * - the requested time of nanosleep, clock_nanosleep and usleep;
 * - CLOCK_READ_NS per clock read (so a loop that waits for time to pass ends).
 *
 * A wait with a timeout waits at least CLOCK_GRACE_MS of real time (clock_wait_ms): while
 * requests flow the next one arrives well within it, so the outcome of a wait (an event, not a
 * timeout) never depends on how fast the machine ran; an idle server's timers fire at most
 * once per CLOCK_GRACE_MS of real time, each advancing the clock by its whole timeout.
 *
 * Every clock starts at its real value at the process's start, rounded down to a whole
 * second (the sub-second phase is the same in every run); a forked child continues its
 * parent's clock. Served: clock_gettime (REALTIME, MONOTONIC and their COARSE/RAW/BOOTTIME/TAI
 * kinds; the process and thread CPU clocks read the elapsed virtual time; other clocks are
 * real), gettimeofday, time, clock. Not converted: absolute deadlines given to
 * pthread_cond_timedwait and the like (they see real time). The log line "C <pid> <quantum>
 * <read step> <grace>" says a process had it (PAIRBENCH_SEED_LOG, as seed.c's lines). */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "next_fn.h"

#define CLOCK_READ_NS 1000ull
#define CLOCK_GRACE_MS 2000

static int clock_on;
static uint64_t clock_quantum;               /* ns per wake-up with events */
static uint64_t clock_elapsed;               /* atomic: virtual ns since the start */
static struct timespec base_real, base_mono; /* the start, whole seconds */

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static int real_gettime(clockid_t id, struct timespec *ts)
{
    clock_gettime_fn real = (clock_gettime_fn)next_fn("clock_gettime");

    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    return real(id, ts);
}

/* The "C" line of this process (the record checks every counted process had the clock). */
static void clock_note(void)
{
    char line[128];
    int len = snprintf(line, sizeof(line), "C %ld %llu %llu %d\n", (long)getpid(),
                       (unsigned long long)clock_quantum, CLOCK_READ_NS, CLOCK_GRACE_MS);

    if (len > 0 && (size_t)len < sizeof(line))
        clock_log_line(line, (size_t)len);
}

__attribute__((constructor)) static void clock_init(void)
{
    const char *s = getenv("PAIRBENCH_CLOCK");
    char *end;
    unsigned long long q;

    if (!s || strncmp(s, "virtual:", 8) != 0)
        return;
    errno = 0;
    q = strtoull(s + 8, &end, 10);
    if (errno || *end || end == s + 8 || q == 0)
        return;
    if (real_gettime(CLOCK_REALTIME, &base_real) < 0 ||
        real_gettime(CLOCK_MONOTONIC, &base_mono) < 0)
        return;
    base_real.tv_nsec = 0;
    base_mono.tv_nsec = 0;
    clock_quantum = q;
    clock_on = 1;
    clock_note();
    (void)pthread_atfork(NULL, NULL, clock_note); /* a forked child continues the clock */
}

static void advance(uint64_t ns)
{
    __atomic_fetch_add(&clock_elapsed, ns, __ATOMIC_RELAXED);
}

int clock_virtual(void)
{
    return clock_on;
}

int clock_wait_ms(int timeout)
{
    return clock_on && timeout > 0 && timeout < CLOCK_GRACE_MS ? CLOCK_GRACE_MS : timeout;
}

void clock_waited(int n, int err, long long timeout_ns)
{
    if (!clock_on)
        return;
    if (n > 0)
        advance(clock_quantum);
    else if (timeout_ns > 0 && (n == 0 || err == EINTR))
        advance((uint64_t)timeout_ns);
}

/* The virtual time of a clock (base + elapsed), one read step later. */
static void virtual_time(const struct timespec *base, struct timespec *ts)
{
    uint64_t e = __atomic_fetch_add(&clock_elapsed, CLOCK_READ_NS, __ATOMIC_RELAXED);

    ts->tv_sec = base->tv_sec + (time_t)(e / 1000000000ull);
    ts->tv_nsec = (long)(e % 1000000000ull);
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    static const struct timespec zero;

    if (!clock_on)
        return real_gettime(id, ts);
    switch (id) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_TAI:
        virtual_time(&base_real, ts);
        return 0;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_BOOTTIME:
        virtual_time(&base_mono, ts);
        return 0;
    case CLOCK_PROCESS_CPUTIME_ID:
    case CLOCK_THREAD_CPUTIME_ID:
        virtual_time(&zero, ts);
        return 0;
    default:
        return real_gettime(id, ts);
    }
}

int gettimeofday(struct timeval *restrict tv_, void *restrict tz)
{
    struct timeval *volatile tv = tv_; /* declared nonnull; NULL is allowed by the kernel */
    int (*real)(struct timeval *, void *) =
        (int (*)(struct timeval *, void *))next_fn("gettimeofday");
    struct timespec ts;

    if (!clock_on)
        return real ? real(tv_, tz) : (errno = ENOSYS, -1);
    if (tz)
        memset(tz, 0, sizeof(struct timezone));
    if (tv) {
        virtual_time(&base_real, &ts);
        tv->tv_sec = ts.tv_sec;
        tv->tv_usec = ts.tv_nsec / 1000;
    }
    return 0;
}

time_t time(time_t *t)
{
    time_t (*real)(time_t *) = (time_t(*)(time_t *))next_fn("time");
    struct timespec ts;

    if (!clock_on)
        return real ? real(t) : (time_t)-1;
    virtual_time(&base_real, &ts);
    if (t)
        *t = ts.tv_sec;
    return ts.tv_sec;
}

clock_t clock(void)
{
    clock_t (*real)(void) = (clock_t(*)(void))next_fn("clock");
    struct timespec ts;
    static const struct timespec zero;

    if (!clock_on)
        return real ? real() : (clock_t)-1;
    virtual_time(&zero, &ts);
    return (clock_t)(ts.tv_sec * CLOCKS_PER_SEC + ts.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}

static long long ts_ns(const struct timespec *ts)
{
    return ts ? (long long)ts->tv_sec * 1000000000ll + ts->tv_nsec : 0;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
    int (*real)(const struct timespec *, struct timespec *) =
        (int (*)(const struct timespec *, struct timespec *))next_fn("nanosleep");
    int rc;

    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    rc = real(req, rem);
    if (clock_on && rc == 0 && req && ts_ns(req) > 0)
        advance((uint64_t)ts_ns(req));
    return rc;
}

int usleep(useconds_t us)
{
    struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000};

    return nanosleep(&ts, NULL);
}

int clock_nanosleep(clockid_t id, int flags, const struct timespec *req, struct timespec *rem)
{
    int (*real)(clockid_t, int, const struct timespec *, struct timespec *) = (int (*)(
        clockid_t, int, const struct timespec *, struct timespec *))next_fn("clock_nanosleep");
    struct timespec now, rel;
    long long d;
    int rc;

    if (!real)
        return ENOSYS;
    if (!clock_on || !req)
        return real(id, flags, req, rem);
    if (flags & TIMER_ABSTIME) { /* a deadline in virtual time: sleep what is left of it */
        if (clock_gettime(id, &now) < 0)
            return errno;
        d = ts_ns(req) - ts_ns(&now);
        if (d <= 0)
            return 0;
        rel.tv_sec = (time_t)(d / 1000000000ll);
        rel.tv_nsec = (long)(d % 1000000000ll);
        rc = real(id, 0, &rel, rem);
    } else {
        d = ts_ns(req);
        rc = real(id, flags, req, rem);
    }
    if (rc == 0 && d > 0)
        advance((uint64_t)d);
    return rc;
}
