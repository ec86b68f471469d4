/* wrap_parse: the reports of redis-benchmark 7.0, wrk 4.1 and h2load (nghttp2 1.52), as
 * recorded on this machine against real redis-server and nginx (tests/fixtures/wrap/),
 * give the figures the tools printed; output that is not a report is refused with a
 * message naming the tool and what was expected. */
#include <math.h>
#include <stdlib.h>

#include "t.h"
#include "wrap/wrap_parse.h"

static char *slurp(const char *name)
{
    char path[512];
    FILE *f;
    char *buf;
    long n;

    snprintf(path, sizeof(path), "%s/tests/fixtures/wrap/%s",
             getenv("PAIRBENCH_TOP") ? getenv("PAIRBENCH_TOP") : ".", name);
    f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-6 * (fabs(b) > 1 ? fabs(b) : 1);
}

/* Parses fixture name with tool; 0 on success. */
static int parse(enum wrap_tool tool, const char *name, struct wrap_stats *s, char *err,
                 size_t errlen)
{
    char *text = slurp(name);
    int rc;

    memset(s, 0, sizeof(*s));
    if (!text) {
        CHECK_MSG(0, "fixture %s missing", name);
        return -2;
    }
    rc = wrap_parse(tool, text, s, err, errlen);
    free(text);
    return rc;
}

int main(void)
{
    struct wrap_stats s;
    char err[512];
    enum wrap_tool tool;

    /* wrk --latency: 21385 requests, Requests/sec 21318.30 */
    CHECK(parse(WRAP_WRK, "wrk_latency.txt", &s, err, sizeof(err)) == 0);
    CHECK(s.ops == 21385 && s.have_ops);
    CHECK(near(s.elapsed_s, 21385 / 21318.30));
    CHECK(near(s.throughput, 21318.30));
    CHECK(near(s.mean_us, 335.97) && near(s.max_us, 10830));
    CHECK(near(s.p50_us, 175) && near(s.p90_us, 269) && near(s.p99_us, 4770) && s.p999_us < 0);
    CHECK(s.err_connect + s.err_io + s.err_protocol + s.err_timeout == 0);
    /* without --latency: no percentiles */
    CHECK(parse(WRAP_WRK, "wrk_plain.txt", &s, err, sizeof(err)) == 0);
    CHECK(s.ops == 6450 && near(s.throughput, 6415.53) && s.p50_us < 0 && near(s.max_us, 18620));
    /* a 404 path: every response non-2xx - no successful operation */
    CHECK(parse(WRAP_WRK, "wrk_404.txt", &s, err, sizeof(err)) == 0);
    CHECK(s.ops == 0 && s.err_protocol == 13620 && s.throughput == 0);
    /* socket errors by class */
    CHECK(parse(WRAP_WRK, "wrk_errors.txt", &s, err, sizeof(err)) == 0);
    CHECK(s.ops == 0 && s.err_io == 280 && s.err_connect == 0 && s.err_timeout == 0);
    CHECK(near(s.elapsed_s, 2.01));

    /* h2load over h2c: 2000 succeeded in 147.38 ms */
    CHECK(parse(WRAP_H2LOAD, "h2load.txt", &s, err, sizeof(err)) == 0);
    CHECK(s.ops == 2000 && near(s.elapsed_s, 0.14738) && near(s.throughput, 2000 / 0.14738));
    CHECK(near(s.mean_us, 1050) && near(s.max_us, 8420) && s.p50_us < 0);
    CHECK(parse(WRAP_H2LOAD, "h2load_dur.txt", &s, err, sizeof(err)) == 0);
    CHECK(s.ops == 20880 && near(s.elapsed_s, 1.0));
    CHECK(parse(WRAP_H2LOAD, "h2load_404.txt", &s, err, sizeof(err)) == 0);
    CHECK(s.ops == 0 && s.err_protocol == 200 && s.err_io == 0);
    CHECK(parse(WRAP_H2LOAD, "h2load_refused.txt", &s, err, sizeof(err)) == 0);
    CHECK(s.ops == 0 && s.err_connect == 200 && s.throughput == 0);

    /* redis-benchmark's default report: 20000 in 1.79 s, the percentile table, the summary */
    CHECK(parse(WRAP_REDIS_BENCHMARK, "rb_full.txt", &s, err, sizeof(err)) == 0);
    CHECK_STR(s.test ? s.test : "", "GET");
    CHECK(s.ops == 20000 && near(s.elapsed_s, 1.79) && near(s.throughput, 20000 / 1.79));
    CHECK(near(s.p50_us, 95) && near(s.p90_us, 215) && near(s.p99_us, 5071));
    CHECK(near(s.p999_us, 8527) && near(s.max_us, 10359) && near(s.mean_us, 242));
    /* -q: the rate and P50 only */
    CHECK(parse(WRAP_REDIS_BENCHMARK, "rb_q1.txt", &s, err, sizeof(err)) == 0);
    CHECK_STR(s.test ? s.test : "", "SET");
    CHECK(!s.have_ops && near(s.throughput, 22222.22) && near(s.p50_us, 79) && s.p99_us < 0);
    /* --csv */
    CHECK(parse(WRAP_REDIS_BENCHMARK, "rb_csv1.txt", &s, err, sizeof(err)) == 0);
    CHECK_STR(s.test ? s.test : "", "GET");
    CHECK(near(s.throughput, 29069.77) && near(s.mean_us, 86) && near(s.p50_us, 79));
    CHECK(near(s.p99_us, 223) && near(s.max_us, 4903));
    /* two tests in one run: refused, naming both and the fix */
    CHECK(parse(WRAP_REDIS_BENCHMARK, "rb_q.txt", &s, err, sizeof(err)) == -1);
    CHECK(strstr(err, "'SET', then 'GET'") && strstr(err, "-t"));
    CHECK(parse(WRAP_REDIS_BENCHMARK, "rb_csv.txt", &s, err, sizeof(err)) == -1);

    /* not a report: each tool says what it expected */
    CHECK(wrap_parse(WRAP_WRK, "unable to connect to 127.0.0.1:1 Connection refused\n", &s, err,
                     sizeof(err)) == -1 &&
          strstr(err, "wrk: expected") != NULL);
    CHECK(wrap_parse(WRAP_H2LOAD, "", &s, err, sizeof(err)) == -1 &&
          strstr(err, "h2load: expected") != NULL);
    CHECK(wrap_parse(WRAP_REDIS_BENCHMARK, "Could not connect to Redis at 127.0.0.1:1\n", &s, err,
                     sizeof(err)) == -1 &&
          strstr(err, "redis-benchmark: expected") != NULL);
    /* the wrk report of someone else's tool is not an h2load report */
    CHECK(parse(WRAP_H2LOAD, "wrk_latency.txt", &s, err, sizeof(err)) == -1);

    /* durations and tool names */
    CHECK(near(wrap_time_us("1.5ms", 5), 1500) && near(wrap_time_us("2s", 2), 2e6));
    CHECK(wrap_time_us("12", 2) < 0 && wrap_time_us("-nan%", 5) < 0 && wrap_time_us("x", 1) < 0);
    CHECK(wrap_tool_parse("/usr/bin/redis-benchmark", &tool) == 0 && tool == WRAP_REDIS_BENCHMARK);
    CHECK(wrap_tool_parse("wrk", &tool) == 0 && tool == WRAP_WRK);
    CHECK(wrap_tool_parse("ab", &tool) == -1);
    return T_DONE();
}
