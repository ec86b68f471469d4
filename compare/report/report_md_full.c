/* report.md: the full cost of a request (see report_full.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics.h"
#include "report/report_full.h"
#include "report/report_md_int.h"
#include "analysis/summary.h"

#include "util/jobs_util.h"

/* Per configuration and candidate, the names whose figure changed most (report_full_where). */
static void md_where(const struct md *m, const struct report_full_metric *fm)
{
    const json_t *row, *shown[5];
    size_t i, vi, k, n;
    int any = 0;

    json_array_foreach(m->rows, i, row)
    {
        for (vi = 1; vi < m->nv; vi++) {
            n = report_full_where(
                json_object_get(summary_vs(row, fm->key, md_version(m, vi)), fm->where), shown, 5);
            if (!n)
                continue;
            if (!any)
                fprintf(m->f, "%s:\n\n", md_t(m, F_WHERE));
            any = 1;
            md_put(m, "- ");
            md_cell(m, md_row_label(row));
            fprintf(m->f, " · `%s`:", md_version(m, vi));
            for (k = 0; k < n; k++) {
                double d = ju_num(shown[k], "delta", 0);

                fprintf(m->f, "%s `", k ? "," : "");
                md_cell(m, ju_str(shown[k], "name", "?"));
                fprintf(m->f, "` %s%.2f", d >= 0 ? "+" : "−", fabs(d));
            }
            fprintf(m->f, " %s\n", md_t(m, fm->unit));
        }
    }
    if (any)
        md_put(m, "\n");
}

static void md_metric(const struct md *m, const struct report_full_metric *fm, double slow)
{
    const struct metric_def *d = metric_def_by_key(fm->key);
    char *one = report_full_collapsed(m->rows, fm, m->lang);
    const json_t *row;
    char sd[32];
    size_t i, vi;

    if (one) {
        fprintf(m->f, "%s\n\n", one);
        free(one);
        return;
    }
    fprintf(m->f, "### %s\n\n", strcmp(m->lang, "zh") == 0 ? d->title_zh : d->title_en);
    if (slow > 0)
        snprintf(sd, sizeof(sd), "%.0f", slow);
    else
        snprintf(sd, sizeof(sd), "?");
    md_tmpl(m, md_t(m, fm->lim), sd, MD_END);
    fprintf(m->f, "\n\n| %s", md_t(m, F_COL_CONFIG));
    for (vi = 0; vi < m->nv; vi++)
        fprintf(m->f, " | `%s`", md_version(m, vi));
    for (vi = 1; vi < m->nv; vi++)
        fprintf(m->f, " | `%s` %s", md_version(m, vi), md_t(m, F_VS));
    md_put(m, " |\n|---");
    for (vi = 0; vi < 2 * m->nv - 1; vi++)
        md_put(m, "|---:");
    md_put(m, "|\n");
    json_array_foreach(m->rows, i, row)
    {
        if (!summary_metric(row, fm->key))
            continue;
        md_put(m, "| ");
        md_cell(m, md_row_label(row));
        for (vi = 0; vi < m->nv; vi++)
            fprintf(m->f, " | %s",
                    num_range(summary_values(row, fm->key, md_version(m, vi)), 1, 3).s);
        for (vi = 1; vi < m->nv; vi++)
            fprintf(
                m->f, " | %s %s",
                num_pct(json_object_get(summary_vs(row, fm->key, md_version(m, vi)), "change")).s,
                md_verdict(row, fm->key, md_version(m, vi)));
        md_put(m, " |\n");
    }
    md_put(m, "\n");
    if (fm->where)
        md_where(m, fm);
}

void md_section_full_cost(const struct md *m)
{
    double slow = report_full_slowdown(m->rows, m->base);
    int k;

    if (!report_full_any(m->rows))
        return;
    fprintf(m->f, "## %s\n\n%s\n\n", md_t(m, F_HEADING), md_t(m, F_INTRO));
    for (k = 0; k < REPORT_FULL_N; k++)
        if (report_full_has(m->rows, report_full_metrics[k].key))
            md_metric(m, &report_full_metrics[k],
                      report_full_slowdown_for(m->rows, m->base, &report_full_metrics[k], slow));
}
