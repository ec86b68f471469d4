/* drift.md and drift.html (see drift.h): the outcome, the method in words, the flagged
 * series with their change points, every series folded away, the nights with the ones from
 * another environment marked, and in the HTML an inline SVG trend chart per flagged series.
 * One writer serves both formats: every sentence comes from the string table (i18n.h) in the
 * report's language, every text taken from the history goes through escape.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt.h"
#include "util/exit_codes.h"
#include "analysis/drift.h"
#include "util/escape.h"
#include "report/i18n.h"
#include "analysis/metrics.h"
#include "analysis/outcome.h"

/* The writer: the file, the report and the format. */
struct dw {
    FILE *f;
    const struct drift_report *r;
    int html;
};

static const char *tr(const struct dw *w, enum i18n_msg id)
{
    return i18n(w->r->lang, id);
}

/* The metric's name in prose: its word in English, its title in Chinese. */
static const char *metric_word(const struct dw *w, enum metric m)
{
    const struct metric_def *d = metric_def(m);

    return w->r->lang && strcmp(w->r->lang, "zh") == 0 ? d->title_zh : d->word;
}

/* Text taken from the history (ids, labels, commits): escaped for a table cell. */
static void put_data(const struct dw *w, const char *s)
{
    if (w->html)
        escape_html(w->f, s);
    else
        escape_md_cell(w->f, s);
}

/* Writes string id filled with the const char * arguments that follow, NULL-ended. */
static void say(const struct dw *w, enum i18n_msg id, ...)
{
    va_list ap;

    va_start(ap, id);
    i18n_vput(w->f, w->html, tr(w, id), ap);
    va_end(ap);
}

/* A heading of level 1-3 in the format. */
static void heading(const struct dw *w, int level, enum i18n_msg id)
{
    if (w->html)
        fprintf(w->f, "<h%d>", level);
    else
        fprintf(w->f, "%.*s ", level, "###");
    say(w, id, (const char *)NULL);
    if (w->html)
        fprintf(w->f, "</h%d>\n", level);
    else
        fputs("\n\n", w->f);
}

static void fmt_value(const struct dw *w, char *out, size_t len, enum metric m, double v)
{
    char k[32];

    if (!(v == v)) {
        snprintf(out, len, "n/a");
        return;
    }
    switch (m) {
    case METRIC_THROUGHPUT:
        snprintf(out, len, "%.2f k/s", v / 1000);
        break;
    case METRIC_CPU_EFFICIENCY: {
        char *s;

        snprintf(k, sizeof(k), "%.2f", v / 1000);
        s = i18n_fill(tr(w, D_PER_CORE), k, (const char *)NULL);
        snprintf(out, len, "%s", s ? s : k);
        free(s);
        break;
    }
    case METRIC_P50_US:
    case METRIC_P99_US:
    case METRIC_RSS_MIB:
        snprintf(out, len, "%.1f %s", v, metric_def(m)->unit);
        break;
    default: /* the optional metrics: server CPU µs/op, instructions/op */
        snprintf(out, len, "%.*f %s", fabs(v) >= 1000 ? 0 : 2, v, metric_def(m)->unit);
    }
}

static void fmt_pct(char *out, size_t len, double rel)
{
    fmt_change(rel, out, len);
}

/* Table pieces: a row's start, the space between two cells, a row's end. */
static void row_open(const struct dw *w, const char *attr)
{
    if (w->html)
        fprintf(w->f, "<tr%s><td>", attr ? attr : "");
    else
        fputs("| ", w->f);
}

static void cell_next(const struct dw *w)
{
    fputs(w->html ? "</td><td>" : " | ", w->f);
}

static void row_close(const struct dw *w)
{
    fputs(w->html ? "</td></tr>\n" : " |\n", w->f);
}

