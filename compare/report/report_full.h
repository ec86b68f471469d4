/* report_full: the full cost of a request in report.md and report.html — per configuration
 * and version the metrics context_switches, page_faults, cpu_migrations (timed runs),
 * syscalls and allocations (counted runs), each with the limits of its count beside its
 * table and, for the counted ones, the names that changed most (system calls by name, the
 * functions that allocate). Nothing when no row has any of them. */
#ifndef PAIRBENCH_REPORT_FULL_H
#define PAIRBENCH_REPORT_FULL_H

#include <stddef.h>

#include <jansson.h>

#include "report/i18n.h"

#define REPORT_FULL_N 6

struct report_full_metric {
    const char *key;    /* summary key */
    enum i18n_msg lim;  /* the limits text */
    const char *where;  /* vs_baseline list of the names that changed most, or NULL */
    enum i18n_msg unit; /* what one of the names' figures is (with where) */
    const char *slow;   /* the metric whose counted runs' slowdown its limits state (NULL:
                         * the traced runs', syscalls) */
};

extern const struct report_full_metric report_full_metrics[REPORT_FULL_N];

/* Whether some row of rows has metric key. */
int report_full_has(const json_t *rows, const char *key);
/* Whether every run of every row and version that has metric key measured it below 0.0005
 * per operation (it prints as 0.000): the section says so in one sentence (F_NONE) instead
 * of a table of zeros. */
int report_full_nil(const json_t *rows, const char *key);
/* Whether every candidate of every row that has metric key is `~` against the baseline (and
 * some is compared): the section says so in one sentence (F_SAME) with the range of every
 * run's value, lo..hi, instead of a table with nothing to report. */
int report_full_same(const json_t *rows, const char *key, double *lo, double *hi);
/* The one sentence (lang "en" or "zh", Markdown's `code` marks) that stands for fm's table
 * when it has nothing to report (report_full_nil: F_NONE; report_full_same: F_SAME), in a new
 * string (free()); NULL when the table is due (or out of memory). */
char *report_full_collapsed(const json_t *rows, const struct report_full_metric *fm,
                            const char *lang);
/* Whether some row has any of them. */
int report_full_any(const json_t *rows);
/* The slowdown of the traced runs (syscalls) against the timed ones: the baseline's median
 * throughput over the metric's throughput_counted, in the first row with both; 0 unknown. */
double report_full_slowdown(const json_t *rows, const char *base);
/* The same for the counted runs of metric key (its throughput_counted). */
double report_full_slowdown_of(const json_t *rows, const char *base, const char *key);
/* The slowdown fm's limits state: its own runs' (fm->slow), else `traced`. */
double report_full_slowdown_for(const json_t *rows, const char *base,
                                const struct report_full_metric *fm, double traced);

/* The names of a "where" list l (by |delta|, largest first) a report shows, into out[0..max):
 * at most max, none from the second entry on whose delta is under 0.005 (the rest did not
 * change), and none of code without a symbol ("unknown (...)": the instructions section says once
 * which binary lacks them and what to install). Returns how many. */
size_t report_full_where(const json_t *l, const json_t **out, size_t max);

#endif
