/* gate_report: gate.md, the words of the gate's decision (see gate_report.h). */
#include "report/gate_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/exit_codes.h"
#include "analysis/stats.h"
#include "util/escape.h"
#include "analysis/outcome.h"
#include "analysis/summary.h"

/* every metric a verdict rule knows, in enum metric's order: a missing one printed "(null)" */
static const char *const titles[] = {"throughput",
                                     "CPU %",
                                     "CPU efficiency",
                                     "P50 latency",
                                     "P99 latency",
                                     "peak RSS",
                                     "server CPU per operation",
                                     "instructions per operation",
                                     "context switches per operation",
                                     "page faults per operation",
                                     "CPU migrations per operation",
                                     "system calls per operation",
                                     "allocations per operation"};
_Static_assert(sizeof(titles) / sizeof(titles[0]) == METRIC_ALL, "a title per metric");

double gate_row_chance(const json_t *row, const char *cand)
{
    const json_t *base_name = NULL,
                 *vals = json_object_get(summary_metric(row, "throughput"), "values");
    const json_t *vs = summary_vs(row, "throughput", cand), *v;
    const char *k;
    size_t nb = 0, nc = 0;

    json_object_foreach((json_t *)vals, k, v)
    {
        if (strcmp(k, cand) == 0)
            nc = (size_t)summary_num(v, "n", 0);
        else if (!base_name) {
            base_name = v;
            nb = (size_t)summary_num(v, "n", 0);
        }
    }
    return stats_false_flag_chance(
        nb, nc, (size_t)summary_num(json_object_get(vs, "paired_ratio"), "n", 0));
}

/* The larger spread of the two sides of metric (stats_spread_pct: the range up to five
 * runs, the interquartile range scaled to five runs beyond), in percent. */
static double noise_pct(const json_t *row, const char *metric, const char *base, const char *cand)
{
    double w = 0, vals[256];
    const char *who[2] = {base, cand};
    int i;

    for (i = 0; i < 2; i++) {
        const json_t *v = summary_values(row, metric, who[i]), *runs = json_object_get(v, "runs");
        struct stats_range r = {summary_num(v, "median", 0), summary_num(v, "min", 0),
                                summary_num(v, "max", 0), (size_t)summary_num(v, "n", 0)};
        size_t k, n = json_array_size(runs);

        for (k = 0; k < n && k < 256; k++)
            vals[k] = json_number_value(json_array_get(runs, k));
        if (n != r.n || n > 256)
            n = 0;
        w = fmax(w, stats_spread_pct(&r, n ? vals : NULL));
    }
    return w;
}

/* One sentence for a finding of row/metric m, or nothing when the verdict is fine. */
static void sentence(FILE *f, const json_t *row, int m, const char *base, const char *cand,
                     const struct verdict_rules *rules, double budget_s, double planned)
{
    const json_t *vs = summary_vs(row, metric_name((enum metric)m), cand);
    const char *v = summary_str(vs, "verdict", NULL), *label = summary_str(row, "label", "?");
    const char *reason = summary_str(vs, "reason", "");
    double ch = 0, chance = gate_row_chance(row, cand);
    const json_t *bv = summary_values(row, metric_name((enum metric)m), base);
    double thr = rules->threshold_pct[m];
    char more[64];

    if (!v)
        return;
    if (summary_judged_change(
            json_object_get(json_object_get(row, "metrics"), metric_name((enum metric)m)), vs,
            planned, &ch) == 0)
        ch *= 100;
    snprintf(more, sizeof(more), "%.0fm", budget_s > 0 ? fmax(5, ceil(budget_s / 60 * 3)) : 15);
    if (strcmp(v, VERDICT_REGRESSED) == 0)
        fprintf(f,
                "- **%s**: %s %s %.1f%% (threshold %g%%). Evidence this strong comes by "
                "chance at most %.4f of the time with %.0f runs a side. Look at the candidate's "
                "change; this is not noise.\n",
                label, titles[m], ch < 0 ? "fell" : "rose", fabs(ch), thr, chance,
                summary_num(bv, "n", 0));
    else if (strcmp(reason, STATS_REASON_DISTURBED) == 0)
        fprintf(
            f,
            "- **%s**: %s changed %+.1f%%, but the runs it rests on were disturbed: other "
            "processes used the CPUs during them (the report lists how much) and fewer "
            "clean rounds than planned were left without them. Rerun on an idle runner, or with "
            "--budget %s.\n",
            label, titles[m], ch, more);
    else if (strcmp(v, VERDICT_UNSTABLE) == 0)
        fprintf(f,
                "- **%s**: %s changed %+.1f%%, but a side's runs spread %.0f%% (noise limit "
                "%g%%): this runner cannot resolve %g%% on %s, its noise floor here is %.0f%%. "
                "Rerun with --budget %s, or on a quieter runner.\n",
                label, titles[m], ch, noise_pct(row, metric_name((enum metric)m), base, cand),
                rules->noise_limit_pct, thr, titles[m],
                noise_pct(row, metric_name((enum metric)m), base, cand), more);
    else if (strcmp(reason, STATS_REASON_TOO_FEW) == 0)
        fprintf(f,
                "- **%s**: %s changed %+.1f%% on %.0f run%s a side: too few runs for any "
                "verdict (even the most extreme outcome comes by chance %.2f of the time). "
                "Rerun with --runs 5, or --budget 5m.\n",
                label, titles[m], ch, summary_num(bv, "n", 0),
                summary_num(bv, "n", 0) == 1 ? "" : "s", chance);
    else if (strcmp(v, VERDICT_FAILED) == 0)
        fprintf(f, "- **%s**: %s has no values: runs failed (see the report's failures).\n", label,
                titles[m]);
}

