/* syscount: a server tree's system calls over the window, with ptrace (see syscount.h). */
#include "syscount.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "ptree.h"
#include "syscall_names.h"

#define MAX_TASKS 1024
#define READY_WAIT_S 10.0
#define MARK_WAIT_S 2.0 /* for the tracer to take both marks once the window has closed */
#define RING_N 65536u   /* the newest entries, with their times: how far back a mark can reach */

struct syscount_shared {
    atomic_int state;    /* 0 starting, 1 ready, -1 failed */
    atomic_uint traced;  /* tasks traced so far (seized and auto-attached) */
    atomic_ullong at[2]; /* the marks' times (CLOCK_MONOTONIC ns here); 0 = not yet */
    atomic_int taken[2]; /* 1: snap[i] holds the entries before at[i]; 2: from before the oldest
                          * entry the ring kept, later than at[i] */
    unsigned long long snap[2][SYSCOUNT_MAX_NR + 1]; /* [SYSCOUNT_MAX_NR]: past the table */
    char why[256];
};

/* The tracer's own (the forked child's): every entry since the seize by number, and the newest
 * RING_N with their times. */
struct entry {
    uint64_t t_ns;
    unsigned nr;
};
static unsigned long long tr_count[SYSCOUNT_MAX_NR + 1];
static struct entry *tr_ring;
static uint64_t tr_n; /* entries so far */

/* Takes every mark at or before now: its snapshot is the counts less the entries at or after
 * its time, read back from the ring. A mark arrives after its time (an ssh round trip after
 * it, for a server host), so the count is of the window the driver measured, not of the
 * moment the mark arrived. */
static void take_marks(struct syscount_shared *sh, uint64_t now)
{
    int w;

    for (w = 0; w < 2; w++) {
        uint64_t at = atomic_load(&sh->at[w]), i = tr_n;

        if (!at || at > now || atomic_load(&sh->taken[w]))
            continue;
        memcpy(sh->snap[w], tr_count, sizeof(tr_count));
        while (i > 0 && tr_n - i < RING_N && tr_ring[(i - 1) % RING_N].t_ns >= at) {
            sh->snap[w][tr_ring[(i - 1) % RING_N].nr]--;
            i--;
        }
        atomic_store(&sh->taken[w], i > 0 && tr_n - i == RING_N ? 2 : 1);
    }
}

/* A syscall-stop: the entry is recorded with its time (after the marks it follows). */
static void on_syscall_stop(struct syscount_shared *sh, pid_t tid)
{
    struct __ptrace_syscall_info info;
    uint64_t now;
    unsigned nr;
    long n;

    memset(&info, 0, sizeof(info));
    n = ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof(info), &info);
    if (n <= 0 || info.op != PTRACE_SYSCALL_INFO_ENTRY)
        return;
    now = clock_now_ns();
    take_marks(sh, now);
    nr = info.entry.nr < SYSCOUNT_MAX_NR ? (unsigned)info.entry.nr : SYSCOUNT_MAX_NR;
    tr_count[nr]++;
    tr_ring[tr_n % RING_N] = (struct entry){now, nr};
    tr_n++;
}

static void on_wake(int sig)
{
    (void)sig; /* interrupts waitpid: the loop takes the marks */
}

/* The tracer's loop: resumes every stop with PTRACE_SYSCALL until no tracee is left, taking
 * the marks as their times pass (syscount_mark_at wakes it with SIGUSR1 when the server is
 * idle). Runs in the forked child; no allocation. */
