/* report_html_summary: the opening sections of report.html in words — the summary (the rows
 * that changed beyond their threshold with strong evidence, each with its throughput and P99
 * change; whether the throughput ranges overlap; that the cause is not confirmed; for one
 * version the highest throughput and lowest P99), the completeness (rows, runs, driver
 * errors, failed runs) and what weakens the measurement. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/jobs_util.h"
#include "report/confirm_words.h"
#include "report/i18n.h"
#include "report/report_html_int.h"
#include "report/report_html_svg.h"
#include "report/sentences.h"
#include "analysis/stats.h"

/* The metrics of row decided regressed or improved for version v (a counted metric such as
 * instructions included), first: "instructions regressed (+6.0%); ". */
static void decided_metrics(const struct html_ctx *c, const json_t *row, size_t v)
{
    int k;
    double ch;
    char b[32], span[128];

    for (k = 0; k < METRIC_ALL; k++) {
        const char *name = metric_name((enum metric)k);
        const json_t *vs = html_vs(row, name, c->versions[v]);
        const char *verdict = ju_str(vs, "verdict", NULL);

        if (!metric_gateable((enum metric)k) || !verdict ||
            (strcmp(verdict, VERDICT_REGRESSED) != 0 && strcmp(verdict, VERDICT_IMPROVED) != 0))
            continue;
        snprintf(span, sizeof(span), "<span class=\"%s\">%s</span>", html_verdict_class(verdict),
                 verdict);
        /* the metric's words, as report.md says them ("P50 latency", not the key "p50_us") */
        html_say(c, H_SUM_DECIDED, HT(c, i18n_metric_msg(k)), span,
                 html_fmt_change(ju_get_num(vs, "change", &ch) == 0 ? ch : NAN, b, sizeof(b)),
                 (const char *)NULL);
    }
}

/* The row with a notable verdict, in words. */
static void notable_sentence(const struct html_ctx *c, const json_t *row, size_t v)
{
    const json_t *tv = html_vs(row, "throughput", c->versions[v]);
    const json_t *pv = html_vs(row, "p99_us", c->versions[v]);
    double ch;
    char b1[32], b2[32], s1[128], s2[128];

    fputs("<li><b>", c->f);
    html_esc(c, ju_str(row, "label", NULL));
    fputs("</b>", c->f);
    if (c->nv > 2) {
        fputs(HT(c, H_PAREN_OPEN), c->f);
        html_esc(c, c->versions[v]);
        fputs(HT(c, H_PAREN_CLOSE), c->f);
    }
    fputs(HT(c, H_SUM_COLON), c->f);
    decided_metrics(c, row, v);
    html_say(c, H_SUM_TPUT_P99,
             html_fmt_change(ju_get_num(tv, "change", &ch) == 0 ? ch : NAN, b1, sizeof(b1)),
             html_fmt_change(ju_get_num(pv, "change", &ch) == 0 ? ch : NAN, b2, sizeof(b2)),
             (const char *)NULL);
    snprintf(s1, sizeof(s1), "<span class=\"%s\">%s</span>",
             html_verdict_class(ju_str(tv, "verdict", NULL)),
             ju_str(tv, "verdict", NULL) ? ju_str(tv, "verdict", NULL) : "n/a");
    snprintf(s2, sizeof(s2), "<span class=\"%s\">%s</span>",
             html_verdict_class(ju_str(pv, "verdict", NULL)),
             ju_str(pv, "verdict", NULL) ? ju_str(pv, "verdict", NULL) : "n/a");
    html_say(c, H_SUM_VERDICTS, s1, s2, (const char *)NULL);
    fputs("</li>\n", c->f);
}

/* A sentence of sentences.h as text, then freed. */
static void put_sentence(const struct html_ctx *c, char *s)
{
    html_text(c, s ? s : "");
    free(s);
}

/* Candidate v's rows that stand out (the model's list, as report.md counts them), or its
 * largest throughput change when none does. */
