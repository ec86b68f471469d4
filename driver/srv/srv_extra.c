/* srv_extra: the reference server's detection knobs (see srv_extra.h). */
#include "srv/srv_extra.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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

int srv_extra_start(struct srv_extra *x, unsigned syscalls, unsigned allocs, unsigned wakeups,
                    char *err, size_t errlen)
{
    memset(x, 0, sizeof(*x));
    x->syscalls = syscalls;
    x->allocs = allocs;
    x->wakeups = wakeups;
    if (!wakeups)
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

void srv_extra_request(struct srv_extra *x)
{
    unsigned i;

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
