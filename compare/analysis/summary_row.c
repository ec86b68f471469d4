/* summary_row: one row of the summary (see summary_row.h): the runs of one configuration
 * collected per version, the disturbed rounds set aside, and per metric the values and the
 * comparisons against the baseline. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/disturb.h"
#include "data/order.h"
#include "analysis/outcome.h"
#include "analysis/overtime.h"
#include "analysis/stats.h"
#include "analysis/summary.h"
#include "analysis/summary_cost.h"
#include "analysis/summary_judge.h"
#include "analysis/summary_row.h"
#include "analysis/summary_workload.h"

#include "util/jobs_util.h"

#define N_ERR_KINDS 5

static const char *const err_kinds[N_ERR_KINDS] = {"connect", "io", "protocol", "verify",
                                                   "timeout"};

/* ---- collecting the runs of one row ---- */

/* Slots of a side past the metrics with verdict rules: informational server figures. */
#define M_SERVER_CPU METRIC_ALL            /* server CPU %, over the driver's life */
#define M_SERVER_SYSCALLS (METRIC_ALL + 1) /* server read+write system calls per operation */
#define M_SERVER_CTXSW (METRIC_ALL + 2)    /* server context switches per operation */
#define M_REPLY_INTERVAL (METRIC_ALL + 3)  /* mean ms between batch completions (stall's unit) */
#define N_SLOTS (METRIC_ALL + 4)

struct side {                              /* one version's runs in one row */
    double v[N_SLOTS][SUMMARY_MAX_ROUNDS]; /* metrics, then the server's extras; by round − 1 */
    unsigned char have[N_SLOTS][SUMMARY_MAX_ROUNDS];
    unsigned ok, failed;
};

static const json_t *path2(const json_t *o, const char *a, const char *b)
{
    return json_object_get(json_object_get(o, a), b);
}

static void put(struct side *s, int m, size_t r, const json_t *num)
{
    if (json_is_number(num)) {
        s->v[m][r] = json_number_value(num);
        s->have[m][r] = 1;
    }
}

/* o[key] / ops into slot m when it is a number. */
static void put_per_op(struct side *s, int m, size_t r, const json_t *o, const char *key,
                       double ops)
{
    const json_t *n = json_object_get(o, key);

    if (json_is_number(n) && ops > 0) {
        s->v[m][r] = json_number_value(n) / ops;
        s->have[m][r] = 1;
    }
}

/* Per-operation server figures over the measured window (runs.jsonl server.window). */
static void side_add_window(struct side *s, size_t r, const json_t *run)
{
    const json_t *w = path2(run, "server", "window");
    double ops = ju_num(json_object_get(run, "result"), "ops", 0);

    if (!json_is_object(w) || !(ops > 0))
        return;
    s->v[METRIC_SERVER_CPU_US][r] = ju_num(w, "cpu_s", 0) * 1e6 / ops;
    s->have[METRIC_SERVER_CPU_US][r] = json_is_number(json_object_get(w, "cpu_s"));
    s->v[M_SERVER_SYSCALLS][r] = (ju_num(w, "syscr", 0) + ju_num(w, "syscw", 0)) / ops;
    s->have[M_SERVER_SYSCALLS][r] =
        json_is_number(json_object_get(w, "syscr")) && json_is_number(json_object_get(w, "syscw"));
    s->v[M_SERVER_CTXSW][r] = ju_num(w, "ctxsw", 0) / ops;
    s->have[M_SERVER_CTXSW][r] = json_is_number(json_object_get(w, "ctxsw"));
    /* the software events over the same window (swcount.h) */
    put_per_op(s, METRIC_CONTEXT_SWITCHES, r, json_object_get(w, "perf"), "context_switches", ops);
    put_per_op(s, METRIC_PAGE_FAULTS, r, json_object_get(w, "perf"), "page_faults", ops);
    put_per_op(s, METRIC_CPU_MIGRATIONS, r, json_object_get(w, "perf"), "cpu_migrations", ops);
}

