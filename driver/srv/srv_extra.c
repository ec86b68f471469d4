/* srv_extra: the reference server's detection knobs (see srv_extra.h). */
#include "srv/srv_extra.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

/* through a volatile pointer: a malloc/free pair the compiler can see may be removed */
static void *(*volatile alloc_fn)(size_t) = malloc;
static void (*volatile free_fn)(void *) = free;
static volatile unsigned char alloc_sink;

static void *helper_main(void *arg)
{
    struct srv_extra *x = arg;

    pthread_mutex_lock(&x->mu);
    while (!x->stop) {
        if (x->answered < x->posted) {
            x->answered = x->posted;
            pthread_cond_broadcast(&x->cv);
        }
        pthread_cond_wait(&x->cv, &x->mu);
    }
    pthread_mutex_unlock(&x->mu);
    return NULL;
}

int opts_buildup_check(const struct drv_opts *o, char *err, size_t errlen)
{
    if (!o->stall_after != !o->stall_ms) {
        snprintf(err, errlen, "%s '%llu': expected together with %s",
                 o->stall_after ? "--stall-after" : "--stall-ms",
                 o->stall_after ? (unsigned long long)o->stall_after : o->stall_ms,
                 o->stall_after ? "--stall-ms" : "--stall-after");
        return -1;
    }
    if (o->mode == MODE_CLIENT && !o->serve && (o->grow_ns || o->stall_after)) {
        snprintf(err, errlen,
                 "%s '%llu': expected only with --serve (it slows the reference server)",
                 o->grow_ns ? "--grow-ns" : "--stall-after",
                 o->grow_ns ? o->grow_ns : (unsigned long long)o->stall_after);
        return -1;
    }
    return 0;
}

int srv_extra_start(struct srv_extra *x, const struct drv_opts *o, char *err, size_t errlen)
{
    memset(x, 0, sizeof(*x));
    x->syscalls = o->extra_syscalls;
    x->allocs = o->extra_allocs;
    x->wakeups = o->extra_wakeups;
    x->grow_ns = o->grow_ns;
    x->stall_after = o->stall_after;
    x->stall_ms = o->stall_ms;
    atomic_init(&x->served, 0);
    atomic_init(&x->stall_until, 0);
    if (!x->wakeups)
        return 0;
    if (pthread_mutex_init(&x->gate, NULL) != 0 || pthread_mutex_init(&x->mu, NULL) != 0 ||
        pthread_cond_init(&x->cv, NULL) != 0 || pthread_create(&x->th, NULL, helper_main, x) != 0) {
        snprintf(err, errlen, "--extra-wakeups: cannot start the helper thread");
        return -1;
    }
    x->started = 1;
    return 0;
}

/* One hand-off: post, wake the helper, wait for its answer. */
static void hand_off(struct srv_extra *x)
{
    unsigned long long mine;

    pthread_mutex_lock(&x->mu);
    mine = ++x->posted;
    pthread_cond_broadcast(&x->cv);
    while (x->answered < mine && !x->stop)
        pthread_cond_wait(&x->cv, &x->mu);
    pthread_mutex_unlock(&x->mu);
}

static void sleep_until(uint64_t t)
{
    struct timespec ts = {(time_t)(t / 1000000000u), (long)(t % 1000000000u)};

    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* --grow-ns and --stall-after: the n-th request served costs grow_ns * n / 1000 ns of busy
 * waiting, and the stall_after-th begins the stall. */
static void buildup(struct srv_extra *x)
{
    uint64_t n = atomic_fetch_add_explicit(&x->served, 1, memory_order_relaxed) + 1, until;

    if (x->grow_ns) {
        until = clock_now_ns() + x->grow_ns * n / 1000;
        while (clock_now_ns() < until)
            ;
    }
    if (x->stall_after && n == x->stall_after) {
        until = clock_now_ns() + (uint64_t)x->stall_ms * 1000000u;
        atomic_store(&x->stall_until, until);
        sleep_until(until);
    }
}

void srv_extra_hold(struct srv_extra *x)
{
    uint64_t until;

    if (!x->stall_after || !(until = atomic_load(&x->stall_until)))
        return;
    if (clock_now_ns() < until)
        sleep_until(until);
}

void srv_extra_request(struct srv_extra *x)
{
    unsigned i;

    if (x->grow_ns || x->stall_after)
        buildup(x);
    for (i = 0; i < x->syscalls; i++)
        (void)syscall(SYS_getppid);
    for (i = 0; i < x->allocs; i++) {
        unsigned char *p = alloc_fn(64 + (i & 63));
        if (p) {
            p[0] = (unsigned char)i;
            alloc_sink = p[0];
            free_fn(p);
        }
    }
    if (x->started && x->wakeups) {
        pthread_mutex_lock(&x->gate);
        for (i = 0; i < x->wakeups; i++)
            hand_off(x);
        pthread_mutex_unlock(&x->gate);
    }
}

void srv_extra_stop(struct srv_extra *x)
{
    if (!x->started)
        return;
    pthread_mutex_lock(&x->mu);
    x->stop = 1;
    pthread_cond_broadcast(&x->cv);
    pthread_mutex_unlock(&x->mu);
    pthread_join(x->th, NULL);
    pthread_cond_destroy(&x->cv);
    pthread_mutex_destroy(&x->mu);
    pthread_mutex_destroy(&x->gate);
    x->started = 0;
}

#define DRAIN_MAX (8u << 20)

int srv_drain_read(int fd, size_t *drained)
{
    char buf[16384];
    ssize_t n;

    for (;;) {
        n = read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return 0;
        if (n <= 0)
            return -1;
        *drained += (size_t)n;
        if (*drained > DRAIN_MAX)
            return -1;
    }
}

int srv_shed_one(int lfd, int *spare_fd)
{
    int fd, e;

    if (*spare_fd < 0)
        *spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (*spare_fd < 0)
        return -1;
    close(*spare_fd);
    fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    e = errno;
    if (fd >= 0)
        close(fd);
    *spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd >= 0)
        return 1;
    return e == EAGAIN || e == EWOULDBLOCK ? 0 : -1;
}
