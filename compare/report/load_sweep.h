/* load_sweep: the rows of a rate sweep (a grid axis "rate" of percentages of the saturation
 * rate, meta.json "saturation") grouped by configuration, and the knee of each version: the
 * lowest percentage at which its median P99 passes 1 ms. Shared by report.md
 * (report_md_load.c) and report.html (report_html_load.c), so both say the same thing. */
#ifndef PAIRBENCH_LOAD_SWEEP_H
#define PAIRBENCH_LOAD_SWEEP_H

#include <stddef.h>

#include <jansson.h>

/* The P99 a knee is the crossing of, in µs. */
#define LOAD_KNEE_US 1000.0

/* The percentage of a row's "rate" ("50%"), or 0 when the row is not a sweep row. */
double load_row_percent(const json_t *row);

/* Whether two rows are one configuration at two rates. */
int load_same_base(const json_t *a, const json_t *b);

/* Whether row i of rows is a sweep row and the first of its group. */
int load_group_first(const json_t *rows, size_t i);

/* The lowest percentage of the group of row `first` at which version ver's median P99
 * passes LOAD_KNEE_US; 0 when it never does. */
double load_knee(const json_t *rows, size_t first, const char *ver);

/* rows[i].metrics[metric].values[ver].median into *out: 0, or -1 when absent. */
int load_median(const json_t *row, const char *metric, const char *ver, double *out);

#endif
