/* report_md_fmt: the Markdown report's writing helpers: {0}-placeholder templates, table
 * cells, number formats (U+2212 minus, explicit + on changes, en dash in ranges) and the small
 * accessors over summary rows shared by report_md.c and report_md_tables.c. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt.h"
#include "util/escape.h"
#include "util/jobs_util.h"
#include "report/report_md_int.h"
#include "analysis/stats.h"
#include "analysis/summary.h"

/* ---- writer helpers ---- */

const char *md_t(const struct md *m, enum i18n_msg id)
{
    return i18n(m->lang, id);
}

void md_put(const struct md *m, const char *s)
{
    fputs(s, m->f);
}

void md_tmpl(const struct md *m, const char *tmpl, ...)
{
    va_list ap;

    va_start(ap, tmpl);
    i18n_vwrite(m->f, tmpl, ap);
    va_end(ap);
}

void md_cell(const struct md *m, const char *s)
{
    escape_md_cell(m->f, s);
}

struct num num_fixed(double v, int decimals)
{
    struct num n = {.s = ""};

    fmt_fixed(v, decimals, n.s, sizeof(n.s));
    return n;
}

struct num num_pct(const json_t *change)
{
    struct num n = {.s = ""};

    fmt_change(json_is_number(change) ? json_number_value(change) : NAN, n.s, sizeof(n.s));
    return n;
}

/* "97.11 [95.52–99.63]" of values scaled by 1/div, or "—". */
struct num num_range(const json_t *values, double div, int decimals)
{
    struct num n;

    if (!json_is_object(values)) {
        snprintf(n.s, sizeof(n.s), "%s", FMT_MISSING);
        return n;
    }
    snprintf(n.s, sizeof(n.s), "%.100s [%.100s–%.100s]",
             num_fixed(ju_num(values, "median", NAN) / div, decimals).s,
             num_fixed(ju_num(values, "min", NAN) / div, decimals).s,
             num_fixed(ju_num(values, "max", NAN) / div, decimals).s);
    return n;
}

struct num num_median(const json_t *values, double div, int decimals)
{
    return num_fixed(json_is_object(values) ? ju_num(values, "median", NAN) / div : NAN, decimals);
}

const char *md_version(const struct md *m, size_t i)
{
    return json_string_value(json_array_get(m->versions, i));
}

const char *md_row_label(const json_t *row)
{
    return ju_str(row, "label", ju_str(row, "config", "?"));
}

const char *md_verdict(const json_t *row, const char *metric, const char *ver)
{
    return ju_str(summary_vs(row, metric, ver), "verdict", "~");
}

int md_row_stands_out(const struct md *m, const json_t *row)
{
    size_t vi, i;

    for (vi = 1; vi < m->nv; vi++)
        for (i = 0; i < METRIC_COUNT; i++)
            if (metric_gateable((enum metric)i) &&
                strcmp(md_verdict(row, metric_name((enum metric)i), md_version(m, vi)),
                       VERDICT_SAME) != 0)
                return 1;
    return 0;
}

void md_put_list(const struct md *m, char **items, size_t n)
{
    size_t i, shown = n > MD_LIST_MAX ? MD_LIST_MAX : n;
    char more[32];

    for (i = 0; i < shown; i++) {
        if (i > 0)
            md_put(m, md_t(m, (i == shown - 1 && shown == n) ? M_AND : M_LIST_SEP));
        md_put(m, items[i] ? items[i] : "?");
    }
    if (shown < n) {
        snprintf(more, sizeof(more), "%zu", n - shown);
        md_put(m, md_t(m, M_AND));
        md_tmpl(m, md_t(m, M_MORE), more, MD_END);
    }
}

void md_free_items(char **items, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        free(items[i]);
    free(items);
}
