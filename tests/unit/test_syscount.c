/* syscount: the window is the marks' times, not the moments they arrive. A real child process
 * makes getppid calls and writes each call's time to memory shared with this test; the tracer
 * seizes it and is given marks whose times are already past (as a mark reaching a server
 * host's tracer an ssh round trip late is): the count must be the child's calls between those
 * times, not between the arrivals. A mark later than the ring's reach is flagged. Needs
 * ptrace of a child (root, or ptrace_scope 0/1). */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "syscount.h"
#include "t.h"

#define CALLS_MAX 400000

struct calls {
    atomic_ullong n;
    uint64_t t[CALLS_MAX]; /* when the child made each getppid */
    atomic_int stop;
};

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0)
        ;
}

/* A child that calls getppid, recording each call's time, every gap_us (0: back to back),
 * for at most 20 s. */
static pid_t start_child(struct calls *c, long gap_us)
{
    pid_t pid = fork();

    if (pid == 0) {
        uint64_t end = clock_now_ns() + 20000000000ull;

        while (!atomic_load(&c->stop) && clock_now_ns() < end) {
            unsigned long long i = atomic_load(&c->n);

            if (i < CALLS_MAX)
                c->t[i] = clock_now_ns();
            (void)syscall(SYS_getppid);
            atomic_store(&c->n, i + 1);
            if (gap_us)
                usleep((useconds_t)gap_us);
        }
        _exit(0);
    }
    return pid;
}

static void end_child(struct calls *c, pid_t pid)
{
    atomic_store(&c->stop, 1);
    (void)kill(pid, SIGKILL);
    (void)waitpid(pid, NULL, 0);
}

static long long getppid_count(const json_t *o)
{
    return json_integer_value(json_object_get(json_object_get(o, "by_name"), "getppid"));
}

/* Marks given 200 ms after their times: the counts are of the times' window. */
static void test_late_marks(struct calls *c)
{
    struct syscount sc;
    char why[300];
    pid_t pid = start_child(c, 500);
    uint64_t t0, t1;
    unsigned long long i, want = 0;
    json_t *o;

    pause_ms(20);
    if (syscount_start(&sc, "/proc", pid, why, sizeof(why)) < 0) {
        CHECK_MSG(0, "syscount_start: %s", why);
        end_child(c, pid);
        return;
    }
    pause_ms(50);
    t0 = clock_now_ns();
    pause_ms(100);
    t1 = clock_now_ns();
    pause_ms(200); /* the calls go on: a tracer that counted until the marks arrive sees them */
    syscount_mark_at(&sc, 0, t0);
    pause_ms(30); /* the arrivals 30 ms apart, the times 100 ms */
    syscount_mark_at(&sc, 1, t1);
    o = syscount_json(&sc, why, sizeof(why));
    end_child(c, pid);
    CHECK_MSG(o != NULL, "syscount_json: %s", why);
    for (i = 0; i < atomic_load(&c->n) && i < CALLS_MAX; i++)
        want += c->t[i] >= t0 && c->t[i] < t1;
    /* each call's time is taken just before it enters the kernel, where the tracer stamps it:
     * one call at each edge may fall either way */
    CHECK_MSG(o && getppid_count(o) >= (long long)want - 1 &&
                  getppid_count(o) <= (long long)want + 1,
              "getppid in the window: counted %lld, the child made %llu (of %llu in all)",
              o ? getppid_count(o) : -1, want, (unsigned long long)atomic_load(&c->n));
    CHECK(want > 10);
    CHECK(o && !json_object_get(o, "marks_late"));
    json_decref(o);
    syscount_stop(&sc);
}

/* A mark given after more calls than the ring keeps: counted from the ring's oldest, flagged. */
static void test_too_late(struct calls *c)
{
    struct syscount sc;
    char why[300];
    pid_t pid = start_child(c, 0);
    uint64_t t0;
    unsigned long long n0;
    json_t *o;
    int waited;

    pause_ms(20);
    if (syscount_start(&sc, "/proc", pid, why, sizeof(why)) < 0) {
        CHECK_MSG(0, "syscount_start: %s", why);
        end_child(c, pid);
        return;
    }
    pause_ms(20);
    t0 = clock_now_ns();
    n0 = atomic_load(&c->n);
    for (waited = 0; atomic_load(&c->n) < n0 + 70000 && waited < 15000; waited++)
        pause_ms(1);
    syscount_mark_at(&sc, 0, t0);
    pause_ms(20);
    syscount_mark_at(&sc, 1, clock_now_ns());
    o = syscount_json(&sc, why, sizeof(why));
    end_child(c, pid);
    CHECK_MSG(o != NULL, "syscount_json: %s", why);
    CHECK_MSG(o && json_is_true(json_object_get(o, "marks_late")), "%llu calls after the mark",
              atomic_load(&c->n) - n0);
    json_decref(o);
    syscount_stop(&sc);
}

/* No close mark: no counts, and why says so. */
static void test_no_mark(struct calls *c)
{
    struct syscount sc;
    char why[300] = "";
    pid_t pid = start_child(c, 1000);

    pause_ms(20);
    if (syscount_start(&sc, "/proc", pid, why, sizeof(why)) < 0) {
        CHECK_MSG(0, "syscount_start: %s", why);
        end_child(c, pid);
        return;
    }
    syscount_mark_at(&sc, 0, clock_now_ns());
    CHECK(syscount_json(&sc, why, sizeof(why)) == NULL);
    CHECK_STR(why, "the window's marks did not reach the tracer");
    end_child(c, pid);
    syscount_stop(&sc);
}

int main(void)
{
    struct calls *c =
        mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

    if (c == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    memset(c, 0, sizeof(*c));
    test_late_marks(c);
    memset(c, 0, sizeof(*c));
    test_too_late(c);
    memset(c, 0, sizeof(*c));
    test_no_mark(c);
    munmap(c, sizeof(*c));
    return T_DONE();
}
