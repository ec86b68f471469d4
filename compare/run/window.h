/* window: the measured window's edges, and what the machine did between them. compare hands
 * the driver an inherited pipe (its write end's number in PAIRBENCH_WINDOW_FD); a driver that
 * supports it writes "start\n" when its measured window opens and "end\n" when it closes. A
 * thread reads the pipe and, at each mark, samples the server's process tree (every thread
 * and child: CPU, /proc/PID/io syscr/syscw, voluntary + involuntary context switches), the
 * driver's tree, /proc/stat and, when the runner opened them, the server's instruction
 * counters (counters.h). A driver that writes no marks gets whole-process accounting:
 * the samples the runner takes when the driver starts and after it exits (source "process").
 *
 * The sampling functions take the /proc root as a path so the unit tests can feed them a
 * fake tree (tests/unit/test_window.c). */
#ifndef PAIRBENCH_WINDOW_H
#define PAIRBENCH_WINDOW_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "ptree.h"
#include "run/interference.h"

struct counters;

#define WINDOW_ENV "PAIRBENCH_WINDOW_FD"

struct window_edge {
    double t_s; /* CLOCK_MONOTONIC */
    struct sys_sample sys;
    struct tree_sample server, driver;
    int have_server, have_driver;
    struct sys_sample host_sys; /* the server host's /proc/stat (sample_server's) */
    long host_hz;               /* its ticks per second; 0 = no host sample */
    struct pinfo *all;          /* every process (pid, parent, ticks) sorted by pid; malloc'd, freed
                                 * by the next sample of this edge or window_close */
    size_t n_all;
};

/* Clock ticks every process used between edges a and b: each one alive at b less its ticks at
 * a (all of them for one born between). A process that ended between the edges is missed. */
unsigned long long window_all_ticks(const struct window_edge *a, const struct window_edge *b);

struct window_watch {
    int rd, wr; /* the pipe; -1 when closed */
    pid_t server_pid, driver_pid;
    const char *proc_root; /* "/proc" */
    long hz;
    pthread_t th;
    int thread_running;
    volatile int stop;
    int marks;                  /* 1: "start" seen, 2: "end" seen too */
    struct window_edge mark[2]; /* at the marks (thread) */
    struct window_edge proc[2]; /* at the driver's start and after its exit (runner) */
    struct counters *ctr;       /* read at the marks too (counters.h); NULL = none */
    /* called at each mark too, after ctr (0 start, 1 end; at_ns: the mark's time as the
     * driver wrote it, this machine's CLOCK_MONOTONIC); NULL = none */
    void (*on_mark[2])(void *arg, int which, uint64_t at_ns);
    void *mark_arg[2];
    /* the server's tree sampled elsewhere (a server on the server host: remote.h's
     * remote_sample), returning 0 or -1 when it is gone; NULL = server_pid's tree in /proc. Its
     * CPU is then another machine's, left out of this machine's interference */
    int (*sample_server)(void *arg, struct tree_sample *out, struct sys_sample *host,
                         long *host_hz);
    void *server_arg;
};

/* Makes the pipe (both ends close-on-exec but the write end while the driver is exec'd:
 * window_before_exec/window_after_exec). Returns 0, or -1 with err. */
int window_open(struct window_watch *w, pid_t server_pid, char *err, size_t errlen);
/* The write end's number as text for WINDOW_ENV ("" when the pipe is closed). */
void window_fd_text(const struct window_watch *w, char *out, size_t len);
void window_before_exec(struct window_watch *w);
/* A copy of env (may be NULL) with WINDOW_ENV set to the write end. New reference. */
json_t *window_env(const json_t *env, const struct window_watch *w);
/* Closes the parent's write end, records the driver, samples proc[0], starts the thread. */
void window_after_exec(struct window_watch *w, pid_t driver_pid);

/* Whether line (no newline) is the mark what, "start" or "end": bare, or with the driver's
 * CLOCK_MONOTONIC ns after a space. *at_ns gets that time, or now_ns when there is none or
 * it is not a time of the last 10 s. */
int window_mark_line(const char *line, const char *what, uint64_t now_ns, uint64_t *at_ns);
/* Samples proc[1] (the driver has exited) and stops and joins the thread. */
void window_finish(struct window_watch *w);
void window_close(struct window_watch *w);

/* runs.jsonl's server.window {cpu_s, syscr, syscw, ctxsw, source: "marks"|"process"}; a
 * figure whose counter went backwards (the server ended inside the window) is null (NULL
 * without a server) and interference {other_cpu_cores, steal_pct, nivcsw, disturbed, source}.
 * driver_cpu_s: the driver's CPU from wait4() (used for "process"); driver_nivcsw: its
 * involuntary context switches over the window (the result's cpu.nivcsw, else wait4's, -1
 * unknown).
 * New references in *server_window (or NULL) and *interf. */
void window_json(const struct window_watch *w, double driver_cpu_s, long driver_nivcsw,
                 const struct interference_limits *lim, json_t **server_window, json_t **interf);

#endif
