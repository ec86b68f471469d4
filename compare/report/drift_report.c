/* drift.md and drift.html (see drift.h): the outcome, the method in words, the flagged
 * series with their change points, every series folded away, the nights with the ones from
 * another environment marked, and in the HTML an inline SVG trend chart per flagged series. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "metrics.h"
#include "drift.h"

static const char *metric_word(enum metric m)
{
    return metric_def(m)->word;
}

static void fmt_value(char *out, size_t len, enum metric m, double v)
{
    if (!(v == v)) {
        snprintf(out, len, "n/a");
        return;
    }
    switch (m) {
    case METRIC_THROUGHPUT:
        snprintf(out, len, "%.2f k/s", v / 1000);
        break;
    case METRIC_CPU_EFFICIENCY:
        snprintf(out, len, "%.2f k/s per core", v / 1000);
        break;
    case METRIC_P50_US:
    case METRIC_P99_US:
        snprintf(out, len, "%.1f µs", v);
        break;
    case METRIC_RSS_MIB:
        snprintf(out, len, "%.1f MiB", v);
        break;
    default:
        snprintf(out, len, "%.2f", v);
    }
}

static void fmt_pct(char *out, size_t len, double rel)
{
    double d = rel * 100;

    if (!(d == d)) {
        snprintf(out, len, "n/a");
        return;
    }
    if (fabs(d) < 0.005)
        d = 0;
    snprintf(out, len, "%s%.2f%%", d < 0 ? "\xe2\x88\x92" : "+", fabs(d));
}

static void put_escaped(FILE *f, const char *s, int html)
{
    for (; *s; s++) {
        if (html && *s == '<')
            fputs("&lt;", f);
        else if (html && *s == '>')
            fputs("&gt;", f);
        else if (html && *s == '&')
            fputs("&amp;", f);
        else if (*s == '|' && !html)
            fputs("\\|", f);
        else
            fputc(*s, f);
    }
}

/* s as HTML text (escaped) or as it is, for Markdown prose outside a table */
static void put_text(FILE *f, const char *s, int html)
{
    if (html)
        put_escaped(f, s, 1);
    else
        fputs(s, f);
}

/* "History H: N nights, the newest ID (started S, commit C)." H, ID, S and C come from the
 * command line and the history's index, so HTML gets them escaped. */
static void history_sentence(FILE *f, const struct drift_report *r, int html)
{
    const struct drift_night *nw = &r->nights[r->n_nights - 1];
    const char *open = html ? "<code>" : "`", *close = html ? "</code>" : "`";

    fprintf(f, "History %s", open);
    put_text(f, r->history, html);
    fprintf(f, "%s: %zu night%s, the newest %s", close, r->n_nights, r->n_nights == 1 ? "" : "s",
            open);
    put_text(f, nw->id, html);
    fprintf(f, "%s (started ", close);
    put_text(f, nw->started, html);
    if (*nw->commit) {
        fputs(", commit ", f);
        put_text(f, nw->commit, html);
    }
    fputs(").", f);
}

/* A night's id, start, commit and environment as table cells, escaped: they come from the
 * history's index, which a person may have edited. */
static void night_cells(FILE *f, const struct drift_night *n, int html)
{
    const char *sep = html ? "</td><td>" : " | ";

    put_escaped(f, n->id, html);
    fputs(sep, f);
    put_escaped(f, n->started, html);
    fputs(sep, f);
    put_escaped(f, *n->commit ? n->commit : "unknown", html);
    fputs(sep, f);
    put_escaped(f, n->env, html);
}

