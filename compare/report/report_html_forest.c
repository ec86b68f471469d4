/* report_html_forest: the chart of the change itself, the first chart in report.html. Per row (and
 * per candidate), for each gated metric that was measured (throughput, CPU efficiency, P50, P99,
 * RSS by default; instructions per operation when counted): the paired change — the median of the
 * per-round ratios to the baseline, minus 1 — as a dot, its 90% interval as a line (the ratios'
 * range when the interval is not recorded), the row's threshold as a shaded band around zero, the
 * dot coloured by the metric's verdict. One inline SVG, one panel per metric sharing the row
 * labels; each panel has its own symmetric percent axis. Deterministic bytes. */
#include <math.h>
#include <string.h>

#include "report/i18n.h"
#include "report/report_html_int.h"
#include "report/report_html_svg.h"
#include "report/term.h"

#include "util/jobs_util.h"

#define F_LABEL_W 330.0 /* labels end here (text-anchor end), minus a gap */
#define F_PANEL_W 200.0
#define F_GAP 30.0
/* Panels side by side: more wrap into another band below, the labels again on its left, so
 * the plot fits the page's 1280 px (330 + 4 × 230 = 1250) and never scrolls sideways */
#define F_PER_BAND 4
#define F_ROW_H 16.0
#define F_TOP 40.0
#define F_LEGEND_H 30.0
#define F_LABEL_CELLS 56
#define F_MAX_PANELS METRIC_ALL
/* the left edge of panel k in its band */
#define PANEL_X(k) (F_LABEL_W + (double)((k) % F_PER_BAND) * (F_PANEL_W + F_GAP))

struct f_point {
    int present, has_interval;
    double mid, lo, hi, thr; /* changes as fractions: -0.05 = 5% lower */
    const char *verdict;
};

/* The threshold of a metric in a row: the row's, else the summary's, else the table's. */
static double threshold_of(const struct html_ctx *c, const json_t *row, const char *key)
{
    double t;
    const json_t *m = json_object_get(json_object_get(row, "metrics"), key);

    if (ju_get_num(m, "threshold_pct", &t) == 0)
        return t / 100;
    if (ju_get_num(json_object_get(c->summary, "thresholds_pct"), key, &t) == 0)
        return t / 100;
    return metric_def_by_key(key) ? metric_def_by_key(key)->threshold_pct / 100 : 0;
}

static struct f_point point_of(const struct html_ctx *c, const json_t *row, const char *key,
                               const char *cand)
{
    const json_t *vs = html_vs(row, key, cand), *pr = json_object_get(vs, "paired_ratio");
    struct f_point p;
    double lo, hi;

    memset(&p, 0, sizeof(p));
    p.verdict = ju_str(vs, "verdict", NULL) ? ju_str(vs, "verdict", NULL) : "~";
    p.thr = threshold_of(c, row, key);
    if (ju_get_num(pr, "median", &p.mid) == 0)
        p.mid -= 1, p.present = 1;
    else if (ju_get_num(vs, "change", &p.mid) == 0)
        p.present = 1;
    if (p.present && ((ju_get_num(pr, "lo", &lo) == 0 && ju_get_num(pr, "hi", &hi) == 0) ||
                      (ju_get_num(pr, "min", &lo) == 0 && ju_get_num(pr, "max", &hi) == 0))) {
        p.lo = lo - 1;
        p.hi = hi - 1;
        p.has_interval = 1;
    }
    if (!isfinite(p.mid) || !isfinite(p.lo) || !isfinite(p.hi))
        p.present = 0;
    return p;
}

/* The half-width of a panel's axis: the largest |change| or interval end, at least 1.5 x the
 * largest threshold and 1%, rounded up to a step of 1, 2 or 5. */