static void side_add_run(struct side *s, size_t r, const json_t *run, double warmup_default)
{
    const json_t *res = json_object_get(run, "result"), *server;
    const json_t *rss;
    double elapsed;

    put(s, METRIC_THROUGHPUT, r, json_object_get(res, "throughput"));
    put(s, METRIC_CPU_PERCENT, r, path2(res, "cpu", "percent"));
    if (s->have[METRIC_THROUGHPUT][r] && s->have[METRIC_CPU_PERCENT][r] &&
        s->v[METRIC_CPU_PERCENT][r] > 0) {
        s->v[METRIC_CPU_EFFICIENCY][r] =
            s->v[METRIC_THROUGHPUT][r] / (s->v[METRIC_CPU_PERCENT][r] / 100);
        s->have[METRIC_CPU_EFFICIENCY][r] = 1;
    }
    put(s, METRIC_P50_US, r, path2(res, "latency_us", "p50"));
    put(s, METRIC_P99_US, r, path2(res, "latency_us", "p99"));
    rss = json_object_get(res, "rss_peak_kib");
    if (!json_is_number(rss))
        rss = path2(run, "client", "rss_peak_kib");
    if (json_is_number(rss)) {
        s->v[METRIC_RSS_MIB][r] = json_number_value(rss) / 1024;
        s->have[METRIC_RSS_MIB][r] = 1;
    }
    /* reopenings per 1000 operations (absent from drivers that do not count them) */
    put_per_op(s, METRIC_REOPENED, r, json_object_get(res, "connections"), "reopened",
               ju_num(res, "ops", 0) / 1000);
    /* over time: the stall in ms until the row's typical reply interval is known */
    if (overtime_stall(res, &s->v[METRIC_STALL][r], &s->v[M_REPLY_INTERVAL][r]) == 0)
        s->have[METRIC_STALL][r] = s->have[M_REPLY_INTERVAL][r] = 1;
    s->have[METRIC_DECAY][r] = overtime_decay(res, &s->v[METRIC_DECAY][r]) == 0;
    server = json_object_get(run, "server");
    side_add_window(s, r, run);
    /* the harness reads the server's CPU over the driver's whole life, warm-up included */
    elapsed = ju_num(res, "elapsed_s", 0) +
              ju_num(json_object_get(res, "config"), "warmup", warmup_default);
    if (json_is_object(server) && json_is_number(json_object_get(server, "cpu_s")) && elapsed > 0) {
        s->v[M_SERVER_CPU][r] = ju_num(server, "cpu_s", 0) / elapsed * 100;
        s->have[M_SERVER_CPU][r] = 1;
    }
}

/* The counted runs (kind "instructions") of one row into the sides; failed ones into
 * failures. Returns how many failed. */
static unsigned add_counted(struct side *const *sides, const char *cfg, const json_t *latest,
                            const json_t *versions, size_t nr, json_t *failures, const char *kind,
                            const char *field, int metric, unsigned *n_ok,
                            const char **not_countable)
{
    size_t vi, r;
    unsigned failed = 0;

    for (vi = 0; vi < json_array_size(versions); vi++) {
        const char *ver = json_string_value(json_array_get(versions, vi));
        char kv[300], key[512];

        snprintf(kv, sizeof(kv), "%s\x1f%s", ver, kind);
        for (r = 0; r < nr; r++) {
            const json_t *run;

            summary_run_key(key, sizeof(key), cfg, kv, (long)r + 1);
            if (!(run = json_object_get(latest, key)))
                continue;
            if (json_is_false(json_object_get(run, "countable"))) {
                /* not countable here (cost.c): no failure, and no count of the row stands */
                *not_countable = ju_str(run, "reason", "unknown");
                continue;
            }
            if (strcmp(ju_str(run, "status", "failed"), "ok") != 0) {
                failed++;
                if (strcmp(kind, field) != 0)
                    continue; /* the line's own metric lists its failure */
                json_array_append_new(failures,
                                      json_pack("{s:s,s:I,s:s,s:s}", "version", ver, "round",
                                                (json_int_t)r + 1, "kind", kind, "reason",
                                                ju_str(run, "reason", "unknown")));
                continue;
            }
            if (strcmp(kind, field) == 0)
                ++*n_ok;
            put(sides[vi], metric, r, path2(run, field, "per_op"));
        }
    }
    return failed;
}

