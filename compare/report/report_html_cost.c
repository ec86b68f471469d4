/* report.html: the counted-cost section — instructions per operation per configuration and
 * version, the limits of a count next to the table, and per candidate the functions whose
 * instructions per operation changed most. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/i18n.h"
#include "report/report_html_int.h"
#include "analysis/summary.h"

#include "util/jobs_util.h"

static const json_t *first_metric(const struct html_ctx *c)
{
    size_t r;

    for (r = 0; r < c->nrows; r++) {
        const json_t *m = summary_metric(json_array_get(c->rows, r), "instructions");
        if (m)
            return m;
    }
    return NULL;
}

static void limits(const struct html_ctx *c, const json_t *mj)
{
    double slow = 0;
    size_t r;

    for (r = 0; r < c->nrows && !(slow > 0); r++) {
        const json_t *row = json_array_get(c->rows, r);
        double t = ju_num(html_values(row, "throughput", c->versions[0]), "median", 0);
        double k = ju_num(summary_metric(row, "instructions"), "throughput_counted", 0);
        slow = t > 0 && k > 0 ? t / k : 0;
    }
    fputs("<p class=\"note\">", c->f);
    if (strcmp(ju_str(mj, "counted", "server"), "driver") == 0 ||
        strcmp(ju_str(mj, "source", ""), "counters") == 0) {
        int drv = strcmp(ju_str(mj, "counted", "server"), "driver") == 0;
        char *t = i18n_fill(
            i18n(c->zh ? "zh" : "en", drv ? M_INSTR_LIMITS_DRIVER : M_INSTR_LIMITS_COUNTERS),
            drv ? ju_str(mj, "source", "valgrind") : ju_str(mj, "event", "instructions:u"),
            (const char *)NULL);
        html_esc(c, t ? t : "");
        free(t);
        fputs("</p>\n", c->f);
        return;
    }
    {
        char sd[32];
        char *t;

        snprintf(sd, sizeof(sd), "%.0f", slow);
        t = i18n_fill(i18n(c->zh ? "zh" : "en", M_INSTR_LIMITS), ju_str(mj, "source", "valgrind"),
                      "`serverCron`", slow > 0 ? sd : "?", (const char *)NULL);
        html_text(c, t ? t : "");
        free(t);
    }
    fputs("</p>\n", c->f);
}

static void functions(const struct html_ctx *c, const json_t *row, size_t v)
{
    const json_t *vs = html_vs(row, "instructions", c->versions[v]);
    const json_t *fns = json_object_get(vs, "functions"), *fn;
    char ch[32];
    size_t k, listed = 0;

    if (!model_fns_listed(c->model, fns))
        return;
    fputs("<li>", c->f);
    html_esc(c, ju_str(row, "label", NULL));
    fputs(" &middot; <code>", c->f);
    html_esc(c, c->versions[v]);
    fprintf(c->f, "</code> (%s):", html_fmt_change(ju_num(vs, "change", NAN), ch, sizeof(ch)));
    json_array_foreach(fns, k, fn)
    {
        double d = ju_num(fn, "delta", 0);

        if (model_fn_unnamed(c->model, ju_str(fn, "name", "unknown")))
            continue; /* said once below the list */
        fputs(listed++ ? ", <code>" : " <code>", c->f);
        html_esc(c, ju_str(fn, "name", "unknown"));
        fprintf(c->f, "</code> %s%.0f", d >= 0 ? "+" : "&minus;", fabs(d));
    }
    fprintf(c->f, " %s</li>\n", i18n(c->zh ? "zh" : "en", M_COL_INSTR));
}

void html_instructions(const struct html_ctx *c)
{
    const json_t *mj = first_metric(c);
    size_t r, v, k;
    char buf[128];

    if (!mj)
        return;
    fprintf(c->f, "<section id=\"instructions\">\n<h2>%s</h2>\n",
            i18n(c->zh ? "zh" : "en", M_H_INSTRUCTIONS));
    limits(c, mj);
    fprintf(c->f, "<table>\n<thead><tr><th>%s</th>", i18n(c->zh ? "zh" : "en", M_COL_CONFIG));
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
        if (!summary_metric(row, "instructions"))
            continue;
        fputs("<tr><td>", c->f);
        html_esc(c, ju_str(row, "label", NULL));
        fputs("</td>", c->f);
        for (v = 0; v < c->nv; v++)
            fprintf(c->f, "<td class=\"num\">%s</td>",
                    html_fmt_range(html_values(row, "instructions", c->versions[v]), 1, 0, buf,
                                   sizeof(buf)));
        for (v = 1; v < c->nv; v++) {
            const json_t *vs = html_vs(row, "instructions", c->versions[v]);
            const char *verdict = ju_str(vs, "verdict", "~");
            fprintf(c->f, "<td class=\"num %s\">%s ", html_verdict_class(verdict),
                    html_fmt_change(ju_num(vs, "change", NAN), buf, sizeof(buf)));
            html_esc(c, verdict);
            fputs("</td>", c->f);
        }
        fputs("</tr>\n", c->f);
    }
    fputs("</tbody>\n</table>\n", c->f);
    fprintf(c->f, "<h3>%s</h3>\n<ul>\n", i18n(c->zh ? "zh" : "en", M_H_INSTR_WHERE));
    for (r = 0; r < c->nrows; r++)
        for (v = 1; v < c->nv; v++)
            functions(c, json_array_get(c->rows, r), v);
    fputs("</ul>\n", c->f);
    for (k = 0; k < c->model->n_unnamed; k++) {
        const struct model_unnamed *u = &c->model->unnamed[k];
        char *t = i18n_fill(
            i18n(c->zh ? "zh" : "en", u->package ? M_INSTR_UNNAMED_PKG : M_INSTR_UNNAMED_SRC),
            u->name, u->path, u->package ? u->package : "", (const char *)NULL);

        fputs("<p>", c->f);
        html_text(c, t ? t : "");
        fputs("</p>\n", c->f);
        free(t);
    }
    fputs("</section>\n", c->f);
}
