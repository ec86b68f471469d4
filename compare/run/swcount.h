/* swcount: the server tree's wake-ups and faults over the measured window, from the kernel's
 * software events with perf_event_open (counters.h does the opening: one inherited counter
 * per thread of the ready server's tree, so threads and children created later count too):
 * PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_PAGE_FAULTS and PERF_COUNT_SW_CPU_MIGRATIONS,
 * user and kernel mode (the kernel raises all three: counted with exclude_kernel = 0, which
 * needs perf_event_paranoid ≤ 1 or CAP_PERFMON; where it is refused the event is left out and
 * why is said once). Read at the driver's window marks during the normal timed runs; they
 * cost a counter update per event, nothing per instruction, so they are on by default.
 *
 * What they count: every switch away from a thread of the server (voluntary: it slept; or
 * preempted), every page fault (minor and major) its threads took, every move of one of its
 * threads to another CPU. What they cannot see: why a thread slept, whose wake-up woke it,
 * faults in the kernel on the server's behalf that are not its own page faults. */
#ifndef PAIRBENCH_SWCOUNT_H
#define PAIRBENCH_SWCOUNT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "run/counters.h"
#include "syscount.h"

#define SWCOUNT_N 3

struct swcount {
    struct counters c[SWCOUNT_N];
    int open[SWCOUNT_N];
    char why[512]; /* why an event could not be opened ("" when all opened) */
    /* a counted run of system calls (syscount.h): the tracer, started with the counters */
    struct syscount sc;
    int tracing;
    char trace_why[512]; /* why the tracer could not start */
};

/* The summary keys of the three events, in order: "context_switches", "page_faults",
 * "cpu_migrations". */
const char *swcount_key(int i);

/* Opens the three events on root's tree (proc_root "/proc"). NULL when none could be opened
 * (why set); otherwise those that opened, with sw->why naming the others. */
struct swcount *swcount_open(const char *proc_root, pid_t root, char *why, size_t whylen);

/* Reads every counter at mark which (0 start, 1 end). Safe from the window thread. */
void swcount_mark(struct swcount *sw, int which);

/* {"context_switches": N, "page_faults": N, "cpu_migrations": N, "threads": T, "source":
 * "perf_event_open"} of the window (an event that did not open or has no count is left out);
 * NULL when nothing was counted. New reference. */
json_t *swcount_json(const struct swcount *sw);

/* swcount_open on a server the runner started; NULL when none could be opened, with a
 * warning on stderr the first time (the runs go on without them). trace_syscalls: also start
 * the system-call tracer (syscount.h) on the tree; then never NULL but out of memory, and
 * trace_why says why the tracer did not start. */
struct swcount *swcount_open_server(pid_t server_pid, int trace_syscalls);

/* A window_watch mark hook (arg: the swcount, may be NULL). */
void swcount_on_mark(void *arg, int which, uint64_t at_ns);

/* Adds "perf" (swcount_json) to the server's window object swin when both marks were seen,
 * and when tracing "syscalls" (syscount_json) or "syscalls_error" (why there is no count). */
void swcount_attach(const struct swcount *sw, json_t *swin, int marks_seen);

void swcount_close(struct swcount *sw);

#endif
