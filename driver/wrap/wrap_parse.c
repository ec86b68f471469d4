/* Parsers for other load generators' reports (see wrap_parse.h). Each works line by line
 * ('\r' ends a line too: redis-benchmark redraws its progress with it) and takes only
 * the lines it recognises, so banners and progress output in between do not matter. */
#include "wrap/wrap_parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LINE_MAX_LEN 1024

static const char *const tool_names[] = {"redis-benchmark", "wrk", "h2load"};

int wrap_tool_parse(const char *name, enum wrap_tool *tool)
{
    const char *base = strrchr(name, '/');
    size_t i;

    base = base ? base + 1 : name;
    for (i = 0; i < sizeof(tool_names) / sizeof(tool_names[0]); i++)
        if (strcmp(base, tool_names[i]) == 0) {
            *tool = (enum wrap_tool)i;
            return 0;
        }
    return -1;
}

const char *wrap_tool_name(enum wrap_tool tool)
{
    return (unsigned)tool < 3 ? tool_names[tool] : "?";
}

static void stats_init(struct wrap_stats *s)
{
    memset(s, 0, sizeof(*s));
    s->unit = "requests/s";
    s->p50_us = s->p90_us = s->p99_us = s->p999_us = s->max_us = s->mean_us = -1;
}

/* Copies the next line of *p (without its end and leading blanks) into line; advances *p.
 * 0 at the end of the text. */
static int next_line(const char **p, char *line, size_t cap)
{
    const char *s = *p, *e;
    size_t n;

    if (*s == '\0')
        return 0;
    e = s + strcspn(s, "\r\n");
    *p = *e ? e + 1 : e;
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    n = (size_t)(e - s) < cap - 1 ? (size_t)(e - s) : cap - 1;
    memcpy(line, s, n);
    line[n] = '\0';
    return 1;
}

double wrap_time_us(const char *s, size_t n)
{
    char buf[48], *end;
    double v, mult;

    if (n == 0 || n >= sizeof(buf))
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    v = strtod(buf, &end);
    if (end == buf || !isfinite(v) || v < 0)
        return -1;
    if (strcmp(end, "us") == 0)
        mult = 1;
    else if (strcmp(end, "ms") == 0)
        mult = 1e3;
    else if (strcmp(end, "s") == 0)
        mult = 1e6;
    else if (strcmp(end, "m") == 0)
        mult = 60e6;
    else if (strcmp(end, "h") == 0)
        mult = 3600e6;
    else
        return -1;
    return v * mult;
}

/* The n-th (0-based) blank-separated token of line: its start and length; 0 when absent. */
static size_t token(const char *line, unsigned n, const char **start)
{
    const char *s = line;
    size_t len = 0;

    for (;;) {
        s += strspn(s, " \t");
        len = strcspn(s, " \t");
        if (len == 0)
            return 0;
        if (n-- == 0)
            break;
        s += len;
    }
    *start = s;
    return len;
}

static double token_time_us(const char *line, unsigned n)
{
    const char *t;
    size_t len = token(line, n, &t);

    return len ? wrap_time_us(t, len) : -1;
}

/* wrk: "N requests in T, X read", "Requests/sec: R", the Thread Stats "Latency" row
 * (avg stdev max), the --latency distribution (50% 75% 90% 99%), "Socket errors: connect
 * A, read B, write C, timeout D" and "Non-2xx or 3xx responses: N". */
int wrap_parse_wrk(const char *out, struct wrap_stats *s, char *err, size_t errlen)
{
    char line[LINE_MAX_LEN], tbuf[48];
    unsigned long long total = 0, non2xx = 0, c = 0, r = 0, w = 0, t = 0;
    double rps = -1, pct, v;
    int have_total = 0, in_dist = 0;

    stats_init(s);
    while (next_line(&out, line, sizeof(line))) {
        if (sscanf(line, "%llu requests in %47[^,],", &total, tbuf) == 2) {
            v = wrap_time_us(tbuf, strlen(tbuf));
            if (v > 0) {
                have_total = 1;
                s->elapsed_s = v / 1e6;
            }
            in_dist = 0;
        } else if (sscanf(line, "Requests/sec: %lf", &rps) == 1) {
            in_dist = 0;
        } else if (strncmp(line, "Latency Distribution", 20) == 0) {
            in_dist = 1;
        } else if (strncmp(line, "Latency ", 8) == 0 && token_time_us(line, 1) >= 0) {
            s->mean_us = token_time_us(line, 1);
            s->max_us = token_time_us(line, 3);
        } else if (in_dist && sscanf(line, "%lf%%", &pct) == 1) {
            v = token_time_us(line, 1);
            if (pct == 50)
                s->p50_us = v;
            else if (pct == 90)
                s->p90_us = v;
            else if (pct == 99)
                s->p99_us = v;
        } else if (sscanf(line, "Socket errors: connect %llu, read %llu, write %llu, timeout %llu",
                          &c, &r, &w, &t) == 4) {
            s->err_connect = c;
            s->err_io = r + w;
            s->err_timeout = t;
        } else if (sscanf(line, "Non-2xx or 3xx responses: %llu", &non2xx) == 1) {
            s->err_protocol = non2xx;
        }
    }
    if (!have_total) {
        snprintf(err, errlen, "wrk: expected a line 'N requests in T, X read' in its output");
        return -1;
    }
    /* wrk prints the run time rounded to 10 ms; total / Requests/sec is its exact value */
    if (rps > 0 && total > 0)
        s->elapsed_s = (double)total / rps;
    s->ops = total > non2xx ? total - non2xx : 0;
    s->have_ops = 1;
    s->throughput = s->elapsed_s > 0 ? (double)s->ops / s->elapsed_s : 0;
    snprintf(s->name, sizeof(s->name), "http");
    s->test = s->name;
    return 0;
}

