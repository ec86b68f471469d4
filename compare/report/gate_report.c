/* gate_report: gate.md, the words of the gate's decision (see gate_report.h). */
#include "report/gate_report.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/exit_codes.h"
#include "analysis/stats.h"
#include "util/escape.h"
#include "util/fmt.h"
#include "util/jobs_util.h"
#include "analysis/outcome.h"
#include "analysis/summary.h"
#include "report/i18n.h"

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
                                     "allocations per operation",
                                     "estimated cycles per operation",
                                     "connections reopened per 1000 operations",
                                     "longest reply gap",
                                     "decay over the window"};
_Static_assert(sizeof(titles) / sizeof(titles[0]) == METRIC_ALL, "a title per metric");

double gate_row_chance(const json_t *row, const char *cand)
{
    (void)cand;
    return ju_num(json_object_get(row, "family"), "chance", 0);
}

/* Writes entry id of the string table in lang, {0}.. filled by the const char * arguments
 * that follow, ending with (const char *)NULL. */
static void say(FILE *f, const char *lang, enum i18n_msg id, ...)
{
    va_list ap;

    va_start(ap, id);
    i18n_vwrite(f, i18n(lang, id), ap);
    va_end(ap);
}

static int is_zh(const char *lang)
{
    return lang && strcmp(lang, "zh") == 0;
}

/* The metric's name in a sentence: "P99 latency" / "P99 延迟". */
static const char *metric_words(int m, const char *lang)
{
    return is_zh(lang) ? metric_def((enum metric)m)->title_zh : titles[m];
}

/* The metric's name in the table: "P99" / "P99 延迟". */
static const char *metric_title(int m, const char *lang)
{
    if (m < 0 || m >= METRIC_ALL)
        return "?";
    return is_zh(lang) ? metric_def((enum metric)m)->title_zh
                       : metric_def((enum metric)m)->short_en;
}

/* v as text into b: with decimals (>= 0), or as %g (decimals < 0). */
static const char *num(char *b, size_t n, int decimals, double v)
{
    if (decimals < 0)
        snprintf(b, n, "%g", v);
    else
        snprintf(b, n, "%.*f", decimals, v);
    return b;
}

/* The relative change rel as fmt_change() writes it (two decimals, a real minus sign), without
 * its "%": the sentences (G_S_*) put the sign after their placeholder. */
static const char *pct(char *b, size_t n, double rel)
{
    size_t l = strlen(fmt_change(rel, b, n));

    if (l && b[l - 1] == '%')
        b[l - 1] = '\0';
    return b;
}

/* One sentence for a finding of row/metric m, or nothing when the verdict is fine. */
static void sentence(FILE *f, const char *lang, const json_t *row, int m, const char *base,
                     const char *cand, const struct verdict_rules *rules, double budget_s,
                     double planned)
{
    const json_t *vs = summary_vs(row, metric_name((enum metric)m), cand);
    const char *v = ju_str(vs, "verdict", NULL), *label = ju_str(row, "label", "?");
    const char *reason = ju_str(vs, "reason", ""), *name = metric_words(m, lang);
    double ch = 0;
    const json_t *ev = json_object_get(vs, "evidence");
    const json_t *bv = summary_values(row, metric_name((enum metric)m), base);
    double thr = rules->threshold_pct[m], n = ju_num(bv, "n", 0);
    double need = ju_num(vs, "runs_needed", 0);
    char more[64], b[8][32];

    if (!v)
        return;
    if (summary_judged_change(
            json_object_get(json_object_get(row, "metrics"), metric_name((enum metric)m)), vs,
            planned, &ch) == 0)
        ch *= 100;
    snprintf(more, sizeof(more), "%.0fm", budget_s > 0 ? fmax(5, ceil(budget_s / 60 * 3)) : 15);
    pct(b[0], sizeof(b[0]), ch / 100);
    pct(b[5], sizeof(b[5]), ju_num(ev, "lo", NAN));
    pct(b[6], sizeof(b[6]), ju_num(ev, "hi", NAN));
    if (strcmp(v, VERDICT_REGRESSED) == 0 && !json_is_number(json_object_get(ev, "p")))
        /* a counted cost (stats_judge's counted rule): no p, its cheapest runs decide */
        say(f, lang, G_S_COUNTED, label, name, b[0], num(b[2], sizeof(b[2]), -1, thr),
            num(b[4], sizeof(b[4]), 0, n), (const char *)NULL);
    else if (strcmp(v, VERDICT_REGRESSED) == 0)
        say(f, lang, ch < 0 ? G_S_FELL : G_S_ROSE, label, name,
            num(b[1], sizeof(b[1]), 1, fabs(ch)), num(b[2], sizeof(b[2]), -1, thr),
            num(b[3], sizeof(b[3]), -1, ju_num(ev, "p", NAN)), num(b[4], sizeof(b[4]), 0, n),
            (const char *)NULL);
    else if (strcmp(v, VERDICT_UNDECIDED) != 0) {
        if (strcmp(v, VERDICT_FAILED) == 0)
            say(f, lang, G_S_FAILED, label, name, (const char *)NULL);
        else
            return;
    } else if (gate_bounded(vs, (enum metric)m, thr))
        say(f, lang, G_S_BOUNDED, label, name, b[0], b[5], b[6], num(b[1], sizeof(b[1]), -1, thr),
            (const char *)NULL);
    else if (strcmp(reason, STATS_REASON_DISTURBED) == 0)
        say(f, lang, G_S_DISTURBED, label, name, b[0], more, (const char *)NULL);
    else if (strcmp(reason, STATS_REASON_NOISE) == 0)
        say(f, lang, G_S_UNSTABLE, label, name, b[0], b[5], b[6], num(b[1], sizeof(b[1]), -1, thr),
            (const char *)NULL);
    else if (n > 1 && !(need > 0))
        say(f, lang, G_S_UNSTABLE, label, name, b[0], b[5], b[6], num(b[1], sizeof(b[1]), -1, thr),
            (const char *)NULL);
    else if (n <= 1)
        say(f, lang, G_S_TOO_FEW_ONE, label, name, b[0], num(b[1], sizeof(b[1]), 0, n),
            (const char *)NULL);
    else
        say(f, lang, G_S_TOO_FEW, label, name, b[0], num(b[1], sizeof(b[1]), 0, n), b[5], b[6],
            num(b[2], sizeof(b[2]), 0, need), more, (const char *)NULL);
    fputc('\n', f);
}

