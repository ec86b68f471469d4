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
 * Only runs with status "ok" give values; a "failed" run makes the whole row "failed". A row
 * is built by summary_row.c; this file indexes the runs and assembles the rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "analysis/family.h"
#include "analysis/outcome.h"
#include "analysis/summary.h"
#include "analysis/summary_judge.h"
#include "analysis/summary_row.h"

#include "util/escape.h"
#include "util/jobs_util.h"

int summary_confirmed(const json_t *metric, double planned)
{
    const json_t *v;
    const char *ver;

    json_object_foreach((json_t *)json_object_get(metric, "values"), ver, v)
    {
        if (planned > 0 && ju_num(v, "n", 0) > planned)
            return 1;
    }
    return 0;
}

int summary_judged_change(const json_t *metric, const json_t *vs, double planned, double *change)
{
    const json_t *pr = json_object_get(vs, "paired_ratio");

    if (summary_confirmed(metric, planned) && json_is_number(json_object_get(pr, "median"))) {
        *change = ju_num(pr, "median", 1) - 1;
        return 0;
    }
    if (!json_is_number(json_object_get(vs, "change")))
        return -1;
    *change = ju_num(vs, "change", 0);
    return 0;
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

/* Appends s to arr unless seen (a hash set of arr's strings) has it: linear in the number of
 * configurations, which may be 100,000. */
static void add_unique(json_t *arr, json_t *seen, const char *s)
{
    if (json_object_get(seen, s))
        return;
    json_object_set_new(seen, s, json_true());
    json_array_append_new(arr, json_string(s));
}

/* The chance of a false flag at this dataset's run count, for the reports' evidence note: the
 * moderated test's level per metric, and the chance of disjoint ranges by luck (2/C(2n, n)),
 * which the overlap column shows. */
static json_t *chance_json(size_t runs, size_t compared)
{
    json_t *chance = json_object();
    double c = 1, p_disjoint;
    size_t i;

    for (i = 1; i <= runs; i++) /* C(2n, n) */
        c = c * (double)(runs + i) / (double)i;
    p_disjoint = runs ? fmin(1, 2 / c) : 1;
    json_object_set_new(chance, "evidence",
                        json_string("a moderated t-test of the log change, its variance shrunk "
                                    "toward the noise of every row of the run"));
    json_object_set_new(chance, "alpha", json_real(STATS_EVIDENCE_LEVEL));
    json_object_set_new(chance, "p_disjoint", json_real(p_disjoint));
    json_object_set_new(chance, "runs_per_side", json_integer((json_int_t)runs));
    json_object_set_new(chance, "level", json_real(STATS_EVIDENCE_LEVEL));
    json_object_set_new(chance, "reachable", json_boolean(runs >= STATS_MIN_RUNS));
    json_object_set_new(chance, "comparisons", json_integer((json_int_t)compared));
    json_object_set_new(chance, "expected_false_flags",
                        json_real((double)compared * STATS_EVIDENCE_LEVEL));
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

/* The dataset indexed: versions and configurations in order, and the latest line per
 * (config, version, round). */
struct run_index {
    json_t *versions, *configs; /* arrays of names, first seen first */
    json_t *seen_v, *seen_c;    /* the same as sets */
    json_t *meta_cfg;           /* id -> meta.json's configs[i], looked up per row */
    json_t *latest;             /* summary_run_key() -> runs.jsonl line */
    json_t *labels;             /* config -> the label of its first run that has one */
    json_t *replaced;           /* config -> how many lines a later one replaced */
    long max_round;
};

static void index_release(struct run_index *ix)
{
    json_decref(ix->seen_v);
    json_decref(ix->seen_c);
    json_decref(ix->meta_cfg);
    json_decref(ix->versions);
    json_decref(ix->configs);
    json_decref(ix->latest);
    json_decref(ix->labels);
    json_decref(ix->replaced);
}

/* meta.json's versions and configurations, in its order. */
static void index_meta(struct run_index *ix, const json_t *meta)
{
    const json_t *mv = json_object_get(meta, "versions"), *mc = json_object_get(meta, "configs");
    size_t i;

    for (i = 0; i < json_array_size(mv); i++) {
        const char *n = ju_str(json_array_get(mv, i), "name", NULL);
        if (n)
            add_unique(ix->versions, ix->seen_v, n);
    }
    for (i = 0; i < json_array_size(mc); i++) {
        const char *id = ju_str(json_array_get(mc, i), "id", NULL);
        if (id) {
            add_unique(ix->configs, ix->seen_c, id);
            json_object_set(ix->meta_cfg, id, json_array_get(mc, i)); /* the last one wins */
        }
    }
}

/* One runs.jsonl line (the i-th) into the index. Returns 0, or -1 with err. */
static int index_run(struct run_index *ix, const json_t *run, size_t i, char *err, size_t errlen)
{
    const char *cfg = ju_str(run, "config", NULL), *ver = ju_str(run, "version", NULL);
    const char *kind = ju_str(run, "kind", NULL);
    const json_t *rj = json_object_get(run, "round");
    char key[512], kv[300];
    long round;

    if (!cfg || !ver || !json_is_integer(rj) || json_integer_value(rj) < 1 ||
        json_integer_value(rj) > SUMMARY_MAX_ROUNDS) {
        snprintf(err, errlen,
                 "runs.jsonl: run %zu: expected \"config\" and \"version\" strings and "
                 "\"round\" an integer in 1..%d",
                 i + 1, SUMMARY_MAX_ROUNDS);
        return -1;
    }
    round = (long)json_integer_value(rj);
    if (round > ix->max_round)
        ix->max_round = round;
    add_unique(ix->versions, ix->seen_v, ver);
    add_unique(ix->configs, ix->seen_c, cfg);
    if (!json_object_get(ix->labels, cfg) && ju_str(run, "label", NULL))
        json_object_set_new(ix->labels, cfg, json_string(ju_str(run, "label", "")));
    /* counted runs (kind "instructions") have rounds of their own */
    snprintf(kv, sizeof(kv), "%s%s%s", ver, kind ? "\x1f" : "", kind ? kind : "");
    summary_run_key(key, sizeof(key), cfg, kv, round);
    if (json_object_get(ix->latest, key)) {
        /* a later line replaces an earlier one (resume); count it for the report */
        json_t *c = json_object_get(ix->replaced, cfg);

        json_object_set_new(ix->replaced, cfg,
                            json_integer(json_is_integer(c) ? json_integer_value(c) + 1 : 1));
    }
    json_object_set(ix->latest, key, (json_t *)run);
    return 0;
}

/* The planned rounds (meta.json's settings.runs, else the most seen), the looks adaptive
 * confirmation shares its budget among, and in *nr how many rounds a row spans. */
static size_t plan_rounds(const json_t *meta, long max_round, struct look_plan *lp, size_t *nr)
{
    size_t expected = (size_t)ju_num(json_object_get(meta, "settings"), "runs", 0);

    if (expected == 0 || expected > SUMMARY_MAX_ROUNDS)
        expected = (size_t)max_round;
    /* rounds past the planned ones come from adaptive confirmation: its cap (set in
     * meta.json before the first extra round) says how many looks share the budget */
    lp->planned = expected;
    lp->looks =
        ((size_t)ju_num(json_object_get(meta, "confirmation"), "max_extra_rounds", 0) + 1) / 2;
    *nr = expected > (size_t)max_round ? expected : (size_t)max_round;
    return expected;
}

/* Every configuration's row, in order, into rows. Returns 0, or -1 when out of memory. */
static int add_rows(json_t *rows, const struct run_index *ix, const json_t *meta, size_t nr,
                    size_t expected_rounds, const struct verdict_rules *rules,
                    const struct look_plan *lp)
{
    size_t i;

    for (i = 0; i < json_array_size(ix->configs); i++) {
        const char *cfg = json_string_value(json_array_get(ix->configs, i));
        json_t *row =
            summary_row_build(cfg, json_object_get(ix->meta_cfg, cfg), ix->latest, ix->versions, nr,
                              expected_rounds, rules, lp, ju_str(ix->labels, cfg, cfg),
                              ju_num(json_object_get(meta, "settings"), "warmup", 0));

        if (!row)
            return -1;
        json_object_set_new(json_object_get(row, "runs"), "replaced",
                            json_integer((json_int_t)ju_num(ix->replaced, cfg, 0)));
        json_array_append_new(rows, row);
    }
    return 0;
}

json_t *summary_build(const json_t *runs, const json_t *meta, const struct verdict_rules *rules,
                      char *err, size_t errlen)
{
    struct verdict_rules def;
    struct run_index ix = {.versions = json_array(),
                           .configs = json_array(),
                           .seen_v = json_object(),
                           .seen_c = json_object(),
                           .meta_cfg = json_object(),
                           .latest = json_object(),
                           .labels = json_object(),
                           .replaced = json_object()};
    json_t *sum = NULL, *rows = NULL, *fam;
    size_t i, nr = 0, expected_rounds, compared;
    struct look_plan lp;

    if (!rules) {
        verdict_rules_default(&def);
        rules = &def;
    }
    if (!json_is_array(runs)) {
        snprintf(err, errlen, "runs: expected an array of run objects");
        goto out;
    }
    index_meta(&ix, meta);
    for (i = 0; i < json_array_size(runs); i++)
        if (index_run(&ix, json_array_get(runs, i), i, err, errlen) < 0)
            goto out;
    if (json_array_size(ix.versions) == 0) {
        snprintf(err, errlen,
                 "no versions: meta.json has no \"versions\" and runs.jsonl is "
                 "empty");
        goto out;
    }
    expected_rounds = plan_rounds(meta, ix.max_round, &lp, &nr);
    sum = json_object();
    rows = json_array();
    json_object_set_new(sum, "schema", json_string(SUMMARY_SCHEMA));
    json_object_set(sum, "baseline", json_array_get(ix.versions, 0));
    json_object_set(sum, "versions", ix.versions);
    json_object_set_new(sum, "rounds", json_integer((json_int_t)expected_rounds));
    json_object_set_new(sum, "outcome", json_null()); /* filled once the rows are known */
    if (add_rows(rows, &ix, meta, nr, expected_rounds, rules, &lp) < 0) {
        snprintf(err, errlen, "summary: out of memory");
        json_decref(rows);
        json_decref(sum);
        sum = NULL;
        goto out;
    }
    json_object_set_new(sum, "noise", summary_judge_rows(rows, ix.versions, rules, lp.planned));
    json_object_set_new(sum, "rows", rows);
    json_object_set_new(sum, "outcome", outcome_build(sum, NULL));
    compared = json_array_size(ix.configs) * (json_array_size(ix.versions) - 1);
    json_object_set_new(sum, "chance", chance_json(expected_rounds, compared));
    fam = family_summary(rows);
    if (fam)
        json_object_set_new(json_object_get(sum, "chance"), "family", fam);
    json_object_set_new(sum, "thresholds_pct", thresholds_json(rules));
out:
    index_release(&ix);
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

                escape_csv(f, ju_str(row, "config", ""));
                fputc(',', f);
                escape_csv(f, ju_str(row, "label", ""));
                fprintf(f, ",%s,%s,", ju_str(row, "status", ""), mname);
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
                fprintf(f, ",%s\n", ju_str(vs, "verdict", ""));
            }
        }
    }
    return ferror(f) ? -1 : 0;
}