/* One tally: the row's runs (and so report.md's completeness, the terminal's and
 * outcome.failed_runs) count the counted lines beside the timed ones, under runs.counted too; a
 * failed counted run fails the row as a failed timed run does. */
static void row_add_counted(json_t *row, unsigned ok, unsigned failed)
{
    json_t *runs = json_object_get(row, "runs");

    if (!runs || ok + failed == 0)
        return;
    json_object_set_new(runs, "expected",
                        json_integer(ju_num(runs, "expected", 0) + (json_int_t)(ok + failed)));
    json_object_set_new(runs, "ok", json_integer(ju_num(runs, "ok", 0) + (json_int_t)ok));
    json_object_set_new(runs, "failed",
                        json_integer(ju_num(runs, "failed", 0) + (json_int_t)failed));
    json_object_set_new(runs, "counted",
                        json_pack("{s:I,s:I}", "ok", (json_int_t)ok, "failed", (json_int_t)failed));
    if (failed)
        json_object_set_new(row, "status", json_string("failed"));
}

/* The counted runs of the row into the sides, their failures into cnt_failed (instructions,
 * system calls, allocations, estimated cycles). A row whose server was not countable here
 * (cost.c: "countable": false) keeps no count at all, says why under "not_countable", and is
 * judged on its timed metrics. */
static void row_counted(json_t *row, struct side **sides, const char *cfg, const json_t *latest,
                        const json_t *versions, size_t nr, unsigned cnt_failed[4])
{
    static const struct {
        const char *kind, *field;
        int metric;
    } kinds[4] = {{"instructions", "instructions", METRIC_INSTRUCTIONS},
                  {"syscalls", "syscalls", METRIC_SYSCALLS},
                  {"instructions", "allocations", METRIC_ALLOCATIONS},
                  {"instructions", "estimated_cycles", METRIC_ESTIMATED_CYCLES}};
    const char *nc = NULL;
    unsigned ok = 0;
    size_t k, vi;

    for (k = 0; k < 4; k++)
        cnt_failed[k] =
            add_counted(sides, cfg, latest, versions, nr, json_object_get(row, "failures"),
                        kinds[k].kind, kinds[k].field, kinds[k].metric, &ok, &nc);
    if (nc) {
        for (k = 0; k < 4; k++)
            for (vi = 0; vi < json_array_size(versions); vi++)
                memset(sides[vi]->have[kinds[k].metric], 0, sizeof(sides[vi]->have[0]));
        memset(cnt_failed, 0, 4 * sizeof(cnt_failed[0]));
        json_object_set_new(row, "not_countable", json_string(nc));
        return;
    }
    row_add_counted(row, ok, cnt_failed[0] + cnt_failed[1]);
}

/* ---- building ---- */

static json_t *range_json(const struct stats_range *r, const double *v, const unsigned char *h,
                          size_t nr)
{
    json_t *o = json_object(), *runs = json_array();
    size_t i;

    json_object_set_new(o, "median", json_real(r->median));
    json_object_set_new(o, "min", json_real(r->min));
    json_object_set_new(o, "max", json_real(r->max));
    json_object_set_new(o, "n", json_integer((json_int_t)r->n));
    for (i = 0; i < nr; i++)
        if (h[i])
            json_array_append_new(runs, json_real(v[i]));
    json_object_set_new(o, "runs", runs);
    return o;
}

static size_t collect(const struct side *s, int m, size_t nr, double *out)
{
    size_t i, k = 0;

    for (i = 0; i < nr; i++)
        if (s->have[m][i])
            out[k++] = s->v[m][i];
    return k;
}

