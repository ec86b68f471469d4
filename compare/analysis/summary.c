/* summary: runs.jsonl lines + meta.json → the summary object (docs/architecture.md#summary) and
 * summary.csv.
 *
 * Per row (configuration) and version, each metric is taken per run from the driver's JSON:
 * throughput = result.throughput; cpu_percent = result.cpu.percent (the client process, or
 * the colocated client/server process in --serve mode; measured window only);
 * cpu_efficiency = throughput / (cpu_percent / 100), per run before any median; p50_us /
 * p99_us = result.latency_us; rss_mib = result.rss_peak_kib / 1024 (the driver's own
 * lifetime peak; falling back to the harness's wait4() figure client.rss_peak_kib).
 * Server CPU % = server.cpu_s / (result.config.warmup + result.elapsed_s) × 100 when the
 * harness measured it (it reads /proc over the driver's whole life, warm-up included).
 * Only runs with status "ok" give values; a "failed" run makes the whole row "failed". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "outcome.h"
#include "summary.h"
#include "summary_cost.h"

#include "disturb.h"
#include "escape.h"

#define MAX_ROUNDS 1000
#define N_ERR_KINDS 5

static const char *const err_kinds[N_ERR_KINDS] = {"connect", "io", "protocol", "verify",
                                                   "timeout"};

double summary_num(const json_t *obj, const char *key, double def)
{
    const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;

    return json_is_number(v) ? json_number_value(v) : def;
}

const char *summary_str(const json_t *obj, const char *key, const char *def)
{
    const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;

    return json_is_string(v) ? json_string_value(v) : def;
}

const json_t *summary_metric(const json_t *row, const char *metric)
{
    return json_object_get(json_object_get(row, "metrics"), metric);
}

const json_t *summary_values(const json_t *row, const char *metric, const char *version)
{
    return json_object_get(json_object_get(summary_metric(row, metric), "values"), version);
}

const json_t *summary_vs(const json_t *row, const char *metric, const char *version)
{
    return json_object_get(json_object_get(summary_metric(row, metric), "vs_baseline"), version);
}

json_t *summary_parse_runs(const char *text, size_t len, const char *name, char *err, size_t errlen)
{
    json_t *arr = json_array();
    size_t off = 0;
    unsigned line = 0;

    if (!arr) {
        snprintf(err, errlen, "%s: out of memory", name);
        return NULL;
    }
    while (off < len) {
        const char *nl = memchr(text + off, '\n', len - off);
        size_t end = nl ? (size_t)(nl - text) : len, i;
        json_error_t je;
        json_t *obj;
        int blank = 1;

        line++;
        for (i = off; i < end; i++)
            if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r')
                blank = 0;
        if (!blank) {
            obj = json_loadb(text + off, end - off, 0, &je);
            if (!obj && !nl) /* a run cut short while being written */
                break;
            if (!obj) {
                snprintf(err, errlen, "%s: line %u, column %d: %s", name, line, je.column, je.text);
                json_decref(arr);
                return NULL;
            }
            if (!json_is_object(obj)) {
                snprintf(err, errlen, "%s: line %u: expected a JSON object", name, line);
                json_decref(obj);
                json_decref(arr);
                return NULL;
            }
            json_array_append_new(arr, obj);
        }
        off = nl ? end + 1 : len;
    }
    return arr;
}

/* ---- collecting the runs of one row ---- */

/* Slots of a side past the metrics with verdict rules: informational server figures. */
#define M_SERVER_CPU METRIC_ALL            /* server CPU %, over the driver's life */
#define M_SERVER_SYSCALLS (METRIC_ALL + 1) /* server read+write system calls per operation */
#define M_SERVER_CTXSW (METRIC_ALL + 2)    /* server context switches per operation */
#define N_SLOTS (METRIC_ALL + 3)

