/* report_md_steps: "Step by step" of a sequence run (steps.h): the steps in order, each with
 * every candidate's throughput change and verdict, and the first step whose throughput verdict
 * is regressed. Nothing for a run with a fresh server per run. */
#include <stdio.h>
#include <stdlib.h>

#include "report/report_md_int.h"
#include "report/sentences.h"
#include "report/steps.h"
#include "analysis/summary.h"
#include "util/fmt.h"
#include "util/jobs_util.h"

static void steps_head(const struct md *m)
{
    size_t vi;
    int fresh = json_object_get(m->summary, "fresh_server") != NULL;

    fprintf(m->f, "| %s | %s | ", md_t(m, M_COL_STEP), md_t(m, M_COL_CONFIG));
    md_tmpl(m, md_t(m, M_COL_KS), m->base, MD_END);
    for (vi = 1; vi < m->nv; vi++) {
        md_put(m, " | ");
        md_tmpl(m, md_t(m, M_COL_KS), md_version(m, vi), MD_END);
        md_put(m, " | ");
        md_tmpl(m, md_t(m, M_COL_VS), md_version(m, vi), m->base, MD_END);
        fprintf(m->f, " | %s", md_t(m, M_COL_VERDICT));
        if (fresh) {
            md_put(m, " | ");
            md_tmpl(m, md_t(m, M_COL_FRESH), md_version(m, vi), m->base, MD_END);
        }
    }
    md_put(m, " |\n|---:|---|---:");
    for (vi = 1; vi < m->nv; vi++)
        md_put(m, fresh ? "|---:|---:|---|---:" : "|---:|---:|---");
    md_put(m, "|\n");
}

static void steps_row(const struct md *m, size_t step, const json_t *row)
{
    size_t vi;

    fprintf(m->f, "| %zu | ", step);
    md_cell(m, md_row_label(row));
    fprintf(m->f, " | %s", num_median(summary_values(row, "throughput", m->base), 1000, 1).s);
    for (vi = 1; vi < m->nv; vi++) {
        const char *v = md_version(m, vi);
        fprintf(m->f, " | %s | %s | %s",
                num_median(summary_values(row, "throughput", v), 1000, 1).s,
                num_pct(json_object_get(summary_vs(row, "throughput", v), "change")).s,
                md_verdict_word(m, md_verdict(row, "throughput", v)));
        if (json_object_get(m->summary, "fresh_server")) {
            const json_t *f = steps_fresh_vs(row, v);
            if (f)
                fprintf(m->f, " | %s %s", num_pct(json_object_get(f, "change")).s,
                        md_verdict_word(m, ju_str(f, "verdict", "")));
            else
                md_put(m, " | " FMT_MISSING);
        }
    }
    md_put(m, " |\n");
}

void md_section_steps(const struct md *m)
{
    struct steps st = {0};
    char n[32];
    size_t i, vi;

    if (steps_find(m->summary, m->meta, &st) <= 0) {
        steps_release(&st);
        return;
    }
    fprintf(m->f, "## %s\n\n", md_t(m, M_H_STEPS));
    snprintf(n, sizeof(n), "%zu", st.n);
    md_tmpl(m, md_t(m, M_STEPS_INTRO), n, MD_END);
    if (json_object_get(m->summary, "fresh_server")) {
        md_put(m, " ");
        md_tmpl(m, md_t(m, M_STEPS_FRESH_INTRO),
                ju_str(json_object_get(m->summary, "fresh_server"), "dir", ""), MD_END);
    }
    md_put(m, "\n\n");
    steps_head(m);
    for (i = 0; i < st.n; i++)
        steps_row(m, i + 1, json_array_get(m->rows, st.row[i]));
    md_put(m, "\n");
    for (vi = 1; vi < m->nv; vi++) {
        const char *v = md_version(m, vi);
        char *s[3] = {sent_steps_first(m->rows, &st, m->base, v, m->lang),
                      sent_steps_fresh(m->rows, &st, m->base, v, m->lang),
                      sent_steps_state(m->rows, &st, m->base, v, m->lang)};
        int k;

        for (k = 0; k < 3; k++) {
            if (s[k])
                fprintf(m->f, "%s\n\n", s[k]);
            free(s[k]);
        }
    }
    steps_release(&st);
}
