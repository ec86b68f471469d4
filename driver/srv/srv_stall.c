/* The reference server's --stall knob (srvproto.h): in the first MS of every PERIOD_MS of
 * CLOCK_MONOTONIC (so every worker and every server process stalls at the same instants) a
 * worker answers nothing. serve.c calls srv_stall_hold() once per turn of its loop, after the
 * wait: during a stall the worker sleeps to its end, and requests wait in the socket buffers,
 * as behind a paused process or a long garbage collection. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "num.h"
#include "opts.h"
#include "srv/srvproto.h"

/* opts.h: the syntax of --stall, beside what it does */
int opts_stall_parse(const char *s, unsigned *stall_ms, unsigned *period_ms)
{
    char a[16];
    const char *slash = strchr(s, '/');
    uint64_t st, per;

    if (!slash || (size_t)(slash - s) >= sizeof(a))
        return -1;
    memcpy(a, s, (size_t)(slash - s));
    a[slash - s] = '\0';
    if (num_parse_u64(a, 1, 3600000, &st) < 0 || num_parse_u64(slash + 1, 2, 3600000, &per) < 0 ||
        st >= per)
        return -1;
    if (stall_ms)
        *stall_ms = (unsigned)st;
    if (period_ms)
        *period_ms = (unsigned)per;
    return 0;
}

void srv_stall_parse(const struct drv_opts *o, uint64_t *stall_ns, uint64_t *period_ns)
{
    unsigned st = 0, per = 0;

    *stall_ns = *period_ns = 0;
    if (!o->stall[0] || opts_stall_parse(o->stall, &st, &per) < 0)
        return;
    *stall_ns = (uint64_t)st * 1000000u;
    *period_ns = (uint64_t)per * 1000000u;
}

void srv_stall_hold(uint64_t stall_ns, uint64_t period_ns)
{
    uint64_t now, phase, until;
    struct timespec ts;

    if (!period_ns)
        return;
    now = clock_now_ns();
    phase = now % period_ns;
    if (phase >= stall_ns)
        return;
    until = now - phase + stall_ns;
    ts.tv_sec = (time_t)(until / 1000000000u);
    ts.tv_nsec = (long)(until % 1000000000u);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}