static double axis_range(const struct html_ctx *c, const char *key)
{
    double r = 0.01, steps[] = {1, 2, 5}, dec = 0.01;
    size_t i, v;

    for (i = 0; i < c->nrows; i++)
        for (v = 1; v < c->nv; v++) {
            struct f_point p = point_of(c, json_array_get(c->rows, i), key, c->versions[v]);
            r = fmax(r, 1.5 * p.thr);
            if (!p.present)
                continue;
            r = fmax(r, fabs(p.mid));
            if (p.has_interval)
                r = fmax(r, fmax(fabs(p.lo), fabs(p.hi)));
        }
    r = fmin(r, 10.0); /* beyond ±1000% the dots are pinned at the edge */
    for (;;) {
        for (i = 0; i < 3; i++)
            if (steps[i] * dec >= r * (1 - 1e-9))
                return steps[i] * dec;
        dec *= 10;
    }
}

static double x_of(double x0, double range, double v)
{
    v = fmax(-range, fmin(range, v));
    return x0 + F_PANEL_W / 2 + v / range * (F_PANEL_W / 2);
}

/* A panel's title, zero band and axis; y0 the top of its band. */
static void panel_frame(const struct html_ctx *c, const struct metric_def *d, double x0, double y0,
                        double range, double h)
{
    FILE *f = c->f;
    int t;

    fprintf(f, "<text class=\"fh\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
            x0 + F_PANEL_W / 2, y0 + 14);
    svg_escape(f, c->zh ? d->title_zh : d->title_en);
    fputs("</text>\n", f);
    fprintf(f, "<rect class=\"zb\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", x0,
            y0 + F_TOP - 4, F_PANEL_W, h + 8);
    for (t = -2; t <= 2; t++) {
        double v = range * t / 2, x = x_of(x0, range, v);
        char tick[32];

        if (t == 0)
            snprintf(tick, sizeof(tick), "0%%");
        else
            snprintf(tick, sizeof(tick), "%+g%%", v * 100);
        fprintf(f,
                "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                "<text class=\"tk\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                t == 0 ? "ax" : "gl", x, y0 + F_TOP - 4, x, y0 + F_TOP + h + 4, x, y0 + F_TOP - 10,
                tick);
    }
}

/* One row's mark in one panel. */
static void mark(const struct html_ctx *c, const struct f_point *p, const char *key, double x0,
                 double range, double y, const char *label)
{
    FILE *f = c->f;
    char mid[32], lo[32], hi[32];

    fprintf(f, "<g class=\"fr\" data-change=\"%s\" data-verdict=\"", key);
    svg_escape(f, p->present ? p->verdict : "failed");
    fputs("\"><title>", f);
    svg_escape(f, label);
    if (p->present) {
        fprintf(f, ": %s", html_fmt_change(p->mid, mid, sizeof(mid)));
        if (p->has_interval)
            fprintf(f, " [%s, %s]", html_fmt_change(p->lo, lo, sizeof(lo)),
                    html_fmt_change(p->hi, hi, sizeof(hi)));
        fputs(", ", f);
        svg_escape(f, p->verdict);
    } else {
        fputs(": n/a", f);
    }
    fputs("</title>", f);
    if (p->thr > 0)
        fprintf(f, "<rect class=\"fb\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
                x_of(x0, range, -p->thr), y - F_ROW_H / 2,
                2 * (x_of(x0, range, p->thr) - x_of(x0, range, 0)), F_ROW_H);
    if (p->present && p->has_interval)
        fprintf(
            f, "<line class=\"fi\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>",
            x_of(x0, range, p->lo), y, x_of(x0, range, p->hi), y, html_verdict_color(p->verdict));
    if (p->present)
        fprintf(f, "<circle class=\"fp\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>",
                x_of(x0, range, p->mid), y, html_verdict_color(p->verdict));
    fputs("</g>\n", f);
}

static void legend(const struct html_ctx *c, double y)
{
    static const char *const v[] = {"regressed", "improved", "~", "undecided", "failed"};
    static const enum i18n_msg word[] = {H_LEG_REGRESSED, H_LEG_IMPROVED, H_LEG_SAME,
                                         H_LEG_UNDECIDED, H_LEG_FAILED};
    double x = 10;
    size_t i;

    for (i = 0; i < 5; i++) {
        fprintf(c->f,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/><text class=\"flg\" "
                "x=\"%.1f\" y=\"%.1f\">%s</text>\n",
                x, y, html_verdict_color(v[i]), x + 8, y + 4, HT(c, word[i]));
        x += 110;
    }
    fprintf(c->f,
            "<rect class=\"fb\" x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"10\"/><text "
            "class=\"flg\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
            x, y - 5, x + 24, y + 4, i18n(c->zh ? "zh" : "en", H_FOREST_BAND));
}