static void table_head(const struct dw *w, const enum i18n_msg *cols, size_t n)
{
    size_t i;

    fputs(w->html ? "<tr>" : "|", w->f);
    for (i = 0; i < n; i++) {
        fputs(w->html ? "<th>" : " ", w->f);
        put_data(w, tr(w, cols[i]));
        fputs(w->html ? "</th>" : " |", w->f);
    }
    fputs(w->html ? "</tr>\n" : "\n", w->f);
    if (w->html)
        return;
    fputs("|", w->f);
    for (i = 0; i < n; i++)
        fputs("---|", w->f);
    fputs("\n", w->f);
}

static const enum i18n_msg series_cols[] = {M_COL_CONFIG, M_COL_METRIC, D_COL_NEWEST, D_COL_PREV,
                                            M_COL_CHANGE, D_COL_TREND,  D_COL_CPS,    D_COL_STEP};
#define SERIES_COLS (sizeof(series_cols) / sizeof(series_cols[0]))

static const enum i18n_msg night_cols[] = {D_COL_NUM,    D_COL_NIGHT, D_COL_STARTED,
                                           M_COL_COMMIT, D_COL_ENV,   D_COL_IN};
#define NIGHT_COLS (sizeof(night_cols) / sizeof(night_cols[0]))

/* "History H: N nights, the newest ID (started S, commit C)." */
static void history_sentence(const struct dw *w)
{
    const struct drift_report *r = w->r;
    const struct drift_night *nw = &r->nights[r->n_nights - 1];
    char n[32], *commit = NULL;

    snprintf(n, sizeof(n), "%zu", r->n_nights);
    if (*nw->commit)
        commit = i18n_fill(tr(w, D_COMMIT), nw->commit, (const char *)NULL);
    say(w, D_HISTORY, r->history, n, r->n_nights == 1 ? "" : "s", nw->id, nw->started,
        commit ? commit : "", (const char *)NULL);
    free(commit);
}

static void change_points_text(const struct dw *w, const struct drift_series *s)
{
    size_t k;
    int any = 0;

    for (k = 0; k < s->cp.n_changes; k++) {
        const struct cp_change *c = &s->cp.changes[k];
        char b[64], a[64], pct[32], p[32], night[32];

        if (s->kind[k] == DRIFT_KIND_SMALL)
            continue;
        fmt_value(w, b, sizeof(b), s->metric, c->before);
        fmt_value(w, a, sizeof(a), s->metric, c->after);
        fmt_pct(pct, sizeof(pct), s->step_change[k]);
        snprintf(p, sizeof(p), "%.3f", c->p);
        snprintf(night, sizeof(night), "%zu", s->night[c->index] + 1);
        if (any)
            fputs(w->html ? "<br>" : "; ", w->f);
        say(w, D_CHANGE_POINT, night, w->r->nights[s->night[c->index]].id, b, a, pct,
            tr(w, s->kind[k] == DRIFT_KIND_STEP ? D_STEP : D_SLOW), p, (const char *)NULL);
        any = 1;
    }
    if (!any)
        say(w, M_NONE, (const char *)NULL);
}

static const char *dir_word(const struct dw *w, int dir)
{
    return dir < 0 ? tr(w, D_WORSE) : dir > 0 ? tr(w, D_BETTER) : "";
}

/* The newest night's verdict beside its change: " regressed", " improved", " undecided" or
 * nothing for "~". */
static const char *verdict_word(const struct dw *w, const struct drift_series *s)
{
    const char *v = s->newest_verdict ? s->newest_verdict : "";

    if (!strcmp(v, VERDICT_REGRESSED))
        return tr(w, D_NEWEST_REGRESSED);
    if (!strcmp(v, VERDICT_IMPROVED))
        return tr(w, D_NEWEST_IMPROVED);
    if (!strcmp(v, VERDICT_UNDECIDED) && s->newest_dir)
        return tr(w, D_NEWEST_UNDECIDED);
    return "";
}

