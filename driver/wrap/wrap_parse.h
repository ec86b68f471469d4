/* Parsers for the output of other load generators, so that "driver wrap TOOL -- ARGS" can
 * report a pairbench.result/1 for a team's existing invocation: redis-benchmark (its
 * default report, -q, or --csv), wrk (with or without --latency) and h2load. Pure: text in,
 * figures out, no I/O, so each parser is unit-tested on recorded real output and fuzzable.
 * A figure the tool does not print is left at -1 (latency) or 0 with its `have_` flag clear. */
#ifndef PAIRBENCH_WRAP_PARSE_H
#define PAIRBENCH_WRAP_PARSE_H

#include <stddef.h>
#include <stdint.h>

enum wrap_tool { WRAP_REDIS_BENCHMARK, WRAP_WRK, WRAP_H2LOAD };

struct wrap_stats {
    double throughput; /* successful operations per second */
    uint64_t ops;      /* successful operations (have_ops) */
    int have_ops;      /* 0: the tool printed no count (redis-benchmark -q) */
    double elapsed_s;  /* the tool's measured time; 0 when it printed none */
    const char *unit;  /* "requests/s" (static) */
    const char *test;  /* redis-benchmark's test name as printed ("GET"), in name[] */
    char name[64];
    /* latency of one request, microseconds; -1 when the tool does not print it */
    double p50_us, p90_us, p99_us, p999_us, max_us, mean_us;
    /* failed operations by class, as the tool counts them */
    uint64_t err_connect, err_io, err_protocol, err_timeout;
};

/* Parses the tool's whole stdout (NUL-terminated). 0, or -1 with err saying what was expected
 * and not found ("wrk: no 'N requests in T' line"). */
int wrap_parse(enum wrap_tool tool, const char *out, struct wrap_stats *s, char *err,
               size_t errlen);

int wrap_parse_redis_benchmark(const char *out, struct wrap_stats *s, char *err, size_t errlen);
int wrap_parse_wrk(const char *out, struct wrap_stats *s, char *err, size_t errlen);
int wrap_parse_h2load(const char *out, struct wrap_stats *s, char *err, size_t errlen);

/* "redis-benchmark" -> WRAP_REDIS_BENCHMARK (also a path ending in that name); 0 or -1. */
int wrap_tool_parse(const char *name, enum wrap_tool *tool);
const char *wrap_tool_name(enum wrap_tool tool);

/* A duration as wrk and h2load print it ("335.97us", "0.86ms", "1.00s", "2.5m") in
 * microseconds; -1 when it is not one. */
double wrap_time_us(const char *s, size_t n);

#endif