struct side {                      /* one version's runs in one row */
    double v[N_SLOTS][MAX_ROUNDS]; /* metrics, then the server's extras; by round − 1 */
    unsigned char have[N_SLOTS][MAX_ROUNDS];
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

/* Per-operation server figures over the measured window (runs.jsonl server.window). */
static void side_add_window(struct side *s, size_t r, const json_t *run)
{
    const json_t *w = path2(run, "server", "window");
    double ops = summary_num(json_object_get(run, "result"), "ops", 0);

    if (!json_is_object(w) || !(ops > 0))
        return;
    s->v[METRIC_SERVER_CPU_US][r] = summary_num(w, "cpu_s", 0) * 1e6 / ops;
    s->have[METRIC_SERVER_CPU_US][r] = json_is_number(json_object_get(w, "cpu_s"));
    s->v[M_SERVER_SYSCALLS][r] = (summary_num(w, "syscr", 0) + summary_num(w, "syscw", 0)) / ops;
    s->have[M_SERVER_SYSCALLS][r] = json_is_number(json_object_get(w, "syscr"));
    s->v[M_SERVER_CTXSW][r] = summary_num(w, "ctxsw", 0) / ops;
    s->have[M_SERVER_CTXSW][r] = json_is_number(json_object_get(w, "ctxsw"));
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
    server = json_object_get(run, "server");
    side_add_window(s, r, run);
    /* the harness reads the server's CPU over the driver's whole life, warm-up included */
    elapsed = summary_num(res, "elapsed_s", 0) +
              summary_num(json_object_get(res, "config"), "warmup", warmup_default);
    if (json_is_object(server) && json_is_number(json_object_get(server, "cpu_s")) && elapsed > 0) {
        s->v[M_SERVER_CPU][r] = summary_num(server, "cpu_s", 0) / elapsed * 100;
        s->have[M_SERVER_CPU][r] = 1;
    }
}

static void run_key(char *k, size_t n, const char *cfg, const char *ver, long round);

/* The counted runs (kind "instructions") of one row into the sides; failed ones into
 * failures. Returns how many failed. */
static unsigned add_counted(struct side *const *sides, const char *cfg, const json_t *latest,
                            const json_t *versions, size_t nr, json_t *failures)
{
    size_t vi, r;
    unsigned failed = 0;

    for (vi = 0; vi < json_array_size(versions); vi++) {
        const char *ver = json_string_value(json_array_get(versions, vi));
        char kv[300], key[512];

        snprintf(kv, sizeof(kv), "%s\x1finstructions", ver);
        for (r = 0; r < nr; r++) {
            const json_t *run;

            run_key(key, sizeof(key), cfg, kv, (long)r + 1);
            if (!(run = json_object_get(latest, key)))
                continue;
            if (strcmp(summary_str(run, "status", "failed"), "ok") != 0) {
                failed++;
                json_array_append_new(failures,
                                      json_pack("{s:s,s:I,s:s,s:s}", "version", ver, "round",
                                                (json_int_t)r + 1, "kind", "instructions", "reason",
                                                summary_str(run, "reason", "unknown")));
                continue;
            }
            put(sides[vi], METRIC_INSTRUCTIONS, r, path2(run, "instructions", "per_op"));
        }
    }
    return failed;
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
    "ops/s", "percent",         "ops/s per core", "us",     "us",     "MiB",
    "us/op", "instructions/op", "percent",        "per op", "per op",
};

/* Planned rounds and the extra looks adaptive confirmation allows (see stats_verdict). */
struct look_plan {
    size_t planned, looks;
};

/* The metric object of one row: values per version, comparisons against the baseline. */
static json_t *metric_json(int m, struct side *const *sides, json_t *versions, size_t nr,
                           int row_failed, const struct verdict_rules *rules,
                           const struct look_plan *lp)
{
    json_t *o = json_object(), *vals = json_object(), *vs = json_object();
    static double a[MAX_ROUNDS], b[MAX_ROUNDS], ratios[MAX_ROUNDS], logs[MAX_ROUNDS];
    static unsigned char both[MAX_ROUNDS];
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
        struct stats_range pr;
        double lo, hi;
        json_t *c = json_object(), *pj = json_object();
        size_t np;

        nb = collect(sides[vi], m, nr, b);
        stats_range(b, nb, &cand);
        for (i = 0; i < nr; i++)
            both[i] = sides[0]->have[m][i] && sides[vi]->have[m][i];
        np = stats_paired_ratios(sides[0]->v[m], sides[vi]->v[m], both, nr, ratios);
        memset(&in, 0, sizeof(in));
        in.metric = m < METRIC_ALL ? (enum metric)m : METRIC_CPU_PERCENT; /* ungated */
        in.failed = row_failed || na == 0 || nb == 0;
        in.base = base;
        in.cand = cand;
        in.ratios = ratios;
        in.n_ratios = np;
        in.planned = lp->planned;
        in.looks = lp->looks;
        in.p = -1;
        in.p_paired = -1;
        in.base_v = a;
        in.cand_v = b;
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
        json_object_set_new(c, "verdict", json_string(stats_verdict(&in, rules)));
        if (stats_verdict_reason(&in, rules))
            json_object_set_new(c, "reason", json_string(stats_verdict_reason(&in, rules)));
        json_object_set_new(vs, ver, c);
    }
    json_object_set_new(o, "values", vals);
    json_object_set_new(o, "vs_baseline", vs);
    return o;
}

