/* report_html_series: report.html's "Over time". For each row whose summary carries a
 * series (analysis/overtime.h: its decay or longest reply gap was decided or stands out),
 * one inline SVG: every ok run's throughput per interval as a line, coloured by version, the
 * versions overlaid on one time axis (seconds into the measured window) and one linear
 * throughput axis from 0. Nothing when no row has a series. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_html_int.h"
#include "report/report_html_svg.h"

#include "util/jobs_util.h"

#define SR_W 720.0
#define SR_H 254.0
#define SR_LEFT 64.0
#define SR_RIGHT 704.0
#define SR_TOP 44.0
#define SR_BOTTOM 214.0

/* The largest time (s) and throughput of the row's runs. */
static void sr_extent(const json_t *vers, double *tmax, double *ymax)
{
    const char *ver;
    const json_t *runs, *run, *p;
    size_t i, k;

    *tmax = *ymax = 0;
    json_object_foreach((json_t *)vers, ver, runs)
    {
        json_array_foreach(runs, i, run)
        {
            const json_t *pts = json_object_get(run, "throughput");
            double iv = ju_num(run, "interval_ms", 0) / 1e3;
            if (iv * (double)json_array_size(pts) > *tmax)
                *tmax = iv * (double)json_array_size(pts);
            json_array_foreach(pts, k, p) if (json_number_value(p) > *ymax) *ymax =
                json_number_value(p);
        }
    }
}

/* One run's line: each interval's throughput at the interval's middle. */
static void sr_line(const struct html_ctx *c, const json_t *run, size_t v, double tmax, double ymax)
{
    const json_t *pts = json_object_get(run, "throughput");
    double iv = ju_num(run, "interval_ms", 0) / 1e3, x, y;
    size_t k;

    fprintf(c->f,
            "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
            "stroke-opacity=\"0.75\" points=\"",
            svg_color(v));
    for (k = 0; k < json_array_size(pts); k++) {
        x = SR_LEFT + (SR_RIGHT - SR_LEFT) * (((double)k + 0.5) * iv) / tmax;
        y = SR_BOTTOM - (SR_BOTTOM - SR_TOP) * json_number_value(json_array_get(pts, k)) / ymax;
        fprintf(c->f, "%s%.1f,%.1f", k ? " " : "", x, y);
    }
    fputs("\"/>\n", c->f);
}

/* A round step (1, 2 or 5 times a power of ten) giving about 4 ticks up to max. */
static double sr_step(double max)
{
    double p = pow(10, floor(log10(max / 4))), f = max / 4 / p;

    return p * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10);
}

/* The axes: round throughput and time ticks, the unit and the time label. */
static void sr_axes(const struct html_ctx *c, const json_t *row, double tmax, double ymax)
{
    double ys = sr_step(ymax), ts = sr_step(tmax), v, y, x;
    char buf[32];
    int i;

    for (i = 0; (v = ys * i) <= ymax * 1.0001; i++) {
        y = SR_BOTTOM - (SR_BOTTOM - SR_TOP) * v / ymax;
        fprintf(c->f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"gr\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"tk\">%s</text>\n",
                SR_LEFT, y, SR_RIGHT, y, SR_LEFT - 4, y + 4, svg_format_value(v, buf, sizeof(buf)));
    }
    for (i = 0; (v = ts * i) <= tmax * 1.0001; i++) {
        x = SR_LEFT + (SR_RIGHT - SR_LEFT) * v / tmax;
        fprintf(c->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"tk\">%g</text>\n",
                x, SR_BOTTOM + 14, v);
    }
    fprintf(c->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"al\">",
            (SR_LEFT + SR_RIGHT) / 2, SR_BOTTOM + 32);
    html_esc(c, HT(c, M_SERIES_AXIS));
    fprintf(c->f, "</text><text x=\"4\" y=\"%.1f\" class=\"al\">", SR_TOP - 16);
    html_esc(c, ju_str(row, "unit", "ops/s"));
    fputs("</text>\n", c->f);
}

/* The legend: one swatch per version, above the plot on the right. */
static void sr_legend(const struct html_ctx *c)
{
    double x = SR_LEFT + 120;
    size_t v;

    for (v = 0; v < c->nv; v++) {
        fprintf(c->f,
                "<rect x=\"%.1f\" y=\"4\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                "<text x=\"%.1f\" y=\"14\" class=\"lg\">",
                x, svg_color(v), x + 16);
        html_esc(c, c->versions[v]);
        fputs("</text>\n", c->f);
        x += 28 + 7.0 * (double)strlen(c->versions[v]);
    }
}

static void sr_chart(const struct html_ctx *c, const json_t *row)
{
    const json_t *s = json_object_get(row, "series"), *vers = json_object_get(s, "versions");
    double tmax, ymax;
    size_t v, i;
    const json_t *run;

    sr_extent(vers, &tmax, &ymax);
    if (!(tmax > 0) || !(ymax > 0))
        return;
    fputs("<figure class=\"series\"><figcaption>", c->f);
    html_esc(c, ju_str(row, "label", ""));
    fputs(" \xe2\x80\x94 ", c->f);
    html_esc(c, HT(c, strcmp(ju_str(s, "why", ""), "decay") == 0   ? M_SERIES_WHY_DECAY
                      : strcmp(ju_str(s, "why", ""), "stall") == 0 ? M_SERIES_WHY_STALL
                                                                   : M_SERIES_WHY_BOTH));
    fprintf(c->f,
            "</figcaption>\n<svg class=\"chart\" data-metric=\"series\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"",
            SR_W, SR_H, SR_W, SR_H);
    html_esc(c, ju_str(row, "label", ""));
    fputs("\">\n", c->f);
    sr_legend(c);
    sr_axes(c, row, tmax, ymax * 1.05);
    for (v = 0; v < c->nv; v++)
        json_array_foreach(json_object_get(vers, c->versions[v]), i, run)
            sr_line(c, run, v, tmax, ymax * 1.05);
    fputs("</svg></figure>\n", c->f);
}

void html_series(const struct html_ctx *c)
{
    size_t r, n = 0;

    for (r = 0; r < c->nrows; r++)
        n += json_object_get(json_array_get(c->rows, r), "series") != NULL;
    if (!n)
        return;
    fprintf(c->f, "<section id=\"series\">\n<h2>%s</h2>\n<p>", HT(c, M_SERIES_H));
    html_esc(c, HT(c, M_SERIES_INTRO));
    fputs("</p>\n", c->f);
    for (r = 0; r < c->nrows; r++)
        if (json_object_get(json_array_get(c->rows, r), "series"))
            sr_chart(c, json_array_get(c->rows, r));
    fputs("</section>\n", c->f);
}
