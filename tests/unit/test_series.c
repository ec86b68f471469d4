/* series: known answers for the time series of a window (driver/engine/series.h): the
 * intervals add up across workers, percentiles per interval within the coarse scale's 6.3%,
 * a last piece shorter than half an interval joins the one before it,
 * a run longer than the cap coarsens by pairs and keeps every operation, the longest reply
 * gap is the time no worker received one (a gap of one worker alone is not a stall), one
 * still open at the window's end counts up to it, and the series off records nothing. */
#include <math.h>
#include <stdint.h>

#include "engine/series.h"
#include "t.h"

#define MS 1000000ull
#define T0 (1000 * MS)

static long long arr_int(const json_t *o, const char *k, size_t i)
{
    return (long long)json_integer_value(json_array_get(json_object_get(o, k), i));
}

static double arr_real(const json_t *o, const char *k, size_t i)
{
    return json_number_value(json_array_get(json_object_get(o, k), i));
}

/* Two workers, 100 ms intervals: ops and round trips land in their intervals and add up. */
static void test_bins(void)
{
    struct series a, bw;
    struct series *w[2] = {&a, &bw};
    struct series_bin *b;
    uint64_t stall, at, t;
    json_t *j;
    int i;

    CHECK(series_init(&a, 100) == 0);
    CHECK(series_init(&bw, 100) == 0);
    series_start(&a, T0);
    series_start(&bw, T0);
    for (i = 0; i < 100; i++) { /* first interval: 100 batches of 1 ms on a, 10 ops each */
        t = T0 + (uint64_t)i * MS;
        b = series_reply(&a, t);
        series_done(b, 1 * MS);
        series_ops(b, 10);
    }
    for (t = T0 + 100 * MS; t < T0 + 300 * MS; t += MS / 2) /* a keeps answering */
        series_reply(&a, t);
    for (t = T0 + MS / 4; t < T0 + 300 * MS; t += MS / 2) { /* b answers every 0.5 ms, */
        b = series_reply(&bw, t);
        if (t >= T0 + 150 * MS && t < T0 + 200 * MS) { /* and completes 100 batches of 50 us */
            series_done(b, 50000);
            series_ops(b, 1);
        }
    }
    j = series_merge(w, 2, 300 * MS, &stall, &at);
    CHECK(j != NULL);
    CHECK(json_integer_value(json_object_get(j, "n")) == 3);
    CHECK(fabs(json_number_value(json_object_get(j, "interval_ms")) - 100) < 1e-9);
    CHECK(arr_int(j, "ops", 0) == 1000 && arr_int(j, "ops", 1) == 100 && arr_int(j, "ops", 2) == 0);
    CHECK(fabs(arr_real(j, "throughput", 0) - 10000) < 0.1);
    CHECK(arr_int(j, "batches", 1) == 100);
    CHECK_MSG(fabs(arr_real(j, "p50_us", 0) - 1000) <= 63, "%g", arr_real(j, "p50_us", 0));
    CHECK_MSG(fabs(arr_real(j, "p99_us", 1) - 50) <= 3.2, "%g", arr_real(j, "p99_us", 1));
    CHECK(stall == 0); /* no gap past the 1 ms recording threshold */
    json_decref(j);
    /* a window of 340 ms: the last 40 ms join the third interval, which then runs 140 ms */
    j = series_merge(w, 2, 340 * MS, &stall, &at);
    CHECK(json_integer_value(json_object_get(j, "n")) == 3);
    CHECK(arr_int(j, "ops", 2) == 0 && arr_int(j, "ops", 0) == 1000);
    json_decref(j);
    series_release(&a);
    series_release(&bw);
}