/* Appends s to arr unless seen (a hash set of arr's strings) has it: linear in the number of
 * configurations, which may be 100,000. */
static void add_unique(json_t *arr, json_t *seen, const char *s)
{
    if (json_object_get(seen, s))
        return;
    json_object_set_new(seen, s, json_true());
    json_array_append_new(arr, json_string(s));
}

/* The latest line per (config, version, round), keyed "config\x1fversion\x1fround". */
static void run_key(char *k, size_t n, const char *cfg, const char *ver, long round)
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
    json_object_set_new(row, "label", json_string(summary_str(mcfg, "label", fallback_label)));
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
static void row_metrics(json_t *metrics, struct side **sides, const char *cfg, const json_t *latest,
                        const json_t *versions, size_t nr, unsigned failed, unsigned inst_failed,
                        int any_server, const struct verdict_rules *rules,
                        const struct look_plan *lp)
{
    static const char *const names[N_SLOTS] = {
        [METRIC_SERVER_CPU_US] = "server_cpu_us",
        [M_SERVER_SYSCALLS] = SUMMARY_SERVER_SYSCALLS,
        [M_SERVER_CTXSW] = SUMMARY_SERVER_CTXSW,
    };
    /* counted rounds are planned apart from the timed ones and never confirmed: their
     * verdict follows the rules for planned rounds whatever their number */
    const struct look_plan no_plan = {0, 0};
    size_t nv = json_array_size(versions);
    int m;

    for (m = 0; m < METRIC_COUNT; m++)
        json_object_set_new(metrics, metric_name(m),
                            metric_json(m, sides, (json_t *)versions, nr, failed > 0, rules, lp));
    if (any_slot(sides, nv, nr, METRIC_INSTRUCTIONS) || inst_failed) {
        json_object_set_new(metrics, metric_name(METRIC_INSTRUCTIONS),
                            metric_json(METRIC_INSTRUCTIONS, sides, (json_t *)versions, nr,
                                        inst_failed > 0, rules, &no_plan));
        summary_cost_annotate(json_object_get(metrics, metric_name(METRIC_INSTRUCTIONS)), cfg,
                              latest, versions, nr);
    }
    if (any_server)
        json_object_set_new(
            metrics, SUMMARY_SERVER_CPU,
            metric_json(M_SERVER_CPU, sides, (json_t *)versions, nr, failed > 0, rules, lp));
    for (m = METRIC_SERVER_CPU_US; m < N_SLOTS; m++)
        if (names[m] && any_slot(sides, nv, nr, m))
            json_object_set_new(
                metrics, names[m],
                metric_json(m, sides, (json_t *)versions, nr, failed > 0, rules, lp));
}

