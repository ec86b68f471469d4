/* metrics: the one metric table (see metrics.h). */
#include "analysis/metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PCT_UNIT_EN "% (100 = one full core)"
#define PCT_UNIT_ZH "%（100 = 一个完整核心）"

static const struct metric_def defs[METRIC_ALL] = {
    [METRIC_THROUGHPUT] = {"throughput",
                           {NULL},
                           "throughput",
                           1,
                           1,
                           1,
                           5,
                           "ops/s",
                           "throughput",
                           "throughput",
                           "Throughput",
                           "吞吐量",
                           NULL,
                           NULL,
                           0},
    [METRIC_CPU_PERCENT] = {"cpu_percent",
                            {"cpu", NULL},
                            "cpu_percent",
                            0,
                            0,
                            0,
                            0,
                            "%",
                            "CPU %",
                            "CPU %",
                            "Client CPU",
                            "客户端 CPU",
                            PCT_UNIT_EN,
                            PCT_UNIT_ZH,
                            0},
    [METRIC_CPU_EFFICIENCY] = {"cpu_efficiency",
                               {"efficiency", NULL},
                               "cpu_efficiency",
                               1,
                               1,
                               1,
                               5,
                               "ops/s per core",
                               "CPU efficiency",
                               "CPU efficiency",
                               "CPU efficiency",
                               "CPU 效率",
                               "operations/s per CPU core",
                               "每个 CPU 核心的操作数/秒",
                               0},
    [METRIC_P50_US] = {"p50_us",
                       {"p50", NULL},
                       "p50_us",
                       0,
                       1,
                       0,
                       5,
                       "µs",
                       "batch P50",
                       "P50",
                       "Batch RT P50",
                       "批次往返时间 P50",
                       "µs",
                       "微秒",
                       0},
    [METRIC_P99_US] = {"p99_us",
                       {"p99", NULL},
                       "p99_us",
                       0,
                       1,
                       1,
                       10,
                       "µs",
                       "batch P99",
                       "P99",
                       "Batch RT P99",
                       "批次往返时间 P99",
                       "µs",
                       "微秒",
                       0},
    [METRIC_RSS_MIB] = {"rss_mib",
                        {"rss", NULL},
                        "rss_mib",
                        0,
                        1,
                        0,
                        10,
                        "MiB",
                        "peak RSS",
                        "RSS",
                        "Client peak RSS",
                        "客户端峰值 RSS",
                        "MiB",
                        "MiB",
                        0},
    [METRIC_SERVER_CPU_US] = {"server_cpu_us",
                              {"server_cpu", NULL},
                              "server_cpu_us",
                              0,
                              1,
                              0,
                              0,
                              "µs/op",
                              "server CPU per operation",
                              "server CPU/op",
                              "Server CPU per operation",
                              "每次操作的服务器 CPU",
                              "µs per operation",
                              "每次操作的微秒数",
                              0},
    /* 1%: above the spread of three counted runs of one binary (docs/results/counted-cost.md,
     * "The 1% threshold") */
    [METRIC_INSTRUCTIONS] = {"instructions",
                             {"instr", NULL},
                             "instructions",
                             0,
                             1,
                             1,
                             1,
                             "instructions/op",
                             "instructions/op",
                             "instructions/op",
                             "Server instructions per operation (counted)",
                             "服务器每次操作的指令数（计数）",
                             "instructions/op",
                             "指令/操作",
                             0},
    /* thresholds and floors above the A/A spreads (docs/results/counted-cost.md, "System
     * calls, allocations, wake-ups"): the software events move with scheduling, the counted
     * ones repeat */
    [METRIC_CONTEXT_SWITCHES] = {"context_switches",
                                 {"ctxsw", "wakeups", NULL},
                                 "context_switches",
                                 0,
                                 1,
                                 0,
                                 20,
                                 "switches/op",
                                 "context switches/op",
                                 "ctx switches/op",
                                 "Server context switches per operation",
                                 "服务器每次操作的上下文切换",
                                 "context switches/op",
                                 "上下文切换/操作",
                                 0.1},
    [METRIC_PAGE_FAULTS] = {"page_faults",
                            {"faults", NULL},
                            "page_faults",
                            0,
                            1,
                            0,
                            20,
                            "faults/op",
                            "page faults/op",
                            "page faults/op",
                            "Server page faults per operation",
                            "服务器每次操作的缺页",
                            "page faults/op",
                            "缺页/操作",
                            0.05},
    [METRIC_CPU_MIGRATIONS] = {"cpu_migrations",
                               {"migrations", NULL},
                               "cpu_migrations",
                               0,
                               1,
                               0,
                               50,
                               "migrations/op",
                               "CPU migrations/op",
                               "migrations/op",
                               "Server CPU migrations per operation",
                               "服务器每次操作的 CPU 迁移",
                               "CPU migrations/op",
                               "CPU 迁移/操作",
                               0.05},
    [METRIC_SYSCALLS] = {"syscalls",
                         {"system_calls", NULL},
                         "syscalls",
                         0,
                         1,
                         1,
                         5,
                         "syscalls/op",
                         "system calls/op",
                         "syscalls/op",
                         "Server system calls per operation (counted)",
                         "服务器每次操作的系统调用（计数）",
                         "system calls/op",
                         "系统调用/操作",
                         0.1},
    [METRIC_ALLOCATIONS] = {"allocations",
                            {"allocs", NULL},
                            "allocations",
                            0,
                            1,
                            1,
                            5,
                            "allocations/op",
                            "allocations/op",
                            "allocs/op",
                            "Server allocator calls per operation (counted)",
                            "服务器每次操作的分配器调用（计数）",
                            "allocator calls/op",
                            "分配器调用/操作",
                            0.1},
    /* 5%: above the A/A spread of the cache-simulated count, which moves more than the
     * instruction count (docs/results/counted-cost.md, "Estimated cycles") */
    [METRIC_ESTIMATED_CYCLES] = {"estimated_cycles",
                                 {"cycles", NULL},
                                 "estimated_cycles",
                                 0,
                                 1,
                                 1,
                                 5,
                                 "cycles/op",
                                 "estimated cycles/op",
                                 "est. cycles/op",
                                 "Server estimated cycles per operation (cache simulation)",
                                 "服务器每次操作的估算周期（缓存模拟）",
                                 "estimated cycles/op",
                                 "估算周期/操作",
                                 0},
    /* a count the server's configuration sets (nginx: one per keepalive_requests): a change
     * of a tenth of a reopening per 1000 operations is noise of where the window cut */
    [METRIC_REOPENED] =
        {"reopened_per_1k",
         {"reopened", NULL},
         "reopened_per_1k",
         0,
         1,
         0,
         20,
         "per 1000 ops",
         "connections reopened per 1000 ops",
         "reopened/1k ops",
         "Connections the server closed and the driver reopened, per 1000 operations",
         "服务器关闭、驱动重新打开的连接（每 1000 次操作）",
         "reopened/1000 ops",
         "重新打开/1000 次操作",
         0.1},
    /* a gap is scheduling noise until it is long against the row's pace: a change of less
     * than 100 typical reply intervals is `~` whatever its percent (and of less than
     * SUMMARY_STALL_FLOOR_MS, in the row: summary_row.c) */
    [METRIC_STALL] = {"stall",
                      {"stall_ms", NULL},
                      "stall",
                      0,
                      1,
                      0,
                      50,
                      "× reply interval",
                      "longest reply gap",
                      "stall",
                      "Longest reply gap, in typical reply intervals",
                      "最长无回复间隔（以典型回复间隔计）",
                      "typical reply intervals",
                      "典型回复间隔",
                      100},
    /* fifths of a short window move with the host's load: a change of the ratio under 0.05
     * (5 points of throughput) is `~` */
    [METRIC_DECAY] = {"decay",
                      {NULL},
                      "decay",
                      1,
                      1,
                      1,
                      10,
                      "last/first fifth",
                      "decay (last fifth against the first)",
                      "decay",
                      "Throughput of the last fifth of the window over the first",
                      "窗口最后五分之一与最初五分之一的吞吐量之比",
                      "last fifth / first fifth",
                      "最后五分之一 / 最初五分之一",
                      0.05},
};