/* A run past SERIES_CAP intervals: pairs merge, no operation is lost, the interval doubles. */
static void test_coarsen(void)
{
    struct series a;
    struct series *w[1] = {&a};
    uint64_t stall, at, total = 0;
    unsigned i, n;
    json_t *j;

    CHECK(series_init(&a, 10) == 0);
    series_start(&a, T0);
    for (i = 0; i < 3 * SERIES_CAP; i++) { /* one op every 10 ms, over 3 × cap intervals */
        series_ops(series_reply(&a, T0 + (uint64_t)i * 10 * MS + 1), 1);
    }
    j = series_merge(w, 1, (uint64_t)3 * SERIES_CAP * 10 * MS, &stall, &at);
    CHECK(j != NULL);
    n = (unsigned)json_integer_value(json_object_get(j, "n"));
    CHECK_MSG(n <= SERIES_CAP && n == 3 * SERIES_CAP / 4, "%u", n);
    CHECK(fabs(json_number_value(json_object_get(j, "interval_ms")) - 40) < 1e-9);
    for (i = 0; i < n; i++)
        total += (uint64_t)arr_int(j, "ops", i);
    CHECK(total == 3 * SERIES_CAP);
    CHECK(arr_int(j, "ops", 5) == 4);
    json_decref(j);
    series_release(&a);
}

/* Worker a is silent over [100, 400) ms, worker b over [250, 600): no reply anywhere over
 * [250, 400): the stall is 150 ms at 250 ms. Then both stop at 900 ms of a 1000 ms window:
 * the open gap at the end is 100 ms, shorter. */
static void test_gaps(void)
{
    struct series a, b;
    struct series *w[2] = {&a, &b};
    uint64_t stall, at, t;
    json_t *j;

    CHECK(series_init(&a, 100) == 0);
    CHECK(series_init(&b, 100) == 0);
    series_start(&a, T0);
    series_start(&b, T0);
    series_reply(&a, T0 - 5 * MS); /* a warm-up reply: no gap of its own */
    for (t = T0 + MS / 2; t < T0 + 900 * MS; t += MS / 2) {
        if (t < T0 + 100 * MS || t >= T0 + 400 * MS)
            series_reply(&a, t);
        if (t < T0 + 250 * MS || t >= T0 + 600 * MS)
            series_reply(&b, t);
    }
    j = series_merge(w, 2, 1000 * MS, &stall, &at);
    CHECK(j != NULL);
    CHECK_MSG(llabs((long long)stall - (long long)(150 * MS)) <= (long long)MS, "%llu",
              (unsigned long long)stall);
    CHECK_MSG(llabs((long long)at - (long long)(250 * MS)) <= (long long)MS, "%llu",
              (unsigned long long)at);
    json_decref(j);
    /* one worker silent from 200 ms to the window's end: the gap runs to the end */
    series_release(&a);
    series_release(&b);
    CHECK(series_init(&a, 100) == 0);
    series_start(&a, T0);
    for (t = T0 + MS / 2; t < T0 + 200 * MS; t += MS / 2)
        series_reply(&a, t);
    j = series_merge(w, 1, 1000 * MS, &stall, &at);
    CHECK_MSG(stall == 800 * MS + MS / 2, "%llu", (unsigned long long)stall); /* 199.5 → 1000 */
    json_decref(j);
    series_release(&a);
}

/* More gaps than the list holds: the threshold doubles and the longest stays exact. */
static void test_gap_cap(void)
{
    struct series a;
    struct series *w[1] = {&a};
    uint64_t stall, at, t = T0;
    unsigned i;
    json_t *j;

    CHECK(series_init(&a, 100) == 0);
    series_start(&a, T0);
    for (i = 0; i < 4 * SERIES_GAPS_CAP; i++) { /* gaps of 2..5 ms, and one of 37 ms */
        t += (i == 700 ? 37 : 2 + i % 4) * MS;
        series_reply(&a, t);
    }
    CHECK(a.ngaps <= SERIES_GAPS_CAP && a.gap_min_ns > SERIES_GAP_MIN_NS);
    j = series_merge(w, 1, t - T0, &stall, &at);
    CHECK_MSG(stall == 37 * MS, "%llu", (unsigned long long)stall);
    json_decref(j);
    series_release(&a);
}

static void test_off(void)
{
    struct series a;
    struct series *w[1] = {&a};
    uint64_t stall = 1, at = 1;

    CHECK(series_init(&a, 0) == 0);
    series_start(&a, T0);
    CHECK(series_reply(&a, T0 + 500 * MS) == NULL);
    CHECK(series_merge(w, 1, 1000 * MS, &stall, &at) == NULL);
    CHECK(stall == 0 && at == 0);
    series_release(&a);
}

int main(void)
{
    test_bins();
    test_coarsen();
    test_gaps();
    test_gap_cap();
    test_off();
    return T_DONE();
}
