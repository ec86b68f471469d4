/* metrics: the one table of the metrics a comparison reports. Every place that names a
 * metric — the summary's keys, the gate's and drift's --threshold names and aliases, which
 * metrics get verdicts, which way is better, the default thresholds, the units and the titles
 * the reports print in English and Chinese — reads it from here, so a new metric is one entry.
 * Pure data and lookups, no I/O. */
#ifndef PAIRBENCH_METRICS_H
#define PAIRBENCH_METRICS_H

#include <stddef.h>

/* The metrics of a row that get verdicts, in table order (summary.c computes each). */
enum metric {
    METRIC_THROUGHPUT,     /* "throughput": ops/s, higher is better */
    METRIC_CPU_PERCENT,    /* "cpu_percent": client process, 100 = one core; informational */
    METRIC_CPU_EFFICIENCY, /* "cpu_efficiency": ops/s per core, per run; higher is better */
    METRIC_P50_US,         /* "p50_us": batch round trip P50, lower is better */
    METRIC_P99_US,         /* "p99_us": batch round trip P99, lower is better */
    METRIC_RSS_MIB,        /* "rss_mib": client peak RSS, lower is better */
    METRIC_COUNT,          /* the six metrics every row has (tables, drift) */
    /* "server_cpu_us": the server tree's CPU µs per operation over the measured window
     * (runs.jsonl server.window), lower is better; only in rows whose runs started a server.
     * Gateable, not gated by default (threshold 0): `--threshold server_cpu=PCT`. */
    METRIC_SERVER_CPU_US = METRIC_COUNT,
    /* "instructions": the server's user-space instructions per operation from the counted
     * runs (cost.h), lower is better; only in rows whose runs were counted. Gated by default
     * at 1% when present. */
    METRIC_INSTRUCTIONS,
    /* The full cost of a request (docs/architecture.md, "Counted cost"), per operation, lower
     * is better. From the timed runs (perf_event_open software events over the window,
     * runs.jsonl server.window.perf; gateable, not gated by default): */
    METRIC_CONTEXT_SWITCHES, /* "context_switches" */
    METRIC_PAGE_FAULTS,      /* "page_faults" */
    METRIC_CPU_MIGRATIONS,   /* "cpu_migrations" */
    /* From counted runs of their own (gated by default when present): */
    METRIC_SYSCALLS,    /* "syscalls": every system call entry of the server's tree (ptrace) */
    METRIC_ALLOCATIONS, /* "allocations": allocator calls (the --instructions callgrind runs) */
    /* "estimated_cycles": L1 hits + 5 × LL hits + 35 × RAM accesses per operation, from the
     * counted runs with --cache-sim (run/cost_cache.h) */
    METRIC_ESTIMATED_CYCLES,
    /* "reopened_per_1k": connections the server closed on purpose and the driver reopened,
     * per 1000 operations (the driver's result.connections.reopened; stock nginx: 1), lower
     * is better; only in rows where a run reopened one. Gateable, not gated by default. */
    METRIC_REOPENED,
    /* Over time (the driver's result.series and stall_ms; only in rows whose runs have a
     * series; docs/statistics.md, "Over time"):
     * "stall": the longest gap in which no reply arrived, in typical reply intervals of the
     * row (the median over its runs of elapsed / batches), lower is better; reported, not
     * gated by default. */
    METRIC_STALL,
    /* "decay": the throughput of the window's last fifth over its first fifth (1 = steady),
     * higher is better; gated by default. */
    METRIC_DECAY,
    METRIC_ALL /* every metric a verdict rule knows */
};

#define METRIC_MAX_ALIASES 4

struct metric_def {
    const char *key;                         /* the summary.json key */
    const char *aliases[METRIC_MAX_ALIASES]; /* also accepted by name (flags, spec), NULL-ended */
    const char *arg;      /* the name help and error messages show: the summary key (the aliases are
                             the older names, still accepted) */
    int higher_better;    /* 1: higher is better; 0: lower is better */
    int gateable;         /* 1: gets a verdict a gate or drift may act on; 0: informational */
    int gate_default;     /* 1: gated when no threshold is named */
    double threshold_pct; /* default |change| for regressed/improved (0: informational) */
    const char *unit;     /* unit of the raw value, as the reports print it */
    const char *word;     /* lower-case name in English prose ("batch P99") */
    const char *short_en; /* short title in the gate's comment ("P99") */
    const char *title_en, *title_zh; /* column and chart titles */
    const char *axis_en, *axis_zh;   /* chart axis; NULL: depends on the protocols */
    /* a change of the medians smaller than this, in the metric's unit, is `~` whatever its
     * percent (counts per operation near zero: 0.001 → 0.002 page faults is +100%); 0: none */
    double floor_abs;
};

/* The table, METRIC_ALL entries indexed by enum metric. */
const struct metric_def *metric_def(enum metric m);
/* A metric reported beside the table's (e.g. "server_cpu_percent") or one of the table's, by
 * summary key; NULL when unknown. Reported-only metrics have gateable 0. */
const struct metric_def *metric_def_by_key(const char *key);

/* "throughput", "cpu_percent", ... ("unknown" out of range). */
const char *metric_name(enum metric m);
/* Accepts the summary keys and the aliases (p50, p99, rss, efficiency, cpu, ...). Returns the
 * metric, or -1 when the name is unknown. */
int metric_lookup(const char *name);
/* 1 when a larger value is better (throughput, cpu_efficiency), else 0. */
int metric_higher_is_better(enum metric m);
/* 1 when the metric's verdict may be gated (every metric but cpu_percent). */
int metric_gateable(enum metric m);
/* Whether m is a time the runs measured (throughput, CPU efficiency, latencies, RSS, server CPU,
 * stall, decay): judged by the moderated test, a member of a row's Holm family when gated,
 * and held when disturbed rounds could have made it. Counts (instructions, system calls,
 * allocations, software events, reopenings) and the client's CPU percent are not. */
int metric_timed(int m);

/* 1 when the metric comes from counted runs of their own (instructions, syscalls,
 * allocations, estimated cycles): a count per request that repeats run to run, unlike the
 * timed runs' figures and the software events read in them. */
int metric_counted(enum metric m);
/* 1 when medians a and b differ by less than the metric's absolute floor (floor_abs > 0):
 * no change, whatever its percent (counts per operation near zero). */
int metric_within_floor(enum metric m, double a, double b);
/* That floor (0: none). */
double metric_floor_abs(enum metric m);
/* The gateable metrics' names (their arg) for a message: "throughput, cpu_efficiency,
 * p50_us, p99_us, rss_mib". */
const char *metric_gateable_names(void);

#endif