static const char *const metric_units[N_SLOTS] = {
    [METRIC_THROUGHPUT] = "ops/s",
    [METRIC_CPU_PERCENT] = "percent",
    [METRIC_CPU_EFFICIENCY] = "ops/s per core",
    [METRIC_P50_US] = "us",
    [METRIC_P99_US] = "us",
    [METRIC_RSS_MIB] = "MiB",
    [METRIC_SERVER_CPU_US] = "us/op",
    [METRIC_INSTRUCTIONS] = "instructions/op",
    [METRIC_CONTEXT_SWITCHES] = "per op",
    [METRIC_PAGE_FAULTS] = "per op",
    [METRIC_CPU_MIGRATIONS] = "per op",
    [METRIC_SYSCALLS] = "per op",
    [METRIC_ALLOCATIONS] = "per op",
    [METRIC_ESTIMATED_CYCLES] = "cycles/op",
    [METRIC_REOPENED] = "per 1000 ops",
    [METRIC_STALL] = "reply intervals",
    [METRIC_DECAY] = "ratio",
    [M_SERVER_CPU] = "percent",
    [M_SERVER_SYSCALLS] = "per op",
    [M_SERVER_CTXSW] = "per op",
};

/* The metric object of one row: values per version, comparisons against the baseline. */
/* One metric of the row; floor_abs > 0: the row's own floor (verdict_input). */
static json_t *metric_json_floor(int m, struct side *const *sides, json_t *versions, size_t nr,
                                 int row_failed, const struct verdict_rules *rules,
                                 const struct look_plan *lp, double floor_abs)
{
    json_t *o = json_object(), *vals = json_object(), *vs = json_object();
    static double a[SUMMARY_MAX_ROUNDS], b[SUMMARY_MAX_ROUNDS], ratios[SUMMARY_MAX_ROUNDS],
        logs[SUMMARY_MAX_ROUNDS];
    static unsigned char both[SUMMARY_MAX_ROUNDS], after[SUMMARY_MAX_ROUNDS];
    struct stats_range base, cand;
    size_t na, nb, i, vi;

    json_object_set_new(o, "unit", json_string(metric_units[m]));
    json_object_set_new(o, "higher_is_better",
                        json_boolean(m < METRIC_ALL && metric_higher_is_better(m)));
    json_object_set_new(o, "threshold_pct",
                        json_real(m < METRIC_ALL ? rules->threshold_pct[m] : 0));
    na = collect(sides[0], m, nr, a);
    stats_range(a, na, &base);
    for (vi = 0; vi < json_array_size(versions); vi++) {
        const char *ver = json_string_value(json_array_get(versions, vi));
        struct stats_range r;
        size_t n = collect(sides[vi], m, nr, b);

        stats_range(b, n, &r);
        if (n)
            json_object_set_new(vals, ver, range_json(&r, sides[vi]->v[m], sides[vi]->have[m], nr));
    }
    for (vi = 1; vi < json_array_size(versions); vi++) {
        const char *ver = json_string_value(json_array_get(versions, vi));
        struct verdict_input in;
        struct verdict_out vo;
        struct stats_range pr;
        double lo, hi;
        json_t *c = json_object(), *pj = json_object();
        size_t np, k;

        nb = collect(sides[vi], m, nr, b);
        stats_range(b, nb, &cand);
        for (i = 0; i < nr; i++)
            both[i] = sides[0]->have[m][i] && sides[vi]->have[m][i];
        np = stats_paired_ratios(sides[0]->v[m], sides[vi]->v[m], both, nr, ratios);
        /* the rounds of the ratios, in the order stats_paired_ratios keeps them */
        for (i = 0, k = 0; i < nr && k < np; i++)
            if (both[i] && sides[0]->v[m][i] != 0)
                after[k++] = (unsigned char)sched_runs_after(json_array_size(versions),
                                                             (unsigned)i + 1, 0, vi);
        memset(&in, 0, sizeof(in));
        in.metric = m < METRIC_ALL ? (enum metric)m : METRIC_CPU_PERCENT; /* ungated */
        in.failed = row_failed || na == 0 || nb == 0;
        in.base = base;
        in.cand = cand;
        in.ratios = ratios;
        in.after = after;
        in.n_ratios = np;
        in.planned = lp->planned;
        in.looks = lp->looks;
        in.p = -1;
        in.p_paired = -1;
        in.base_v = a;
        in.cand_v = b;
        in.floor_abs = floor_abs;
        for (i = 0; i < np; i++)
            logs[i] = log(ratios[i]);
        if (np)
            in.p_paired = stats_signed_rank_p(logs, np);
        if (na && nb) {
            in.p = stats_mwu_p(a, na, b, nb);
            json_object_set_new(c, "change", json_real(stats_change(&base, &cand)));
            json_object_set_new(c, "overlap", json_boolean(stats_ranges_overlap(&base, &cand)));
            json_object_set_new(c, "p", json_real(in.p));
        } else {
            json_object_set_new(c, "change", json_null());
            json_object_set_new(c, "overlap", json_null());
            json_object_set_new(c, "p", json_null());
        }
        if (np && stats_range(ratios, np, &pr) == 0) {
            json_object_set_new(pj, "median", json_real(pr.median));
            json_object_set_new(pj, "min", json_real(pr.min));
            json_object_set_new(pj, "max", json_real(pr.max));
            json_object_set_new(pj, "n", json_integer((json_int_t)np));
            if (stats_median_interval(ratios, np, STATS_MEDIAN_INTERVAL_LEVEL, &lo, &hi) == 0) {
                json_object_set_new(pj, "lo", json_real(lo));
                json_object_set_new(pj, "hi", json_real(hi));
            }
        }
        json_object_set_new(c, "paired_ratio", np ? pj : json_null());
        json_object_set_new(c, "p_paired", np ? json_real(in.p_paired) : json_null());
        if (!np)
            json_decref(pj);
        stats_judge(&in, rules, &vo);
        summary_put_judgement(c, &vo, NULL);
        json_object_set_new(vs, ver, c);
    }
    json_object_set_new(o, "values", vals);
    json_object_set_new(o, "vs_baseline", vs);
    return o;
}

