/* epoll wrapper (see loop.h). Deadlines use epoll_pwait2 for microsecond timeouts (the
 * --delay-us knob needs them); kernels without it fall back to epoll_wait in whole ms. */
#include "engine/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

static int have_pwait2 = 1;

int loop_init(struct loop *l, char *err, size_t errlen)
{
    l->epfd = epoll_create1(EPOLL_CLOEXEC);
    l->wakefd = -1;
    l->poll.max_ns = l->poll.cur_ns = 0;
    l->poll.skip = 0;
    if (l->epfd < 0) {
        snprintf(err, errlen, "epoll_create1: %s", strerror(errno));
        return -1;
    }
    l->wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (l->wakefd < 0 || loop_add(l, l->wakefd, EPOLLIN, NULL) < 0) {
        snprintf(err, errlen, "eventfd: %s", strerror(errno));
        loop_release(l);
        return -1;
    }
    return 0;
}

void loop_release(struct loop *l)
{
    if (l->wakefd >= 0)
        close(l->wakefd);
    if (l->epfd >= 0)
        close(l->epfd);
    l->wakefd = l->epfd = -1;
}

static int ctl(struct loop *l, int op, int fd, uint32_t events, void *ptr)
{
    struct epoll_event ev;

    memset(&ev, 0, sizeof(ev));
    ev.events = events;
    ev.data.ptr = ptr;
    return epoll_ctl(l->epfd, op, fd, &ev);
}

int loop_add(struct loop *l, int fd, uint32_t events, void *ptr)
{
    return ctl(l, EPOLL_CTL_ADD, fd, events, ptr);
}

int loop_mod(struct loop *l, int fd, uint32_t events, void *ptr)
{
    return ctl(l, EPOLL_CTL_MOD, fd, events, ptr);
}

int loop_del(struct loop *l, int fd)
{
    return ctl(l, EPOLL_CTL_DEL, fd, 0, NULL);
}

void loop_poll_adapt(struct loop_poll *p, uint64_t blocked_ns)
{
    if (p->cur_ns + blocked_ns <= p->max_ns) {
        p->cur_ns = p->cur_ns ? p->cur_ns * 2 : LOOP_POLL_START_NS;
        if (p->cur_ns > p->max_ns)
            p->cur_ns = p->max_ns;
    } else {
        p->cur_ns /= 2;
        if (p->cur_ns < LOOP_POLL_START_NS)
            p->cur_ns = 0;
    }
}

/* Polls epfd for up to l->poll.cur_ns (not past deadline_ns): the events' count (or -1), or 0
 * with *end the clock reading that ended the poll (0 when polling is off). */
static int poll_events(struct loop *l, struct epoll_event *ev, int max, uint64_t deadline_ns,
                       uint64_t *end)
{
    uint64_t now, until;
    int n;

    *end = 0;
    if (!l->poll.max_ns || l->poll.skip)
        return 0;
    now = clock_now_ns();
    until = now + l->poll.cur_ns;
    if (deadline_ns && deadline_ns < until)
        until = deadline_ns;
    while (now < until) {
        n = epoll_wait(l->epfd, ev, max, 0);
        if (n != 0)
            return n;
        now = clock_now_ns();
    }
    *end = now;
    return 0;
}

int loop_wait(struct loop *l, struct epoll_event *ev, int max, uint64_t deadline_ns)
{
    uint64_t now, left = 0;
    int n, i, ms;

    n = poll_events(l, ev, max, deadline_ns, &now); /* now: 0 unless it polled */
    if (n != 0)
        goto got;
    if (deadline_ns) {
        if (!now)
            now = clock_now_ns();
        left = deadline_ns > now ? deadline_ns - now : 0;
    }
    if (have_pwait2) {
        struct timespec ts = {(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
        n = epoll_pwait2(l->epfd, ev, max, deadline_ns ? &ts : NULL, NULL);
        if (n < 0 && errno == ENOSYS)
            have_pwait2 = 0;
    }
    if (!have_pwait2) {
        ms = deadline_ns ? (int)((left + 999999u) / 1000000u) : -1;
        n = epoll_wait(l->epfd, ev, max, ms);
    }
    if (l->poll.max_ns && !l->poll.skip)
        loop_poll_adapt(&l->poll, clock_now_ns() - now);
got:
    if (n < 0)
        return errno == EINTR ? 0 : -1;
    for (i = 0; i < n; i++)
        if (ev[i].data.ptr == NULL) {
            uint64_t v;
            while (read(l->wakefd, &v, sizeof(v)) > 0)
                ;
        }
    return n;
}

void loop_wake(struct loop *l)
{
    uint64_t one = 1;
    ssize_t rc;

    do
        rc = write(l->wakefd, &one, sizeof(one));
    while (rc < 0 && errno == EINTR);
}

/* the least overrun allowed: SO_RCVTIMEO counts in scheduler ticks anyway */
#define SOLO_SLACK_MIN_NS (2u * 1000 * 1000)

void loop_solo_reset(struct loop_solo *s)
{
    s->fd = -1;
    s->tmo_ns = 0;
}

ssize_t loop_solo_read(struct loop_solo *s, int fd, void *buf, size_t len, uint64_t now,
                       uint64_t deadline_ns, uint64_t slack_ns)
{
    uint64_t left;
    ssize_t n;
    int fl;

    if (deadline_ns <= now) {
        errno = EAGAIN;
        return -1;
    }
    left = deadline_ns - now;
    if (slack_ns < SOLO_SLACK_MIN_NS)
        slack_ns = SOLO_SLACK_MIN_NS;
    if (s->fd != fd) {
        fl = fcntl(fd, F_GETFL);
        if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
            return -1;
        s->fd = fd;
        s->tmo_ns = 0;
    }
    if (s->tmo_ns == 0 || s->tmo_ns > left + slack_ns || s->tmo_ns < left / 2) {
        struct timeval tv = {(time_t)(left / 1000000000u),
                             (suseconds_t)(left % 1000000000u / 1000)};
        if (tv.tv_sec == 0 && tv.tv_usec == 0)
            tv.tv_usec = 1; /* 0 would mean "no timeout" */
        if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
            return -1;
        s->tmo_ns = left;
    }
    n = recv(fd, buf, len, 0);
    if (n < 0 && errno == EWOULDBLOCK)
        errno = EAGAIN;
    return n;
}

ssize_t loop_solo_read_polled(struct loop_solo *s, struct loop_poll *p, int fd, void *buf,
                              size_t len, uint64_t now, uint64_t deadline_ns, uint64_t slack_ns)
{
    uint64_t until, t;
    ssize_t n;

    if (!p->max_ns || p->skip || deadline_ns <= now)
        return loop_solo_read(s, fd, buf, len, now, deadline_ns, slack_ns);
    until = now + p->cur_ns;
    if (deadline_ns < until)
        until = deadline_ns;
    for (t = now; t < until; t = clock_now_ns()) {
        n = recv(fd, buf, len, MSG_DONTWAIT);
        if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
            return n;
    }
    /* t: the reading that ended the poll (now when the window is shut) */
    n = loop_solo_read(s, fd, buf, len, t, deadline_ns, slack_ns);
    loop_poll_adapt(p, clock_now_ns() - t);
    return n;
}
