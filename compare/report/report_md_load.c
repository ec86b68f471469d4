/* report_md_load: a rate sweep in words. For each configuration swept over percentages of its
 * saturation rate (meta.json "saturation"), the load at which each version's median P99 first
 * passes 1 ms, e.g. "P99 passes 1 ms at 80% of saturation for the baseline and 70% for the
 * candidate". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_md_int.h"

#define KNEE_US 1000.0

/* The percentage of a row's "rate" ("50%"), or 0. */
static double row_percent(const json_t *row)
{
    const char *s = json_string_value(json_object_get(json_object_get(row, "params"), "rate"));
    char *end = NULL;
    double d;

    if (!s)
        return 0;
    d = strtod(s, &end);
    return end && *end == '%' ? d : 0;
}

/* Whether two rows are one configuration at two rates. */
static int same_base(const json_t *a, const json_t *b)
{
    static const char *const drop[] = {"rate", "arrival", "warmup", "duration", "host", "port"};
    json_t *x = json_deep_copy(json_object_get(a, "params"));
    json_t *y = json_deep_copy(json_object_get(b, "params"));
    size_t i;
    int eq;

    for (i = 0; x && y && i < sizeof(drop) / sizeof(drop[0]); i++) {
        json_object_del(x, drop[i]);
        json_object_del(y, drop[i]);
    }
    eq = x && y && json_equal(x, y);
    json_decref(x);
    json_decref(y);
    return eq;
}

/* The lowest percentage of the group of row `first` at which version ver's median P99
 * passes 1 ms; 0 when it never does. */
static double knee_of(const struct md *m, size_t first, const char *ver)
{
    double best = 0;
    size_t i;

    for (i = first; i < m->nrows; i++) {
        const json_t *row = json_array_get(m->rows, i);
        double pct = row_percent(row), p99;
        if (pct <= 0 || !same_base(json_array_get(m->rows, first), row))
            continue;
        p99 = json_number_value(json_object_get(
            json_object_get(
                json_object_get(json_object_get(json_object_get(row, "metrics"), "p99_us"),
                                "values"),
                ver),
            "median"));
        if (p99 > KNEE_US && (best == 0 || pct < best))
            best = pct;
    }
    return best;
}

/* Whether row i is the first of its group (no earlier percentage row shares its base). */
static int group_first(const struct md *m, size_t i)
{
    size_t j;

    for (j = 0; j < i; j++)
        if (row_percent(json_array_get(m->rows, j)) > 0 &&
            same_base(json_array_get(m->rows, j), json_array_get(m->rows, i)))
            return 0;
    return 1;
}

/* meta.json's saturation rates in one line each: what the percentages are of. */
static void saturation_lines(const struct md *m)
{
    const json_t *sat = json_object_get(m->meta, "saturation");
    const char *key;
    json_t *v;

    json_object_foreach((json_t *)sat, key, v)
    {
        char rate[32], per[256] = "";
        const char *ver;
        json_t *t;
        size_t n = 0;
        snprintf(rate, sizeof(rate), "%.0f", json_number_value(json_object_get(v, "rate")));
        json_object_foreach(json_object_get(v, "closed_loop"), ver, t)
        {
            n += (size_t)snprintf(per + n, n < sizeof(per) ? sizeof(per) - n : 0, "%s%s %.0f",
                                  n ? ", " : "", ver, json_number_value(t));
        }
        fputs("- ", m->f);
        md_tmpl(m, md_t(m, M_SATURATION), rate, per, key, MD_END);
        md_put(m, "\n");
    }
}

void md_section_load(const struct md *m)
{
    size_t i, vi;
    int started = 0;

    for (i = 0; i < m->nrows; i++) {
        const json_t *row = json_array_get(m->rows, i);
        if (row_percent(row) <= 0 || !group_first(m, i))
            continue;
        if (!started)
            fprintf(m->f, "## %s\n\n", md_t(m, M_H_LOAD));
        started = 1;
        fprintf(m->f, "- %s: ", json_string_value(json_object_get(row, "label")));
        for (vi = 0; vi < m->nv; vi++) {
            char pct[32];
            double k = knee_of(m, i, md_version(m, vi));
            snprintf(pct, sizeof(pct), "%g%%", k);
            if (vi)
                md_put(m, md_t(m, M_LIST_SEP));
            md_tmpl(m, md_t(m, k > 0 ? M_KNEE_AT : M_KNEE_NEVER), pct, md_version(m, vi), MD_END);
        }
        md_put(m, "\n");
    }
    if (started)
        saturation_lines(m);
    if (started)
        md_put(m, "\n");
}