static void notable_for(const struct html_ctx *c, size_t v)
{
    const struct model_candidate *mc = &c->model->cand[v];
    size_t k;
    double ch;
    char b1[32];

    if (mc->n_notable > 0) {
        fputs("<p>", c->f);
        put_sentence(c, sent_notable_intro(c->model, v, c->zh ? "zh" : "en"));
        fputs("</p>\n<ul>\n", c->f);
        /* as many as report.md names (a 96-row page that named 12 put its table at 1127 px) */
        for (k = 0; k < mc->n_notable && k < MODEL_LIST_MAX; k++)
            notable_sentence(c, json_array_get(c->rows, mc->notable[k]), v);
        if (mc->n_notable > k) {
            snprintf(b1, sizeof(b1), "%zu", mc->n_notable - k);
            fputs("<li>", c->f);
            html_say(c, H_SUM_MORE_ROWS, b1, (const char *)NULL);
            fputs("</li>\n", c->f);
        }
        fputs("</ul>\n", c->f);
        return;
    }
    fputs("<p>", c->f);
    fputs(HT(c, H_SUM_NO_CONFIGURATION_OF), c->f);
    html_esc(c, c->versions[v]);
    fputs(HT(c, H_SUM_CHANGED_BEYOND_ITS_THRESHOLD), c->f);
    if (mc->n_changed > 0) {
        const json_t *best_row = json_array_get(c->rows, mc->by_change[0]);

        ju_get_num(html_vs(best_row, "throughput", c->versions[v]), "change", &ch);
        fputs(HT(c, H_SUM_THE_LARGEST_THROUGHPUT_CHANGE), c->f);
        html_esc(c, c->versions[v]);
        html_say(c, H_SUM_IS_ON, html_fmt_change(ch, b1, sizeof(b1)), (const char *)NULL);
        html_esc(c, ju_str(best_row, "label", NULL));
        fputs(HT(c, M_PERIOD), c->f);
    }
    fputs("</p>\n", c->f);
}

void html_summary_multi(const struct html_ctx *c)
{
    size_t r, v, disjoint, nn;
    const json_t *row;
    char nd[32], nk[32];

    for (v = 1; v < c->nv; v++)
        notable_for(c, v);

    /* overlap of the throughput ranges, per candidate */
    for (v = 1; v < c->nv; v++) {
        const json_t *o;

        disjoint = c->model->cand[v].n_disjoint;
        nn = c->model->cand[v].n_overlap_known;
        fputs("<p>", c->f);
        fputs(HT(c, H_SUM_THE_THROUGHPUT_RANGES_MIN), c->f);
        if (strcmp(c->versions[0], "baseline") != 0) {
            fputs(HT(c, H_PAREN_OPEN), c->f);
            html_esc(c, c->versions[0]);
            fputs(HT(c, H_PAREN_CLOSE), c->f);
        }
        fputs(HT(c, H_SUM_AND), c->f);
        html_esc(c, c->versions[v]);
        snprintf(nd, sizeof(nd), "%zu", disjoint);
        snprintf(nk, sizeof(nk), "%zu", nn);
        if (!disjoint)
            html_say(c, H_SUM_OVERLAP_ALL, nk, (const char *)NULL);
        else
            html_say(c, H_SUM_OVERLAP_SOME, nd, nk, (const char *)NULL);
        if (disjoint) {
            size_t k = 0;
            for (r = 0; r < c->nrows; r++) {
                row = json_array_get(c->rows, r);
                o = json_object_get(html_vs(row, "throughput", c->versions[v]), "overlap");
                if (!json_is_false(o))
                    continue;
                if (k == 8) {
                    fputs(HT(c, H_SUM_ETC), c->f);
                    break;
                }
                if (k++)
                    fputs(HT(c, H_SUM_SEMICOLON), c->f);
                html_esc(c, ju_str(row, "label", NULL));
            }
            fputs(HT(c, M_PERIOD), c->f);
        }
        fputs("</p>\n", c->f);
    }
    fputs("<p>", c->f);
    html_say(c, H_SUM_RANGES_NOTE, (const char *)NULL);
    fputs("</p>\n", c->f);
}