/* h2load: "finished in T, R req/s, B/s", "requests: N total, N started, N done, N
 * succeeded, N failed, N errored, N timeout" and "time for request: min max mean sd". */
int wrap_parse_h2load(const char *out, struct wrap_stats *s, char *err, size_t errlen)
{
    char line[LINE_MAX_LEN], tbuf[48];
    unsigned long long total, started, done, ok, failed, errored, tmo;
    int have_fin = 0, have_req = 0;
    double v;

    stats_init(s);
    while (next_line(&out, line, sizeof(line))) {
        if (sscanf(line, "finished in %47[^,],", tbuf) == 1) {
            v = wrap_time_us(tbuf, strlen(tbuf));
            if (v >= 0) {
                have_fin = 1;
                s->elapsed_s = v / 1e6;
            }
        } else if (sscanf(line,
                          "requests: %llu total, %llu started, %llu done, %llu succeeded, %llu "
                          "failed, %llu errored, %llu timeout",
                          &total, &started, &done, &ok, &failed, &errored, &tmo) == 7) {
            have_req = 1;
            s->ops = ok;
            s->err_timeout = tmo;
            if (done == 0 && errored > 0)
                s->err_connect = errored; /* nothing got through: connections failed */
            else
                s->err_io = errored > tmo ? errored - tmo : 0;
            s->err_protocol = failed > errored ? failed - errored : 0;
        } else if (strncmp(line, "time for request:", 17) == 0) {
            s->max_us = token_time_us(line + 17, 1);
            s->mean_us = token_time_us(line + 17, 2);
        }
    }
    if (!have_fin || !have_req) {
        snprintf(err, errlen,
                 "h2load: expected the lines 'finished in T, ...' and 'requests: N "
                 "total, ... succeeded, ...' in its output");
        return -1;
    }
    s->have_ops = 1;
    s->throughput = s->elapsed_s > 0 ? (double)s->ops / s->elapsed_s : 0;
    snprintf(s->name, sizeof(s->name), "http");
    s->test = s->name;
    return 0;
}

/* A CSV field of redis-benchmark's --csv output: "..." around each. */
static int csv_fields(const char *line, char f[][48], int max)
{
    int n = 0;
    const char *p = line, *q;

    while (*p == '"' && n < max) {
        q = strchr(p + 1, '"');
        if (!q || (size_t)(q - p - 1) >= 48)
            return -1;
        memcpy(f[n], p + 1, (size_t)(q - p - 1));
        f[n][q - p - 1] = '\0';
        n++;
        p = q + 1;
        if (*p == ',')
            p++;
    }
    return *p == '\0' ? n : -1;
}

static int rb_one_test(struct wrap_stats *s, const char *name, unsigned *tests, char *err,
                       size_t errlen)
{
    if ((*tests)++ > 0) {
        snprintf(err, errlen,
                 "redis-benchmark: ran more than one test ('%s', then '%s'): wrap reports one "
                 "measurement, so pass one test with -t",
                 s->name, name);
        return -1;
    }
    snprintf(s->name, sizeof(s->name), "%s", name);
    s->test = s->name;
    return 0;
}

/* redis-benchmark: --csv ("test","rps",avg,min,p50,p95,p99,max in ms), -q ("GET: R requests
 * per second, p50=X msec") or the default report ("====== GET ======", "N requests
 * completed in T seconds", the percentile distribution "P% <= X milliseconds", "throughput
 * summary: R requests per second", and the latency summary row avg min p50 p95 p99 max). */
