/* confirm: adaptive confirmation, fixed in advance. After the planned rounds, a row whose
 * verdict is borderline gets extra alternating rounds, two at a time (so the order stays
 * balanced: A B then B A), up to a cap stated before the run (spec "confirm_rounds" or
 * --confirm N), and stops as soon as the row is no longer borderline. The cap, the rule and
 * the rounds each row received go into meta.json, and the report states them: this is
 * "measure a bit more when the answer is close", never "rerun until significant" — the
 * extra rounds are kept whatever they show, and the cap is never raised after the fact. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run/confirm.h"

#include "clock.h"
#include "data/dataset.h"
#include "run/runner.h"
#include "run/schedule.h"
#include "run/spec.h"
#include "analysis/gate.h"
#include "analysis/metrics.h"
#include "analysis/outcome.h"
#include "analysis/stats.h"
#include "analysis/summary.h"

#include "util/jobs_util.h"
#include "util/redact.h"

/* rules as row is judged by them: a fixed-rate row (outcome.h) gates server CPU per request
 * and P99 at its own thresholds, and not throughput or CPU efficiency */
static void row_rules(const json_t *row, const struct verdict_rules *rules,
                      struct verdict_rules *out)
{
    const json_t *params = json_object_get(row, "params");

    *out = *rules;
    if (!outcome_rate_row(params))
        return;
    outcome_rate_rules(params, 1, out, NULL);
    out->threshold_pct[METRIC_THROUGHPUT] = 0;
    out->threshold_pct[METRIC_CPU_EFFICIENCY] = 0;
}

/* confirm_row_borderline; one_sided (a gate): an undecided metric bounded on its bad side
 * (gate_bounded) is final too */
static int borderline(const json_t *row, const struct verdict_rules *given, int one_sided)
{
    const json_t *metrics = json_object_get(row, "metrics");
    struct verdict_rules rr;
    int m;

    if (strcmp(ju_str(row, "status", ""), "ok") != 0)
        return 0; /* failed or incomplete rows are not measured more */
    row_rules(row, given, &rr);
    for (m = 0; m < METRIC_ALL; m++) {
        const json_t *vs = json_object_get(json_object_get(metrics, metric_name(m)), "vs_baseline");
        const char *cand;
        const json_t *cmp;

        if (rr.threshold_pct[m] <= 0)
            continue;
        /* undecided: more rounds are what it needs (the moderated evidence narrows with
         * them, and a confirmed row's looks share their own false-alarm budget); regressed,
         * improved and ~ are final */
        json_object_foreach((json_t *)vs, cand, cmp)
        {
            if (strcmp(ju_str(cmp, "verdict", ""), VERDICT_UNDECIDED) == 0 &&
                !(one_sided && gate_bounded(cmp, (enum metric)m, rr.threshold_pct[m])))
                return 1;
        }
    }
    return 0;
}

int confirm_row_borderline(const json_t *row, const struct verdict_rules *given, size_t planned)
{
    (void)planned;
    return borderline(row, given, 0);
}

int confirm_row_open_for_gate(const json_t *row, const struct verdict_rules *given)
{
    return borderline(row, given, 1);
}

/* 1 when a gated metric of row (rules) is regressed for some candidate; counted only: the
 * metrics of the counted runs alone (not the software events, read in the timed runs); final
 * (final > 0): a timed verdict whose evidence would pass even the strictest look of the extra
 * rounds, p ≤ stats_extra_alpha at the cap (¾ × 2/252), so no extra round takes it back */
static int any_regressed(const json_t *row, const struct verdict_rules *rules, int counted,
                         int final)
{
    const json_t *metrics = json_object_get(row, "metrics");
    int m;

    for (m = 0; m < METRIC_ALL; m++) {
        const char *cand;
        const json_t *cmp;

        if (rules->threshold_pct[m] <= 0 || (counted && !metric_counted((enum metric)m)))
            continue;
        json_object_foreach(
            (json_t *)json_object_get(json_object_get(metrics, metric_name(m)), "vs_baseline"),
            cand, cmp)
        {
            if (strcmp(ju_str(cmp, "verdict", ""), VERDICT_REGRESSED) == 0 &&
                (!final ||
                 ju_num(json_object_get(cmp, "evidence"), "p", 1) <= STATS_EXTRA_ALPHA * 0.75))
                return 1;
        }
    }
    return 0;
}