static void change_points_text(FILE *f, const struct drift_report *r, const struct drift_series *s,
                               int html)
{
    size_t k;
    int any = 0;

    for (k = 0; k < s->cp.n_changes; k++) {
        const struct cp_change *c = &s->cp.changes[k];
        char b[48], a[48], p[32];

        if (s->kind[k] == DRIFT_KIND_SMALL)
            continue;
        fmt_value(b, sizeof(b), s->metric, c->before);
        fmt_value(a, sizeof(a), s->metric, c->after);
        fmt_pct(p, sizeof(p), s->step_change[k]);
        fprintf(f, "%snight %zu (", any ? (html ? "<br>" : "; ") : "", s->night[c->index] + 1);
        put_escaped(f, r->nights[s->night[c->index]].id, html);
        fprintf(f, "): %s → %s (%s, %s, p = %.3f)", b, a, p,
                s->kind[k] == DRIFT_KIND_STEP ? "step" : "slow drift", c->p);
        any = 1;
    }
    if (!any)
        fputs("none", f);
}

static void series_row(FILE *f, const struct drift_report *r, const struct drift_series *s,
                       int html)
{
    char nv[48], pm[48], ch[32], tr[32];

    fmt_value(nv, sizeof(nv), s->metric, s->newest);
    fmt_value(pm, sizeof(pm), s->metric, s->prev_median);
    fmt_pct(ch, sizeof(ch), s->change);
    fmt_pct(tr, sizeof(tr), s->trend_change);
    fputs(html ? "<tr><td>" : "| ", f);
    put_escaped(f, s->label, html);
    fprintf(f,
            html ? "</td><td>%s</td><td>%s</td><td>%s</td><td>%s%s</td><td>%s%s</td><td>"
                 : " | %s | %s | %s | %s%s | %s%s | ",
            metric_word(s->metric), nv, pm, ch,
            s->newest_dir < 0   ? " worse"
            : s->newest_dir > 0 ? " better"
                                : "",
            tr,
            s->trend_dir < 0   ? " worse"
            : s->trend_dir > 0 ? " better"
                               : "");
    change_points_text(f, r, s, html);
    fprintf(f, html ? "</td><td>%s</td></tr>\n" : " | %s |\n",
            !s->regression_step    ? "no"
            : !r->gated[s->metric] ? "yes (not gated)"
            : html                 ? "<b>yes</b>"
                                   : "**yes**");
}

static const char *const table_head_md =
    "| Configuration | Metric | Newest | Median of previous nights | Change | Trend | Change "
    "points | Regression step |\n|---|---|---|---|---|---|---|---|\n";

static void method_text(FILE *f, const struct drift_report *r)
{
    int m, first = 1;

    fprintf(
        f,
        "Method: for each configuration and metric, the series is the baseline version's "
        "median per night. The newest night is compared with the median of the previous "
        "%zu nights; Trend compares the median of the last %zu nights with the median of the %zu "
        "before them (a slow drift shows there before any single night does). Change "
        "points are found with E-divisive means (Matteson & James, "
        "2014: energy distance with exponent 1, hierarchical bisection) and a permutation "
        "test (199 permutations, significance 0.05, at least 3 nights per segment), the "
        "method used on CI performance data. A change point is reported when the medians "
        "of the segments on its two sides differ by at least the metric's threshold, and "
        "is called a step or part of a slow drift by fitting a straight line plus a jump "
        "to the nights around it (a step when the jump's |t| exceeds 4). A regression "
        "step: the last reported change is a step in the bad direction, it happened within "
        "the last %zu nights, and the newest night is still worse than the nights before "
        "it by the threshold. A single bad night is shown in the Change column but is not "
        "a step until the detector sees a segment of 3 nights. Thresholds: ",
        r->window, r->window, r->window, r->window);
    for (m = 0; m < METRIC_COUNT; m++) {
        if (m == METRIC_CPU_PERCENT)
            continue;
        fprintf(f, "%s%s %g%%%s", first ? "" : ", ", metric_word((enum metric)m),
                r->rules->threshold_pct[m], r->gated[m] ? " (gated)" : "");
        first = 0;
    }
    fprintf(f, ". Only gated metrics decide the exit code.");
}

