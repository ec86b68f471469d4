/* report.md: the counted-cost section — instructions per operation per row and version,
 * the honest limits of a count, and the functions whose instructions per operation changed
 * most (summary_cost.h). Written only when the summary holds counted runs. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_md_int.h"
#include "analysis/summary.h"

#include "util/jobs_util.h"

static const json_t *first_metric(const struct md *m)
{
    size_t i;
    const json_t *row;

    json_array_foreach(m->rows, i, row)
    {
        const json_t *mj = summary_metric(row, "instructions");
        if (mj)
            return mj;
    }
    return NULL;
}

/* Median timed throughput over median counted throughput of the baseline, or 0. */
static double slowdown(const struct md *m)
{
    size_t i;
    const json_t *row;

    json_array_foreach(m->rows, i, row)
    {
        double t = ju_num(summary_values(row, "throughput", m->base), "median", 0);
        double c = ju_num(summary_metric(row, "instructions"), "throughput_counted", 0);
        if (t > 0 && c > 0)
            return t / c;
    }
    return 0;
}

static void where(const struct md *m)
{
    size_t i, vi, k;
    const json_t *row, *fn;
    int any = 0, unsym = 0;
    size_t listed;

    json_array_foreach(m->rows, i, row)
    {
        for (vi = 1; vi < m->nv; vi++) {
            const json_t *fns =
                json_object_get(summary_vs(row, "instructions", md_version(m, vi)), "functions");
            if (!model_fns_listed(m->model, fns))
                continue;
            if (!any) {
                fprintf(m->f, "### %s\n\n%s\n\n", md_t(m, M_H_INSTR_WHERE), md_t(m, M_INSTR_WHERE));
                any = 1;
            }
            md_put(m, "- ");
            md_cell(m, md_row_label(row));
            fprintf(m->f, " · `%s` (%s): ", md_version(m, vi),
                    num_pct(json_object_get(summary_vs(row, "instructions", md_version(m, vi)),
                                            "change"))
                        .s);
            listed = 0;
            json_array_foreach(fns, k, fn)
            {
                double d = ju_num(fn, "delta", 0);
                const char *name = ju_str(fn, "name", "unknown");

                if (model_fn_unnamed(m->model, name))
                    continue; /* said once below */
                fprintf(m->f, "%s`", listed++ ? ", " : "");
                md_cell(m, name);
                unsym |= strncmp(name, "unknown", 7) == 0;
                fprintf(m->f, "` %s%.0f", d >= 0 ? "+" : "−", fabs(d));
            }
            fprintf(m->f, " %s\n", md_t(m, M_COL_INSTR));
        }
    }
    if (any)
        md_put(m, "\n");
    for (k = 0; any && k < m->model->n_unnamed; k++) {
        const struct model_unnamed *u = &m->model->unnamed[k];

        i18n_write(m->f, md_t(m, u->package ? M_INSTR_UNNAMED_PKG : M_INSTR_UNNAMED_SRC), u->name,
                   u->path, u->package ? u->package : "", (const char *)NULL);
        md_put(m, "\n\n");
    }
    if (unsym)
        fprintf(m->f, "%s\n\n", md_t(m, M_INSTR_NO_SYMBOLS));
}

/* The clock of exact counts (vs.exact.clock): virtual, with its rates, or real; nothing for
 * an older dataset. */
static void exact_clock(const struct md *m, const json_t *clock)
{
    char q[32], st[32];

    if (strcmp(ju_str(clock, "kind", ""), "virtual") == 0) {
        snprintf(q, sizeof(q), "%g", ju_num(clock, "quantum_ns", 0) / 1000);
        snprintf(st, sizeof(st), "%g", ju_num(clock, "read_step_ns", 0) / 1000);
        i18n_write(m->f, md_t(m, M_EXACT_CLOCK), q, st, (const char *)NULL);
    } else if (strcmp(ju_str(clock, "kind", ""), "real") == 0) {
        md_put(m, md_t(m, M_EXACT_CLOCK_REAL));
    }
}

/* How each candidate's counted cost was decided: by seed pairs (exact counts: the seeds and
 * each pair's change) or by the runs, with why a version was not exact (summary_cost.h). */
