/* counters: the counted-cost channel's hardware-counter source — user-space instructions of a
 * server's whole process tree, counted with perf_event_open during the normal wall-clock runs
 * at full speed and read at the driver's window marks (window.h).
 *
 * One counter per thread that exists when the server is ready: every process of the tree
 * (ptree_pids), every task of /proc/PID/task, opened per tid with inherit=1 (so threads
 * and processes created later are counted by their creator's counter), exclude_kernel=1,
 * exclude_hv=1, counting from the open, read with PERF_FORMAT_TOTAL_TIME_ENABLED/RUNNING so a
 * multiplexed counter is scaled by enabled/running over the window. inherit only follows tasks
 * created after the open: the tree's tasks are listed again after opening and the whole set is
 * reopened (a few tries) when a task appeared in between.
 *
 * The event is instructions:u (PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS). The test hook
 * PAIRBENCH_COST_EVENT=task-clock counts PERF_TYPE_SOFTWARE PERF_COUNT_SW_TASK_CLOCK (ns of
 * user CPU) instead, so the plumbing runs on machines without hardware counters; its figures
 * are nanoseconds per operation, not instructions, and the line's "event" says so.
 *
 * What a counter count holds that a valgrind count leaves out: the server's timers and
 * periodic work that ran during the window (no exclusion by name, no idle subtraction). */
#ifndef PAIRBENCH_COUNTERS_H
#define PAIRBENCH_COUNTERS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#define COUNTERS_ENV "PAIRBENCH_COST_EVENT"
#define COUNTERS_MAX 512 /* threads of the tree */

struct counters_event {
    const char *name;   /* "instructions:u", "task-clock:u" */
    const char *kernel; /* the kernel's name: "PERF_COUNT_HW_INSTRUCTIONS" */
    uint32_t type;
    uint64_t config;
    int with_kernel; /* 1: exclude_kernel = 0 (software events the kernel raises: swcount.h) */
};

/* The event to count: instructions:u, or the one env COUNTERS_ENV names ("instructions",
 * "task-clock"). Returns 0, or -1 with err naming the variable, the value and what was
 * expected. */
int counters_event_pick(struct counters_event *ev, char *err, size_t errlen);

/* Whether ev can be opened on this process (1), or not (0, why names the event, the errno
 * text and the likely cause). */
int counters_probe(const struct counters_event *ev, char *why, size_t whylen);

/* One reading of every counter. */
struct counters_sample {
    uint64_t value[COUNTERS_MAX], enabled[COUNTERS_MAX], running[COUNTERS_MAX];
    int ok;
};

struct counters {
    struct counters_event ev;
    int fd[COUNTERS_MAX];
    size_t n;                       /* counters open (= threads at the open) */
    size_t n_procs;                 /* processes of the tree at the open */
    struct counters_sample mark[2]; /* at the window's "start" and "end" */
};

/* Opens one counter per thread of root's process tree (proc_root: "/proc"). Returns 0, or -1
 * with why (nothing left open). */
int counters_open_tree(struct counters *c, const struct counters_event *ev, const char *proc_root,
                       pid_t root, char *why, size_t whylen);

/* Reads every counter into mark[which] (0 start, 1 end); mark[which].ok says whether all
 * reads succeeded. Safe to call from the window thread. */
void counters_mark(struct counters *c, int which);

/* The window's count: sum over counters of the value delta, each scaled by its enabled /
 * running delta when it was multiplexed (*scaled set to 1 then). Returns -1 when a mark is
 * missing or a counter never ran in the window. */
double counters_window(const struct counters *c, int *scaled);

/* The runs.jsonl "instructions" object of a window of `ops` successful operations over
 * window_s seconds: per_op, window_instructions, ops, window_s, threads, processes, scaled,
 * source "counters", event, perf_event, counted "server". NULL with why when the window has
 * no count. New reference. */
json_t *counters_json(const struct counters *c, double ops, double window_s, char *why,
                      size_t whylen);

void counters_close(struct counters *c);

#endif