static void series_row(const struct dw *w, const struct drift_series *s)
{
    char v[64];

    row_open(w, NULL);
    put_data(w, s->label);
    cell_next(w);
    put_data(w, metric_word(w, s->metric));
    cell_next(w);
    fmt_value(w, v, sizeof(v), s->metric, s->newest);
    put_data(w, v);
    cell_next(w);
    fmt_value(w, v, sizeof(v), s->metric, s->prev_median);
    put_data(w, v);
    cell_next(w);
    fmt_pct(v, sizeof(v), s->change);
    put_data(w, v);
    put_data(w, verdict_word(w, s));
    cell_next(w);
    fmt_pct(v, sizeof(v), s->trend_change);
    put_data(w, v);
    put_data(w, dir_word(w, s->trend_dir));
    cell_next(w);
    change_points_text(w, s);
    cell_next(w);
    say(w,
        !s->regression_step ? M_NO
        : !s->gated         ? D_YES_UNGATED
                            : D_YES_GATED,
        (const char *)NULL);
    row_close(w);
}

/* Whether some series follows metric m (the optional metrics only exist where measured). */
static int has_metric(const struct drift_report *r, enum metric m)
{
    size_t i;

    for (i = 0; i < r->n_series; i++)
        if (r->series[i]->metric == m)
            return 1;
    return 0;
}

/* The method paragraph with the thresholds of the metrics the series follow. */
static void method_text(const struct dw *w)
{
    const struct drift_report *r = w->r;
    char *list = NULL, win[32], pct[32], p99[32];
    size_t n = 0;
    FILE *l = open_memstream(&list, &n);
    int m, first = 1;

    if (!l)
        return;
    for (m = 0; m < METRIC_ALL; m++) {
        if (!metric_gateable((enum metric)m) || (m >= METRIC_COUNT && !has_metric(r, m)))
            continue;
        snprintf(pct, sizeof(pct), "%g", r->rules->threshold_pct[m]);
        if (!first)
            fputs(tr(w, M_LIST_SEP), l);
        i18n_write(l, tr(w, D_THRESHOLD), metric_word(w, (enum metric)m), pct,
                   r->gated[m] ? tr(w, M_GATED) : "", (const char *)NULL);
        first = 0;
    }
    snprintf(win, sizeof(win), "%zu", r->window);
    if (fclose(l) == 0)
        say(w, D_METHOD, win, list, (const char *)NULL);
    free(list);
    for (m = 0; m < (int)r->n_series; m++)
        if (r->series[m]->fixed_rate) {
            snprintf(pct, sizeof(pct), "%g", OUTCOME_RATE_SERVER_CPU_PCT);
            snprintf(p99, sizeof(p99), "%g", OUTCOME_RATE_P99_PCT);
            say(w, D_RATE_RULES, pct, p99, (const char *)NULL);
            break;
        }
}

static size_t count_marked(const struct drift_report *r)
{
    size_t i, k = 0;

    for (i = 0; i < r->n_nights; i++)
        k += r->nights[i].other_env != 0;
    return k;
}

/* The history, the nights of another environment and the outcome, then the method. */
static void preamble(const struct dw *w)
{
    const struct drift_report *r = w->r;
    size_t marked = count_marked(r);
    char n[32];

    fputs(w->html ? "<p>" : "", w->f);
    history_sentence(w);
    if (r->left_out && *r->left_out) {
        snprintf(n, sizeof(n), "%u", r->index_lines);
        fputs(tr(w, M_SENT_SEP), w->f);
        say(w, D_LEFT_OUT, n, r->index_lines == 1 ? "" : "s", r->left_out, (const char *)NULL);
    }
    if (marked) {
        snprintf(n, sizeof(n), "%zu", marked);
        fputs(tr(w, M_SENT_SEP), w->f);
        say(w, D_OTHER_ENV, n, marked == 1 ? "" : "s", (const char *)NULL);
    }
    if (w->html)
        fprintf(w->f, "</p>\n<p%s>", r->code == EXIT_REGRESSION ? " class=\"bad\"" : "");
    else
        fputs("\n\n", w->f);
    if (r->code == EXIT_REGRESSION)
        say(w, D_OUTCOME_BAD, r->reason, (const char *)NULL);
    else if (r->code == EXIT_HARNESS)
        say(w, D_OUTCOME_LEFT_OUT, r->reason, (const char *)NULL);
    else
        say(w, D_OUTCOME_OK, (const char *)NULL);
    fputs(w->html ? "</p>\n<p>" : "\n\n", w->f);
    method_text(w);
    fputs(w->html ? "</p>\n" : "\n\n", w->f);
}

