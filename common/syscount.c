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

#include "syscall_names.h"
#include "ptree.h"

#define MAX_TASKS 1024
#define READY_WAIT_S 10.0

struct syscount_shared {
    atomic_int counting;                      /* 1 between the marks */
    atomic_int state;                         /* 0 starting, 1 ready, -1 failed */
    atomic_uint traced;                       /* tasks traced so far (seized and auto-attached) */
    atomic_ullong count[SYSCOUNT_MAX_NR + 1]; /* [SYSCOUNT_MAX_NR]: numbers past the table */
    char why[256];
};

/* A syscall-stop: count the entry while the window is open. */
static void on_syscall_stop(struct syscount_shared *sh, pid_t tid)
{
    struct __ptrace_syscall_info info;
    long n;

    memset(&info, 0, sizeof(info));
    n = ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof(info), &info);
    if (n <= 0 || info.op != PTRACE_SYSCALL_INFO_ENTRY || !atomic_load(&sh->counting))
        return;
    atomic_fetch_add(&sh->count[info.entry.nr < SYSCOUNT_MAX_NR ? info.entry.nr : SYSCOUNT_MAX_NR],
                     1);
}

/* The tracer's loop: resumes every stop with PTRACE_SYSCALL until no tracee is left. Runs in
 * the forked child; no allocation. */
static void tracer_loop(struct syscount_shared *sh)
{
    for (;;) {
        int st, sig, event;
        pid_t tid = waitpid(-1, &st, __WALL);

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

    /* compare's descriptors are not the tracer's: a window pipe held open here would keep
     * its reader from seeing the driver's end */
    (void)close_range(3, ~0U, 0);

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

void syscount_on_mark(void *arg, int which)
{
    struct syscount *sc = arg;

    if (sc && sc->sh)
        atomic_store(&sc->sh->counting, which == 0);
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
    for (i = 0; i <= SYSCOUNT_MAX_NR; i++) {
        unsigned long long c = atomic_load(&sc->sh->count[i]);
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
