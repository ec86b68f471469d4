/* report.html: the full cost of a request (see report_full.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/i18n.h"
#include "analysis/metrics.h"
#include "report/report_full.h"
#include "report/report_html_int.h"
#include "analysis/summary.h"

#include "util/jobs_util.h"

static void where(const struct html_ctx *c, const struct report_full_metric *fm)
{
    size_t r, v, k, n;
    int any = 0;

    for (r = 0; r < c->nrows; r++)
        for (v = 1; v < c->nv; v++) {
            const json_t *row = json_array_get(c->rows, r), *shown[5];

            n = report_full_where(json_object_get(html_vs(row, fm->key, c->versions[v]), fm->where),
                                  shown, 5);
            if (!n)
                continue;
            if (!any)
                fprintf(c->f, "<p>%s:</p>\n<ul>\n", i18n(c->zh ? "zh" : "en", F_WHERE));
            any = 1;
            fputs("<li>", c->f);
            html_esc(c, ju_str(row, "label", NULL));
            fputs(" &middot; <code>", c->f);
            html_esc(c, c->versions[v]);
            fputs("</code>:", c->f);
            for (k = 0; k < n; k++) {
                double d = ju_num(shown[k], "delta", 0);

                fputs(k ? ", <code>" : " <code>", c->f);
                html_esc(c, ju_str(shown[k], "name", "?"));
                fprintf(c->f, "</code> %s%.2f", d >= 0 ? "+" : "&minus;", fabs(d));
            }
            fprintf(c->f, " %s</li>\n", i18n(c->zh ? "zh" : "en", fm->unit));
        }
    if (any)
        fputs("</ul>\n", c->f);
}

static void html_full_metric(const struct html_ctx *c, const struct report_full_metric *fm,
                             double slow)
{
    const struct metric_def *d = metric_def_by_key(fm->key);
    char buf[128], sd[32];
    char *lim = report_full_collapsed(c->rows, fm, c->zh ? "zh" : "en");
    size_t r, v;

    if (lim) {
        fprintf(c->f, "<p id=\"full-%s\">", fm->key);
        html_text(c, lim);
        fputs("</p>\n", c->f);
        free(lim);
        return;
    }
    snprintf(sd, sizeof(sd), slow > 0 ? "%.0f" : "?", slow);
    fprintf(c->f, "<h3 id=\"full-%s\">", fm->key);
    html_esc(c, L(c, d->title_en, d->title_zh));
    lim = i18n_fill(i18n(c->zh ? "zh" : "en", fm->lim), sd, (const char *)NULL);
    fputs("</h3>\n<p class=\"note\">", c->f);
    html_esc(c, lim ? lim : "");
    free(lim);
    fprintf(c->f, "</p>\n<table>\n<thead><tr><th>%s</th>", i18n(c->zh ? "zh" : "en", F_COL_CONFIG));
    for (v = 0; v < c->nv; v++) {
        fputs("<th>", c->f);
        html_esc(c, c->versions[v]);
        fputs("</th>", c->f);
    }
    for (v = 1; v < c->nv; v++) {
        fputs("<th>", c->f);
        html_esc(c, c->versions[v]);
        fprintf(c->f, " %s</th>", i18n(c->zh ? "zh" : "en", F_VS));
    }
    fputs("</tr></thead>\n<tbody>\n", c->f);
    for (r = 0; r < c->nrows; r++) {
        const json_t *row = json_array_get(c->rows, r);
        if (!summary_metric(row, fm->key))
            continue;
        fputs("<tr><td>", c->f);
        html_esc(c, ju_str(row, "label", NULL));
        fputs("</td>", c->f);
        for (v = 0; v < c->nv; v++)
            fprintf(
                c->f, "<td class=\"num\">%s</td>",
                html_fmt_range(html_values(row, fm->key, c->versions[v]), 1, 3, buf, sizeof(buf)));
        for (v = 1; v < c->nv; v++) {
            const json_t *vs = html_vs(row, fm->key, c->versions[v]);
            const char *verdict = ju_str(vs, "verdict", "~");
            fprintf(c->f, "<td class=\"num %s\">%s ", html_verdict_class(verdict),
                    html_fmt_change(ju_num(vs, "change", NAN), buf, sizeof(buf)));
            html_esc(c, verdict);
            fputs("</td>", c->f);
        }
        fputs("</tr>\n", c->f);
    }
    fputs("</tbody>\n</table>\n", c->f);
    if (fm->where)
        where(c, fm);
}

void html_full_cost(const struct html_ctx *c)
{
    double slow = report_full_slowdown(c->rows, c->versions[0]);
    int k;

    if (!report_full_any(c->rows))
        return;
    fprintf(c->f, "<section id=\"full-cost\">\n<h2>%s</h2>\n<p>%s</p>\n",
            i18n(c->zh ? "zh" : "en", F_HEADING), i18n(c->zh ? "zh" : "en", F_INTRO));
    for (k = 0; k < REPORT_FULL_N; k++)
        if (report_full_has(c->rows, report_full_metrics[k].key))
            html_full_metric(
                c, &report_full_metrics[k],
                report_full_slowdown_for(c->rows, c->versions[0], &report_full_metrics[k], slow));
    fputs("</section>\n", c->f);
}