static size_t count_marked(const struct drift_report *r)
{
    size_t i, k = 0;

    for (i = 0; i < r->n_nights; i++)
        k += r->nights[i].other_env != 0;
    return k;
}

int drift_write_md(FILE *f, const struct drift_report *r)
{
    size_t i, flagged = 0, marked = count_marked(r);

    fprintf(f, "# pairbench drift report\n\n");
    history_sentence(f, r, 0);
    if (marked)
        fprintf(f,
                " %zu night%s ran in another environment (machine, CPU, kernel or compiler) "
                "than the newest: marked below and left out of the series, not mixed in.",
                marked, marked == 1 ? "" : "s");
    fprintf(f, "\n\n**Outcome:** %s%s%s\n\n",
            r->code == EXIT_REGRESSION ? "regression step on the newest night in "
                                       : "no regression step on the newest night",
            r->code == EXIT_REGRESSION ? r->reason : "",
            r->code == EXIT_REGRESSION ? " (exit 1)." : " (exit 0).");
    method_text(f, r);
    fprintf(f, "\n\n## Flagged series\n\n");
    for (i = 0; i < r->n_series; i++)
        if (r->series[i]->flagged) {
            if (!flagged++)
                fputs(table_head_md, f);
            series_row(f, r, r->series[i], 0);
        }
    if (!flagged)
        fprintf(f, "No series changed by its threshold.\n");
    fprintf(f, "\n<details><summary>All series (%zu)</summary>\n\n%s", r->n_series, table_head_md);
    for (i = 0; i < r->n_series; i++)
        series_row(f, r, r->series[i], 0);
    fprintf(f, "\n</details>\n\n## Nights\n\n| # | Night | Started | Commit | Environment | "
               "In the series |\n|---|---|---|---|---|---|\n");
    for (i = 0; i < r->n_nights; i++) {
        fprintf(f, "| %zu | ", i + 1);
        night_cells(f, &r->nights[i], 0);
        fprintf(f, " | %s |\n", r->nights[i].other_env ? "no: other environment" : "yes");
    }
    return ferror(f) ? -1 : 0;
}

/* A trend chart: every night on the x axis, the series' points, change points as vertical
 * lines (red: step for the worse, grey otherwise). */
static void svg_chart(FILE *f, const struct drift_report *r, const struct drift_series *s)
{
    const double w = 720, h = 220, l = 70, rt = 10, t = 10, b = 30;
    double lo = INFINITY, hi = -INFINITY, span;
    size_t i, k, nn = r->n_nights > 1 ? r->n_nights - 1 : 1;

    for (i = 0; i < s->n; i++) {
        if (s->values[i] < lo)
            lo = s->values[i];
        if (s->values[i] > hi)
            hi = s->values[i];
    }
    if (!(hi >= lo))
        return;
    span = hi - lo;
    if (span <= 0)
        span = fabs(hi) > 0 ? fabs(hi) * 0.1 : 1;
    lo -= span * 0.1;
    hi += span * 0.1;
    span = hi - lo;
#define X(night) (l + (w - l - rt) * (double)(night) / (double)nn)
#define Y(v) (t + (h - t - b) * (1 - ((v)-lo) / span))
    fprintf(f,
            "<svg width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"trend\">\n",
            w, h, w, h);
    fprintf(f,
            "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"#fafafa\" "
            "stroke=\"#ccc\"/>\n",
            l, t, w - l - rt, h - t - b);
    {
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">%s</text>\n", l + 4, t + 12,
                metric_def(s->metric)->unit);
    }
    for (k = 0; k <= 4; k++) {
        double v = lo + span * (double)k / 4;
        char lab[48];

        if (s->metric == METRIC_THROUGHPUT || s->metric == METRIC_CPU_EFFICIENCY)
            snprintf(lab, sizeof(lab), "%.2fk", v / 1000);
        else
            snprintf(lab, sizeof(lab), "%.1f", v);
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>\n",
                l - 4, Y(v) + 3, lab);
    }
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
    for (i = 0; i < s->n; i++)
        fprintf(f,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#2c6fbb\"><title>night %zu: "
                "%g</title></circle>\n",
                X(s->night[i]), Y(s->values[i]), s->night[i] + 1, s->values[i]);
    for (i = 0; i < r->n_nights; i++)
        if (r->nights[i].other_env)
            fprintf(f,
                    "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#e0a000\" "
                    "stroke-width=\"6\" opacity=\"0.4\"><title>night %zu: other "
                    "environment, not in the series</title></line>\n",
                    X(i), h - b, X(i), h - b + 6, i + 1);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">night 1</text>\n", l, h - 8);
    fprintf(f,
            "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"end\">night %zu "
            "(newest)</text>\n</svg>\n",
            w - rt, h - 8, r->n_nights);