/* Every series folded away, then the nights. */
static void all_series_and_nights(const struct dw *w)
{
    const struct drift_report *r = w->r;
    char n[32];
    size_t i;

    snprintf(n, sizeof(n), "%zu", r->n_series);
    fputs("<details><summary>", w->f);
    say(w, D_ALL_SERIES, n, (const char *)NULL);
    fputs(w->html ? "</summary><table>" : "</summary>\n\n", w->f);
    table_head(w, series_cols, SERIES_COLS);
    for (i = 0; i < r->n_series; i++)
        series_row(w, r->series[i]);
    fputs(w->html ? "</table></details>\n" : "\n</details>\n\n", w->f);
    heading(w, 2, D_H_NIGHTS);
    fputs(w->html ? "<table>" : "", w->f);
    table_head(w, night_cols, NIGHT_COLS);
    for (i = 0; i < r->n_nights; i++) {
        const struct drift_night *nt = &r->nights[i];

        row_open(w, nt->other_env ? " class=\"other\"" : NULL);
        fprintf(w->f, "%zu", i + 1);
        cell_next(w);
        put_data(w, nt->id);
        cell_next(w);
        put_data(w, nt->started);
        cell_next(w);
        put_data(w, *nt->commit ? nt->commit : tr(w, M_UNKNOWN));
        cell_next(w);
        put_data(w, nt->env);
        cell_next(w);
        put_data(w, tr(w, nt->other_env ? D_OTHER_ENV_CELL : M_YES));
        row_close(w);
    }
    if (w->html)
        fputs("</table>\n", w->f);
}

/* One `compare bisect` command for a bad step of s between nights a and b. */
static void bisect_hint(const struct dw *w, const struct drift_series *s, size_t a, size_t b,
                        int *headed)
{
    const struct drift_night *na = &w->r->nights[a], *nb = &w->r->nights[b];
    char cmd[2600], ia[32], ib[32], ca[16], cb[16];
    const char *metric = metric_def(s->metric)->key;

    if (!*na->commit || !*nb->commit || strcmp(na->commit, nb->commit) == 0 ||
        strcmp(na->repo, nb->repo) != 0)
        return;
    if (!*headed) {
        heading(w, 2, D_H_BISECT);
        *headed = 1;
    }
    snprintf(ia, sizeof(ia), "%zu", a + 1);
    snprintf(ib, sizeof(ib), "%zu", b + 1);
    snprintf(ca, sizeof(ca), "%.12s", na->commit);
    snprintf(cb, sizeof(cb), "%.12s", nb->commit);
    snprintf(cmd, sizeof(cmd),
             "compare bisect --repo '%s' --good %s --bad %s --build '%s' --spec '%s' --row %s "
             "--metric %s",
             *nb->repo ? nb->repo : "DIR", na->commit, nb->commit, *nb->build ? nb->build : "CMD",
             *nb->spec ? nb->spec : "FILE", s->config, metric);
    fputs(w->html ? "<p>" : "", w->f);
    say(w, D_BISECT_HINT, s->label, metric_word(w, s->metric), ia, ca, ib, cb, (const char *)NULL);
    fputs(w->html ? "</p>\n<pre><code>" : "\n\n```\n", w->f);
    if (w->html)
        escape_html(w->f, cmd);
    else
        fputs(cmd, w->f);
    fputs(w->html ? "</code></pre>\n" : "\n```\n\n", w->f);
}

/* Each bad step between two nights that name different commits of one repository gets the
 * `compare bisect` command for that range. */