/* The sentences of every row's gated metrics that were decided (regressed or improved) when
 * decided, else of the others. */
static void metric_sentences(FILE *f, const char *lang, const json_t *summary,
                             const struct gate_config *gc, const char *base, int decided)
{
    const json_t *rows = json_object_get(summary, "rows"), *row;
    const json_t *versions = json_object_get(summary, "versions");
    size_t i, vi;
    int m;

    json_array_foreach(rows, i, row)
    {
        struct verdict_rules rules;
        unsigned char gated[METRIC_ALL];

        if (strcmp(ju_str(row, "status", "ok"), "failed") == 0)
            continue;
        gate_row_rules(gc, json_object_get(row, "params"), &rules, gated);
        for (vi = 1; vi < json_array_size(versions); vi++)
            for (m = 0; m < METRIC_ALL; m++) {
                const char *cand = json_string_value(json_array_get(versions, vi));
                const char *v =
                    ju_str(summary_vs(row, metric_name((enum metric)m), cand), "verdict", "");
                int is = strcmp(v, VERDICT_REGRESSED) == 0 || strcmp(v, VERDICT_IMPROVED) == 0;

                if (gated[m] && is == decided)
                    sentence(f, lang, row, m, base ? base : "", cand, &rules, gc->budget_s,
                             ju_num(summary, "rounds", 0));
            }
    }
}

/* The outcome in a sentence, the failed rows, then one sentence per finding. */
static void gate_words(FILE *f, const char *lang, const json_t *summary,
                       const struct gate_config *gc, const struct gate_result *gr)
{
    const json_t *rows = json_object_get(summary, "rows"), *row;
    const json_t *versions = json_object_get(summary, "versions");
    const char *base = json_string_value(json_array_get(versions, 0));
    size_t i;
    char b[32];

    switch (gr->code) {
    case EXIT_OK:
        snprintf(b, sizeof(b), "%u", gr->rows);
        say(f, lang, gr->rows == 1 ? G_PASS_ONE : G_PASS_MANY, b, (const char *)NULL);
        break;
    case EXIT_REGRESSION:
        say(f, lang, G_REGRESSION, (const char *)NULL);
        break;
    case EXIT_HARNESS:
        say(f, lang, G_HARNESS, (const char *)NULL);
        break;
    default:
        say(f, lang, G_INCONCLUSIVE, (const char *)NULL);
        break;
    }
    fputs("\n\n", f);
    json_array_foreach(rows, i, row)
    {
        const char *fault;

        if (strcmp(ju_str(row, "status", "ok"), "failed") != 0)
            continue;
        if (gate_candidate_fault(row, base, &fault))
            say(f, lang, G_CAND_FAULT, ju_str(row, "label", "?"), fault, (const char *)NULL);
        else
            say(f, lang, G_ROW_FAILED, ju_str(row, "label", "?"), (const char *)NULL);
        fputc('\n', f);
    }
    /* what was decided first (a counted verdict included), then what could not be */
    metric_sentences(f, lang, summary, gc, base, 1);
    metric_sentences(f, lang, summary, gc, base, 0);
    if (gr->code != EXIT_OK)
        fputc('\n', f);
}

