/* A per-thread epoll loop, small enough to read at once (the redis ae.c habit): register fds
 * with a pointer, wait with a nanosecond deadline, and wake the loop from another thread. */
#ifndef PAIRBENCH_LOOP_H
#define PAIRBENCH_LOOP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/types.h>

/* Busy polling before a wait (--busy-poll-us, off by default). On a VM whose idle vCPUs
 * halt at once, each sleep costs the sleeper a return from halt and its waker an exit to the
 * host; a wait that ends within some microseconds is cheaper polled. The window adapts as the
 * kernel's halt-polling does: it doubles (from LOOP_POLL_START_NS, up to max_ns) after a
 * wait that a window of max_ns would have caught, and halves (to 0 below the start) after a
 * longer one, so where replies come slower than max_ns it closes and costs nothing. The
 * caller sets skip for a wait that should not poll (the client: while a reply is coming in
 * pieces); such a wait blocks at once and leaves the window as it was. */
struct loop_poll {
    uint64_t max_ns; /* 0 = never poll */
    uint64_t cur_ns; /* the current window */
    int skip;        /* set by the caller: the next wait blocks at once and does not adapt */
};
#define LOOP_POLL_START_NS 10000u

struct loop {
    int epfd;
    int wakefd; /* eventfd: loop_wake() makes loop_wait() return; its data.ptr is NULL */
    struct loop_poll poll;
};

/* Adapts p's window after a wait that was not caught by polling: blocked_ns is how long the
 * blocking part took. */
void loop_poll_adapt(struct loop_poll *p, uint64_t blocked_ns);

/* 0, or -1 with err set. Release with loop_release(). */
int loop_init(struct loop *l, char *err, size_t errlen);
void loop_release(struct loop *l);
/* EPOLL_CTL_ADD / MOD / DEL; 0 or -1 (errno set). */
int loop_add(struct loop *l, int fd, uint32_t events, void *ptr);
int loop_mod(struct loop *l, int fd, uint32_t events, void *ptr);
int loop_del(struct loop *l, int fd);
/* Waits until an event, a wake-up or the absolute CLOCK_MONOTONIC deadline (0 = none),
 * polling first for l->poll's window. Returns the number of events (0 on timeout or EINTR),
 * -1 on failure. An event with data.ptr == NULL is a wake-up (already drained). */
int loop_wait(struct loop *l, struct epoll_event *ev, int max, uint64_t deadline_ns);
/* Thread-safe: makes the loop's current or next loop_wait() return. */
void loop_wake(struct loop *l);

/* The one-connection wait: a thread whose only descriptor is one plain TCP socket can wait
 * for its reply inside the read itself (write + read = 2 system calls per round trip instead
 * of write + epoll_wait + read). The socket is switched to blocking mode once and each read
 * is bounded by SO_RCVTIMEO, re-set only when the current timeout would overrun the deadline
 * by more than a slack (or is much shorter than needed): a fixed deadline costs one
 * setsockopt per slack interval, not one per read. Every other read and write on that socket
 * must pass MSG_DONTWAIT (conn_plain_ops does). The socket stays registered with epoll. */
struct loop_solo {
    int fd;          /* the socket in blocking mode, -1 = none */
    uint64_t tmo_ns; /* its SO_RCVTIMEO, 0 = not set yet */
};

/* Forget the socket (call before it is closed: a new one may reuse the number). */
void loop_solo_reset(struct loop_solo *s);
/* Reads up to len bytes from fd, waiting until data, EOF, an error or the absolute
 * CLOCK_MONOTONIC deadline_ns (now = the caller's current reading), overrun by at most
 * slack_ns (at least 2 ms, the kernel's timer tick). Returns > 0 bytes, 0 at EOF, or -1 with
 * errno: EAGAIN when the wait timed out (the deadline may not have come yet: check the
 * clock and call again) or is past, EINTR, or the socket's error. */
ssize_t loop_solo_read(struct loop_solo *s, int fd, void *buf, size_t len, uint64_t now,
                       uint64_t deadline_ns, uint64_t slack_ns);
/* loop_solo_read, polling first (MSG_DONTWAIT reads) for p's window and adapting it. */
ssize_t loop_solo_read_polled(struct loop_solo *s, struct loop_poll *p, int fd, void *buf,
                              size_t len, uint64_t now, uint64_t deadline_ns, uint64_t slack_ns);

#endif
