/* report_html_svg: horizontal bar charts as inline SVG (see the header for the layout). All
 * coordinates are printed with one decimal from values computed the same way every time, so
 * the same input gives the same bytes. Text from the dataset is escaped here. */
#include "report/report_html_svg.h"

#include <math.h>
#include <string.h>

#include "util/escape.h"

#define SVG_WIDTH 1100.0
#define LABEL_RIGHT 352.0 /* labels end here (text-anchor end) */
#define PLOT_X0 360.0
#define PLOT_X1 (SVG_WIDTH - 70.0) /* room for the value label of the longest bar */
#define GROUP_H 20.0
#define BAR_GAP 2.0
#define ROW_PAD 5.0
#define LABEL_MAX_CHARS 60

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1",
                                      "#76b7b2", "#edc948", "#9c755f", "#ff9da7", "#bab0ac"};

const char *svg_color(size_t i)
{
    return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

void svg_escape(FILE *f, const char *s)
{
    escape_html(f, s);
}

/* Writes s escaped, cut to max_chars code points with an ellipsis: between two values
 * (" · ") when one ends in the room, so that no value is cut; else inside the first. */
static void escape_cut(FILE *f, const char *s, size_t max_chars)
{
    static const char sep[] = " \xc2\xb7 ";
    size_t chars = 0, i, cut = 0, boundary = 0;
    char buf[512];

    if (!s)
        return;
    for (i = 0; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (chars == max_chars - 1)
                cut = i;
            if (chars + 2 <= max_chars && i > 0 && strncmp(s + i, sep, sizeof(sep) - 1) == 0)
                boundary = i; /* the values before it and " …" fit */
            chars++;
        }
    }
    if (chars <= max_chars || cut >= sizeof(buf)) {
        svg_escape(f, s);
        return;
    }
    if (boundary)
        cut = boundary;
    memcpy(buf, s, cut);
    buf[cut] = '\0';
    svg_escape(f, buf);
    fputs(boundary ? " \xe2\x80\xa6" : "\xe2\x80\xa6", f); /* … */
}

char *svg_format_value(double v, char *out, size_t outlen)
{
    double a = fabs(v), x = v;
    const char *suffix = "";
    int decimals;

    if (!isfinite(v)) {
        snprintf(out, outlen, "n/a");
        return out;
    }
    if (a >= 1e6) {
        x = v / 1e6;
        suffix = "M";
    } else if (a >= 1e4) {
        x = v / 1e3;
        suffix = "k";
    }
    a = fabs(x);
    decimals = a >= 1000 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : a == 0 ? 0 : 3;
    snprintf(out, outlen, "%.*f%s", decimals, x, suffix);
    return out;
}

/* Tick labels are round numbers: no trailing zeros. */
static char *format_tick(double v, char *out, size_t outlen)
{
    const char *suffix = "";
    double x = v;

    if (fabs(v) >= 1e6) {
        x = v / 1e6;
        suffix = "M";
    } else if (fabs(v) >= 1e4) {
        x = v / 1e3;
        suffix = "k";
    }
    snprintf(out, outlen, "%.6g%s", x, suffix);
    return out;
}

/* A round step giving about five ticks up to max; *top gets the axis end. */
static double nice_step(double max, double *top)
{
    double raw, mag, norm, step;

    if (!(max > 0) || !isfinite(max)) {
        *top = 1;
        return 0.2;
    }
    raw = max / 5;
    mag = pow(10, floor(log10(raw)));
    norm = raw / mag;
    step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * mag;
    *top = ceil(max / step - 1e-9) * step;
    if (*top < max)
        *top += step;
    return step;
}

static double row_height(size_t nversions, double bar_h)
{
    return 2 * ROW_PAD + (double)nversions * bar_h + (double)(nversions - 1) * BAR_GAP;
}

/* The x of value x_val on a scale 0..top. */
static double sx(double x_val, double top)
{
    return PLOT_X0 + (PLOT_X1 - PLOT_X0) * fmax(x_val, 0) / top;
}

/* The largest median or max of the group's bars. */
static double group_max(const struct svg_chart *c, const struct svg_group *g)
{
    double max = 0;
    size_t r, v;

    for (r = g->first; r < g->first + g->count && r < c->nrows; r++)
        for (v = 0; v < c->nversions; v++) {
            const struct svg_bar *b = &c->rows[r].bars[v];
            if (!b->present)
                continue;
            if (isfinite(b->max) && b->max > max)
                max = b->max;
            if (isfinite(b->median) && b->median > max)
                max = b->median;
        }
    return max;
}

/* One group: the band with its name and its own value axis (ticks), grid lines, then per
 * configuration the label and one bar per version. Returns the y below the group. */