static void exact_lines(const struct md *m)
{
    size_t i, vi, k;
    const json_t *row, *p;

    json_array_foreach(m->rows, i, row)
    {
        for (vi = 1; vi < m->nv; vi++) {
            const json_t *ex =
                json_object_get(summary_vs(row, "instructions", md_version(m, vi)), "exact");
            if (!ex)
                continue;
            md_put(m, "- ");
            md_cell(m, md_row_label(row));
            fprintf(m->f, " · `%s`: ", md_version(m, vi));
            if (strcmp(ju_str(ex, "rule", ""), "seed pairs") == 0) {
                char thr[32], seed[32], ch[32];
                snprintf(thr, sizeof(thr), "%.2f", ju_num(ex, "threshold_pct", 0));
                i18n_write(m->f, md_t(m, M_EXACT_PAIRS), thr, (const char *)NULL);
                json_array_foreach(json_object_get(ex, "pairs"), k, p)
                {
                    snprintf(seed, sizeof(seed), "%.0f", ju_num(p, "seed", 0));
                    snprintf(ch, sizeof(ch), "%+.3f", ju_num(p, "change", 0) * 100);
                    md_put(m, k ? "," : "");
                    i18n_write(m->f, md_t(m, M_EXACT_PAIR), seed, ch, (const char *)NULL);
                }
                exact_clock(m, json_object_get(ex, "clock"));
                md_put(m, "\n");
                continue;
            }
            i18n_write(m->f, md_t(m, M_EXACT_NOT), m->base,
                       ju_str(ex, "baseline", md_t(m, M_EXACT_IS)), md_version(m, vi),
                       ju_str(ex, "candidate", md_t(m, M_EXACT_IS)), (const char *)NULL);
            md_put(m, "\n");
        }
    }
    md_put(m, "\n");
}

void md_section_instructions(const struct md *m)
{
    const json_t *mj = first_metric(m), *row;
    char sd[32], excl[64];
    size_t i, vi;

    if (!mj)
        return;
    snprintf(sd, sizeof(sd), "%.0f", slowdown(m));
    snprintf(excl, sizeof(excl), "`serverCron`");
    fprintf(m->f, "## %s\n\n", md_t(m, M_H_INSTRUCTIONS));
    if (strcmp(ju_str(mj, "counted", "server"), "driver") == 0)
        md_tmpl(m, md_t(m, M_INSTR_LIMITS_DRIVER), ju_str(mj, "source", "valgrind"), MD_END);
    else if (strcmp(ju_str(mj, "source", ""), "counters") == 0)
        md_tmpl(m, md_t(m, M_INSTR_LIMITS_COUNTERS), ju_str(mj, "event", "instructions:u"), MD_END);
    else
        md_tmpl(m, md_t(m, M_INSTR_LIMITS), ju_str(mj, "source", "valgrind"), excl,
                slowdown(m) > 0 ? sd : "?", MD_END);
    md_put(m, "\n\n| ");
    md_put(m, md_t(m, M_COL_VTM));
    for (vi = 0; vi < m->nv; vi++)
        fprintf(m->f, " | `%s`", md_version(m, vi));
    for (vi = 1; vi < m->nv; vi++)
        fprintf(m->f, " | `%s` vs `%s`", md_version(m, vi), m->base);
    md_put(m, " |\n|---");
    for (vi = 0; vi < 2 * m->nv - 1; vi++)
        md_put(m, "|---:");
    md_put(m, "|\n");
    json_array_foreach(m->rows, i, row)
    {
        if (!summary_metric(row, "instructions"))
            continue;
        md_put(m, "| ");
        md_cell(m, md_row_label(row));
        for (vi = 0; vi < m->nv; vi++)
            fprintf(m->f, " | %s",
                    num_range(summary_values(row, "instructions", md_version(m, vi)), 1, 0).s);
        for (vi = 1; vi < m->nv; vi++)
            fprintf(m->f, " | %s %s",
                    num_pct(json_object_get(summary_vs(row, "instructions", md_version(m, vi)),
                                            "change"))
                        .s,
                    md_verdict(row, "instructions", md_version(m, vi)));
        md_put(m, " |\n");
    }
    md_put(m, "\n");
    exact_lines(m);
    where(m);
}