int confirm_row_regressed(const json_t *row, const struct verdict_rules *given, size_t planned)
{
    struct verdict_rules rr;

    if (strcmp(ju_str(row, "status", ""), "ok") != 0)
        return 0;
    row_rules(row, given, &rr);
    /* a count's regression is final (it repeats run to run, and a verdict needs the cheapest
     * runs to differ too): no extra round of the timed metrics can take exit 1 back */
    if (any_regressed(row, &rr, 1, 0) || any_regressed(row, &rr, 0, 1))
        return 1;
    return !confirm_row_borderline(row, given, planned) && any_regressed(row, &rr, 0, 0);
}

/* The highest round recorded for configuration id in runs (0 when none). */
static unsigned last_round(const json_t *runs, const char *id)
{
    const json_t *line;
    size_t i;
    unsigned max = 0;

    json_array_foreach(runs, i, line)
    {
        unsigned rd = (unsigned)json_integer_value(json_object_get(line, "round"));
        const char *c = json_string_value(json_object_get(line, "config"));

        if (c && strcmp(c, id) == 0 && rd > max)
            max = rd;
    }
    return max;
}

/* The summary of what runs.jsonl holds now. New reference or NULL. */
static json_t *current_summary(const char *dir, const json_t *meta,
                               const struct verdict_rules *rules, json_t **runs_out, char *err,
                               size_t errlen)
{
    char path[4096];

    *runs_out = NULL;
    if ((size_t)snprintf(path, sizeof(path), "%s/runs.jsonl", dir) >= sizeof(path)) {
        snprintf(err, errlen, "run directory path too long");
        return NULL;
    }
    if (dataset_read(path, runs_out, NULL, err, errlen) < 0)
        return NULL;
    return summary_build(*runs_out, meta, rules, err, errlen);
}

/* The summary as cx judges it: a gate's rows under their own rules (gate_apply_row_rules) */
static json_t *judged_summary(const struct confirm_ctx *cx, json_t **runs_out, char *err,
                              size_t errlen)
{
    json_t *summary = current_summary(cx->dir, cx->meta, cx->rules, runs_out, err, errlen);

    if (summary && cx->gc &&
        gate_apply_row_rules(cx->gc, summary, *runs_out, cx->meta, err, errlen) < 0) {
        json_decref(summary);
        return NULL;
    }
    return summary;
}

/* The rules row is judged by: a gate's for that row and its gated metrics, else cx's */
static void judged_rules(const struct confirm_ctx *cx, const json_t *row, struct verdict_rules *out)
{
    if (cx->gc)
        gate_extra_round_rules(cx->gc, json_object_get(row, "params"), out);
    else
        *out = *cx->rules;
}

/* Runs round rd of configuration c, every version once in the alternating order, and
 * appends the lines. Returns 0 (also when a stop signal cut it short), or -1 with err. */
static int run_round(struct confirm_ctx *cx, size_t c, unsigned rd, char *err, size_t errlen)
{
    const struct spec *sp = cx->r->sp;
    unsigned pos;

    for (pos = 1; pos <= sp->n_versions && !*cx->r->stop; pos++) {
        struct sched_run sr = {.config = c,
                               .version = sched_version_at(sp->n_versions, rd, pos),
                               .round = rd,
                               .position = pos};
        json_t *line = runner_run(cx->r, &sr, err, errlen);

        if (!line)
            return *cx->r->stop ? 0 : -1;
        if (dataset_append(cx->fd, line, err, errlen) < 0 ||
            runner_append_counted(cx->r, cx->fd, err, errlen) < 0) {
            json_decref(line);
            return -1;
        }
        if (strcmp(ju_str(line, "status", ""), "ok") != 0) {
            char shown[2100];
            fprintf(stderr, "compare: run failed: %s · %s · round %u: %s\n", sp->configs[c].label,
                    sp->versions[sr.version].name, sr.round,
                    redact_show(ju_str(line, "reason", "?"), shown, sizeof(shown)));
        }
        json_decref(line);
    }
    return 0;
}

void confirm_plan_budget(struct confirm_ctx *cx, uint64_t deadline_ns, uint64_t run_ns, size_t nv)
{
    uint64_t now = clock_now_ns(), left;
    unsigned cap;

    if (!deadline_ns)
        return;
    cx->deadline_ns = deadline_ns;
    cx->round_ns = run_ns * (nv ? nv : 1);
    left = deadline_ns > now ? deadline_ns - now : 0;
    cap = cx->round_ns ? (unsigned)(left / cx->round_ns) : 0;
    if (cap > CONFIRM_BUDGET_MAX_CAP)
        cap = CONFIRM_BUDGET_MAX_CAP;
    cx->cap = cap / 2 * 2;
    fprintf(stderr,
            "compare: budget: %.0f s left, a round takes %.1f s: at most %u extra rounds per "
            "undecided row\n",
            (double)left / 1e9, (double)cx->round_ns / 1e9, cx->cap);
}