static void tracer_loop(struct syscount_shared *sh)
{
    for (;;) {
        int st, sig, event;
        pid_t tid;

        take_marks(sh, clock_now_ns());
        tid = waitpid(-1, &st, __WALL);
        if (tid < 0) {
            if (errno == EINTR)
                continue;
            return; /* ECHILD: every tracee has gone */
        }
        if (!WIFSTOPPED(st))
            continue; /* exited or killed */
        sig = WSTOPSIG(st);
        event = (unsigned)st >> 16;
        if (sig == (SIGTRAP | 0x80)) {
            on_syscall_stop(sh, tid);
            sig = 0;
        } else if (event != 0) {
            /* PTRACE_EVENT_STOP (our interrupt, a new task's first stop, a group-stop) or a
             * clone/fork event: no signal to deliver */
            if (event == PTRACE_EVENT_CLONE || event == PTRACE_EVENT_FORK ||
                event == PTRACE_EVENT_VFORK)
                atomic_fetch_add(&sh->traced, 1);
            sig = 0;
        }
        /* else a signal-delivery stop: deliver it */
        (void)ptrace(PTRACE_SYSCALL, tid, NULL, (void *)(long)sig);
    }
}

static void tracer_main(struct syscount_shared *sh, const pid_t *tids, size_t n)
{
    size_t i, seized = 0;
    long opts =
        PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK;
    struct sigaction sa = {0};
    sigset_t wake;

    /* compare's descriptors are not the tracer's: a window pipe held open here would keep
     * its reader from seeing the driver's end */
    (void)close_range(3, ~0U, 0);
    sa.sa_handler = on_wake; /* no SA_RESTART */
    sigaction(SIGUSR1, &sa, NULL);
    sigemptyset(&wake);
    sigaddset(&wake, SIGUSR1);
    sigprocmask(SIG_UNBLOCK, &wake, NULL);
    if (!(tr_ring = calloc(RING_N, sizeof(*tr_ring)))) {
        snprintf(sh->why, sizeof(sh->why), "out of memory for the tracer's ring");
        atomic_store(&sh->state, -1);
        _exit(1);
    }

    for (i = 0; i < n; i++) {
        if (ptrace(PTRACE_SEIZE, tids[i], NULL, (void *)opts) < 0) {
            if (errno == ESRCH)
                continue; /* ended since the listing */
            snprintf(sh->why, sizeof(sh->why), "ptrace(PTRACE_SEIZE) of thread %ld: %s",
                     (long)tids[i], strerror(errno));
            atomic_store(&sh->state, -1);
            _exit(1);
        }
        seized++;
        (void)ptrace(PTRACE_INTERRUPT, tids[i], NULL, NULL);
    }
    atomic_store(&sh->traced, (unsigned)seized);
    atomic_store(&sh->state, 1);
    tracer_loop(sh);
    _exit(0);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

int syscount_start(struct syscount *sc, const char *proc_root, pid_t root, char *why, size_t whylen)
{
    pid_t *tids = malloc(MAX_TASKS * sizeof(*tids));
    size_t n;
    int waited, rc = -1;

    memset(sc, 0, sizeof(*sc));
    sc->tracer = -1;
    if (!tids) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    n = ptree_tids(proc_root, root, tids, MAX_TASKS, NULL);
    if (n == 0) {
        snprintf(why, whylen, "the server's process %ld is gone", (long)root);
        goto out;
    }
    sc->sh = mmap(NULL, sizeof(*sc->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sc->sh == MAP_FAILED) {
        sc->sh = NULL;
        snprintf(why, whylen, "mmap: %s", strerror(errno));
        goto out;
    }
    memset(sc->sh, 0, sizeof(*sc->sh));
    sc->threads = n;
    sc->tracer = fork();
    if (sc->tracer < 0) {
        snprintf(why, whylen, "fork: %s", strerror(errno));
        goto out;
    }
    if (sc->tracer == 0)
        tracer_main(sc->sh, tids, n); /* does not return */
    for (waited = 0; atomic_load(&sc->sh->state) == 0 && waited < READY_WAIT_S * 1000; waited++)
        sleep_ms(1);
    if (atomic_load(&sc->sh->state) != 1) {
        snprintf(why, whylen, "%s",
                 sc->sh->why[0] ? sc->sh->why : "the tracer did not seize the server in time");
        goto out;
    }
    rc = 0;
out:
    free(tids);
    if (rc < 0)
        syscount_stop(sc);
    return rc;
}

void syscount_mark_at(struct syscount *sc, int which, uint64_t at_ns)
{
    if (!sc || !sc->sh || which < 0 || which > 1 || !at_ns)
        return;
    atomic_store(&sc->sh->at[which], at_ns);
    if (sc->tracer > 0)
        (void)kill(sc->tracer, SIGUSR1);
}

/* Waits until the tracer has taken both marks (waking it while the server idles): 0, or -1
 * with why. */
static int marks_taken(const struct syscount *sc, char *why, size_t whylen)
{
    int waited;

    if (!atomic_load(&sc->sh->at[0]) || !atomic_load(&sc->sh->at[1])) {
        snprintf(why, whylen, "the window's marks did not reach the tracer");
        return -1;
    }
    for (waited = 0; waited < MARK_WAIT_S * 1000; waited++) {
        if (atomic_load(&sc->sh->taken[0]) && atomic_load(&sc->sh->taken[1]))
            return 0;
        if (sc->tracer > 0)
            (void)kill(sc->tracer, SIGUSR1);
        sleep_ms(1);
    }
    snprintf(why, whylen, "the tracer did not take the window's marks within %.0f s", MARK_WAIT_S);
    return -1;
}

json_t *syscount_json(const struct syscount *sc, char *why, size_t whylen)
{
    json_t *by = json_object(), *o;
    unsigned long long total = 0;
    size_t i;

    if (!sc->sh || atomic_load(&sc->sh->state) != 1) {
        snprintf(why, whylen, "%s", sc->sh && sc->sh->why[0] ? sc->sh->why : "no tracer");
        json_decref(by);
        return NULL;
    }
    if (marks_taken(sc, why, whylen) < 0) {
        json_decref(by);
        return NULL;
    }
    for (i = 0; i <= SYSCOUNT_MAX_NR; i++) {
        unsigned long long a = sc->sh->snap[0][i], b = sc->sh->snap[1][i];
        unsigned long long c = b > a ? b - a : 0;
        char name[32];

        if (!c)
            continue;
        total += c;
        if (i == SYSCOUNT_MAX_NR)
            snprintf(name, sizeof(name), "other");
        else if (i < SYSCALL_NAMES_N && syscall_names[i])
            snprintf(name, sizeof(name), "%s", syscall_names[i]);
        else
            snprintf(name, sizeof(name), "syscall_%zu", i);
        json_object_set_new(by, name, json_integer((json_int_t)c));
    }
    o = json_pack("{s:I,s:o,s:I,s:I,s:s}", "total", (json_int_t)total, "by_name", by, "threads",
                  (json_int_t)sc->threads, "traced", (json_int_t)atomic_load(&sc->sh->traced),
                  "source", "ptrace");
    /* a mark so late that the ring no longer reached back to its time: the window counted
     * starts or ends later than the driver's */
    if (o && (atomic_load(&sc->sh->taken[0]) == 2 || atomic_load(&sc->sh->taken[1]) == 2))
        json_object_set_new(o, "marks_late", json_true());
    return o;
}

void syscount_stop(struct syscount *sc)
{
    if (sc->tracer > 0) {
        (void)kill(sc->tracer, SIGKILL);
        while (waitpid(sc->tracer, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    sc->tracer = -1;
    if (sc->sh)
        munmap(sc->sh, sizeof(*sc->sh));
    sc->sh = NULL;
}

json_t *syscount_per_op(const json_t *counts, double ops)
{
    json_t *by = json_object(), *v;
    const char *k;

    if (!(ops > 0) || !json_is_object(counts)) {
        json_decref(by);
        return NULL;
    }
    json_object_foreach((json_t *)json_object_get(counts, "by_name"), k, v)
        json_object_set_new(by, k, json_real((double)json_integer_value(v) / ops));
    return json_pack("{s:f,s:I,s:I,s:o,s:I,s:s,s:s}", "per_op",
                     (double)json_integer_value(json_object_get(counts, "total")) / ops, "ops",
                     (json_int_t)ops, "total", json_integer_value(json_object_get(counts, "total")),
                     "by_name", by, "threads",
                     json_integer_value(json_object_get(counts, "threads")), "source", "ptrace",
                     "counted", "server");
}
