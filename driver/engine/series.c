/* series: the window interval by interval, and its longest reply gap (see series.h). */
#include "engine/series.h"

#include <stdlib.h>
#include <string.h>

int series_init(struct series *s, unsigned interval_ms)
{
    memset(s, 0, sizeof(*s));
    s->gap_min_ns = SERIES_GAP_MIN_NS;
    if (interval_ms == 0)
        return 0;
    /* calloc'd pages are touched only as the intervals are: a short run costs a few */
    s->bins = calloc(SERIES_CAP, sizeof(*s->bins));
    s->gaps = calloc(SERIES_GAPS_CAP, sizeof(*s->gaps));
    if (!s->bins || !s->gaps) {
        series_release(s);
        return -1;
    }
    s->interval_ns = (uint64_t)interval_ms * 1000000u;
    return 0;
}

void series_start(struct series *s, uint64_t t0)
{
    s->t0 = t0;
    s->last_reply = t0;
    s->cur = 0;
    s->used = s->interval_ns ? 1 : 0; /* the first interval fills without series_advance */
    s->bin = s->bins;
    s->bin_end = s->interval_ns ? t0 + s->interval_ns : 0;
}

void series_release(struct series *s)
{
    free(s->bins);
    free(s->gaps);
    s->bins = NULL;
    s->gaps = NULL;
    s->interval_ns = 0;
    s->bin_end = 0;
}

static void bin_add(struct series_bin *dst, const struct series_bin *src)
{
    unsigned i;

    dst->ops += src->ops;
    for (i = 0; i < HIST_COARSE_BUCKETS; i++)
        dst->lat[i] += src->lat[i];
}

/* The batches of an interval: its round trips. */
static uint64_t bin_batches(const struct series_bin *b)
{
    uint64_t n = 0;
    unsigned i;

    for (i = 0; i < HIST_COARSE_BUCKETS; i++)
        n += b->lat[i];
    return n;
}

/* Merges neighbouring pairs of intervals: the interval doubles, half as many are used. */
static void coarsen(struct series *s)
{
    unsigned i, half = (s->used + 1) / 2;

    for (i = 0; i < half; i++) {
        struct series_bin pair = s->bins[2 * i];
        if (2 * i + 1 < s->used)
            bin_add(&pair, &s->bins[2 * i + 1]);
        s->bins[i] = pair;
    }
    if (half < s->used)
        memset(&s->bins[half], 0, (s->used - half) * sizeof(*s->bins));
    s->used = half;
    s->cur /= 2;
    s->bin = &s->bins[s->cur];
    s->interval_ns *= 2;
}

struct series_bin *series_advance(struct series *s, uint64_t now)
{
    uint64_t idx = now > s->t0 ? (now - s->t0) / s->interval_ns : 0;

    while (idx >= SERIES_CAP) {
        coarsen(s);
        idx = (now - s->t0) / s->interval_ns;
    }
    s->cur = (unsigned)idx;
    if (s->cur + 1 > s->used)
        s->used = s->cur + 1;
    s->bin_end = s->t0 + (idx + 1) * s->interval_ns;
    s->bin = &s->bins[s->cur];
    return s->bin;
}

/* Keeps the gaps longer than the doubled threshold, in order. */
static void gaps_thin(struct series *s)
{
    unsigned i, k = 0;

    s->gap_min_ns *= 2;
    for (i = 0; i < s->ngaps; i++)
        if (s->gaps[i].end_ns - s->gaps[i].start_ns > s->gap_min_ns)
            s->gaps[k++] = s->gaps[i];
    s->ngaps = k;
}

