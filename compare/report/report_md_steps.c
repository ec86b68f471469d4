/* report_md_steps: "Step by step" of a sequence run (steps.h): the steps in order, each with
 * every candidate's throughput change and verdict, and the first step whose throughput verdict
 * is regressed. Nothing for a run with a fresh server per run. */
#include <stdio.h>
#include <stdlib.h>

#include "report/report_md_int.h"
#include "report/sentences.h"
#include "report/steps.h"
#include "analysis/summary.h"

static void steps_head(const struct md *m)
{
    size_t vi;

    fprintf(m->f, "| %s | %s | ", md_t(m, M_COL_STEP), md_t(m, M_COL_CONFIG));
    md_tmpl(m, md_t(m, M_COL_KS), m->base, MD_END);
    for (vi = 1; vi < m->nv; vi++) {
        md_put(m, " | ");
        md_tmpl(m, md_t(m, M_COL_KS), md_version(m, vi), MD_END);
        md_put(m, " | ");
        md_tmpl(m, md_t(m, M_COL_VS), md_version(m, vi), m->base, MD_END);
        fprintf(m->f, " | %s", md_t(m, M_COL_VERDICT));
    }
    md_put(m, " |\n|---:|---|---:");
    for (vi = 1; vi < m->nv; vi++)
        md_put(m, "|---:|---:|---");
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
    md_put(m, "\n\n");
    steps_head(m);
    for (i = 0; i < st.n; i++)
        steps_row(m, i + 1, json_array_get(m->rows, st.row[i]));
    md_put(m, "\n");
    for (vi = 1; vi < m->nv; vi++) {
        char *s = sent_steps_first(m->rows, &st, m->base, md_version(m, vi), m->lang),
             *t = sent_steps_state(m->rows, &st, m->base, md_version(m, vi), m->lang);
        if (s)
            fprintf(m->f, "%s\n\n", s);
        if (t)
            fprintf(m->f, "%s\n\n", t);
        free(s);
        free(t);
    }
    steps_release(&st);
}