static json_t *metric_json(int m, struct side *const *sides, json_t *versions, size_t nr,
                           int row_failed, const struct verdict_rules *rules,
                           const struct look_plan *lp)
{
    return metric_json_floor(m, sides, versions, nr, row_failed, rules, lp, 0);
}

void summary_run_key(char *k, size_t n, const char *cfg, const char *ver, long round)
{
    snprintf(k, n, "%s\x1f%s\x1f%ld", cfg, ver, round);
}

/* Whether some version has a value in slot m. */
static int any_slot(struct side *const *sides, size_t nv, size_t nr, int m)
{
    size_t vi, r;

    for (vi = 0; vi < nv; vi++)
        for (r = 0; r < nr; r++)
            if (sides[vi]->have[m][r])
                return 1;
    return 0;
}

/* The row's identity and run counts: config, label, params, status, runs. */
static void row_identity(json_t *row, const char *cfg, const json_t *mcfg,
                         const char *fallback_label, unsigned ok, unsigned failed, size_t expected)
{
    json_t *rj = json_object();

    json_object_set_new(row, "config", json_string(cfg));
    json_object_set_new(row, "label", json_string(ju_str(mcfg, "label", fallback_label)));
    if (json_object_get(mcfg, "params"))
        json_object_set(row, "params", json_object_get(mcfg, "params"));
    else
        json_object_set_new(row, "params", json_object());
    json_object_set_new(row, "status",
                        json_string(failed          ? "failed"
                                    : ok < expected ? "incomplete"
                                                    : "ok"));
    json_object_set_new(rj, "expected", json_integer((json_int_t)expected));
    json_object_set_new(rj, "ok", json_integer(ok));
    json_object_set_new(rj, "failed", json_integer(failed));
    json_object_set_new(row, "runs", rj);
}

/* Every metric of the row: the table's metrics, then the optional ones (counted cost, server
 * accounting) where some run has them. */
/* Whether any run of the row reopened a connection: rows that never did show no such
 * metric (every run of a current driver reports 0). */
static int any_reopened(struct side *const *sides, size_t nv, size_t nr)
{
    size_t v, r;

    for (v = 0; v < nv; v++)
        for (r = 0; r < nr; r++)
            if (sides[v]->have[METRIC_REOPENED][r] && sides[v]->v[METRIC_REOPENED][r] > 0)
                return 1;
    return 0;
}

