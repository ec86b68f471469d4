/* syscount: exact system calls of a server's whole process tree over the driver's measured
 * window, per system call name, in counted runs of their own (`--syscalls`, spec
 * "syscalls": true; kind "syscalls" in runs.jsonl).
 *
 * How: ptrace. A tracer process forked from compare seizes every thread of the ready server's
 * tree (PTRACE_SEIZE with PTRACE_O_TRACESYSGOOD and TRACECLONE/TRACEFORK/TRACEVFORK, so
 * threads and children created later are traced from their first instruction), stops each
 * once (PTRACE_INTERRUPT) and from then on resumes it with PTRACE_SYSCALL; at every system
 * call entry (PTRACE_GET_SYSCALL_INFO) it adds one to that number's count and keeps the entry's
 * time in a ring of the newest 65,536. The window is the driver's marks, given as times: the
 * runner's window thread hands each mark's time to the tracer (memory shared with it), which
 * takes the counts before that time, reading the ring back over entries made since. So a mark
 * that arrives late (on a server host, an ssh round trip after the driver wrote it, with the
 * mark's time put in that host's clock: remote.h) still bounds the window the driver measured.
 * The tracer is killed after the run (the kernel detaches its tracees).
 * Why ptrace and not seccomp: a seccomp filter must be installed by the server itself (or by
 * a wrapper before exec), which would change how every version is started and cannot reach a
 * server already running; ptrace attaches to what the runner started, and sees every thread
 * and child. Its price: two stops per system call, a server several times slower, so the
 * counts come from runs of their own and no timing of those runs is used.
 *
 * What it cannot see: work the kernel does without a system call (interrupts, softirq
 * network processing, page faults), and how long each call took. */
#ifndef PAIRBENCH_SYSCOUNT_H
#define PAIRBENCH_SYSCOUNT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#define SYSCOUNT_MAX_NR 1024 /* system call numbers counted by name; others as "other" */

struct syscount_shared; /* the memory shared with the tracer */

struct syscount {
    struct syscount_shared *sh;
    pid_t tracer;
    size_t threads; /* tasks seized at the start */
};

/* Starts the tracer on every thread of root's tree (proc_root "/proc") and waits until each
 * is seized. Returns 0, or -1 with why (nothing left running). */
int syscount_start(struct syscount *sc, const char *proc_root, pid_t root, char *why,
                   size_t whylen);

/* The mark which (0 opens the window, 1 closes it) at at_ns (CLOCK_MONOTONIC ns, this
 * machine's; may be past). */
void syscount_mark_at(struct syscount *sc, int which, uint64_t at_ns);

/* {"total": N, "by_name": {"read": N, ...}, "threads": T, "traced": T2, "source": "ptrace"}
 * of the window (with "marks_late": true when a mark came after the ring's oldest entry: the
 * window counted is shifted), once the tracer has taken both marks (it waits up to 2 s);
 * NULL when the tracer failed or a mark is missing (why set). New reference. */
json_t *syscount_json(const struct syscount *sc, char *why, size_t whylen);

/* Kills the tracer (its tracees are detached by the kernel and run on) and frees the
 * shared memory. */
void syscount_stop(struct syscount *sc);

/* The per-operation object of a counted line from the counts above and the window's
 * operations: {"per_op": total/ops, "ops", "total", "by_name": {name: per op}, "threads",
 * "source": "ptrace", "counted": "server"}; NULL when ops ≤ 0. New reference. */
json_t *syscount_per_op(const json_t *counts, double ops);

#endif
