/* interference: what else used the machine during a run's measured window, from two
 * /proc/stat samples — other processes' CPU (the machine's busy time less the driver's and
 * the server's own) and steal time — and whether that makes the run "disturbed" by the rule of
 * analysis/interference_rule.h. Pure computation over samples; the sampling is in window.c. */
#ifndef PAIRBENCH_INTERFERENCE_H
#define PAIRBENCH_INTERFERENCE_H

#include <stddef.h>

#include "analysis/interference_rule.h"

/* The machine's CPU time so far, in clock ticks (the "cpu" line of /proc/stat): busy is
 * user + nice + system, irq is irq + softirq, idle is idle + iowait. Whether irq belongs with the
 * processes' own time depends on the kernel: with tick-based accounting (CONFIG_IRQ_TIME_ACCOUNTING
 * off) a tick that lands in an interrupt is filed under irq/softirq in /proc/stat but also
 * charged to the interrupted process's utime + stime, so the processes' times add up to
 * busy + irq; with irq time accounting they add up to busy alone. Loopback traffic is mostly
 * softirq, so the choice matters. A tick that lands in an interrupt taken on an idle CPU is
 * irq too, charged to no process (a latency-bound run leaves its CPUs mostly idle): it is not
 * another process. docs/statistics.md gives the measurements. */
struct sys_sample {
    unsigned long long busy, irq, idle, steal, total;
};

/* Parses the "cpu" line of /proc/stat text. Returns 0, or -1 when it is missing. */
int interference_parse_stat(const char *text, struct sys_sample *out);

struct interference {
    double other_cpu_cores; /* average cores used by other processes over the window */
    double steal_pct;       /* steal, percent of all CPU time over the window */
    long nivcsw;            /* the driver's involuntary context switches (-1 unknown) */
    int disturbed;
};

/* From samples a (window start) and b (end), own_cpu_s (driver + server CPU over the same
 * interval), window_s (its wall length) and hz (clock ticks per second). irq_in_tasks: the
 * processes' times include irq (see struct sys_sample; interference_irq_in_tasks tells);
 * then the irq ticks count with busy less their idle share (irq × idle ÷ all ticks: the
 * interrupts taken while no process ran, as far as the window's idle time tells), and
 * other_cpu_cores never reads below busy alone less the own CPU. */
void interference_compute(const struct sys_sample *a, const struct sys_sample *b, double own_cpu_s,
                          double window_s, long hz, long nivcsw, int irq_in_tasks,
                          const struct interference_limits *lim, struct interference *out);

/* Whether a window shows that this kernel charges irq time to processes: the processes used
 * more CPU over it (procs_cpu_s: every process's, from /proc/PID/stat) than the machine's busy
 * time (user + nice + system), by more than the samples' skew (4 ticks) and a quarter of the
 * window's irq time. That cannot happen with irq time accounting, where the processes' times
 * are part of busy. */
int interference_irq_in_tasks(const struct sys_sample *a, const struct sys_sample *b,
                              double procs_cpu_s, long hz);

#endif
