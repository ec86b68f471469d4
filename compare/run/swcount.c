/* swcount: wake-ups and faults of the server's tree with software perf events (see
 * swcount.h). */
#include "run/swcount.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct counters_event events[SWCOUNT_N] = {
    {"context-switches", "PERF_COUNT_SW_CONTEXT_SWITCHES", PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_CONTEXT_SWITCHES, 1},
    {"page-faults", "PERF_COUNT_SW_PAGE_FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1},
    {"cpu-migrations", "PERF_COUNT_SW_CPU_MIGRATIONS", PERF_TYPE_SOFTWARE,
     PERF_COUNT_SW_CPU_MIGRATIONS, 1},
};

static const char *const keys[SWCOUNT_N] = {"context_switches", "page_faults", "cpu_migrations"};

const char *swcount_key(int i)
{
    return i >= 0 && i < SWCOUNT_N ? keys[i] : "?";
}

struct swcount *swcount_open(const char *proc_root, pid_t root, char *why, size_t whylen)
{
    struct swcount *sw = calloc(1, sizeof(*sw));
    int i, n = 0;

    if (!sw) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    for (i = 0; i < SWCOUNT_N; i++) {
        char w[400];

        if (counters_open_tree(&sw->c[i], &events[i], proc_root, root, w, sizeof(w)) == 0) {
            sw->open[i] = 1;
            n++;
        } else if (!sw->why[0]) {
            snprintf(sw->why, sizeof(sw->why), "%s", w);
        }
    }
    if (n == 0) {
        snprintf(why, whylen, "%s", sw->why);
        free(sw);
        return NULL;
    }
    return sw;
}

void swcount_mark(struct swcount *sw, int which)
{
    int i;

    for (i = 0; i < SWCOUNT_N; i++)
        if (sw->open[i])
            counters_mark(&sw->c[i], which);
}

json_t *swcount_json(const struct swcount *sw)
{
    json_t *o = json_object();
    size_t threads = 0;
    int i, any = 0;

    if (!o)
        return NULL;
    for (i = 0; i < SWCOUNT_N; i++) {
        int scaled = 0;
        double n;

        if (!sw->open[i])
            continue;
        /* software events are never multiplexed; an idle thread's counter may never run */
        n = counters_window(&sw->c[i], &scaled);
        if (n < 0)
            continue;
        json_object_set_new(o, keys[i], json_integer((json_int_t)n));
        if (sw->c[i].n > threads)
            threads = sw->c[i].n;
        any = 1;
    }
    if (!any) {
        json_decref(o);
        return NULL;
    }
    json_object_set_new(o, "threads", json_integer((json_int_t)threads));
    json_object_set_new(o, "source", json_string("perf_event_open"));
    return o;
}

void swcount_close(struct swcount *sw)
{
    int i;

    if (!sw)
        return;
    for (i = 0; i < SWCOUNT_N; i++)
        if (sw->open[i])
            counters_close(&sw->c[i]);
    if (sw->tracing)
        syscount_stop(&sw->sc);
    free(sw);
}

struct swcount *swcount_open_server(pid_t server_pid, int trace_syscalls)
{
    static int warned;
    char why[600];
    struct swcount *sw = swcount_open("/proc", server_pid, why, sizeof(why));

    if ((!sw || sw->why[0]) && !warned) {
        warned = 1;
        fprintf(stderr,
                "compare: warning: wake-ups and faults per operation: %s (software events with "
                "kernel mode need perf_event_paranoid <= 1 or CAP_PERFMON)\n",
                sw ? sw->why : why);
    }
    if (!trace_syscalls)
        return sw;
    if (!sw && !(sw = calloc(1, sizeof(*sw))))
        return NULL;
    sw->tracing =
        syscount_start(&sw->sc, "/proc", server_pid, sw->trace_why, sizeof(sw->trace_why)) == 0;
    return sw;
}

void swcount_on_mark(void *arg, int which, uint64_t at_ns)
{
    struct swcount *sw = arg;

    if (!sw)
        return;
    swcount_mark(sw, which);
    if (sw->tracing)
        syscount_mark_at(&sw->sc, which, at_ns);
}

void swcount_attach(const struct swcount *sw, json_t *swin, int marks_seen)
{
    json_t *perf, *sys;
    char why[600];

    if (!sw || !json_is_object(swin))
        return;
    if (marks_seen && (perf = swcount_json(sw)))
        json_object_set_new(swin, "perf", perf);
    else if (sw->open[0] || sw->open[1] || sw->open[2])
        json_object_set_new(swin, "perf_error",
                            json_string(marks_seen ? "no count over the window: a read of a "
                                                     "counter failed at a window mark"
                                                   : "the driver wrote no window marks"));
    if (!sw->tracing && !sw->trace_why[0])
        return; /* not a counted run of system calls */
    if (!sw->tracing)
        json_object_set_new(swin, "syscalls_error", json_string(sw->trace_why));
    else if (!marks_seen)
        json_object_set_new(swin, "syscalls_error",
                            json_string("the driver wrote no window marks (the system calls are "
                                        "counted between them)"));
    else if ((sys = syscount_json(&sw->sc, why, sizeof(why))))
        json_object_set_new(swin, "syscalls", sys);
    else
        json_object_set_new(swin, "syscalls_error", json_string(why));
}