int wrap_parse_redis_benchmark(const char *out, struct wrap_stats *s, char *err, size_t errlen)
{
    char line[LINE_MAX_LEN], f[8][48], name[48];
    unsigned long long n;
    unsigned tests = 0;
    double rps = -1, t, pct, ms, a[6];
    int csv = 0, summary = 0, end;

    stats_init(s);
    while (next_line(&out, line, sizeof(line))) {
        end = 0; /* %n: set only when the whole pattern matched */
        if (strncmp(line, "\"test\",\"rps\"", 12) == 0) {
            csv = 1;
        } else if (csv && csv_fields(line, f, 8) == 8) {
            if (rb_one_test(s, f[0], &tests, err, errlen) < 0)
                return -1;
            rps = strtod(f[1], NULL);
            s->mean_us = strtod(f[2], NULL) * 1e3;
            s->p50_us = strtod(f[4], NULL) * 1e3;
            s->p99_us = strtod(f[6], NULL) * 1e3;
            s->max_us = strtod(f[7], NULL) * 1e3;
        } else if (sscanf(line, "throughput summary: %lf requests per second", &rps) == 1) {
            summary = 1;
        } else if (sscanf(line, "====== %47s ======", name) == 1 ||
                   (sscanf(line, "%47[^:]: %lf requests per second%n", name, &rps, &end) == 2 &&
                    end > 0)) {
            if (rb_one_test(s, name, &tests, err, errlen) < 0)
                return -1;
            if (sscanf(line, "%*[^,], p50=%lf msec", &ms) == 1)
                s->p50_us = ms * 1e3;
        } else if (sscanf(line, "%llu requests completed in %lf seconds", &n, &t) == 2) {
            s->ops = n;
            s->have_ops = 1;
            s->elapsed_s = t;
        } else if (sscanf(line, "%lf%% <= %lf milliseconds", &pct, &ms) == 2 && !summary) {
            /* the first row at or past each percentile (the distribution is cumulative) */
            if (pct >= 50 && s->p50_us < 0)
                s->p50_us = ms * 1e3;
            if (pct >= 90 && s->p90_us < 0)
                s->p90_us = ms * 1e3;
            if (pct >= 99 && s->p99_us < 0)
                s->p99_us = ms * 1e3;
            if (pct >= 99.9 && s->p999_us < 0)
                s->p999_us = ms * 1e3;
            if (pct >= 100)
                s->max_us = ms * 1e3;
        } else if (strncmp(line, "Cumulative distribution", 23) == 0) {
            summary = 1; /* the second table repeats counts at round latencies: not percentiles */
        } else if (summary && sscanf(line, "%lf %lf %lf %lf %lf %lf", &a[0], &a[1], &a[2], &a[3],
                                     &a[4], &a[5]) == 6) {
            s->mean_us = a[0] * 1e3;
            s->max_us = a[5] * 1e3;
        }
    }
    if (tests == 0 || !(rps >= 0)) {
        snprintf(err, errlen,
                 "redis-benchmark: expected a test's result in its output (default report, -q "
                 "or --csv): '====== TEST ======' with 'throughput summary', 'TEST: R requests "
                 "per second' or a --csv row");
        return -1;
    }
    s->throughput = rps;
    if (s->have_ops && s->elapsed_s > 0)
        s->throughput = (double)s->ops / s->elapsed_s;
    return 0;
}

/* A latency the tool printed as nan, inf or negative is one it did not measure. */
static void lat_clean(double *v)
{
    if (!isfinite(*v) || *v < 0)
        *v = -1;
}

int wrap_parse(enum wrap_tool tool, const char *out, struct wrap_stats *s, char *err, size_t errlen)
{
    int rc = -1;

    switch (tool) {
    case WRAP_REDIS_BENCHMARK:
        rc = wrap_parse_redis_benchmark(out, s, err, errlen);
        break;
    case WRAP_WRK:
        rc = wrap_parse_wrk(out, s, err, errlen);
        break;
    case WRAP_H2LOAD:
        rc = wrap_parse_h2load(out, s, err, errlen);
        break;
    default:
        snprintf(err, errlen, "unknown tool");
        return -1;
    }
    if (rc < 0)
        return -1;
    if (!isfinite(s->throughput) || s->throughput < 0 || !isfinite(s->elapsed_s) ||
        s->elapsed_s < 0 || (s->have_ops && s->ops > 0 && s->elapsed_s == 0)) {
        snprintf(err, errlen, "%s: expected a positive run time and rate in its report",
                 wrap_tool_name(tool));
        return -1;
    }
    lat_clean(&s->p50_us);
    lat_clean(&s->p90_us);
    lat_clean(&s->p99_us);
    lat_clean(&s->p999_us);
    lat_clean(&s->max_us);
    lat_clean(&s->mean_us);
    return 0;
}