/* The stall of every run in the row's typical reply interval (the median of its runs' mean
 * intervals, every version's): one unit for the row, so the versions compare as measured.
 * Returns OVERTIME_STALL_FLOOR_MS in that unit, or 0 where the metric's floor is longer. */
static double stall_in_intervals(struct side *const *sides, size_t nv, size_t nr)
{
    double *vals = malloc((nv * nr + 1) * sizeof(*vals));
    struct stats_range all;
    size_t v, r, n = 0;

    if (!vals)
        return 0;
    for (v = 0; v < nv; v++)
        for (r = 0; r < nr; r++)
            if (sides[v]->have[M_REPLY_INTERVAL][r])
                vals[n++] = sides[v]->v[M_REPLY_INTERVAL][r];
    n = stats_range(vals, n, &all) == 0 && all.median > 0;
    free(vals);
    if (!n)
        return 0;
    for (v = 0; v < nv; v++)
        for (r = 0; r < nr; r++)
            sides[v]->v[METRIC_STALL][r] /= all.median;
    return OVERTIME_STALL_FLOOR_MS / all.median > metric_floor_abs(METRIC_STALL)
               ? OVERTIME_STALL_FLOOR_MS / all.median
               : 0;
}

static void row_metrics(json_t *metrics, struct side **sides, const char *cfg, const json_t *latest,
                        const json_t *versions, size_t nr, unsigned failed,
                        const unsigned *cnt_failed, int any_server,
                        const struct verdict_rules *rules, const struct look_plan *lp)
{
    /* the counted metrics: their kind of line, the failures of each, their breakdown */
    static const struct {
        int m;
        const char *kind, *field, *sub, *out;
    } counted[] = {
        {METRIC_SYSCALLS, "syscalls", "syscalls", "by_name", "by_name"},
        {METRIC_ALLOCATIONS, "instructions", "allocations", "functions", "functions"},
        {METRIC_ESTIMATED_CYCLES, "instructions", "estimated_cycles", "by_part", "by_part"}};
    size_t k;
    static const char *const names[N_SLOTS] = {
        [METRIC_SERVER_CPU_US] = "server_cpu_us",
        [M_SERVER_SYSCALLS] = SUMMARY_SERVER_SYSCALLS,
        [M_SERVER_CTXSW] = SUMMARY_SERVER_CTXSW,
    };
    /* counted rounds are planned apart from the timed ones and never confirmed: their
     * verdict follows the rules for planned rounds whatever their number */
    const struct look_plan no_plan = {0, 0};
    size_t nv = json_array_size(versions);
    double stall_floor;
    int m;

    for (m = 0; m < METRIC_COUNT; m++)
        json_object_set_new(metrics, metric_name(m),
                            metric_json(m, sides, (json_t *)versions, nr, failed > 0, rules, lp));
    if (any_slot(sides, nv, nr, METRIC_INSTRUCTIONS) || cnt_failed[0]) {
        json_object_set_new(metrics, metric_name(METRIC_INSTRUCTIONS),
                            metric_json(METRIC_INSTRUCTIONS, sides, (json_t *)versions, nr,
                                        cnt_failed[0] > 0, rules, &no_plan));
        summary_cost_annotate(json_object_get(metrics, metric_name(METRIC_INSTRUCTIONS)), cfg,
                              latest, versions, nr);
    }
    for (k = 0; k < sizeof(counted) / sizeof(counted[0]); k++) {
        int cm = counted[k].m;

        if (!any_slot(sides, nv, nr, cm) && !(k == 0 && cnt_failed[1]))
            continue;
        json_object_set_new(
            metrics, metric_name(cm),
            metric_json(cm, sides, (json_t *)versions, nr, cnt_failed[k + 1] > 0, rules, &no_plan));
        summary_cost_breakdown(json_object_get(metrics, metric_name(cm)), counted[k].kind,
                               counted[k].field, counted[k].sub, counted[k].out, cfg, latest,
                               versions, nr);
    }
    if (any_server)
        json_object_set_new(
            metrics, SUMMARY_SERVER_CPU,
            metric_json(M_SERVER_CPU, sides, (json_t *)versions, nr, failed > 0, rules, lp));
    for (m = METRIC_CONTEXT_SWITCHES; m <= METRIC_CPU_MIGRATIONS; m++)
        if (any_slot(sides, nv, nr, m))
            json_object_set_new(
                metrics, metric_name(m),
                metric_json(m, sides, (json_t *)versions, nr, failed > 0, rules, lp));
    if (any_reopened(sides, nv, nr))
        json_object_set_new(
            metrics, metric_name(METRIC_REOPENED),
            metric_json(METRIC_REOPENED, sides, (json_t *)versions, nr, failed > 0, rules, lp));
    stall_floor = stall_in_intervals(sides, nv, nr);
    for (m = METRIC_STALL; m <= METRIC_DECAY; m++)
        if (any_slot(sides, nv, nr, m))
            json_object_set_new(metrics, metric_name(m),
                                metric_json_floor(m, sides, (json_t *)versions, nr, failed > 0,
                                                  rules, lp, m == METRIC_STALL ? stall_floor : 0));
    for (m = METRIC_SERVER_CPU_US; m < N_SLOTS; m++)
        if (names[m] && any_slot(sides, nv, nr, m))
            json_object_set_new(
                metrics, names[m],
                metric_json(m, sides, (json_t *)versions, nr, failed > 0, rules, lp));
}