void html_summary_single(const struct html_ctx *c)
{
    const struct report_model *m = c->model;
    const json_t *best_t = m->best_throughput_row >= 0
                               ? json_array_get(c->rows, (size_t)m->best_throughput_row)
                               : NULL;
    const json_t *best_p =
        m->lowest_p99_row >= 0 ? json_array_get(c->rows, (size_t)m->lowest_p99_row) : NULL;
    double bt = m->best_throughput, bp = m->lowest_p99;
    char b1[32];

    fputs("<p>", c->f);
    html_say(c, H_SUM_ONE_VERSION, (const char *)NULL);
    fputs("<b>", c->f);
    html_esc(c, c->versions[0]);
    fputs("</b>", c->f);
    snprintf(b1, sizeof(b1), "%zu", c->nrows);
    html_say(c, H_SUM_MEASURED_IN, b1, (const char *)NULL);
    if (best_t) {
        const char *unit = ju_str(best_t, "unit", NULL);

        /* the driver's unit ("commands/s", "round trips/s") says what was counted */
        html_say(c, H_SUM_HIGHEST, (const char *)NULL);
        svg_format_value(bt, b1, sizeof(b1));
        if (unit && !c->zh) { /* the unit is the data's: escaped like every other value */
            fprintf(c->f, "%s ", b1);
            html_esc(c, unit);
        } else if (unit && strcmp(unit, "commands/s") == 0)
            fprintf(c->f, "%s %s", b1, HT(c, H_UNIT_COMMANDS));
        else if (unit && strcmp(unit, "round trips/s") == 0)
            fprintf(c->f, "%s %s", b1, HT(c, H_UNIT_TRIPS));
        else
            html_say(c, H_SUM_PER_S, b1, (const char *)NULL);
        html_say(c, H_SUM_ON, (const char *)NULL);
        html_esc(c, ju_str(best_t, "label", NULL));
        fputs(HT(c, M_PERIOD), c->f);
    }
    if (best_p) {
        html_say(c, H_SUM_LOWEST_P99, svg_format_value(bp, b1, sizeof(b1)), (const char *)NULL);
        html_esc(c, ju_str(best_p, "label", NULL));
        fputs(HT(c, M_PERIOD), c->f);
    }
    fputs("</p>\n", c->f);
}

/* Everything that weakens the measurement: the model's list, in report.md's words. */
static void weaknesses(const struct html_ctx *c)
{
    const struct report_model *m = c->model;
    const char *lang = c->zh ? "zh" : "en";
    size_t i;

    fprintf(c->f, "<h3>%s</h3>\n<ul class=\"weak\">\n", i18n(lang, M_WEAKNESSES));
    for (i = 0; i < m->n_weak; i++) {
        int bold = m->weak[i].kind == WEAK_HASH;

        fputs(bold ? "<li class=\"warn\"><b>" : "<li class=\"warn\">", c->f);
        put_sentence(c, sent_weakness(m, &m->weak[i], lang));
        fputs(bold ? "</b></li>\n" : "</li>\n", c->f);
    }
    if (m->n_weak == 0) {
        fputs("<li>", c->f);
        put_sentence(c, sent_weakness(m, NULL, lang));
        fputs("</li>\n", c->f);
    }
    fputs("</ul>\n", c->f);
}

/* The rows of meta.json "confirmation" that got extra rounds, in report.md's words
 * (M_CONFIRM_ROW, the label in bold), joined by the list separator; a new string or NULL. */
static char *confirm_rows(const struct html_ctx *c, const json_t *rows)
{
    const char *lang = c->zh ? "zh" : "en", *id;
    const json_t *n;
    char *list = NULL;
    size_t len = 0, r;
    FILE *f = open_memstream(&list, &len);

    if (!f)
        return NULL;
    json_object_foreach((json_t *)rows, id, n)
    {
        const char *label = id;
        const json_t *found = NULL;
        char k[32], p[256] = "", *bold, *one_row;
        size_t v, used = 0;

        for (r = 0; r < c->nrows; r++) {
            const json_t *row = json_array_get(c->rows, r);
            if (ju_str(row, "config", NULL) && strcmp(ju_str(row, "config", NULL), id) == 0) {
                found = row;
                if (ju_str(row, "label", NULL))
                    label = ju_str(row, "label", NULL);
            }
        }
        /* what its verdict used, per candidate: the paired change [interval] and p */
        for (v = 1; v < c->nv && used < sizeof(p); v++) {
            char one[96];

            confirm_paired_text(found ? html_vs(found, "throughput", c->versions[v]) : NULL, one,
                                sizeof(one));
            used += (size_t)snprintf(p + used, sizeof(p) - used, "%s%s", v > 1 ? " / " : "", one);
        }
        snprintf(k, sizeof(k), "%lld", (long long)json_integer_value(n));
        bold = i18n_fill("**{0}**", label, (const char *)NULL);
        one_row =
            i18n_fill(i18n(lang, M_CONFIRM_ROW), bold ? bold : label, k, p, (const char *)NULL);
        if (ftell(f) > 0)
            fputs(i18n(lang, M_LIST_SEP), f);
        fputs(one_row ? one_row : "", f);
        free(one_row);
        free(bold);
    }
    if (fclose(f) != 0) {
        free(list);
        return NULL;
    }
    return list;
}