/* The sentences of every row's gated metrics that were decided (regressed or improved) when
 * decided, else of the others. */
static void metric_sentences(FILE *f, const json_t *summary, const struct gate_config *gc,
                             const char *base, int decided)
{
    const json_t *rows = json_object_get(summary, "rows"), *row;
    const json_t *versions = json_object_get(summary, "versions");
    size_t i, vi;
    int m;

    json_array_foreach(rows, i, row)
    {
        struct verdict_rules rules;
        unsigned char gated[METRIC_ALL];

        if (strcmp(summary_str(row, "status", "ok"), "failed") == 0)
            continue;
        gate_row_rules(gc, json_object_get(row, "params"), &rules, gated);
        for (vi = 1; vi < json_array_size(versions); vi++)
            for (m = 0; m < METRIC_ALL; m++) {
                const char *cand = json_string_value(json_array_get(versions, vi));
                const char *v =
                    summary_str(summary_vs(row, metric_name((enum metric)m), cand), "verdict", "");
                int is = strcmp(v, VERDICT_REGRESSED) == 0 || strcmp(v, VERDICT_IMPROVED) == 0;

                if (gated[m] && is == decided)
                    sentence(f, row, m, base ? base : "", cand, &rules, gc->budget_s,
                             summary_num(summary, "rounds", 0));
            }
    }
}

static void gate_words(FILE *f, const json_t *summary, const struct gate_config *gc,
                       const struct gate_result *gr)
{
    const json_t *rows = json_object_get(summary, "rows"), *row;
    const json_t *versions = json_object_get(summary, "versions");
    const char *base = json_string_value(json_array_get(versions, 0));
    size_t i;

    switch (gr->code) {
    case EXIT_OK:
        fprintf(f,
                "**Pass.** No gated metric of the %u gated configuration%s changed beyond its "
                "threshold with strong evidence.\n\n",
                gr->rows, gr->rows == 1 ? "" : "s");
        break;
    case EXIT_REGRESSION:
        fprintf(f, "**Regression.** The candidate is measurably worse:\n\n");
        break;
    case EXIT_HARNESS:
        fprintf(f, "**Harness failure.** Some runs could not measure; the verdict is open:\n\n");
        break;
    default:
        fprintf(f, "**Inconclusive.** The runs could not decide every gated metric:\n\n");
        break;
    }
    json_array_foreach(rows, i, row)
    {
        const char *fault;

        if (strcmp(summary_str(row, "status", "ok"), "failed") == 0 &&
            gate_candidate_fault(row, base, &fault)) {
            fprintf(f,
                    "- **%s**: the candidate's runs failed where the baseline's ran the same "
                    "load cleanly: %s. That is the candidate's behaviour under this load, not "
                    "the harness: look at the candidate rather than rerunning.\n",
                    summary_str(row, "label", "?"), fault);
            continue;
        }
        if (strcmp(summary_str(row, "status", "ok"), "failed") == 0) {
            fprintf(f, "- **%s**: runs failed; the report lists why. Fix the harness and rerun.\n",
                    summary_str(row, "label", "?"));
            continue;
        }
    }
    /* what was decided first (a counted verdict included), then what could not be */
    metric_sentences(f, summary, gc, base, 1);
    metric_sentences(f, summary, gc, base, 0);
    if (gr->code != EXIT_OK)
        fputc('\n', f);
}

static const char *metric_title(int m)
{
    return m >= 0 && m < METRIC_ALL ? metric_def((enum metric)m)->short_en : "?";
}

static const char *outcome_words(int code)
{
    switch (code) {
    case EXIT_OK:
        return "pass";
    case EXIT_REGRESSION:
        return "regression";
    case EXIT_HARNESS:
        return "harness failure";
    default:
        return "inconclusive";
    }
}

/* Judged with --accept-modified: gate.md and the comment say so in their first line. */
static void lead_modified(FILE *f, const json_t *summary)
{
    const json_t *mod = json_object_get(json_object_get(summary, "dataset"), "modified");

    if (json_is_string(mod))
        fprintf(f, "**%s**\n", json_string_value(mod));
}