/* What the timed runs of one row add up to, beside their values in the sides. */
struct row_runs {
    const json_t **cells; /* the ok runs, [version index * nr + round − 1]; NULL elsewhere */
    unsigned ok, failed;
    double errsum[N_ERR_KINDS]; /* the driver's errors by kind, over the ok runs */
    int insecure, any_server;
    const char *unit;
    /* fixed-rate runs (result.rate): how many, the target, and how many did not keep it */
    unsigned rate_runs, rate_not_kept;
    double rate_target;
    json_t *failures; /* [{"version", "round", "reason"}] */
};

static void sides_free(struct side **sides, size_t nv)
{
    size_t vi;

    for (vi = 0; sides && vi < nv; vi++)
        free(sides[vi]);
    free(sides);
}

/* nv empty sides, or NULL when out of memory. */
static struct side **sides_new(size_t nv)
{
    struct side **sides = calloc(nv, sizeof(struct side *));
    size_t vi;

    for (vi = 0; sides && vi < nv; vi++)
        if (!(sides[vi] = calloc(1, sizeof(**sides)))) {
            sides_free(sides, nv);
            return NULL;
        }
    return sides;
}

/* The timed runs of version ver (index vi) in the row: a failed one into rr->failures, an ok
 * one into its side s and rr's counts. */
static void collect_version(struct row_runs *rr, struct side *s, size_t vi, const char *cfg,
                            const char *ver, const json_t *latest, size_t nr, double warmup_default)
{
    size_t r, e;

    for (r = 0; r < nr; r++) {
        char key[512];
        const json_t *run, *res;

        summary_run_key(key, sizeof(key), cfg, ver, (long)r + 1);
        run = json_object_get(latest, key);
        if (!run)
            continue;
        res = json_object_get(run, "result");
        if (strcmp(ju_str(run, "status", "failed"), "ok") != 0 || !json_is_object(res)) {
            json_t *f = json_object();

            rr->failed++;
            json_object_set_new(f, "version", json_string(ver));
            json_object_set_new(f, "round", json_integer((json_int_t)r + 1));
            json_object_set_new(f, "reason", json_string(ju_str(run, "reason", "unknown")));
            /* the driver measured and the run was judged failed on what it measured
             * (timeouts, connections not held, a stall): the server's doing, not the harness's */
            json_object_set_new(f, "measured", json_boolean(json_is_object(res)));
            json_array_append_new(rr->failures, f);
            continue;
        }
        rr->ok++;
        rr->cells[vi * nr + r] = run;
        side_add_run(s, r, run, warmup_default);
        for (e = 0; e < N_ERR_KINDS; e++)
            rr->errsum[e] += ju_num(json_object_get(res, "errors"), err_kinds[e], 0);
        if (json_is_true(path2(res, "tls", "insecure")) ||
            json_is_true(path2(res, "config", "insecure")))
            rr->insecure = 1;
        if (!rr->unit)
            rr->unit = ju_str(res, "unit", NULL);
        if (json_is_object(json_object_get(res, "rate"))) {
            rr->rate_runs++;
            rr->rate_target = ju_num(json_object_get(res, "rate"), "target", 0);
            rr->rate_not_kept += json_is_false(path2(res, "rate", "kept"));
        }
    }
    for (r = 0; r < nr; r++)
        if (s->have[M_SERVER_CPU][r])
            rr->any_server = 1;
}

