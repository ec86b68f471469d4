/* summary_cost: per-function changes of the counted runs (see summary_cost.h). */
#include "analysis/summary_cost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"

#include "util/jobs_util.h"

/* The ok counted lines of one version, in round order. Returns how many (at most max). */
static size_t counted_lines(const char *kind, const char *cfg, const char *ver,
                            const json_t *latest, size_t nr, const json_t **out, size_t max)
{
    size_t r, n = 0;

    for (r = 0; r < nr && n < max; r++) {
        char key[600];
        const json_t *run;

        snprintf(key, sizeof(key), "%s\x1f%s\x1f%s\x1f%ld", cfg, ver, kind, (long)r + 1);
        run = json_object_get(latest, key);
        if (run && strcmp(ju_str(run, "status", ""), "ok") == 0)
            out[n++] = run;
    }
    return n;
}

/* Where a breakdown is in a counted line: line[field][sub] = {name: per op}. */
struct where {
    const char *kind, *field, *sub;
};

static const struct where instr_where = {"instructions", "instructions", "functions"};

/* Median over the lines of field.sub[name] (0 where absent). */
static double fn_median(const struct where *w, const json_t *const *lines, size_t n,
                        const char *name)
{
    double v[64];
    struct stats_range r;
    size_t i;

    for (i = 0; i < n && i < 64; i++)
        v[i] = ju_num(json_object_get(json_object_get(lines[i], w->field), w->sub), name, 0);
    if (stats_range(v, i, &r) < 0)
        return 0;
    return r.median;
}

static int by_abs_delta(const void *a, const void *b)
{
    double x = fabs(ju_num(*(json_t *const *)a, "delta", 0));
    double y = fabs(ju_num(*(json_t *const *)b, "delta", 0));

    return x < y ? 1 : x > y ? -1 : 0;
}

/* Whether item names code without a symbol ("unknown (FILE)", analysis/cgprof.h). */
static int unnamed(const json_t *item)
{
    return strncmp(ju_str(item, "name", ""), "unknown", 7) == 0;
}

/* The union of function names listed by both sides, "(other)" left out. */
static json_t *names_of(const struct where *w, const json_t *const *a, size_t na,
                        const json_t *const *b, size_t nb)
{
    json_t *names = json_object(), *v;
    const char *k;
    size_t i;

    for (i = 0; i < na + nb; i++) {
        const json_t *line = i < na ? a[i] : b[i - na];
        json_object_foreach(json_object_get(json_object_get(line, w->field), w->sub), k, v)
        {
            if (strcmp(k, "(other)") != 0)
                json_object_set_new(names, k, json_true());
        }
    }
    return names;
}

static json_t *functions_diff(const struct where *w, const json_t *const *a, size_t na,
                              const json_t *const *b, size_t nb)
{
    json_t *names = names_of(w, a, na, b, nb), *v, *out = json_array();
    json_t **items;
    const char *k;
    size_t n = 0, i;

    items = calloc(json_object_size(names) + 1, sizeof(json_t *));
    if (!items || !out) {
        free(items);
        json_decref(names);
        return out;
    }
    json_object_foreach(names, k, v)
    {
        double base = fn_median(w, a, na, k), cand = fn_median(w, b, nb, k);
        items[n++] = json_pack("{s:s,s:f,s:f,s:f}", "name", k, "baseline", base, "candidate", cand,
                               "delta", cand - base);
    }
    qsort(items, n, sizeof(json_t *), by_abs_delta);
    /* the largest changes; of those, the named functions lead and code without a symbol
     * follows (pass 0: named, pass 1: unnamed) */
    for (int pass = 0; pass < 2; pass++)
        for (i = 0; i < n && i < SUMMARY_COST_TOP; i++)
            if (items[i] && unnamed(items[i]) == pass)
                json_array_append(out, items[i]);
    for (i = 0; i < n; i++)
        json_decref(items[i]);
    free(items);
    json_decref(names);
    return out;
}

/* Why a version's counted lines are not exact (its first line's reason), or NULL when every
 * line was counted with fixed randomness (instructions.fixed.exact). */