char *gate_markdown(const json_t *summary, const struct gate_config *gc,
                    const struct gate_result *gr, const char *report_md, const char *run_dir,
                    size_t max_bytes)
{
    char *out = NULL;
    size_t len = 0, i;
    FILE *f = open_memstream(&out, &len);
    json_t *rows = json_object_get(summary, "rows"), *row, *versions;
    const char *base = json_string_value(json_object_get(summary, "baseline"));
    int m, first = 1;

    if (!f)
        return NULL;
    versions = json_object_get(summary, "versions");
    lead_modified(f, summary);
    fprintf(f, "%s\n## pairbench gate: %s\n\n", GATE_MARKER, outcome_words(gr->code));
    gate_words(f, summary, gc, gr);
    fprintf(f,
            "Candidate against baseline `%s` over %zu configurations: %u regressed, "
            "%u improved, %u unstable, %u with failed runs, %u incomplete.",
            base ? base : "?", json_array_size(rows), gr->regressed, gr->improved, gr->unstable,
            gr->failed, gr->incomplete);
    if (*gr->reason)
        fprintf(f, " Reason: %s.", gr->reason);
    fprintf(f, "\n\nGated metrics and thresholds: ");
    for (m = 0; m < METRIC_ALL; m++)
        if (gc->gated[m]) {
            fprintf(f, "%s%s %g%%", first ? "" : ", ", metric_title(m), gc->rules.threshold_pct[m]);
            first = 0;
        }
    if (first)
        fprintf(f, "none globally");
    if (gc->n_rows)
        fprintf(f, " (%zu per-row rule%s in the spec)", gc->n_rows, gc->n_rows == 1 ? "" : "s");
    fprintf(f,
            ". A metric counts as regressed only when the change passes its threshold and "
            "the evidence is strong (min–max ranges disjoint, or every paired per-round "
            "ratio on the same side); a side whose spread exceeds %g%% makes it unstable. "
            "The last column is the chance, per gated metric, that a row is flagged when nothing "
            "changed, at the row's run counts (at most; the threshold makes it rarer).\n\n",
            gc->rules.noise_limit_pct);
    fprintf(f, "| Configuration | Version | Gated metrics (change, verdict) | Gate | False-flag "
               "chance |\n"
               "|---|---|---|---|---:|\n");
    json_array_foreach(rows, i, row)
    {
        struct verdict_rules rules;
        unsigned char gated[METRIC_ALL];
        const char *label = json_string_value(json_object_get(row, "label"));
        const json_t *metrics;
        size_t vi;

        gate_row_rules(gc, json_object_get(row, "params"), &rules, gated);
        metrics = json_object_get(row, "metrics");
        for (vi = 1; vi < json_array_size(versions); vi++) {
            const char *ver = json_string_value(json_array_get(versions, vi));
            const char *gate;
            int sep = 0;

            fputs("| ", f);
            escape_md_cell(f, label ? label : "?");
            fputs(" | ", f);
            escape_md_cell(f, ver ? ver : "?");
            fputs(" | ", f);
            for (m = 0; m < METRIC_ALL; m++) {
                json_t *vs;
                const char *v;
                char ch[32];

                /* an optional metric (instructions, server CPU) that no run of the row
                 * measured is not a cell: the channel was off, nothing to gate */
                if (!gated[m] || (m >= METRIC_COUNT && !json_object_get(metrics, metric_name(m))))
                    continue;
                vs = json_object_get(
                    json_object_get(json_object_get(metrics, metric_name(m)), "vs_baseline"), ver);
                v = json_string_value(json_object_get(vs, "verdict"));
                gate_fmt_change(ch, sizeof(ch), json_object_get(metrics, metric_name(m)), vs,
                                summary_num(summary, "rounds", 0));
                fprintf(f, "%s%s %s %s (%g%%)", sep ? "; " : "", metric_title(m), ch, v ? v : "n/a",
                        rules.threshold_pct[m]);
                sep = 1;
            }
            if (!sep)
                fprintf(f, "not gated");
            /* the one row word (outcome.h) the terminal and summary.json state too */
            gate = outcome_row_verdict(row, ver, gated);
            if (strcmp(gate, VERDICT_REGRESSED) == 0)
                gate = "**regressed**";
            fprintf(f, " | %s | %.4f |\n", gate, gate_row_chance(row, ver ? ver : ""));
        }
    }
    if (run_dir)
        fprintf(f, "\nRun directory: `%s`\n", run_dir);
    if (report_md) {
        long used = ftell(f);
        size_t room = max_bytes > (size_t)used + 200 ? max_bytes - (size_t)used - 200 : 0;
        size_t n = strlen(report_md);

        fprintf(f, "\n<details><summary>Full report</summary>\n\n");
        if (n > room) {
            /* cut at a line end so a table row is never half shown */
            while (room > 0 && report_md[room - 1] != '\n')
                room--;
            fwrite(report_md, 1, room, f);
            fprintf(f, "\n(report cut to fit a comment; see the run directory)\n");
        } else {
            fwrite(report_md, 1, n, f);
        }
        fprintf(f, "\n</details>\n");
    }
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}
