/* report_md_load: a rate sweep in words. For each configuration swept over percentages of its
 * saturation rate (meta.json "saturation"), the load at which each version's median P99 first
 * passes 1 ms, e.g. "P99 passes 1 ms at 80% of saturation for the baseline and 70% for the
 * candidate". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/load_sweep.h"
#include "report/report_md_int.h"

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
        if (!load_group_first(m->rows, i))
            continue;
        if (!started)
            fprintf(m->f, "## %s\n\n", md_t(m, M_H_LOAD));
        started = 1;
        fprintf(m->f, "- %s: ", json_string_value(json_object_get(row, "label")));
        for (vi = 0; vi < m->nv; vi++) {
            char pct[32];
            double k = load_knee(m->rows, i, md_version(m, vi));
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
