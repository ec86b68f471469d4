/* ptree: a process tree read from /proc — a process and all its descendants, found by parent
 * pid in PROC_ROOT/[0-9]*\/stat (as kernels without /proc/PID/task/TID/children need) — and
 * what its processes used so far: CPU, read and write system calls, context switches, the
 * threads' on-CPU time. compare samples the server it started at the driver's window marks
 * (compare/run/window.h); `driver agent` samples the server it started on a server host the
 * same way (driver/agent.h). The functions take the /proc root as a path so unit tests can
 * feed them a fake tree (tests/unit/test_window.c). */
#ifndef PAIRBENCH_PTREE_H
#define PAIRBENCH_PTREE_H

#include <stddef.h>
#include <sys/types.h>

#define PTREE_MAX_PROCS 4096
#define PTREE_MAX_TREE 256 /* processes of one tree whose threads are listed */

/* One process tree at one moment. */
struct tree_sample {
    double cpu_s;                    /* user + system of every process of the tree */
    unsigned long long syscr, syscw; /* read and write system calls (/proc/PID/io) */
    unsigned long long vcsw, nivcsw; /* context switches, summed over every thread */
    unsigned n_procs;                /* processes found (0: the root is gone) */
    /* the threads' on-CPU time in ns (task/TID/schedstat), and the threads read: cpu_s at
     * nanosecond resolution when two samples read the same threads (ticks are 10 ms) */
    double sched_s;
    unsigned n_sched;
    /* page faults (minor + major) of every process of the tree, its ended threads' too
     * (PID/stat); CPU migrations of its live threads (task/TID/sched se.nr_migrations, read
     * from n_migr threads: 0 on kernels without CONFIG_SCHED_DEBUG) */
    unsigned long long faults, migrations;
    unsigned n_migr;
};

/* One process of a listing: its pid, its parent and its CPU ticks (utime + stime). */
struct pinfo {
    long pid, ppid;
    unsigned long long ticks;
    unsigned long long faults; /* minflt + majflt */
};

/* A process's state letter from /proc/PID/stat ('R', 'S', 'Z', ...) and, when pgrp is not
 * NULL, its process group; 0 when there is no such process. */
char ptree_state(pid_t pid, long *pgrp);

/* Whether pid has ended: gone, or a zombie its parent has not reaped yet. */
int ptree_ended(pid_t pid);

/* The live processes (not zombies) of process group pgid, at most max into out. Returns how
 * many (an ended one has no gdbserver, no tracee, nothing to ask). */
size_t ptree_group_live(pid_t pgid, pid_t *out, size_t max);

/* Reads a small file into buf (NUL-terminated). Returns the length, or -1. */
ssize_t ptree_read_small(const char *path, char *buf, size_t len);

/* Every process under proc_root (at most PTREE_MAX_PROCS), *n set. malloc'd (free()), or
 * NULL. */
struct pinfo *ptree_list(const char *proc_root, size_t *n);

/* Samples pid and its descendants from the listing v of n processes. hz: clock ticks per
 * second. Returns 0, or -1 when pid is not in v (out zeroed). Missing io files count 0. */
int ptree_sample_in(const char *proc_root, const struct pinfo *v, size_t n, pid_t pid, long hz,
                    struct tree_sample *out);

/* ptree_sample_in over a listing of its own. */
int ptree_sample(const char *proc_root, pid_t pid, long hz, struct tree_sample *out);

/* pid and all its descendants, pid first, at most max into out. Returns how many, 0 when pid
 * cannot be read. */
size_t ptree_pids(const char *proc_root, pid_t pid, pid_t *out, size_t max);

/* The thread ids of every process of pid's tree, at most max into tids. Returns how many, and
 * the processes in *n_procs when not NULL; 0 when pid is gone. */
size_t ptree_tids(const char *proc_root, pid_t pid, pid_t *tids, size_t max, size_t *n_procs);

#endif
