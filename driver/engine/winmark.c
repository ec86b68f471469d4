/* Window marks (see winmark.h): two short writes per process, off the hot path. */
#include "engine/winmark.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "clock.h"
#include "num.h"

static int mark_fd = -1;
static int started, ended;

int winmark_init(char *err, size_t errlen)
{
    const char *s = getenv("PAIRBENCH_WINDOW_FD");
    unsigned fd;
    int fl;

    if (!s)
        return 0;
    if (num_parse_uint(s, 0, 1u << 20, &fd) < 0) {
        snprintf(err, errlen, "PAIRBENCH_WINDOW_FD '%s': expected a decimal descriptor number", s);
        return -1;
    }
    fl = fcntl((int)fd, F_GETFD);
    if (fl < 0) {
        snprintf(err, errlen, "PAIRBENCH_WINDOW_FD '%s': not an open descriptor", s);
        return -1;
    }
    (void)fcntl((int)fd, F_SETFD, fl | FD_CLOEXEC);
    (void)unsetenv("PAIRBENCH_WINDOW_FD");
    mark_fd = (int)fd;
    return 0;
}

static void mark_write(const char *line, size_t len)
{
    ssize_t n;

    while (len > 0) {
        n = write(mark_fd, line, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            fprintf(stderr, "driver: warning: writing the window mark to PAIRBENCH_WINDOW_FD "
                            "failed\n");
            return;
        }
        line += n;
        len -= (size_t)n;
    }
}

/* "WHAT NS\n": the mark with this machine's CLOCK_MONOTONIC at it, so a reader that comes late
 * (a loaded machine, a hook that waits on ssh) still knows when the window opened. */
static void mark_at(const char *what, uint64_t at_ns)
{
    char line[48];
    int n = snprintf(line, sizeof(line), "%s %llu\n", what, (unsigned long long)at_ns);

    mark_write(line, (size_t)n);
}

void winmark_start(uint64_t at_ns)
{
    if (mark_fd < 0 || started)
        return;
    started = 1;
    mark_at("start", at_ns);
}

void winmark_end(void)
{
    if (mark_fd < 0 || !started || ended)
        return;
    ended = 1;
    mark_at("end", clock_now_ns());
}