/* The rounds of row id whose latest run (any version) is disturbed, in runs (ascending,
 * at most max); the replaced runs' records go to rec. Returns how many. */
static size_t disturbed_rounds(const json_t *runs, const char *id, unsigned *out, size_t max,
                               json_t *rec)
{
    const json_t *line;
    size_t i, n = 0, k;

    json_array_foreach(runs, i, line)
    {
        const json_t *in = json_object_get(line, "interference");
        unsigned rd = (unsigned)json_integer_value(json_object_get(line, "round"));
        int dup = 0;

        if (strcmp(ju_str(line, "config", ""), id) != 0 ||
            !json_is_true(json_object_get(in, "disturbed")))
            continue;
        json_array_append_new(rec, json_pack("{s:s, s:s, s:s, s:i, s:f, s:f}", "config", id,
                                             "label", ju_str(line, "label", id), "version",
                                             ju_str(line, "version", "?"), "round", (int)rd,
                                             "other_cpu_cores", ju_num(in, "other_cpu_cores", 0),
                                             "steal_pct", ju_num(in, "steal_pct", 0)));
        for (k = 0; k < n; k++)
            dup |= out[k] == rd;
        if (!dup && n < max)
            out[n++] = rd;
    }
    return n;
}

int confirm_repeat_disturbed(struct confirm_ctx *cx, char *err, size_t errlen)
{
    const struct spec *sp = cx->r->sp;
    json_t *runs = NULL, *summary, *rec = json_array();
    size_t c, k;
    int rc = -1;

    summary = current_summary(cx->dir, cx->meta, cx->rules, &runs, err, errlen);
    if (!summary || !rec)
        goto out;
    {
        struct interference_limits def;
        const struct interference_limits *lim = cx->r->limits;

        interference_limits_default(&def);
        if (!lim)
            lim = &def;
        json_object_set_new(cx->meta, "interference_limits",
                            json_pack("{s:f, s:f}", "other_cpu_cores", lim->other_cpu_cores,
                                      "steal_pct", lim->steal_pct));
    }
    for (c = 0; c < sp->n_configs && !*cx->r->stop; c++) {
        unsigned rounds[CONFIRM_DISTURBED_REPEATS];
        size_t n;

        if (!cx->selected[c])
            continue;
        n = disturbed_rounds(runs, sp->configs[c].id, rounds, CONFIRM_DISTURBED_REPEATS, rec);
        for (k = 0; k < n && !*cx->r->stop; k++) {
            if (cx->deadline_ns && clock_now_ns() + cx->round_ns > cx->deadline_ns)
                break; /* gate --budget: no time left for it */
            fprintf(stderr,
                    "compare: %s: round %u was disturbed by other processes: running it "
                    "again\n",
                    sp->configs[c].label, rounds[k]);
            if (run_round(cx, c, rounds[k], err, errlen) < 0)
                goto out;
        }
    }
    if (json_array_size(rec))
        json_object_set(cx->meta, "disturbed_runs", rec);
    rc = 0;
out:
    json_decref(rec);
    json_decref(summary);
    json_decref(runs);
    return rc;
}

/* The label of a selected row that is decided regressed (confirm_row_regressed), or NULL. The
 * string belongs to the spec. */
static const char *regressed_row(const struct confirm_ctx *cx, const json_t *summary)
{
    const struct spec *sp = cx->r->sp;
    size_t c, k, rounds = (size_t)ju_num(summary, "rounds", 0);
    const json_t *x;

    json_array_foreach(json_object_get(summary, "rows"), k, x)
    {
        struct verdict_rules rr;

        judged_rules(cx, x, &rr);
        if (!confirm_row_regressed(x, &rr, rounds))
            continue; /* the configuration is looked up for regressed rows only */
        for (c = 0; c < sp->n_configs; c++)
            if (cx->selected[c] && strcmp(ju_str(x, "config", ""), sp->configs[c].id) == 0)
                return sp->configs[c].label;
    }
    return NULL;
}