static json_t *build_row(const char *cfg, const json_t *mcfg, const json_t *latest,
                         const json_t *versions, size_t nr, size_t expected_rounds,
                         const struct verdict_rules *rules, const struct look_plan *lp,
                         const char *fallback_label, double warmup_default)
{
    json_t *row = json_object(), *metrics = json_object(), *errs = json_object();
    json_t *failures = json_array();
    struct side **sides;
    const json_t **cells = calloc((json_array_size(versions) * nr) + 1, sizeof(*cells));
    unsigned char exclude[MAX_ROUNDS];
    size_t nv = json_array_size(versions), vi, r, e;
    unsigned ok = 0, failed = 0, inst_failed;
    double errsum[N_ERR_KINDS] = {0};
    int insecure = 0, m, any_server = 0;
    const char *unit = NULL;

    sides = calloc(nv, sizeof(struct side *));
    for (vi = 0; sides && vi < nv; vi++)
        if (!(sides[vi] = calloc(1, sizeof(**sides))))
            break;
    if (!sides || vi < nv || !cells) {
        for (vi = 0; sides && vi < nv; vi++)
            free(sides[vi]);
        free(sides);
        free(cells);
        json_decref(row);
        json_decref(metrics);
        json_decref(errs);
        json_decref(failures);
        return NULL;
    }
    for (vi = 0; vi < nv; vi++) {
        const char *ver = json_string_value(json_array_get(versions, vi));

        for (r = 0; r < nr; r++) {
            char key[512];
            const json_t *run, *res;

            run_key(key, sizeof(key), cfg, ver, (long)r + 1);
            run = json_object_get(latest, key);
            if (!run)
                continue;
            res = json_object_get(run, "result");
            if (strcmp(summary_str(run, "status", "failed"), "ok") != 0 || !json_is_object(res)) {
                json_t *f = json_object();

                failed++;
                json_object_set_new(f, "version", json_string(ver));
                json_object_set_new(f, "round", json_integer((json_int_t)r + 1));
                json_object_set_new(f, "reason",
                                    json_string(summary_str(run, "reason", "unknown")));
                json_array_append_new(failures, f);
                continue;
            }
            ok++;
            cells[vi * nr + r] = run;
            side_add_run(sides[vi], r, run, warmup_default);
            for (e = 0; e < N_ERR_KINDS; e++)
                errsum[e] += summary_num(json_object_get(res, "errors"), err_kinds[e], 0);
            if (json_is_true(path2(res, "tls", "insecure")) ||
                json_is_true(path2(res, "config", "insecure")))
                insecure = 1;
            if (!unit)
                unit = summary_str(res, "unit", NULL);
        }
        for (r = 0; r < nr; r++)
            if (sides[vi]->have[M_SERVER_CPU][r])
                any_server = 1;
    }
    /* disturbed and outlier rounds: the verdict rests on the others (disturb.c) */
    disturb_row(row, cells, versions, nr, exclude);
    for (r = 0; r < nr; r++)
        for (vi = 0; exclude[r] && vi < nv; vi++)
            for (m = 0; m < N_SLOTS; m++)
                sides[vi]->have[m][r] = 0;
    free(cells);
    row_identity(row, cfg, mcfg, fallback_label, ok, failed, expected_rounds * nv);
    json_object_set_new(row, "failures", failures);
    for (e = 0; e < N_ERR_KINDS; e++)
        json_object_set_new(errs, err_kinds[e], json_integer((json_int_t)errsum[e]));
    json_object_set_new(row, "errors", errs);
    json_object_set_new(row, "tls_insecure", json_boolean(insecure));
    json_object_set_new(row, "unit", unit ? json_string(unit) : json_null());
    inst_failed = add_counted(sides, cfg, latest, versions, nr, failures);
    row_metrics(metrics, sides, cfg, latest, versions, nr, failed, inst_failed, any_server, rules,
                lp);
    json_object_set_new(row, "metrics", metrics);
    for (vi = 0; vi < nv; vi++)
        free(sides[vi]);
    free(sides);
    return row;
}

/* The chance of a false flag at this dataset's run count, for the reports' evidence note. */
static json_t *chance_json(size_t runs, size_t compared)
{
    json_t *chance = json_object();
    double alpha, p_disjoint;

    stats_evidence_alpha(runs, runs, runs, &p_disjoint);
    alpha = stats_false_flag_chance(runs, runs, runs);
    json_object_set_new(chance, "evidence",
                        json_string("ranges disjoint, or every paired per-round ratio on the "
                                    "same side of 1"));
    json_object_set_new(chance, "alpha", json_real(alpha));
    json_object_set_new(chance, "p_disjoint", json_real(p_disjoint));
    json_object_set_new(chance, "runs_per_side", json_integer((json_int_t)runs));
    json_object_set_new(chance, "level", json_real(STATS_EVIDENCE_LEVEL));
    json_object_set_new(chance, "reachable",
                        json_boolean(stats_evidence_reachable(runs, runs, runs)));
    json_object_set_new(chance, "comparisons", json_integer((json_int_t)compared));
    json_object_set_new(chance, "expected_false_flags", json_real((double)compared * alpha));
    json_object_set_new(chance, "expected_disjoint_by_chance",
                        json_real((double)compared * p_disjoint));
    return chance;
}