void series_gap_end(struct series *s, uint64_t now)
{
    uint64_t start = s->last_reply > s->t0 ? s->last_reply : s->t0;

    if (!s->gaps || now <= start || now - start <= s->gap_min_ns)
        return; /* off, in the warm-up, or a gap that began before the window and is short */
    while (s->ngaps == SERIES_GAPS_CAP)
        gaps_thin(s);
    if (now - start <= s->gap_min_ns)
        return;
    s->gaps[s->ngaps].start_ns = start;
    s->gaps[s->ngaps].end_ns = now;
    s->ngaps++;
}

/* One worker's gaps inside [t0, wend) longer than min_ns, the one still open at the end
 * included, into out (room for SERIES_GAPS_CAP + 1). Returns how many. */
static unsigned worker_gaps(const struct series *s, uint64_t wend, uint64_t min_ns,
                            struct series_gap *out)
{
    unsigned i, k = 0;
    uint64_t a, b;

    for (i = 0; i < s->ngaps; i++) {
        a = s->gaps[i].start_ns;
        b = s->gaps[i].end_ns < wend ? s->gaps[i].end_ns : wend;
        if (b > a && b - a > min_ns)
            out[k++] = (struct series_gap){a, b};
    }
    a = s->last_reply > s->t0 ? s->last_reply : s->t0;
    if (wend > a && wend - a > min_ns)
        out[k++] = (struct series_gap){a, wend};
    return k;
}

/* The intersection of two ordered lists of disjoint gaps into out (room for na + nb). */
static unsigned gaps_intersect(const struct series_gap *a, unsigned na, const struct series_gap *b,
                               unsigned nb, struct series_gap *out)
{
    unsigned i = 0, j = 0, k = 0;
    uint64_t lo, hi;

    while (i < na && j < nb) {
        lo = a[i].start_ns > b[j].start_ns ? a[i].start_ns : b[j].start_ns;
        hi = a[i].end_ns < b[j].end_ns ? a[i].end_ns : b[j].end_ns;
        if (hi > lo)
            out[k++] = (struct series_gap){lo, hi};
        if (a[i].end_ns < b[j].end_ns)
            i++;
        else
            j++;
    }
    return k;
}

/* The longest time no worker received a reply (exact for gaps longer than the largest
 * recording threshold: each worker recorded every gap of its own that contains it). */
static void longest_gap(struct series *const *w, unsigned n, uint64_t wend, uint64_t *len,
                        uint64_t *at)
{
    struct series_gap *acc = NULL, *cur = NULL, *tmp = NULL;
    uint64_t min_ns = 0;
    unsigned i, j, nacc = 0, ncur, first = 1, room = 2 * (SERIES_GAPS_CAP + 1);

    *len = *at = 0;
    for (i = 0; i < n; i++)
        if (w[i] && w[i]->gap_min_ns > min_ns)
            min_ns = w[i]->gap_min_ns;
    acc = malloc(room * sizeof(*acc));
    cur = malloc(room * sizeof(*cur));
    tmp = malloc(room * sizeof(*tmp));
    if (!acc || !cur || !tmp)
        goto out;
    for (i = 0; i < n; i++) {
        if (!w[i] || !w[i]->gaps)
            continue;
        ncur = worker_gaps(w[i], wend, min_ns, cur);
        if (first) {
            memcpy(acc, cur, ncur * sizeof(*cur));
            nacc = ncur;
            first = 0;
            continue;
        }
        nacc = gaps_intersect(acc, nacc, cur, ncur, tmp);
        memcpy(acc, tmp, nacc * sizeof(*tmp));
    }
    for (j = 0; j < nacc; j++)
        if (acc[j].end_ns - acc[j].start_ns > *len) {
            *len = acc[j].end_ns - acc[j].start_ns;
            *at = acc[j].start_ns;
        }
out:
    free(acc);
    free(cur);
    free(tmp);
}

static json_t *real1(double v)
{
    return json_real((double)(long long)(v * 10.0 + (v < 0 ? -0.5 : 0.5)) / 10.0);
}

