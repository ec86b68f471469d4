/* interference_rule: when a run counts as disturbed and when a throughput is an outlier: the
 * limits and their defaults, shared by the sampling (run/interference.h, run/window.c), the
 * verdicts (analysis/disturb.c, analysis/gate.c) and the words (report/window_text.c). */
#ifndef PAIRBENCH_INTERFERENCE_RULE_H
#define PAIRBENCH_INTERFERENCE_RULE_H

/* A run is disturbed when, over its window, other processes used more than
 * other_cpu_cores of CPU on average, or steal took more than steal_pct of the machine's
 * time. Defaults: INTERFERENCE_OTHER_CORES, INTERFERENCE_STEAL_PCT (docs/statistics.md
 * gives the measurements). */
#define INTERFERENCE_OTHER_CORES 0.15
#define INTERFERENCE_STEAL_PCT 5.0
/* A window shorter than this (20 ticks at 100 Hz) is never disturbed: /proc/stat's ticks
 * cannot resolve what others did in it (a driver that exits in 10 ms, a scripted one). */
#define INTERFERENCE_MIN_WINDOW_S 0.2
struct interference_limits {
    double other_cpu_cores, steal_pct;
};
void interference_limits_default(struct interference_limits *lim);

/* A throughput so far from its row's others that it cannot be a measurement of the same
 * thing (the 1.1 ops/s run among 60,000): below median / INTERFERENCE_OUTLIER_FACTOR or
 * above median × that. Such a run never decides a verdict: it is excluded and the report
 * names it. */
#define INTERFERENCE_OUTLIER_FACTOR 10.0
int interference_is_outlier(double value, double row_median);

#endif
