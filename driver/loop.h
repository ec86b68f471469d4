/* A per-thread epoll loop, small enough to read at once (the redis ae.c habit): register fds
 * with a pointer, wait with a nanosecond deadline, and wake the loop from another thread. */
#ifndef PAIRBENCH_LOOP_H
#define PAIRBENCH_LOOP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>

struct loop {
    int epfd;
    int wakefd; /* eventfd: loop_wake() makes loop_wait() return; its data.ptr is NULL */
};

/* 0, or -1 with err set. Release with loop_release(). */
int loop_init(struct loop *l, char *err, size_t errlen);
void loop_release(struct loop *l);
/* EPOLL_CTL_ADD / MOD / DEL; 0 or -1 (errno set). */
int loop_add(struct loop *l, int fd, uint32_t events, void *ptr);
int loop_mod(struct loop *l, int fd, uint32_t events, void *ptr);
int loop_del(struct loop *l, int fd);
/* Waits until an event, a wake-up or the absolute CLOCK_MONOTONIC deadline (0 = none).
 * Returns the number of events (0 on timeout or EINTR), -1 on failure. An event with
 * data.ptr == NULL is a wake-up (already drained). */
int loop_wait(struct loop *l, struct epoll_event *ev, int max, uint64_t deadline_ns);
/* Thread-safe: makes the loop's current or next loop_wait() return. */
void loop_wake(struct loop *l);

#endif