/* The thresholds the verdicts were judged against, per metric. */
static json_t *thresholds_json(const struct verdict_rules *rules)
{
    json_t *rj = json_object();
    int m;

    for (m = 0; m < METRIC_ALL; m++)
        json_object_set_new(rj, metric_name(m), json_real(rules->threshold_pct[m]));
    json_object_set_new(rj, "noise_limit_pct", json_real(rules->noise_limit_pct));
    return rj;
}

json_t *summary_build(const json_t *runs, const json_t *meta, const struct verdict_rules *rules,
                      char *err, size_t errlen)
{
    struct verdict_rules def;
    json_t *versions = json_array(), *configs = json_array(), *latest = json_object();
    json_t *seen_v = json_object(), *seen_c = json_object();
    json_t *meta_cfg = json_object(); /* id -> meta.json's configs[i], looked up per row */
    json_t *labels = json_object(), *replaced = json_object(), *sum = NULL, *rows = NULL;
    const json_t *mv = json_object_get(meta, "versions"), *mc = json_object_get(meta, "configs");
    size_t i, nr = 0, expected_rounds, compared = 0;
    struct look_plan lp;
    long max_round = 0;

    if (!rules) {
        verdict_rules_default(&def);
        rules = &def;
    }
    if (!json_is_array(runs)) {
        snprintf(err, errlen, "runs: expected an array of run objects");
        goto fail;
    }
    for (i = 0; i < json_array_size(mv); i++) {
        const char *n = summary_str(json_array_get(mv, i), "name", NULL);
        if (n)
            add_unique(versions, seen_v, n);
    }
    for (i = 0; i < json_array_size(mc); i++) {
        const char *id = summary_str(json_array_get(mc, i), "id", NULL);
        if (id) {
            add_unique(configs, seen_c, id);
            json_object_set(meta_cfg, id, json_array_get(mc, i)); /* the last one wins */
        }
    }
    for (i = 0; i < json_array_size(runs); i++) {
        const json_t *run = json_array_get(runs, i);
        const char *cfg = summary_str(run, "config", NULL),
                   *ver = summary_str(run, "version", NULL);
        const json_t *rj = json_object_get(run, "round");
        char key[512];
        long round;

        if (!cfg || !ver || !json_is_integer(rj) || json_integer_value(rj) < 1 ||
            json_integer_value(rj) > MAX_ROUNDS) {
            snprintf(err, errlen,
                     "runs.jsonl: run %zu: expected \"config\" and \"version\" strings and "
                     "\"round\" an integer in 1..%d",
                     i + 1, MAX_ROUNDS);
            goto fail;
        }
        round = (long)json_integer_value(rj);
        if (round > max_round)
            max_round = round;
        add_unique(versions, seen_v, ver);
        add_unique(configs, seen_c, cfg);
        if (!json_object_get(labels, cfg) && summary_str(run, "label", NULL))
            json_object_set_new(labels, cfg, json_string(summary_str(run, "label", "")));
        {
            /* counted runs (kind "instructions") have rounds of their own */
            const char *kind = summary_str(run, "kind", NULL);
            char kv[300];
            snprintf(kv, sizeof(kv), "%s%s%s", ver, kind ? "\x1f" : "", kind ? kind : "");
            run_key(key, sizeof(key), cfg, kv, round);
        }
        if (json_object_get(latest, key)) {
            /* a later line replaces an earlier one (resume); count it for the report */
            json_t *c = json_object_get(replaced, cfg);

            json_object_set_new(replaced, cfg,
                                json_integer(json_is_integer(c) ? json_integer_value(c) + 1 : 1));
        }
        json_object_set(latest, key, (json_t *)run);
    }
    if (json_array_size(versions) == 0) {
        snprintf(err, errlen,
                 "no versions: meta.json has no \"versions\" and runs.jsonl is "
                 "empty");
        goto fail;
    }
    expected_rounds = (size_t)summary_num(json_object_get(meta, "settings"), "runs", 0);
    if (expected_rounds == 0 || expected_rounds > MAX_ROUNDS)
        expected_rounds = (size_t)max_round;
    /* rounds past the planned ones come from adaptive confirmation: its cap (set in
     * meta.json before the first extra round) says how many looks share the budget */
    lp.planned = expected_rounds;
    lp.looks =
        ((size_t)summary_num(json_object_get(meta, "confirmation"), "max_extra_rounds", 0) + 1) / 2;
    nr = expected_rounds > (size_t)max_round ? expected_rounds : (size_t)max_round;

    sum = json_object();
    rows = json_array();
    json_object_set_new(sum, "schema", json_string("pairbench.summary/1"));
    json_object_set(sum, "baseline", json_array_get(versions, 0));
    json_object_set(sum, "versions", versions);
    json_object_set_new(sum, "rounds", json_integer((json_int_t)expected_rounds));
    json_object_set_new(sum, "outcome", json_null()); /* filled once the rows are known */
    for (i = 0; i < json_array_size(configs); i++) {
        const char *cfg = json_string_value(json_array_get(configs, i));
        const json_t *mcfg = json_object_get(meta_cfg, cfg);
        json_t *row;

        row = build_row(cfg, mcfg, latest, versions, nr, expected_rounds, rules, &lp,
                        summary_str(labels, cfg, cfg),
                        summary_num(json_object_get(meta, "settings"), "warmup", 0));
        if (!row) {
            snprintf(err, errlen, "summary: out of memory");
            goto fail;
        }
        json_object_set_new(json_object_get(row, "runs"), "replaced",
                            json_integer((json_int_t)summary_num(replaced, cfg, 0)));
        json_array_append_new(rows, row);
    }
    json_object_set_new(sum, "rows", rows);
    rows = NULL;
    json_object_set_new(sum, "outcome", outcome_build(sum, NULL));

    compared = json_array_size(configs) * (json_array_size(versions) - 1);
    json_object_set_new(sum, "chance", chance_json(expected_rounds, compared));
    json_object_set_new(sum, "thresholds_pct", thresholds_json(rules));
    goto out;
fail:
    json_decref(rows);
    json_decref(sum);
    sum = NULL;
out:
    json_decref(seen_v);
    json_decref(seen_c);
    json_decref(meta_cfg);
    json_decref(versions);
    json_decref(configs);
    json_decref(latest);
    json_decref(labels);
    json_decref(replaced);
    return sum;
}