int confirm_regressed_now(const struct confirm_ctx *cx, char *label, size_t n, char *err,
                          size_t errlen)
{
    json_t *runs = NULL, *summary = judged_summary(cx, &runs, err, errlen);
    const char *l;

    if (!summary) {
        json_decref(runs);
        return -1;
    }
    l = regressed_row(cx, summary);
    if (l)
        snprintf(label, n, "%s", l);
    json_decref(summary);
    json_decref(runs);
    return l != NULL;
}

int confirm_counted_needless(const struct confirm_ctx *cx, char *err, size_t errlen)
{
    char label[512];

    if (confirm_regressed_now(cx, label, sizeof(label), err, errlen) != 1)
        return 0;
    fprintf(stderr,
            "compare: gate: '%s' is decided regressed by the timed runs; the counted runs are "
            "left out (no count can take that back)\n",
            label);
    return 1;
}

int confirm_run(struct confirm_ctx *cx, char *err, size_t errlen)
{
    const struct spec *sp = cx->r->sp;
    json_t *runs = NULL, *summary = NULL, *rows_done = json_object(), *record = NULL;
    unsigned added = 0;
    int rc = -1, out_of_time = 0;
    const char *regressed = NULL;

    if (!rows_done)
        goto oom;
    /* the cap goes on record before the first extra round: the verdicts of a confirmed row
     * split their false-alarm budget over the looks it allows (stats_verdict) */
    record = json_pack("{s:i, s:s, s:O}", "max_extra_rounds", (int)cx->cap, "rule", confirm_rule,
                       "rows", rows_done);
    if (!record || json_object_set_new(cx->meta, "confirmation", record) < 0)
        goto oom;
    record = NULL;
    while (added < cx->cap && !*cx->r->stop) {
        size_t c, n_border = 0;

        json_decref(summary);
        json_decref(runs);
        summary = judged_summary(cx, &runs, err, errlen);
        if (!summary)
            goto out;
        if (cx->stop_when_regressed && (regressed = regressed_row(cx, summary)) != NULL) {
            fprintf(stderr,
                    "compare: %s is regressed: the gate fails whatever the other rows show; "
                    "no further rounds\n",
                    regressed);
            break;
        }
        for (c = 0; c < sp->n_configs && !*cx->r->stop; c++) {
            const json_t *row = NULL, *x;
            size_t k;
            unsigned base, step;
            struct verdict_rules rr;

            if (!cx->selected[c])
                continue;
            json_array_foreach(json_object_get(summary, "rows"), k, x)
            {
                if (strcmp(ju_str(x, "config", ""), sp->configs[c].id) == 0)
                    row = x;
            }
            if (!row)
                continue;
            judged_rules(cx, row, &rr);
            if (!(cx->gc ? confirm_row_open_for_gate(row, &rr)
                         : confirm_row_borderline(row, &rr, (size_t)ju_num(summary, "rounds", 0))))
                continue;
            n_border++;
            if (cx->deadline_ns && clock_now_ns() + 2 * cx->round_ns > cx->deadline_ns) {
                out_of_time = 1;
                break;
            }
            base = last_round(runs, sp->configs[c].id);
            for (step = 1; step <= 2 && !*cx->r->stop; step++)
                if (run_round(cx, c, base + step, err, errlen) < 0)
                    goto out;
            json_object_set_new(
                rows_done, sp->configs[c].id,
                json_integer(json_integer_value(json_object_get(rows_done, sp->configs[c].id)) +
                             2));
            fprintf(stderr, "compare: confirming %s: 2 more rounds (%u of at most %u)\n",
                    sp->configs[c].label,
                    (unsigned)json_integer_value(json_object_get(rows_done, sp->configs[c].id)),
                    cx->cap);
        }
        if (n_border == 0 || out_of_time)
            break;
        added += 2;
    }
    record = json_pack("{s:i, s:s, s:O}", "max_extra_rounds", (int)cx->cap, "rule", confirm_rule,
                       "rows", rows_done);
    if (record && cx->deadline_ns)
        json_object_set_new(record, "budget_ended", json_boolean(out_of_time));
    if (record && regressed)
        json_object_set_new(record, "stopped_at_regression", json_string(regressed));
    if (!record || json_object_set_new(cx->meta, "confirmation", record) < 0)
        goto oom;
    if (out_of_time)
        fprintf(stderr, "compare: the time budget is spent: no further rounds\n");
    rc = 0;
    goto out;
oom:
    snprintf(err, errlen, "out of memory");
out:
    json_decref(rows_done);
    json_decref(summary);
    json_decref(runs);
    return rc;
}