/* Disturbed and outlier rounds (disturb.c, noted in row): every value of theirs leaves the
 * sides, so the verdict rests on the other rounds. */
static void set_aside_disturbed(json_t *row, struct side **sides, const struct row_runs *rr,
                                const json_t *versions, size_t nr)
{
    unsigned char exclude[SUMMARY_MAX_ROUNDS];
    size_t nv = json_array_size(versions), vi, r;
    int m;

    disturb_row(row, rr->cells, versions, nr, exclude);
    for (r = 0; r < nr; r++)
        for (vi = 0; exclude[r] && vi < nv; vi++)
            for (m = 0; m < N_SLOTS; m++)
                sides[vi]->have[m][r] = 0;
}

/* The row's "failures" (taken over), "errors", "tls_insecure" and "unit". */
static void row_run_facts(json_t *row, struct row_runs *rr)
{
    json_t *errs = json_object();
    size_t e;

    json_object_set_new(row, "failures", rr->failures);
    rr->failures = NULL;
    for (e = 0; e < N_ERR_KINDS; e++)
        json_object_set_new(errs, err_kinds[e], json_integer((json_int_t)rr->errsum[e]));
    json_object_set_new(row, "errors", errs);
    json_object_set_new(row, "tls_insecure", json_boolean(rr->insecure));
    json_object_set_new(row, "unit", rr->unit ? json_string(rr->unit) : json_null());
    if (rr->rate_runs)
        json_object_set_new(row, "rate",
                            json_pack("{s:f, s:I, s:I}", "target", rr->rate_target, "runs",
                                      (json_int_t)rr->rate_runs, "not_kept",
                                      (json_int_t)rr->rate_not_kept));
}

json_t *summary_row_build(const char *cfg, const json_t *mcfg, const json_t *latest,
                          const json_t *versions, size_t nr, size_t expected_rounds,
                          const struct verdict_rules *rules, const struct look_plan *lp,
                          const char *fallback_label, double warmup_default)
{
    size_t nv = json_array_size(versions), vi;
    struct row_runs rr = {.failures = json_array()};
    struct verdict_rules rate_rules = *rules;
    struct side **sides = sides_new(nv);
    json_t *row, *metrics;
    unsigned cnt_failed[4];
    size_t cell_size = sizeof(const json_t *);

    rr.cells = calloc((nv * nr) + 1, cell_size);
    if (!sides || !rr.cells) {
        sides_free(sides, nv);
        free(rr.cells);
        json_decref(rr.failures);
        return NULL;
    }
    row = json_object();
    metrics = json_object();
    for (vi = 0; vi < nv; vi++)
        collect_version(&rr, sides[vi], vi, cfg, json_string_value(json_array_get(versions, vi)),
                        latest, nr, warmup_default);
    set_aside_disturbed(row, sides, &rr, versions, nr);
    free(rr.cells);
    row_identity(row, cfg, mcfg, fallback_label, rr.ok, rr.failed, expected_rounds * nv);
    row_run_facts(row, &rr);
    row_counted(row, sides, cfg, latest, versions, nr, cnt_failed);
    /* a fixed-rate row judges what each request costs the server (outcome.h) */
    outcome_rate_rules(json_object_get(mcfg, "params"), 0, &rate_rules, NULL);
    row_metrics(metrics, sides, cfg, latest, versions, nr, rr.failed, cnt_failed, rr.any_server,
                &rate_rules, lp);
    json_object_set_new(row, "metrics", metrics);
    summary_row_workload(row, cfg, latest, versions, nr);
    overtime_row_series(row, cfg, latest, versions, nr);
    sides_free(sides, nv);
    return row;
}