static double write_group(FILE *f, const struct svg_chart *c, const struct svg_group *g, double y,
                          double bar_h, double rh)
{
    char buf[64], buf2[64], buf3[64];
    double top, step = nice_step(group_max(c, g), &top), y_rows = y + GROUP_H, tv;
    size_t r, v;
    int i;

    fprintf(f,
            "<g class=\"grp\">\n<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
            "class=\"gb\"/><text x=\"6\" y=\"%.1f\" class=\"gh\">",
            y, SVG_WIDTH, GROUP_H, y + 14);
    svg_escape(f, g->name);
    fputs("</text>\n", f);
    for (r = 0; r < g->count; r++)
        if (r % 2 == 1)
            fprintf(f, "<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" class=\"zb\"/>\n",
                    y_rows + rh * (double)r, SVG_WIDTH, rh);
    for (i = 0; i <= 20; i++) {
        tv = step * i;
        if (tv > top * (1 + 1e-9))
            break;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"gl\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"tk\">%s</text>\n",
                sx(tv, top), y_rows, sx(tv, top), y_rows + rh * (double)g->count, sx(tv, top),
                y + 14, i == 0 ? "start" : "middle", format_tick(tv, buf, sizeof(buf)));
    }
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ax\"/>\n", PLOT_X0,
            y_rows, PLOT_X1, y_rows);

    y = y_rows;
    for (r = g->first; r < g->first + g->count && r < c->nrows; r++, y += rh) {
        const struct svg_row *row = &c->rows[r];

        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"rl\">", LABEL_RIGHT,
                y + rh / 2 + 4);
        if (row->title && *row->title) {
            fputs("<title>", f);
            svg_escape(f, row->title);
            fputs("</title>", f);
        }
        escape_cut(f, row->label, LABEL_MAX_CHARS);
        fputs("</text>\n", f);
        for (v = 0; v < c->nversions; v++) {
            const struct svg_bar *b = &row->bars[v];
            double by = y + ROW_PAD + (double)v * (bar_h + BAR_GAP), cy = by + bar_h / 2;
            double xm, xmin, xmax;

            if (!b->present || !isfinite(b->median)) {
                fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"na\">", PLOT_X0 + 4, cy + 3);
                svg_escape(f, c->no_value ? c->no_value : "n/a");
                fputs("</text>\n", f);
                continue;
            }
            xm = sx(b->median, top);
            xmin = sx(b->min, top);
            xmax = sx(b->max, top);
            fprintf(f,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                    "<title>",
                    PLOT_X0, by, fmax(xm - PLOT_X0, 0.5), bar_h, svg_color(v));
            svg_escape(f, c->versions[v]);
            fprintf(f, ": %s [%s\xe2\x80\x93%s]</title></rect>\n",
                    svg_format_value(b->median, buf, sizeof(buf)),
                    svg_format_value(b->min, buf2, sizeof(buf2)),
                    svg_format_value(b->max, buf3, sizeof(buf3)));
            fprintf(f, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" class=\"wk\"/>\n",
                    xmin, cy, xmax, xmin, cy - 3, cy + 3, xmax, cy - 3, cy + 3);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"vl\">%s</text>\n", fmax(xm, xmax) + 4,
                    cy + 3, buf);
        }
    }
    fputs("</g>\n", f);
    return y;
}

/* The legend, one swatch per version, wrapping to more lines when wide; f NULL only
 * measures. Returns its height. */
static double legend(FILE *f, const struct svg_chart *c)
{
    double lx = PLOT_X0, ly = 4, w;
    size_t v, len;

    for (v = 0; v < c->nversions; v++) {
        const char *name = c->version_labels ? c->version_labels[v] : c->versions[v];

        len = name ? strlen(name) : 0;
        w = 28 + 7.0 * (double)(len > 40 ? 40 : len);
        if (lx + w > SVG_WIDTH && lx > PLOT_X0) {
            lx = PLOT_X0;
            ly += 16;
        }
        if (f) {
            fprintf(f,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    "<text x=\"%.1f\" y=\"%.1f\" class=\"lg\">",
                    lx, ly, svg_color(v), lx + 16, ly + 10);
            escape_cut(f, name, 40);
            fputs("</text>\n", f);
        }
        lx += w;
    }
    return ly + 20;
}

int svg_chart_write(FILE *f, const struct svg_chart *c)
{
    struct svg_group one = {NULL, 0, c->nrows};
    const struct svg_group *groups = c->groups ? c->groups : &one;
    size_t ngroups = c->groups ? c->ngroups : 1, g, nv = c->nversions ? c->nversions : 1;
    double bar_h = nv <= 2 ? 9 : nv <= 4 ? 7 : 5, rh = row_height(nv, bar_h);
    double height = 0, y;

    for (g = 0; g < ngroups; g++)
        height += GROUP_H + rh * (double)groups[g].count;
    height += legend(NULL, c) + 30; /* legend above, axis label below */

    fprintf(f, "<svg class=\"chart\" data-metric=\"");
    svg_escape(f, c->metric);
    fprintf(f,
            "\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
            "aria-label=\"",
            SVG_WIDTH, height, SVG_WIDTH, height);
    svg_escape(f, c->title);
    fputs("\">\n", f);

    y = legend(f, c);
    for (g = 0; g < ngroups; g++)
        y = write_group(f, c, &groups[g], y, bar_h, rh);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"al\">",
            (PLOT_X0 + PLOT_X1) / 2, y + 18);
    svg_escape(f, c->axis_label);
    fputs("</text>\n</svg>\n", f);
    return ferror(f) ? -1 : 0;
}