static void bisect_hints(const struct dw *w)
{
    size_t i, k;
    int headed = 0;

    for (i = 0; i < w->r->n_series; i++) {
        const struct drift_series *s = w->r->series[i];

        for (k = 0; k < s->cp.n_changes; k++) {
            size_t at = s->cp.changes[k].index;

            if (s->kind[k] != DRIFT_KIND_STEP || at == 0 ||
                (s->step_change[k] > 0) == (metric_higher_is_better(s->metric) != 0))
                continue;
            bisect_hint(w, s, s->night[at - 1], s->night[at], &headed);
        }
    }
}

int drift_write_md(FILE *f, const struct drift_report *r)
{
    const struct dw w = {f, r, 0};
    size_t i, flagged = 0;

    heading(&w, 1, D_TITLE);
    preamble(&w);
    heading(&w, 2, D_H_FLAGGED);
    for (i = 0; i < r->n_series; i++)
        if (r->series[i]->flagged) {
            if (!flagged++)
                table_head(&w, series_cols, SERIES_COLS);
            series_row(&w, r->series[i]);
        }
    if (!flagged) {
        say(&w, D_NONE_FLAGGED, (const char *)NULL);
        fputs("\n", f);
    }
    fputs("\n", f);
    bisect_hints(&w);
    all_series_and_nights(&w);
    return ferror(f) ? -1 : 0;
}

/* A y-axis label: thousands for the rates, one decimal otherwise. */
static void axis_label(char *out, size_t len, enum metric m, double v)
{
    if (m == METRIC_THROUGHPUT || m == METRIC_CPU_EFFICIENCY)
        snprintf(out, len, "%.2fk", v / 1000);
    else
        snprintf(out, len, "%.1f", v);
}

/* A night's number filled into string id, as SVG text. */
static void say_night(const struct dw *w, enum i18n_msg id, size_t night, const char *extra)
{
    char n[32];

    snprintf(n, sizeof(n), "%zu", night);
    say(w, id, n, extra, (const char *)NULL);
}

/* The chart's frame: the box, the unit and the y-axis labels of [lo, lo + span]. */
static void svg_frame(const struct dw *w, const struct drift_series *s, double lo, double span)
{
    const double wd = 720, h = 220, l = 70, rt = 10, t = 10, b = 30;
    int k;

    fprintf(w->f,
            "<svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
            "aria-label=\"",
            wd, h, wd, h);
    say(w, D_TREND, (const char *)NULL);
    fprintf(w->f,
            "\">\n<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"#fafafa\" "
            "stroke=\"#ccc\"/>\n",
            l, t, wd - l - rt, h - t - b);
    fprintf(w->f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">", l + 4, t + 12);
    escape_html(w->f, metric_def(s->metric)->unit);
    fputs("</text>\n", w->f);
    for (k = 0; k <= 4; k++) {
        double v = lo + span * k / 4;
        char lab[48];

        axis_label(lab, sizeof(lab), s->metric, v);
        fprintf(w->f,
                "<text x=\"%.0f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>\n",
                l - 4, t + (h - t - b) * (1 - (v - lo) / span) + 3, lab);
    }
}

/* A trend chart: every night on the x axis, the series' points, change points as vertical
 * lines (red: step for the worse, grey otherwise). */