/* One comparison of a /1 summary in /2's words (summary_upgrade). */
static void upgrade_cmp(json_t *cmp)
{
    const char *v = ju_str(cmp, "verdict", "");
    const char *reason = ju_str(cmp, "reason", NULL);

    if (strcmp(v, VERDICT_OLD_UNSTABLE) == 0) {
        json_object_set_new(cmp, "verdict", json_string(VERDICT_UNDECIDED));
        if (!reason)
            json_object_set_new(cmp, "reason", json_string(STATS_REASON_NOISE));
    } else if (strcmp(v, VERDICT_SAME) == 0 && reason && strcmp(reason, STATS_REASON_TOO_FEW) == 0)
        json_object_set_new(cmp, "verdict", json_string(VERDICT_UNDECIDED));
}

void summary_upgrade(json_t *summary)
{
    const json_t *row;
    size_t i;

    if (strcmp(ju_str(summary, "schema", ""), "pairbench.summary/1") != 0)
        return;
    json_array_foreach(json_object_get(summary, "rows"), i, row)
    {
        const char *name, *ver;
        json_t *mo, *cmp;

        json_object_foreach(json_object_get(row, "metrics"), name, mo)
            json_object_foreach(json_object_get(mo, "vs_baseline"), ver, cmp) upgrade_cmp(cmp);
    }
    json_object_set_new(summary, "outcome", outcome_build(summary, NULL));
    json_object_set_new(summary, "schema", json_string(SUMMARY_SCHEMA));
}
