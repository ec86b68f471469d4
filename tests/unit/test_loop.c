/* driver/engine/loop.c: the adaptive busy-poll window, and waits that poll before they block (or,
 * told to skip, do not). */
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "engine/loop.h"
#include "t.h"

#define US 1000u

int main(void)
{
    struct loop_poll p = {50 * US, 0, 0};
    struct loop l;
    struct loop_solo solo;
    struct epoll_event ev[4];
    char err[256], buf[16];
    uint64_t t0, t1;
    int sv[2], n;
    ssize_t r;

    /* a short wait opens the window, each further short wait doubles it up to the maximum */
    loop_poll_adapt(&p, 20 * US);
    CHECK(p.cur_ns == LOOP_POLL_START_NS);
    loop_poll_adapt(&p, 20 * US);
    CHECK(p.cur_ns == 2 * LOOP_POLL_START_NS);
    loop_poll_adapt(&p, 5 * US);
    CHECK(p.cur_ns == 4 * LOOP_POLL_START_NS);
    loop_poll_adapt(&p, 5 * US);
    CHECK(p.cur_ns == 50 * US);
    /* waits longer than the maximum halve it, and below the start it closes */
    loop_poll_adapt(&p, 1000 * US);
    CHECK(p.cur_ns == 25 * US);
    loop_poll_adapt(&p, 1000 * US);
    CHECK(p.cur_ns == 12500);
    loop_poll_adapt(&p, 1000 * US);
    CHECK(p.cur_ns == 0);
    /* a wait that the window plus the block would not have covered does not grow it */
    p.cur_ns = 40 * US;
    loop_poll_adapt(&p, 11 * US);
    CHECK(p.cur_ns == 20 * US);

    /* loop_wait with polling: a ready event comes back at once, none times out at the
     * deadline (the polling stops there too), and the window adapts to the waits */
    CHECK(loop_init(&l, err, sizeof(err)) == 0);
    CHECK(l.poll.max_ns == 0 && l.poll.cur_ns == 0);
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    CHECK(loop_add(&l, sv[0], EPOLLIN, &sv[0]) == 0);
    l.poll.max_ns = 200 * US;
    l.poll.cur_ns = 100 * US;
    CHECK(write(sv[1], "x", 1) == 1);
    n = loop_wait(&l, ev, 4, clock_now_ns() + 1000000000ull);
    CHECK(n == 1 && ev[0].data.ptr == &sv[0]);
    CHECK(l.poll.cur_ns == 100 * US); /* caught by polling: unchanged */
    CHECK(read(sv[0], buf, sizeof(buf)) == 1);
    t0 = clock_now_ns();
    n = loop_wait(&l, ev, 4, t0 + 20000000ull); /* nothing comes: 20 ms */
    t1 = clock_now_ns();
    CHECK(n == 0 && t1 - t0 >= 19000000ull);
    CHECK(l.poll.cur_ns == 50 * US); /* a wait longer than the maximum: halved */

    /* the one-connection read: data already there is read by the polling; none times out */
    l.poll.cur_ns = 100 * US;
    loop_solo_reset(&solo);
    CHECK(write(sv[1], "yz", 2) == 2);
    t0 = clock_now_ns();
    r = loop_solo_read_polled(&solo, &l.poll, sv[0], buf, sizeof(buf), t0, t0 + 1000000000ull, 0);
    CHECK(r == 2 && memcmp(buf, "yz", 2) == 0);
    t0 = clock_now_ns();
    r = loop_solo_read_polled(&solo, &l.poll, sv[0], buf, sizeof(buf), t0, t0 + 20000000ull, 0);
    CHECK(r == -1 && errno == EAGAIN);
    CHECK(l.poll.cur_ns == 50 * US);
    /* skip (a reply coming in pieces): the wait blocks at once, and however long it takes
     * the window stays as it was; data already there is still read */
    l.poll.skip = 1;
    t0 = clock_now_ns();
    n = loop_wait(&l, ev, 4, t0 + 20000000ull);
    CHECK(n == 0 && l.poll.cur_ns == 50 * US);
    t0 = clock_now_ns();
    r = loop_solo_read_polled(&solo, &l.poll, sv[0], buf, sizeof(buf), t0, t0 + 20000000ull, 0);
    CHECK(r == -1 && errno == EAGAIN && l.poll.cur_ns == 50 * US);
    CHECK(write(sv[1], "v", 1) == 1);
    n = loop_wait(&l, ev, 4, clock_now_ns() + 1000000000ull);
    CHECK(n == 1 && ev[0].data.ptr == &sv[0] && l.poll.cur_ns == 50 * US);
    t0 = clock_now_ns();
    r = loop_solo_read_polled(&solo, &l.poll, sv[0], buf, sizeof(buf), t0, t0 + 1000000000ull, 0);
    CHECK(r == 1 && buf[0] == 'v');
    l.poll.skip = 0;
    /* with polling off it is loop_solo_read */
    l.poll.max_ns = 0;
    CHECK(write(sv[1], "w", 1) == 1);
    t0 = clock_now_ns();
    r = loop_solo_read_polled(&solo, &l.poll, sv[0], buf, sizeof(buf), t0, t0 + 1000000000ull, 0);
    CHECK(r == 1 && buf[0] == 'w');
    close(sv[0]);
    close(sv[1]);
    loop_release(&l);
    return T_DONE();
}