/* meta.json "confirmation" (confirm.c): the cap fixed before the run, the rows that got extra
 * rounds, in report.md's sentences, and the rule. Nothing when confirmation was off. */
static void confirmation(const struct html_ctx *c)
{
    const json_t *cf = json_object_get(c->meta, "confirmation"), *rows;
    const char *lang = c->zh ? "zh" : "en", *rule;
    char cap[32], *s, *list = NULL;
    double x = 0;

    if (!json_is_object(cf))
        return;
    ju_get_num(cf, "max_extra_rounds", &x);
    snprintf(cap, sizeof(cap), "%.0f", x);
    rows = json_object_get(cf, "rows");
    rule = ju_str(cf, "rule", NULL);
    fputs("<li class=\"confirm\">", c->f);
    if (json_object_size(rows) == 0)
        s = i18n_fill(i18n(lang, M_CONFIRM_NONE), cap, (const char *)NULL);
    else {
        list = confirm_rows(c, rows);
        s = i18n_fill(i18n(lang, M_CONFIRM_ROWS), cap, list ? list : "", (const char *)NULL);
    }
    escape_html_md(c->f, s ? s : "");
    free(s);
    free(list);
    if (rule) {
        /* the rule as meta.json records it, in the page's language when it is this build's */
        s = i18n_fill(i18n(lang, M_CONFIRM_RULE),
                      strcmp(rule, confirm_rule) == 0 ? i18n(lang, M_CONFIRM_RULE_TEXT) : rule,
                      (const char *)NULL);
        html_esc(c, s ? s : "");
        free(s);
    }
    fputs("</li>\n", c->f);
}

void html_completeness(const struct html_ctx *c)
{
    const struct report_model *m = c->model;
    const char *lang = c->zh ? "zh" : "en";
    size_t r, i;
    const json_t *row, *f;
    double x;

    fprintf(c->f, "<section id=\"completeness\">\n<h2>%s</h2>\n<ul>\n<li>",
            HT(c, M_H_COMPLETENESS));
    put_sentence(c, sent_completeness(m, lang));
    if (m->n_undecided > 0) {
        fputs(i18n(lang, M_SENT_SEP), c->f);
        put_sentence(c, sent_undecided(m, lang));
    }
    if (m->runs_replaced > 0) {
        char n[32];

        snprintf(n, sizeof(n), "%lld", m->runs_replaced);
        fputs(i18n(lang, M_SENT_SEP), c->f);
        put_sentence(c, i18n_fill(i18n(lang, M_REPLACED), n, (const char *)NULL));
    }
    fputs("</li>\n", c->f);
    confirmation(c);
    fputs("<li>", c->f);
    put_sentence(c, sent_driver_errors(m, lang));
    fputs("</li>\n", c->f);
    if (m->n_reopened_rows > 0) {
        fputs("<li>", c->f);
        put_sentence(c, sent_reopened(m, lang));
        fputs("</li>\n", c->f);
    }
    for (r = 0; r < c->nrows; r++) {
        row = json_array_get(c->rows, r);
        json_array_foreach(json_object_get(row, "failures"), i, f)
        {
            fputs("<li>", c->f);
            html_say(c, H_SUM_FAILED_RUN, (const char *)NULL);
            html_esc(c, ju_str(row, "label", NULL));
            fputs(" \xc2\xb7 ", c->f);
            html_esc(c, ju_str(f, "version", NULL));
            if (ju_get_num(f, "round", &x) == 0) {
                char rb[32];

                snprintf(rb, sizeof(rb), "%.0f", x);
                html_say(c, H_SUM_ROUND, rb, (const char *)NULL);
            }
            fputs(HT(c, H_SUM_COLON), c->f);
            html_esc(c, ju_str(f, "reason", NULL) ? ju_str(f, "reason", NULL) : "?");
            fputs("</li>\n", c->f);
        }
    }
    fputs("</ul>\n", c->f);
    weaknesses(c);
    fputs("</section>\n", c->f);
}