#undef X
#undef Y
}

int drift_write_html(FILE *f, const struct drift_report *r)
{
    size_t i, flagged = 0, marked = count_marked(r);
    static const char *const head =
        "<tr><th>Configuration</th><th>Metric</th><th>Newest</th><th>Median of previous "
        "nights</th><th>Change</th><th>Trend</th><th>Change points</th><th>Regression "
        "step</th></tr>\n";

    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
               "<title>pairbench drift report</title>\n<style>body{font-family:sans-serif;"
               "max-width:1100px;margin:2em auto;padding:0 1em;color:#222}table{border-collapse:"
               "collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;font-size:"
               "13px;text-align:left}th{background:#f0f0f0}.bad{color:#c0392b;font-weight:bold}"
               ".other{background:#fff4d6}</style></head><body>\n");
    fputs("<h1>pairbench drift report</h1>\n<p>", f);
    history_sentence(f, r, 1);
    if (marked)
        fprintf(f,
                " %zu night%s ran in another environment than the newest: marked below and "
                "left out of the series.",
                marked, marked == 1 ? "" : "s");
    fprintf(f, "</p>\n<p class=\"%s\">Outcome: ", r->code == EXIT_REGRESSION ? "bad" : "");
    if (r->code == EXIT_REGRESSION) {
        fputs("regression step on the newest night in ", f);
        put_escaped(f, r->reason, 1);
        fputs(" (exit 1).", f);
    } else {
        fputs("no regression step on the newest night (exit 0).", f);
    }
    fputs("</p>\n<p>", f);
    method_text(f, r);
    fputs("</p>\n<h2>Flagged series</h2>\n", f);
    for (i = 0; i < r->n_series; i++) {
        const struct drift_series *s = r->series[i];

        if (!s->flagged)
            continue;
        flagged++;
        fputs("<h3>", f);
        put_escaped(f, s->label, 1);
        fprintf(f, " — %s</h3>\n<table>%s", metric_word(s->metric), head);
        series_row(f, r, s, 1);
        fputs("</table>\n", f);
        svg_chart(f, r, s);
    }
    if (!flagged)
        fputs("<p>No series changed by its threshold.</p>\n", f);
    fprintf(f, "<details><summary>All series (%zu)</summary><table>%s", r->n_series, head);
    for (i = 0; i < r->n_series; i++)
        series_row(f, r, r->series[i], 1);
    fputs("</table></details>\n<h2>Nights</h2>\n<table><tr><th>#</th><th>Night</th><th>Started"
          "</th><th>Commit</th><th>Environment</th><th>In the series</th></tr>\n",
          f);
    for (i = 0; i < r->n_nights; i++) {
        fprintf(f, "<tr%s><td>%zu</td><td>", r->nights[i].other_env ? " class=\"other\"" : "",
                i + 1);
        night_cells(f, &r->nights[i], 1);
        fprintf(f, "</td><td>%s</td></tr>\n",
                r->nights[i].other_env ? "no: other environment" : "yes");
    }
    fputs("</table>\n</body></html>\n", f);
    return ferror(f) ? -1 : 0;
}
