/* logcap: a bounded log file (see logcap.h). */
#include "run/logcap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "util/atomic.h"
#include "util/redact.h"

/* The tail: a ring of cap bytes, end the next write position, used bytes held. */
struct ring {
    char *buf;
    size_t cap, end, used;
};

static unsigned long long ring_add(struct ring *g, const char *p, size_t n)
{
    unsigned long long dropped = 0;

    if (g->cap == 0)
        return n;
    if (n >= g->cap) {
        dropped = g->used + (n - g->cap);
        memcpy(g->buf, p + (n - g->cap), g->cap);
        g->end = 0;
        g->used = g->cap;
        return dropped;
    }
    if (g->used + n > g->cap) {
        dropped = g->used + n - g->cap;
        g->used -= (size_t)dropped;
    }
    while (n > 0) {
        size_t k = g->cap - g->end < n ? g->cap - g->end : n;
        memcpy(g->buf + g->end, p, k);
        g->end = (g->end + k) % g->cap;
        g->used += k;
        p += k;
        n -= k;
    }
    return dropped;
}

static void ring_write(const struct ring *g, int out)
{
    size_t start = (g->end + g->cap - g->used) % (g->cap ? g->cap : 1);
    size_t first = g->cap - start < g->used ? g->cap - start : g->used;

    if (g->used == 0)
        return;
    (void)fd_write_all(out, g->buf + start, first);
    (void)fd_write_all(out, g->buf, g->used - first);
}

/* The log being written: the head so far, the tail's ring, the bytes dropped between. */
struct capper {
    int out;
    size_t head, written;
    struct ring g;
    unsigned long long dropped;
};

static void capper_add(struct capper *k, const char *p, size_t n)
{
    size_t off = 0;

    if (k->written < k->head) {
        off = k->head - k->written < n ? k->head - k->written : n;
        (void)fd_write_all(k->out, p, off);
        k->written += off;
    }
    if (off < n)
        k->dropped += ring_add(&k->g, p + off, n - off);
}

unsigned long long logcap_copy(int in, int out, size_t head, size_t tail)
{
    struct capper k = {
        .out = out, .head = head, .g = {.buf = tail ? malloc(tail) : NULL, .cap = tail}};
    /* a secret value cut by a read is held back until the next read completes it: the
     * buffer holds the longest value beside one read (util/redact.h) */
    size_t chunk = 16384, held = 0, n;
    char *buf = malloc(chunk + redact_max_len());

    if (tail && !k.g.buf)
        k.g.cap = 0; /* no memory for a tail: keep the head only */
    if (!buf) {      /* nothing kept rather than a secret: the output is read and dropped */
        char sink[512];
        ssize_t r;
        while ((r = read(in, sink, sizeof(sink))) > 0 || (r < 0 && errno == EINTR))
            ;
        free(k.g.buf);
        return 0;
    }
    for (;;) {
        ssize_t r = read(in, buf + held, chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n = redact_span(buf, held + (size_t)r, 0, &held);
        capper_add(&k, buf, n - held);
        memmove(buf, buf + n - held, held);
    }
    n = redact_span(buf, held, 1, &held);
    capper_add(&k, buf, n);
    if (k.dropped > 0) {
        char line[160];
        int w = snprintf(line, sizeof(line),
                         "\n[pairbench: %llu bytes of output dropped here: the log keeps the "
                         "first %zu and the last %zu bytes]\n",
                         k.dropped, head, k.g.cap);
        if (w > 0)
            (void)fd_write_all(out, line, (size_t)w < sizeof(line) ? (size_t)w : sizeof(line) - 1);
    }
    ring_write(&k.g, out);
    free(k.g.buf);
    free(buf);
    return k.dropped;
}

/* Closes every descriptor above 2 but a and b. */
static void close_others(int a, int b)
{
    unsigned lo = (unsigned)(a < b ? a : b), hi = (unsigned)(a < b ? b : a);

    if (lo > 3)
        (void)close_range(3, lo - 1, 0);
    if (hi > lo + 1)
        (void)close_range(lo + 1, hi - 1, 0);
    (void)close_range(hi + 1, ~0u, 0);
}

int logcap_start(const char *path, size_t head, size_t tail, int *wfd, pid_t *pid, char *err,
                 size_t errlen)
{
    int fd, pp[2];
    pid_t c;

    *wfd = -1;
    *pid = 0;
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    if (pipe2(pp, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe for '%s': %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    fflush(NULL);
    c = fork();
    if (c < 0) {
        snprintf(err, errlen, "fork for '%s': %s", path, strerror(errno));
        close(fd);
        close(pp[0]);
        close(pp[1]);
        return -1;
    }
    if (c == 0) {
        /* the capper outlives an interrupt: it ends when the output ends */
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        close_others(pp[0], fd);
        (void)logcap_copy(pp[0], fd, head, tail);
        _exit(0);
    }
    close(pp[0]);
    close(fd);
    *wfd = pp[1];
    *pid = c;
    return 0;
}

void logcap_settle(pid_t *pid, double wait_s, int force)
{
    uint64_t until = clock_now_ns() + (uint64_t)(wait_s * 1e9);
    int st;

    if (*pid <= 0)
        return;
    for (;;) {
        pid_t w = waitpid(*pid, &st, WNOHANG);
        if (w == *pid || (w < 0 && errno != EINTR)) {
            *pid = 0;
            return;
        }
        if (clock_now_ns() >= until)
            break;
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (force) {
        kill(*pid, SIGKILL);
        while (waitpid(*pid, &st, 0) < 0 && errno == EINTR)
            ;
        *pid = 0;
    }
}
