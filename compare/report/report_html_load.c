/* report_html_load: report.html's latency against load. For each configuration swept over
 * percentages of its saturation rate, one inline SVG with a panel per version (the same axes
 * in every panel): the median P50 (dashed) and P99 (solid) at each rate, a logarithmic latency
 * axis and a dotted line at 1 ms; beside it the knee in words, the sentence report.md has
 * (load_sweep.h computes it for both). Nothing when the summary has no sweep. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/load_sweep.h"
#include "report/report_html_int.h"
#include "report/report_html_svg.h"

#include "util/jobs_util.h"

#define LD_W 1100.0
#define LD_H 300.0
#define LD_LEFT 62.0  /* room for the latency ticks of a panel */
#define LD_RIGHT 14.0 /* gap before the next panel */
#define LD_TOP 28.0
#define LD_BOTTOM 250.0

/* The scales of one chart: x in % (0..xmax), y in log10 µs (ylo..yhi). */
struct ld_scale {
    double x0, x1, xmax, ylo, yhi;
};

static double ld_x(const struct ld_scale *s, double pct)
{
    return s->x0 + (s->x1 - s->x0) * pct / s->xmax;
}

static double ld_y(const struct ld_scale *s, double us)
{
    double l = log10(fmax(us, 1e-3));
    return LD_BOTTOM - (LD_BOTTOM - LD_TOP) * (l - s->ylo) / (s->yhi - s->ylo);
}

/* A sentence of the string table with its arguments escaped (i18n_vput). */
static void ld_say(const struct html_ctx *c, enum i18n_msg id, ...)
{
    va_list ap;

    va_start(ap, id);
    i18n_vput(c->f, 1, HT(c, id), ap);
    va_end(ap);
}

/* The range of the group's percentages and latencies into s (x and y only). */
static void ld_range(const struct html_ctx *c, size_t first, struct ld_scale *s)
{
    double lo = INFINITY, hi = 0, v;
    size_t r, k;
    static const char *const pm[] = {"p50_us", "p99_us"};

    s->xmax = 100;
    for (r = first; r < c->nrows; r++) {
        const json_t *row = json_array_get(c->rows, r);
        if (load_row_percent(row) <= 0 || !load_same_base(json_array_get(c->rows, first), row))
            continue;
        s->xmax = fmax(s->xmax, load_row_percent(row));
        for (k = 0; k < c->nv * 2; k++)
            if (load_median(row, pm[k % 2], c->versions[k / 2], &v) == 0 && v > 0) {
                lo = fmin(lo, v);
                hi = fmax(hi, v);
            }
    }
    if (!isfinite(lo))
        lo = hi = LOAD_KNEE_US;
    s->ylo = fmin(floor(log10(lo)), log10(LOAD_KNEE_US) - 1);
    s->yhi = fmax(ceil(log10(hi)), log10(LOAD_KNEE_US) + 1);
}

/* The axes of one panel: latency ticks at the powers of ten, rate ticks every 25%, the 1 ms
 * line and the version's name. */
static void ld_axes(const struct html_ctx *c, const struct ld_scale *s, const char *ver, size_t vi)
{
    char buf[32];
    double t;
    int p, i;

    for (p = (int)s->ylo; p <= (int)s->yhi; p++) {
        t = pow(10, p);
        fprintf(c->f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"gl\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"tk\">%s</text>\n",
                s->x0, ld_y(s, t), s->x1, ld_y(s, t), s->x0 - 4, ld_y(s, t) + 3,
                svg_format_value(t, buf, sizeof(buf)));
    }
    for (i = 0; i <= (int)(s->xmax / 25 + 1e-9); i++) {
        t = 25.0 * i;
        fprintf(c->f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"gl\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"tk\">%.0f%%</text>\n",
                ld_x(s, t), LD_TOP, ld_x(s, t), LD_BOTTOM, ld_x(s, t), LD_BOTTOM + 14, t);
    }
    fprintf(c->f,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ax\"/>"
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ax\"/>\n"
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c0392b\" "
            "stroke-dasharray=\"2 3\" class=\"knee\"/>\n",
            s->x0, LD_BOTTOM, s->x1, LD_BOTTOM, s->x0, LD_TOP, s->x0, LD_BOTTOM, s->x0,
            ld_y(s, LOAD_KNEE_US), s->x1, ld_y(s, LOAD_KNEE_US));
    fprintf(c->f, "<text x=\"%.1f\" y=\"%.1f\" class=\"lg\" fill=\"%s\">", s->x0, LD_TOP - 10,
            svg_color(vi));
    html_esc(c, ver);
    fprintf(c->f,
            "</text>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"tk\">%s</text>\n",
            (s->x0 + s->x1) / 2, LD_BOTTOM + 30, HT(c, H_LOAD_X_AXIS));
}