/* Whether metric m is gated in this report: its threshold (the summary's, else the table's)
 * is above zero. Every gated metric that was measured gets a panel, counted ones included. */
static int forest_gated(const struct html_ctx *c, int m)
{
    double t;

    if (ju_get_num(json_object_get(c->summary, "thresholds_pct"), metric_name((enum metric)m),
                   &t) == 0)
        return t > 0;
    return metric_def((enum metric)m)->threshold_pct > 0;
}

void html_forest(const struct html_ctx *c)
{
    const struct metric_def *panels[F_MAX_PANELS];
    double range[F_MAX_PANELS], w, h, y, band_h;
    size_t np = 0, i, v, k, b, bands, lines = c->nrows * (c->nv > 1 ? c->nv - 1 : 0);
    int m;

    if (c->nv < 2 || c->nrows == 0)
        return;
    for (m = 0; m < METRIC_ALL && np < F_MAX_PANELS; m++)
        if (forest_gated(c, m) && html_has_metric(c, metric_name(m))) {
            panels[np] = metric_def((enum metric)m);
            range[np] = axis_range(c, panels[np]->key);
            np++;
        }
    bands = (np + F_PER_BAND - 1) / F_PER_BAND;
    w = F_LABEL_W + (double)(np < F_PER_BAND ? np : F_PER_BAND) * (F_PANEL_W + F_GAP);
    h = (double)lines * F_ROW_H;
    band_h = F_TOP + h + 8;
    fprintf(c->f, "<section id=\"forest\">\n<h2>%s</h2>\n<p class=\"note\">%s</p>\n",
            i18n(c->zh ? "zh" : "en", H_FOREST), i18n(c->zh ? "zh" : "en", H_FOREST_NOTE));
    fprintf(c->f,
            "<div class=\"wrap\"><svg class=\"forest\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"%s\">\n",
            w, (double)bands * band_h + F_LEGEND_H, w, (double)bands * band_h + F_LEGEND_H,
            i18n(c->zh ? "zh" : "en", H_FOREST));
    for (k = 0; k < np; k++)
        panel_frame(c, panels[k], PANEL_X(k), (double)(k / F_PER_BAND) * band_h, range[k], h);
    y = F_TOP + F_ROW_H / 2;
    for (i = 0; i < c->nrows; i++) {
        const json_t *row = json_array_get(c->rows, i);
        const char *lbl = ju_str(row, "label", NULL) ? ju_str(row, "label", NULL) : "?";

        for (v = 1; v < c->nv; v++, y += F_ROW_H) {
            char full[600], cut[600];

            if (c->nv > 2)
                snprintf(full, sizeof(full), "%s: %s", c->versions[v], lbl);
            else
                snprintf(full, sizeof(full), "%s", lbl);
            term_fit(full, F_LABEL_CELLS, 0, cut, sizeof(cut));
            for (b = 0; b < bands; b++) {
                fprintf(c->f,
                        "<text class=\"fl\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"><title>",
                        F_LABEL_W - 8, y + (double)b * band_h + 3.5);
                svg_escape(c->f, full);
                fputs("</title>", c->f);
                svg_escape(c->f, cut);
                fputs("</text>\n", c->f);
            }
            for (k = 0; k < np; k++) {
                struct f_point p = point_of(c, row, panels[k]->key, c->versions[v]);
                mark(c, &p, panels[k]->key, PANEL_X(k), range[k],
                     y + (double)(k / F_PER_BAND) * band_h, full);
            }
        }
    }
    legend(c, (double)bands * band_h + F_LEGEND_H / 2);
    fputs("</svg></div>\n</section>\n", c->f);
}
