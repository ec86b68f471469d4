/* counters: a server tree's user-space instructions with perf_event_open (see counters.h). */
#include "run/counters.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ptree.h"

#define OPEN_TRIES 5

int counters_event_pick(struct counters_event *ev, char *err, size_t errlen)
{
    const char *v = getenv(COUNTERS_ENV);

    ev->name = "instructions:u";
    ev->kernel = "PERF_COUNT_HW_INSTRUCTIONS";
    ev->type = PERF_TYPE_HARDWARE;
    ev->config = PERF_COUNT_HW_INSTRUCTIONS;
    if (!v || !*v || strcmp(v, "instructions") == 0)
        return 0;
    if (strcmp(v, "task-clock") == 0) {
        ev->name = "task-clock:u";
        ev->kernel = "PERF_COUNT_SW_TASK_CLOCK";
        ev->type = PERF_TYPE_SOFTWARE;
        ev->config = PERF_COUNT_SW_TASK_CLOCK;
        return 0;
    }
    snprintf(err, errlen, "%s: '%.60s': expected instructions or task-clock", COUNTERS_ENV, v);
    return -1;
}

/* The probe's loop writes here, so that no compiler can drop it. */
static volatile unsigned long probe_sink;

static long event_open(const struct counters_event *ev, pid_t tid)
{
    struct perf_event_attr pa;

    memset(&pa, 0, sizeof(pa));
    pa.type = ev->type;
    pa.size = sizeof(pa);
    pa.config = ev->config;
    pa.exclude_kernel = !ev->with_kernel;
    pa.exclude_hv = 1;
    pa.inherit = 1;
    pa.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return syscall(SYS_perf_event_open, &pa, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

int counters_probe(const struct counters_event *ev, char *why, size_t whylen)
{
    long fd = event_open(ev, 0);
    int e = errno;

    int hw = ev->type == PERF_TYPE_HARDWARE;

    if (fd < 0) {
        snprintf(why, whylen, "perf_event_open(%s): %s: %s%s", ev->name, strerror(e),
                 e == ENOENT || e == EOPNOTSUPP || e == ENODEV
                     ? (hw ? "no hardware counters on this machine" : "no such event here")
                     : (hw ? "hardware " : ""),
                 e == ENOENT || e == EOPNOTSUPP || e == ENODEV
                     ? ""
                     : "counters not usable (perf_event_paranoid, or a container)");
        return 0;
    }
    /* opened is not counting: some virtual machines' PMUs accept the event and never run it,
     * and every timed run's count would then fail. It must count a little work of ours. */
    {
        uint64_t v[3] = {0, 0, 0};
        unsigned long i;

        for (i = 0; i < 200000; i++)
            probe_sink += i;
        if (read((int)fd, v, sizeof(v)) != (ssize_t)sizeof(v) || v[0] == 0 || (v[2] == 0 && hw)) {
            close((int)fd);
            snprintf(why, whylen,
                     "perf_event_open(%s) opened, but the counter %s (a virtual machine's "
                     "PMU that never schedules it)",
                     ev->name, v[0] == 0 ? "counted nothing" : "never ran");
            return 0;
        }
    }
    close((int)fd);
    snprintf(why, whylen, "%s counters available", hw ? "hardware" : ev->name);
    return 1;
}

static int cmp_pid(const void *a, const void *b)
{
    pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
    return x < y ? -1 : x > y;
}

/* Whether every tid of b is in a (both sorted). */
static int subset(const pid_t *b, size_t nb, const pid_t *a, size_t na)
{
    size_t i, j = 0;

    for (i = 0; i < nb; i++) {
        while (j < na && a[j] < b[i])
            j++;
        if (j == na || a[j] != b[i])
            return 0;
    }
    return 1;
}

void counters_close(struct counters *c)
{
    size_t i;

    for (i = 0; i < c->n; i++)
        if (c->fd[i] >= 0)
            close(c->fd[i]);
    c->n = 0;
}

/* One try: lists the tasks, opens a counter on each, lists again. Returns 1 when the task
 * set held still, 0 when it changed (counters left open), -1 on an open error (why set). */
static int open_once(struct counters *c, const char *proc_root, pid_t root, pid_t *before,
                     pid_t *after, char *why, size_t whylen)
{
    size_t nb = ptree_tids(proc_root, root, before, COUNTERS_MAX, &c->n_procs), na, i, np;

    if (nb == 0) {
        snprintf(why, whylen, "the server's process %ld is gone", (long)root);
        return -1;
    }
    if (nb == COUNTERS_MAX) {
        snprintf(why, whylen, "the server's tree has more than %d threads (the most counted)",
                 COUNTERS_MAX - 1);
        return -1;
    }
    for (i = 0; i < nb; i++) {
        long fd = event_open(&c->ev, before[i]);
        if (fd < 0 && errno == ESRCH)
            continue; /* a task that ended since the listing counts nothing more */
        if (fd < 0) {
            snprintf(why, whylen, "perf_event_open(%s) on thread %ld of the server: %s", c->ev.name,
                     (long)before[i], strerror(errno));
            counters_close(c);
            return -1;
        }
        c->fd[c->n++] = (int)fd;
    }
    na = ptree_tids(proc_root, root, after, COUNTERS_MAX, &np);
    qsort(before, nb, sizeof(*before), cmp_pid);
    qsort(after, na, sizeof(*after), cmp_pid);
    return subset(after, na, before, nb);
}

int counters_open_tree(struct counters *c, const struct counters_event *ev, const char *proc_root,
                       pid_t root, char *why, size_t whylen)
{
    pid_t *before = malloc(2 * COUNTERS_MAX * sizeof(pid_t));
    int tries, rc = -1, st = 0;

    memset(c, 0, sizeof(*c));
    c->ev = *ev;
    if (!before) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    /* a task created between the listing and its creator's open is not inherited: reopen
     * until the set holds still; after the last try the newcomers are most likely children
     * of counted tasks (inherited) and are kept */
    for (tries = 0; tries < OPEN_TRIES; tries++) {
        st = open_once(c, proc_root, root, before, before + COUNTERS_MAX, why, whylen);
        if (st < 0)
            goto out;
        if (st == 1 || tries + 1 == OPEN_TRIES)
            break;
        counters_close(c);
    }
    if (c->n == 0) {
        snprintf(why, whylen, "no thread of the server's process %ld could be counted", (long)root);
        goto out;
    }
    rc = 0;
out:
    free(before);
    return rc;
}

void counters_mark(struct counters *c, int which)
{
    struct counters_sample *s = &c->mark[which ? 1 : 0];
    size_t i;

    s->ok = c->n > 0;
    for (i = 0; i < c->n; i++) {
        uint64_t v[3] = {0, 0, 0};
        if (read(c->fd[i], v, sizeof(v)) != (ssize_t)sizeof(v)) {
            s->ok = 0;
            continue;
        }
        s->value[i] = v[0];
        s->enabled[i] = v[1];
        s->running[i] = v[2];
    }
}

double counters_window(const struct counters *c, int *scaled)
{
    const struct counters_sample *a = &c->mark[0], *b = &c->mark[1];
    double sum = 0;
    size_t i;

    *scaled = 0;
    if (!a->ok || !b->ok)
        return -1;
    for (i = 0; i < c->n; i++) {
        double dv = (double)(b->value[i] - a->value[i]);
        double de = (double)(b->enabled[i] - a->enabled[i]);
        double dr = (double)(b->running[i] - a->running[i]);

        if (dv == 0)
            continue; /* an idle thread; its counter may also not have run */
        if (dr <= 0 && c->ev.with_kernel) {
            sum += dv; /* a software event: never multiplexed, nothing to scale */
            continue;
        }
        if (dr <= 0)
            return -1;
        if (dr < de) {
            dv = dv * de / dr;
            *scaled = 1;
        }
        sum += dv;
    }
    return sum;
}

json_t *counters_json(const struct counters *c, double ops, double window_s, char *why,
                      size_t whylen)
{
    int scaled = 0;
    double n = counters_window(c, &scaled);

    if (n < 0) {
        snprintf(why, whylen,
                 "%s: no count over the window (the driver wrote no window marks, a read "
                 "failed, or the counters never ran)",
                 c->ev.name);
        return NULL;
    }
    if (!(ops > 0)) {
        snprintf(why, whylen, "%s: no successful operations in the window", c->ev.name);
        return NULL;
    }
    return json_pack("{s:f,s:f,s:I,s:f,s:I,s:I,s:b,s:s,s:s,s:s,s:s}", "per_op", n / ops,
                     "window_instructions", n, "ops", (json_int_t)ops, "window_s", window_s,
                     "threads", (json_int_t)c->n, "processes", (json_int_t)c->n_procs, "scaled",
                     scaled, "source", "counters", "event", c->ev.name, "perf_event", c->ev.kernel,
                     "counted", "server");
}