/* One version's line of one percentile, with a dot and a tooltip per rate. */
static void ld_line(const struct html_ctx *c, const struct ld_scale *s, size_t first, size_t vi,
                    const char *metric)
{
    const char *ver = c->versions[vi];
    double v;
    size_t r;
    int n = 0;

    fprintf(c->f, "<polyline class=\"ld-%s\" data-version=\"", metric);
    html_esc(c, ver);
    fprintf(c->f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", svg_color(vi),
            strcmp(metric, "p50_us") == 0 ? " stroke-dasharray=\"5 4\"" : "");
    for (r = first; r < c->nrows; r++) {
        const json_t *row = json_array_get(c->rows, r);
        if (load_row_percent(row) > 0 && load_same_base(json_array_get(c->rows, first), row) &&
            load_median(row, metric, ver, &v) == 0 && v > 0)
            fprintf(c->f, "%s%.1f,%.1f", n++ ? " " : "", ld_x(s, load_row_percent(row)),
                    ld_y(s, v));
    }
    fputs("\"/>\n", c->f);
    for (r = first; r < c->nrows; r++) {
        const json_t *row = json_array_get(c->rows, r);
        char buf[32];
        if (load_row_percent(row) <= 0 || !load_same_base(json_array_get(c->rows, first), row) ||
            load_median(row, metric, ver, &v) != 0 || !(v > 0))
            continue;
        fprintf(c->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>",
                ld_x(s, load_row_percent(row)), ld_y(s, v), svg_color(vi));
        html_esc(c, ver);
        fprintf(c->f, " %s %g%%: %s %s \xc2\xb5s</title></circle>\n",
                metric[1] == '5' ? "P50" : "P99", load_row_percent(row),
                metric[1] == '5' ? "P50" : "P99", svg_format_value(v, buf, sizeof(buf)));
    }
}

/* The chart and the knee sentence of the group of row `first`. */
static void ld_group(const struct html_ctx *c, size_t first)
{
    const json_t *row = json_array_get(c->rows, first);
    double pw = (LD_W - 8) / (double)c->nv;
    struct ld_scale s;
    size_t vi;

    fputs("<figure class=\"load\">\n<figcaption><h3>", c->f);
    html_esc(c, ju_str(row, "label", NULL));
    fputs("</h3></figcaption>\n<p class=\"knee\">", c->f);
    for (vi = 0; vi < c->nv; vi++) {
        char pct[32];
        double k = load_knee(c->rows, first, c->versions[vi]);
        snprintf(pct, sizeof(pct), "%g%%", k);
        if (vi)
            fputs(HT(c, M_LIST_SEP), c->f);
        ld_say(c, k > 0 ? M_KNEE_AT : M_KNEE_NEVER, pct, c->versions[vi], (const char *)NULL);
    }
    fprintf(c->f, "%s</p>\n", HT(c, M_PERIOD));
    ld_range(c, first, &s);
    fprintf(c->f,
            "<svg class=\"chart load-chart\" data-metric=\"p99_us\" viewBox=\"0 0 %.0f %.0f\" "
            "width=\"100%%\" role=\"img\" aria-label=\"%s\" xmlns=\"http://www.w3.org/2000/svg\">\n"
            "<text x=\"4\" y=\"%.0f\" class=\"tk\">%s</text>\n",
            LD_W, LD_H, HT(c, M_H_LOAD), LD_H - 4, HT(c, H_LOAD_Y_AXIS));
    for (vi = 0; vi < c->nv; vi++) {
        s.x0 = 4 + pw * (double)vi + LD_LEFT;
        s.x1 = 4 + pw * (double)(vi + 1) - LD_RIGHT;
        fprintf(c->f, "<g class=\"panel\" data-version=\"");
        html_esc(c, c->versions[vi]);
        fputs("\">\n", c->f);
        ld_axes(c, &s, c->versions[vi], vi);
        ld_line(c, &s, first, vi, "p50_us");
        ld_line(c, &s, first, vi, "p99_us");
        fputs("</g>\n", c->f);
    }
    fputs("</svg>\n</figure>\n", c->f);
}

void html_load(const struct html_ctx *c)
{
    size_t i;
    int started = 0;

    for (i = 0; i < c->nrows; i++) {
        if (!load_group_first(c->rows, i))
            continue;
        if (!started)
            fprintf(c->f, "<section id=\"load\">\n<h2>%s</h2>\n<p class=\"note\">%s</p>\n",
                    HT(c, M_H_LOAD), HT(c, H_LOAD_CAPTION));
        started = 1;
        ld_group(c, i);
    }
    if (started)
        fputs("</section>\n", c->f);
}