static const char *not_exact(const json_t *const *lines, size_t n)
{
    size_t i;

    if (!n)
        return "no counted runs";
    for (i = 0; i < n; i++) {
        const json_t *f = json_object_get(json_object_get(lines[i], "instructions"), "fixed");
        if (!json_is_true(json_object_get(f, "exact")))
            return f ? ju_str(f, "reason", "not exact")
                     : "counted without fixed randomness (hardware counters, or an older dataset)";
    }
    return NULL;
}

/* 1 when every line ran on the virtual clock (instructions.fixed.clock.kind). */
static int all_virtual(const json_t *const *lines, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const json_t *f = json_object_get(json_object_get(lines[i], "instructions"), "fixed");
        if (strcmp(ju_str(json_object_get(f, "clock"), "kind", ""), "virtual") != 0)
            return 0;
    }
    return n > 0;
}

static long line_seed(const json_t *line)
{
    return ju_int(json_object_get(json_object_get(line, "instructions"), "fixed"), "seed", -1);
}

/* The rule for exact counts: both versions' lines exact, paired by seed; regressed/improved
 * when every pair moves the same way past SUMMARY_COST_EXACT_SHARE of the metric's threshold
 * (SUMMARY_COST_EXACT_SHARE_VIRTUAL when every line ran on the virtual clock), else
 * "~". Writes vs.exact = {"rule", "threshold_pct", "pairs": [{seed, change}], "clock" (the
 * baseline's instructions.fixed.clock, when recorded)} and the verdict;
 * where the rule cannot apply, vs.exact = {"rule": "runs", "baseline"/"candidate": why} and
 * the verdict stays the runs' rule. */
static void exact_verdict(json_t *metric, json_t *vs, const json_t *const *base, size_t nb,
                          const json_t *const *cand, size_t nc)
{
    const char *wb = not_exact(base, nb), *wc = not_exact(cand, nc);
    double thr = ju_num(metric, "threshold_pct", 0) *
                 (all_virtual(base, nb) && all_virtual(cand, nc) ? SUMMARY_COST_EXACT_SHARE_VIRTUAL
                                                                 : SUMMARY_COST_EXACT_SHARE);
    json_t *pairs = json_array(), *ex;
    size_t i, j, up = 0, down = 0, n = 0;
    const char *verdict = NULL;

    if (wb || wc) {
        ex = json_pack("{s:s}", "rule", "runs");
        json_object_set_new(ex, "baseline", wb ? json_string(wb) : json_null());
        json_object_set_new(ex, "candidate", wc ? json_string(wc) : json_null());
        json_object_set_new(vs, "exact", ex);
        json_decref(pairs);
        return;
    }
    for (i = 0; i < nb; i++)
        for (j = 0; j < nc; j++) {
            double a = ju_num(json_object_get(base[i], "instructions"), "per_op", 0),
                   c = ju_num(json_object_get(cand[j], "instructions"), "per_op", 0), ch;
            if (line_seed(base[i]) != line_seed(cand[j]) || !(a > 0))
                continue;
            ch = c / a - 1;
            json_array_append_new(
                pairs, json_pack("{s:i,s:f}", "seed", (int)line_seed(base[i]), "change", ch));
            n++;
            up += ch * 100 >= thr - 1e-9;
            down += -ch * 100 >= thr - 1e-9;
        }
    if (n > 0 && thr > 0) {
        verdict = up == n ? "regressed" : down == n ? "improved" : "~";
        json_object_set_new(vs, "verdict", json_string(verdict));
        json_object_del(vs, "reason");
    }
    ex = json_pack("{s:s,s:f,s:o}", "rule", n > 0 && thr > 0 ? "seed pairs" : "runs",
                   "threshold_pct", thr, "pairs", pairs);
    if (ex && nb) /* the baseline's first line's clock (virtual or real) */
        json_object_set(
            ex, "clock",
            json_object_get(json_object_get(json_object_get(base[0], "instructions"), "fixed"),
                            "clock"));
    json_object_set_new(vs, "exact", ex);
}

