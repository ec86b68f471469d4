/* overtime: figures from a run's time series (see overtime.h). */
#include "analysis/overtime.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "analysis/summary_row.h"

#include "util/jobs_util.h"

/* The most intervals read from one run (the driver keeps at most 512). */
#define SERIES_READ_MAX 1024

/* The operations of the series over [a, b) seconds of the window, intervals in proportion. */
static double ops_between(const json_t *ops, double iv, double elapsed, double a, double b)
{
    size_t i, n = json_array_size(ops);
    double sum = 0, lo, hi, x0, x1;

    for (i = 0; i < n; i++) {
        lo = (double)i * iv;
        hi = lo + iv < elapsed ? lo + iv : elapsed;
        if (hi <= lo)
            continue;
        x0 = lo > a ? lo : a;
        x1 = hi < b ? hi : b;
        if (x1 > x0)
            sum += json_number_value(json_array_get(ops, i)) * (x1 - x0) / (hi - lo);
    }
    return sum;
}

int overtime_decay(const json_t *result, double *decay)
{
    const json_t *s = json_object_get(result, "series");
    const json_t *ops = json_object_get(s, "ops");
    double iv = json_number_value(json_object_get(s, "interval_ms")) / 1e3;
    double el = json_number_value(json_object_get(result, "elapsed_s")), first, last;

    if (!json_is_array(ops) || json_array_size(ops) < 5 || !(iv > 0) || !(el > 0))
        return -1;
    first = ops_between(ops, iv, el, 0, el / 5);
    last = ops_between(ops, iv, el, el * 4 / 5, el);
    if (!(first > 0))
        return -1;
    *decay = last / first;
    return 0;
}

int overtime_stall(const json_t *result, double *stall_ms, double *interval_ms)
{
    const json_t *st = json_object_get(result, "stall_ms");
    double batches = json_number_value(json_object_get(result, "batches"));
    double el = json_number_value(json_object_get(result, "elapsed_s"));

    if (!json_is_number(st) || !(batches > 0) || !(el > 0))
        return -1;
    *stall_ms = json_number_value(st);
    *interval_ms = el * 1e3 / batches;
    return 0;
}

size_t overtime_throughput(const json_t *result, double *out, size_t max, double *interval_ms)
{
    const json_t *s = json_object_get(result, "series");
    const json_t *t = json_object_get(s, "throughput");
    size_t i, n = json_array_size(t);

    *interval_ms = json_number_value(json_object_get(s, "interval_ms"));
    if (!json_is_array(t) || !(*interval_ms > 0))
        return 0;
    for (i = 0; i < n && i < max; i++)
        out[i] = json_number_value(json_array_get(t, i));
    return i;
}

/* Whether metric's verdict is regressed or improved for some candidate of the row. */
static int decided(const json_t *row, const char *metric)
{
    const json_t *vs =
        json_object_get(json_object_get(json_object_get(row, "metrics"), metric), "vs_baseline");
    const char *k;
    const json_t *c;

    json_object_foreach((json_t *)vs, k, c)
    {
        const char *v = json_string_value(json_object_get(c, "verdict"));
        if (v && (strcmp(v, VERDICT_REGRESSED) == 0 || strcmp(v, VERDICT_IMPROVED) == 0))
            return 1;
    }
    return 0;
}

/* The ok runs of version ver in the row (NULL where a round has none). */
static const json_t *ok_result(const char *cfg, const json_t *latest, const char *ver, size_t r)
{
    char key[512];
    const json_t *run;

    summary_run_key(key, sizeof(key), cfg, ver, (long)r + 1);
    run = json_object_get(latest, key);
    if (!run || strcmp(ju_str(run, "status", ""), "ok") != 0)
        return NULL;
    return json_object_get(run, "result");
}

/* Whether some version's runs are notable on their own (see overtime.h). */
static int notable(const char *cfg, const json_t *latest, const json_t *versions, size_t nr,
                   int *stall, int *decay)
{
    double *d = malloc((nr + 1) * sizeof(*d)), *g = malloc((nr + 1) * sizeof(*g));
    struct stats_range rd, rg;
    size_t vi, r, nd, ng;

    *stall = *decay = 0;
    if (!d || !g)
        goto out;
    for (vi = 0; vi < json_array_size(versions); vi++) {
        const char *ver = json_string_value(json_array_get(versions, vi));
        for (r = nd = ng = 0; r < nr; r++) {
            const json_t *res = ok_result(cfg, latest, ver, r);
            double st, iv,
                s_iv = json_number_value(
                    json_object_get(json_object_get(res, "series"), "interval_ms"));
            if (res && overtime_decay(res, &d[nd]) == 0)
                nd++;
            if (res && s_iv > 0 && overtime_stall(res, &st, &iv) == 0)
                g[ng++] = st / s_iv;
        }
        if (stats_range(d, nd, &rd) == 0 && (rd.median < 0.8 || rd.median > 1.25))
            *decay = 1;
        if (stats_range(g, ng, &rg) == 0 && rg.median >= 2)
            *stall = 1;
    }
out:
    free(d);
    free(g);
    return *stall || *decay;
}

/* One run's throughput series, neighbours averaged down to OVERTIME_POINTS_MAX points. */
static json_t *run_points(const json_t *res, size_t round)
{
    double v[SERIES_READ_MAX], iv;
    size_t n = overtime_throughput(res, v, SERIES_READ_MAX, &iv), k = 1, i, j;
    json_t *pts = json_array();

    while ((n + k - 1) / k > OVERTIME_POINTS_MAX)
        k *= 2;
    for (i = 0; i < n; i += k) {
        double sum = 0;
        for (j = i; j < i + k && j < n; j++)
            sum += v[j];
        json_array_append_new(pts, json_real(sum / (double)(j - i)));
    }
    return json_pack("{s:I,s:f,s:o}", "round", (json_int_t)round + 1, "interval_ms", iv * (double)k,
                     "throughput", pts);
}

void overtime_row_series(json_t *row, const char *cfg, const json_t *latest, const json_t *versions,
                         size_t nr)
{
    int st = decided(row, "stall"), de = decided(row, "decay"), nst, nde;
    json_t *vers, *out;
    size_t vi, r;

    if (!json_object_get(json_object_get(row, "metrics"), "decay") &&
        !json_object_get(json_object_get(row, "metrics"), "stall"))
        return;
    notable(cfg, latest, versions, nr, &nst, &nde);
    st |= nst;
    de |= nde;
    if (!st && !de)
        return;
    vers = json_object();
    for (vi = 0; vi < json_array_size(versions); vi++) {
        const char *ver = json_string_value(json_array_get(versions, vi));
        json_t *runs = json_array();
        for (r = 0; r < nr; r++) {
            const json_t *res = ok_result(cfg, latest, ver, r);
            if (res && json_object_get(res, "series"))
                json_array_append_new(runs, run_points(res, r));
        }
        json_object_set_new(vers, ver, runs);
    }
    out = json_pack("{s:s,s:o}", "why",
                    st && de ? "both"
                    : st     ? "stall"
                             : "decay",
                    "versions", vers);
    json_object_set_new(row, "series", out);
}