static enum i18n_msg outcome_words(int code)
{
    switch (code) {
    case EXIT_OK:
        return G_OUT_PASS;
    case EXIT_REGRESSION:
        return G_OUT_REGRESSION;
    case EXIT_HARNESS:
        return G_OUT_HARNESS;
    default:
        return G_OUT_INCONCLUSIVE;
    }
}

/* Judged with --accept-modified: gate.md and the comment say so in their first line. */
static void lead_modified(FILE *f, const json_t *summary)
{
    const json_t *mod = json_object_get(json_object_get(summary, "dataset"), "modified");

    if (json_is_string(mod))
        fprintf(f, "**%s**\n", json_string_value(mod));
}

/* gate --from without --spec: the gate settings came from the run's meta.json, unchecked
 * (summary "gate_from_meta": {"file", "gate"}); said in the first lines, as a modification. */
static void lead_from_meta(FILE *f, const char *lang, const json_t *summary)
{
    const json_t *fm = json_object_get(summary, "gate_from_meta");
    char *shown;

    if (!json_is_string(json_object_get(fm, "file")))
        return;
    shown = json_dumps(json_object_get(fm, "gate"), JSON_COMPACT | JSON_PRESERVE_ORDER);
    say(f, lang, G_FROM_META, json_string_value(json_object_get(fm, "file")), shown ? shown : "?",
        (const char *)NULL);
    fputc('\n', f);
    free(shown);
}

/* The thresholds a fixed-rate row is judged by (outcome.h), said once when the summary has
 * such a row: the global list above holds the closed-loop rows' set. */
static void rate_rules(FILE *f, const char *lang, const json_t *summary,
                       const struct gate_config *gc)
{
    const json_t *row;
    size_t i;

    json_array_foreach(json_object_get(summary, "rows"), i, row)
    {
        struct verdict_rules r;
        unsigned char gated[METRIC_ALL];
        char cpu[32], p99[32];

        if (!outcome_rate_row(json_object_get(row, "params")))
            continue;
        gate_row_rules(gc, json_object_get(row, "params"), &r, gated);
        snprintf(cpu, sizeof(cpu), "%g",
                 gated[METRIC_SERVER_CPU_US] ? r.threshold_pct[METRIC_SERVER_CPU_US] : 0);
        snprintf(p99, sizeof(p99), "%g", gated[METRIC_P99_US] ? r.threshold_pct[METRIC_P99_US] : 0);
        say(f, lang, G_RATE_RULES, cpu, p99, (const char *)NULL);
        return;
    }
}

/* The counts, the reason, the gated metrics and the rule, above the table. */
static void gate_lead(FILE *f, const char *lang, const json_t *summary,
                      const struct gate_config *gc, const struct gate_result *gr)
{
    const char *base = json_string_value(json_object_get(summary, "baseline"));
    char b[7][32];
    int m, first = 1;

    snprintf(b[0], sizeof(b[0]), "%zu", json_array_size(json_object_get(summary, "rows")));
    snprintf(b[1], sizeof(b[1]), "%u", gr->regressed);
    snprintf(b[2], sizeof(b[2]), "%u", gr->improved);
    /* "undecided": every reason (gate_decide counts too few runs apart) */
    snprintf(b[3], sizeof(b[3]), "%u", gr->unstable + gr->too_few);
    snprintf(b[4], sizeof(b[4]), "%u", gr->failed);
    snprintf(b[5], sizeof(b[5]), "%u", gr->incomplete);
    say(f, lang, G_COUNTS, base ? base : "?", b[0], b[1], b[2], b[3], b[4], b[5],
        (const char *)NULL);
    if (*gr->reason)
        say(f, lang, G_REASON, gr->reason, (const char *)NULL);
    fputs("\n\n", f);
    say(f, lang, G_GATED, (const char *)NULL);
    for (m = 0; m < METRIC_ALL; m++)
        if (gc->gated[m]) {
            fprintf(f, "%s%s %g%%", first ? "" : i18n(lang, M_LIST_SEP), metric_title(m, lang),
                    gc->rules.threshold_pct[m]);
            first = 0;
        }
    if (first)
        say(f, lang, G_NONE_GLOBALLY, (const char *)NULL);
    if (gc->n_rows)
        say(f, lang, gc->n_rows == 1 ? G_PER_ROW_ONE : G_PER_ROW_MANY,
            num(b[6], sizeof(b[6]), 0, (double)gc->n_rows), (const char *)NULL);
    say(f, lang, G_RULE, num(b[6], sizeof(b[6]), -1, gc->rules.noise_limit_pct),
        (const char *)NULL);
    rate_rules(f, lang, summary, gc);
    fputs("\n\n", f);
    say(f, lang, G_TABLE_HEAD, (const char *)NULL);
    fputs("\n|---|---|---|---|---:|\n", f);
}