static void svg_chart(const struct dw *w, const struct drift_series *s)
{
    const struct drift_report *r = w->r;
    const double wd = 720, h = 220, l = 70, rt = 10, t = 10, b = 30;
    double lo = INFINITY, hi = -INFINITY, span;
    size_t i, k, nn = r->n_nights > 1 ? r->n_nights - 1 : 1;
    FILE *f = w->f;

    for (i = 0; i < s->n; i++) {
        lo = s->values[i] < lo ? s->values[i] : lo;
        hi = s->values[i] > hi ? s->values[i] : hi;
    }
    if (!(hi >= lo))
        return;
    span = hi - lo;
    if (span <= 0)
        span = fabs(hi) > 0 ? fabs(hi) * 0.1 : 1;
    lo -= span * 0.1;
    hi += span * 0.1;
    span = hi - lo;
#define X(night) (l + (wd - l - rt) * (double)(night) / (double)nn)
#define Y(v) (t + (h - t - b) * (1 - ((v)-lo) / span))
    svg_frame(w, s, lo, span);
    for (k = 0; k < s->cp.n_changes; k++) {
        double x;

        if (s->kind[k] == DRIFT_KIND_SMALL)
            continue;
        x = (X(s->night[s->cp.changes[k].index]) + X(s->night[s->cp.changes[k].index - 1])) / 2;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"%s\" "
                "stroke-dasharray=\"4 3\"/>\n",
                x, t, x, h - b,
                s->kind[k] == DRIFT_KIND_STEP &&
                        (s->step_change[k] > 0) != (metric_higher_is_better(s->metric) != 0)
                    ? "#c0392b"
                    : "#888");
    }
    fprintf(f, "<polyline fill=\"none\" stroke=\"#2c6fbb\" stroke-width=\"1.5\" points=\"");
    for (i = 0; i < s->n; i++)
        fprintf(f, "%s%.1f,%.1f", i ? " " : "", X(s->night[i]), Y(s->values[i]));
    fprintf(f, "\"/>\n");
    for (i = 0; i < s->n; i++) {
        char v[48];

        snprintf(v, sizeof(v), "%g", s->values[i]);
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#2c6fbb\"><title>",
                X(s->night[i]), Y(s->values[i]));
        say_night(w, D_NIGHT_VALUE, s->night[i] + 1, v);
        fputs("</title></circle>\n", f);
    }
    for (i = 0; i < r->n_nights; i++)
        if (r->nights[i].other_env) {
            fprintf(f,
                    "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#e0a000\" "
                    "stroke-width=\"6\" opacity=\"0.4\"><title>",
                    X(i), h - b, X(i), h - b + 6);
            say_night(w, D_NIGHT_OTHER, i + 1, NULL);
            fputs("</title></line>\n", f);
        }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">", l, h - 8);
    say_night(w, D_NIGHT_N, 1, NULL);
    fprintf(f, "</text>\n<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"end\">",
            wd - rt, h - 8);
    say_night(w, D_NIGHT_NEWEST, r->n_nights, NULL);
    fputs("</text>\n</svg>\n", f);
#undef X
#undef Y
}

int drift_write_html(FILE *f, const struct drift_report *r)
{
    const struct dw w = {f, r, 1};
    size_t i, flagged = 0;

    fprintf(f, "<!DOCTYPE html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\"><title>",
            r->lang && strcmp(r->lang, "zh") == 0 ? "zh" : "en");
    say(&w, D_TITLE, (const char *)NULL);
    fputs("</title>\n<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;"
          "padding:0 1em;color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:"
          "1px solid #ccc;padding:3px 8px;font-size:13px;text-align:left}th{background:#f0f0f0}"
          ".bad{color:#c0392b;font-weight:bold}.other{background:#fff4d6}</style></head><body>\n",
          f);
    heading(&w, 1, D_TITLE);
    preamble(&w);
    heading(&w, 2, D_H_FLAGGED);
    for (i = 0; i < r->n_series; i++) {
        const struct drift_series *s = r->series[i];

        if (!s->flagged)
            continue;
        flagged++;
        fputs("<h3>", f);
        put_data(&w, s->label);
        fputs(" — ", f);
        put_data(&w, metric_word(&w, s->metric));
        fputs("</h3>\n<table>", f);
        table_head(&w, series_cols, SERIES_COLS);
        series_row(&w, s);
        fputs("</table>\n", f);
        svg_chart(&w, s);
    }
    if (!flagged) {
        fputs("<p>", f);
        say(&w, D_NONE_FLAGGED, (const char *)NULL);
        fputs("</p>\n", f);
    }
    bisect_hints(&w);
    all_series_and_nights(&w);
    fputs("</body></html>\n", f);
    return ferror(f) ? -1 : 0;
}
