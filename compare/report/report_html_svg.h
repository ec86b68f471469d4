/* report_html_svg: one horizontal bar chart as inline SVG for report.html — per configuration
 * a group of bars, one per version (baseline first), bar = median, whisker = min–max, the
 * median written at the bar's end. Configurations are grouped in bands (protocol · transport ·
 * payload); each band carries its own linear value axis with ticks, so a 1 KiB row and a
 * 16 KiB row do not share one scale that flattens the smaller. Horizontal bars keep long
 * configuration labels legible with 96 configurations. Pure: writes to the FILE it is given. */
#ifndef PAIRBENCH_REPORT_HTML_SVG_H
#define PAIRBENCH_REPORT_HTML_SVG_H

#include <stddef.h>
#include <stdio.h>

/* One version's figures in one configuration; present 0 = no value (failed or missing). */
struct svg_bar {
    double median, min, max;
    int present;
};

struct svg_row {
    const char *label;    /* short label shown left of the bars */
    const char *title;    /* full label, shown as a tooltip (may be NULL) */
    struct svg_bar *bars; /* one per version */
};

struct svg_group {
    const char *name; /* band header; NULL or "" = no header */
    size_t first, count;
};

struct svg_chart {
    const char *metric;                /* data-metric attribute */
    const char *title;                 /* aria label */
    const char *axis_label;            /* under the axis, e.g. "commands/s" */
    const char *no_value;              /* text for a missing bar, e.g. "n/a" */
    const char *const *versions;       /* nversions names, baseline first */
    const char *const *version_labels; /* nversions legend texts (NULL = versions) */
    size_t nversions;
    const struct svg_row *rows;
    size_t nrows;
    const struct svg_group *groups; /* covering rows in order; NULL = one unnamed group */
    size_t ngroups;
};

/* The colour of version i (baseline = 0), as "#rrggbb". */
const char *svg_color(size_t i);

/* Writes `<svg class="chart" data-metric="...">...</svg>`. Returns 0, or -1 on a write error. */
int svg_chart_write(FILE *f, const struct svg_chart *c);

/* Writes s with & < > " ' escaped for HTML/XML text and attribute values. */
void svg_escape(FILE *f, const char *s);

/* Formats v compactly for labels: 1.84M, 97.1k, 695.8, 42.0, 3.25. Returns out. */
char *svg_format_value(double v, char *out, size_t outlen);

#endif