/* The table's line for row and candidate ver. */
static void gate_line(FILE *f, const char *lang, const json_t *summary,
                      const struct gate_config *gc, const json_t *row, const char *ver)
{
    struct verdict_rules rules;
    unsigned char gated[METRIC_ALL];
    const char *label = json_string_value(json_object_get(row, "label"));
    const json_t *metrics = json_object_get(row, "metrics");
    const char *gate;
    int m, sep = 0;

    gate_row_rules(gc, json_object_get(row, "params"), &rules, gated);
    fputs("| ", f);
    escape_md_cell(f, label ? label : "?");
    fputs(" | ", f);
    escape_md_cell(f, ver ? ver : "?");
    fputs(" | ", f);
    for (m = 0; m < METRIC_ALL; m++) {
        json_t *vs;
        const char *v;
        char ch[32];

        /* an optional metric (instructions, server CPU) that no run of the row measured is
         * not a cell: the channel was off, nothing to gate */
        if (!gated[m] || (m >= METRIC_COUNT && !json_object_get(metrics, metric_name(m))))
            continue;
        vs = json_object_get(
            json_object_get(json_object_get(metrics, metric_name(m)), "vs_baseline"), ver);
        v = json_string_value(json_object_get(vs, "verdict"));
        gate_fmt_change(ch, sizeof(ch), json_object_get(metrics, metric_name(m)), vs,
                        ju_num(summary, "rounds", 0));
        fprintf(f, "%s%s %s %s (%g%%)", sep ? "; " : "", metric_title(m, lang), ch, v ? v : "n/a",
                rules.threshold_pct[m]);
        sep = 1;
    }
    if (!sep)
        say(f, lang, G_NOT_GATED, (const char *)NULL);
    /* the one row word (outcome.h) the terminal and summary.json state too */
    gate = outcome_row_verdict(row, ver, gated);
    if (strcmp(gate, VERDICT_REGRESSED) == 0)
        gate = "**regressed**";
    fprintf(f, " | %s | %.4f |\n", gate, gate_row_chance(row, ver ? ver : ""));
}

/* report_md folded in <details>, cut at a line end to keep the whole under max_bytes. */
static void gate_fold(FILE *f, const char *lang, const char *report_md, size_t max_bytes)
{
    long used = ftell(f);
    size_t room = max_bytes > (size_t)used + 200 ? max_bytes - (size_t)used - 200 : 0;
    size_t n = strlen(report_md);

    fputs("\n<details><summary>", f);
    say(f, lang, G_FULL_REPORT, (const char *)NULL);
    fputs("</summary>\n\n", f);
    if (n > room) {
        /* cut at a line end so a table row is never half shown */
        while (room > 0 && report_md[room - 1] != '\n')
            room--;
        fwrite(report_md, 1, room, f);
        fputc('\n', f);
        say(f, lang, G_REPORT_CUT, (const char *)NULL);
        fputc('\n', f);
    } else {
        fwrite(report_md, 1, n, f);
    }
    fputs("\n</details>\n", f);
}

char *gate_markdown(const json_t *summary, const struct gate_config *gc,
                    const struct gate_result *gr, const char *report_md, const char *run_dir,
                    size_t max_bytes, const char *lang)
{
    char *out = NULL;
    size_t len = 0, i, vi;
    FILE *f = open_memstream(&out, &len);
    const json_t *rows = json_object_get(summary, "rows"), *row;
    const json_t *versions = json_object_get(summary, "versions");

    if (!f)
        return NULL;
    lead_modified(f, summary);
    lead_from_meta(f, lang, summary);
    fprintf(f, "%s\n", GATE_MARKER);
    say(f, lang, G_HEAD, i18n(lang, outcome_words(gr->code)), (const char *)NULL);
    fputs("\n\n", f);
    gate_words(f, lang, summary, gc, gr);
    gate_lead(f, lang, summary, gc, gr);
    json_array_foreach(rows, i, row)
    {
        for (vi = 1; vi < json_array_size(versions); vi++)
            gate_line(f, lang, summary, gc, row, json_string_value(json_array_get(versions, vi)));
    }
    if (run_dir) {
        fputc('\n', f);
        say(f, lang, G_RUN_DIR, run_dir, (const char *)NULL);
        fputc('\n', f);
    }
    if (report_md)
        gate_fold(f, lang, report_md, max_bytes);
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}