/* The merged intervals as JSON (see series_merge). */
static json_t *bins_json(struct series *const *w, unsigned n, uint64_t iv, uint64_t elapsed_ns,
                         unsigned nb)
{
    json_t *o = json_object(), *ops = json_array(), *tput = json_array(), *bat = json_array();
    json_t *p50 = json_array(), *p99 = json_array();
    struct series_bin *sum = malloc(sizeof(*sum));
    unsigned b, i;
    uint64_t len, nbat;

    if (!o || !ops || !tput || !bat || !p50 || !p99 || !sum) {
        json_decref(o);
        o = NULL;
        goto out;
    }
    for (b = 0; b < nb; b++) {
        memset(sum, 0, sizeof(*sum));
        for (i = 0; i < n; i++)
            if (w[i] && w[i]->bins && b < w[i]->used)
                bin_add(sum, &w[i]->bins[b]);
        len = b + 1 == nb ? elapsed_ns - (uint64_t)b * iv : iv; /* the last: to the end */
        json_array_append_new(ops, json_integer((json_int_t)sum->ops));
        json_array_append_new(tput, real1(len ? (double)sum->ops * 1e9 / (double)len : 0));
        nbat = bin_batches(sum);
        json_array_append_new(bat, json_integer((json_int_t)nbat));
        json_array_append_new(p50, real1(hist_coarse_percentile(sum->lat, nbat, 50) / 1e3));
        json_array_append_new(p99, real1(hist_coarse_percentile(sum->lat, nbat, 99) / 1e3));
    }
    json_object_set_new(o, "interval_ms", json_real((double)iv / 1e6));
    json_object_set_new(o, "n", json_integer(nb));
    json_object_set_new(o, "ops", ops);
    json_object_set_new(o, "throughput", tput);
    json_object_set_new(o, "batches", bat);
    json_object_set_new(o, "p50_us", p50);
    json_object_set_new(o, "p99_us", p99);
    ops = tput = bat = p50 = p99 = NULL;
out:
    json_decref(ops);
    json_decref(tput);
    json_decref(bat);
    json_decref(p50);
    json_decref(p99);
    free(sum);
    return o;
}

json_t *series_merge(struct series *const *w, unsigned n, uint64_t elapsed_ns, uint64_t *stall_ns,
                     uint64_t *stall_at_ns)
{
    uint64_t iv = 0, t0 = 0, at;
    unsigned i, nb;

    *stall_ns = *stall_at_ns = 0;
    for (i = 0; i < n; i++)
        if (w[i] && w[i]->interval_ns) {
            t0 = w[i]->t0;
            if (w[i]->interval_ns > iv)
                iv = w[i]->interval_ns;
        }
    if (!iv || !elapsed_ns)
        return NULL;
    /* every worker at the coarsest interval, and no more intervals than the cap */
    while ((elapsed_ns + iv - 1) / iv > SERIES_CAP)
        iv *= 2;
    for (i = 0; i < n; i++)
        while (w[i] && w[i]->interval_ns && w[i]->interval_ns < iv)
            coarsen(w[i]);
    nb = (unsigned)((elapsed_ns + iv - 1) / iv);
    longest_gap(w, n, t0 + elapsed_ns, stall_ns, &at);
    /* a last piece shorter than half an interval (the drain past the window's end) joins the
     * interval before it: its throughput over a few microseconds would be noise */
    if (nb >= 2 && elapsed_ns - (uint64_t)(nb - 1) * iv < iv / 2)
        for (i = 0; i < n; i++)
            if (w[i] && w[i]->bins && w[i]->used == nb) {
                bin_add(&w[i]->bins[nb - 2], &w[i]->bins[nb - 1]);
                w[i]->used = nb - 1;
            }
    if (nb >= 2 && elapsed_ns - (uint64_t)(nb - 1) * iv < iv / 2)
        nb--;
    *stall_at_ns = *stall_ns ? at - t0 : 0;
    return bins_json(w, n, iv, elapsed_ns, nb);
}