/* ---- CSV ---- */

static void csv_num(FILE *f, const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);

    fputc(',', f);
    if (json_is_number(v))
        fprintf(f, "%.10g", json_number_value(v));
    else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "true" : "false", f);
}

int summary_write_csv(FILE *f, const json_t *summary)
{
    const json_t *rows = json_object_get(summary, "rows"), *row;
    const json_t *versions = json_object_get(summary, "versions");
    size_t i, vi;

    fputs("config,label,status,metric,version,median,min,max,n,change,overlap,p,"
          "paired_median,paired_min,paired_max,p_paired,verdict\n",
          f);
    json_array_foreach(rows, i, row)
    {
        const json_t *metrics = json_object_get(row, "metrics"), *mo;
        const char *mname;

        json_object_foreach((json_t *)metrics, mname, mo)
        {
            for (vi = 0; vi < json_array_size(versions); vi++) {
                const char *ver = json_string_value(json_array_get(versions, vi));
                const json_t *val = summary_values(row, mname, ver);
                const json_t *vs = summary_vs(row, mname, ver);
                const json_t *pr = json_object_get(vs, "paired_ratio");

                escape_csv(f, summary_str(row, "config", ""));
                fputc(',', f);
                escape_csv(f, summary_str(row, "label", ""));
                fprintf(f, ",%s,%s,", summary_str(row, "status", ""), mname);
                escape_csv(f, ver);
                csv_num(f, val, "median");
                csv_num(f, val, "min");
                csv_num(f, val, "max");
                csv_num(f, val, "n");
                csv_num(f, vs, "change");
                csv_num(f, vs, "overlap");
                csv_num(f, vs, "p");
                csv_num(f, pr, "median");
                csv_num(f, pr, "min");
                csv_num(f, pr, "max");
                csv_num(f, vs, "p_paired");
                fprintf(f, ",%s\n", summary_str(vs, "verdict", ""));
            }
        }
    }
    return ferror(f) ? -1 : 0;
}