void summary_cost_annotate(json_t *metric, const char *cfg, const json_t *latest,
                           const json_t *versions, size_t nr)
{
    const json_t *base[64], *cand[64];
    const char *b = json_string_value(json_array_get(versions, 0));
    size_t nb, vi;

    if (!metric || !b)
        return;
    nb = counted_lines("instructions", cfg, b, latest, nr, base, 64);
    if (nb) {
        double v[64];
        struct stats_range r;
        size_t i;
        for (i = 0; i < nb; i++)
            v[i] = ju_num(json_object_get(base[i], "instructions"), "throughput_counted", 0);
        if (stats_range(v, nb, &r) == 0)
            json_object_set_new(metric, "throughput_counted", json_real(r.median));
    }
    for (vi = 0; vi < json_array_size(versions); vi++) {
        const char *ver = json_string_value(json_array_get(versions, vi));
        size_t nc = counted_lines("instructions", cfg, ver, latest, nr, cand, 64);
        json_t *vs = json_object_get(json_object_get(metric, "vs_baseline"), ver);

        if (nc && !json_object_get(metric, "source")) {
            const json_t *inst = json_object_get(cand[0], "instructions");
            json_object_set_new(metric, "source", json_string(ju_str(inst, "source", "")));
            /* which process, and the counters' event (absent from older datasets) */
            if (json_is_string(json_object_get(inst, "counted")))
                json_object_set(metric, "counted", json_object_get(inst, "counted"));
            if (json_is_string(json_object_get(inst, "event")))
                json_object_set(metric, "event", json_object_get(inst, "event"));
        }
        if (nc &&
            json_is_object(json_object_get(json_object_get(cand[0], "instructions"), "binary"))) {
            /* the server binary each version's counted runs ran (run/symbols.h) */
            if (!json_object_get(metric, "binaries"))
                json_object_set_new(metric, "binaries", json_object());
            json_object_set(json_object_get(metric, "binaries"), ver,
                            json_object_get(json_object_get(cand[0], "instructions"), "binary"));
        }
        if (vi > 0 && vs && nb && nc)
            json_object_set_new(vs, "functions", functions_diff(&instr_where, base, nb, cand, nc));
        if (vi > 0 && vs && nb && nc && strcmp(ju_str(vs, "verdict", ""), "failed") != 0)
            exact_verdict(metric, vs, base, nb, cand, nc);
    }
}

void summary_cost_breakdown(json_t *metric, const char *kind, const char *field, const char *sub,
                            const char *out_key, const char *cfg, const json_t *latest,
                            const json_t *versions, size_t nr)
{
    const struct where w = {kind, field, sub};
    const json_t *base[64], *cand[64];
    const char *b = json_string_value(json_array_get(versions, 0));
    size_t nb, vi;

    if (!metric || !b)
        return;
    nb = counted_lines(kind, cfg, b, latest, nr, base, 64);
    if (nb &&
        json_is_number(json_object_get(json_object_get(base[0], field), "throughput_traced"))) {
        double v[64];
        struct stats_range r;
        size_t i;

        for (i = 0; i < nb; i++)
            v[i] = ju_num(json_object_get(base[i], field), "throughput_traced", 0);
        if (stats_range(v, nb, &r) == 0)
            json_object_set_new(metric, "throughput_counted", json_real(r.median));
    }
    for (vi = 1; vi < json_array_size(versions); vi++) {
        const char *ver = json_string_value(json_array_get(versions, vi));
        size_t nc = counted_lines(kind, cfg, ver, latest, nr, cand, 64);
        json_t *vs = json_object_get(json_object_get(metric, "vs_baseline"), ver);

        if (vs && nb && nc)
            json_object_set_new(vs, out_key, functions_diff(&w, base, nb, cand, nc));
    }
    if (nb) { /* the baseline's own breakdown, for a single version too: {name: per op} */
        json_t *own = functions_diff(&w, base, 0, base, nb), *o = json_object(), *it;
        size_t i;

        json_array_foreach(own, i, it)
            json_object_set(o, ju_str(it, "name", "?"), json_object_get(it, "candidate"));
        json_decref(own);
        json_object_set_new(metric, out_key, o);
    }
}