/* Reported beside the table's metrics, without verdicts of their own. */
static const struct metric_def reported[] = {
    {"server_cpu_percent",
     {NULL},
     "server_cpu_percent",
     0,
     0,
     0,
     0,
     "%",
     "server CPU %",
     "server CPU %",
     "Server CPU",
     "服务器 CPU",
     PCT_UNIT_EN,
     PCT_UNIT_ZH,
     0},
};

const struct metric_def *metric_def(enum metric m)
{
    return (unsigned)m < METRIC_ALL ? &defs[m] : NULL;
}

const struct metric_def *metric_def_by_key(const char *key)
{
    size_t i;

    if (!key)
        return NULL;
    for (i = 0; i < METRIC_COUNT; i++)
        if (strcmp(key, defs[i].key) == 0)
            return &defs[i];
    for (i = METRIC_COUNT; i < METRIC_ALL; i++)
        if (strcmp(key, defs[i].key) == 0)
            return &defs[i];
    for (i = 0; i < sizeof(reported) / sizeof(reported[0]); i++)
        if (strcmp(key, reported[i].key) == 0)
            return &reported[i];
    return NULL;
}

const char *metric_name(enum metric m)
{
    return (unsigned)m < METRIC_ALL ? defs[m].key : "unknown";
}

int metric_lookup(const char *name)
{
    size_t i, a;

    if (!name)
        return -1;
    for (i = 0; i < METRIC_ALL; i++)
        if (strcmp(name, defs[i].key) == 0)
            return (int)i;
    for (i = 0; i < METRIC_ALL; i++)
        for (a = 0; a < METRIC_MAX_ALIASES && defs[i].aliases[a]; a++)
            if (strcmp(name, defs[i].aliases[a]) == 0)
                return (int)i;
    return -1;
}

int metric_higher_is_better(enum metric m)
{
    return (unsigned)m < METRIC_ALL && defs[m].higher_better;
}

int metric_gateable(enum metric m)
{
    return (unsigned)m < METRIC_ALL && defs[m].gateable;
}

int metric_timed(int m)
{
    return (m >= 0 && m < METRIC_INSTRUCTIONS && m != METRIC_CPU_PERCENT) || m == METRIC_STALL ||
           m == METRIC_DECAY;
}

int metric_counted(enum metric m)
{
    return m == METRIC_INSTRUCTIONS || m == METRIC_SYSCALLS || m == METRIC_ALLOCATIONS ||
           m == METRIC_ESTIMATED_CYCLES;
}

int metric_within_floor(enum metric m, double a, double b)
{
    return (unsigned)m < METRIC_ALL && defs[m].floor_abs > 0 && fabs(a - b) < defs[m].floor_abs;
}

double metric_floor_abs(enum metric m)
{
    return (unsigned)m < METRIC_ALL ? defs[m].floor_abs : 0;
}

const char *metric_gateable_names(void)
{
    static char buf[512]; /* every gateable name, comma-separated */
    size_t i, len = 0;

    if (buf[0])
        return buf;
    for (i = 0; i < METRIC_ALL && len < sizeof(buf); i++)
        if (defs[i].gateable)
            len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? ", " : "",
                                    defs[i].arg);
    return buf;
}
