/* report_md_tables: the comparison tables of the Markdown report — "Throughput and CPU",
 * "Latency (µs)", memory and the evidence table — for two versions (baseline/candidate
 * columns) and for three or more (one column per version, best median in bold). More than
 * MD_MAX_ROWS rows: the rows that stand out, then the full table in a <details> block. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_md_int.h"
#include "report/sentences.h"
#include "analysis/stats.h"
#include "analysis/summary.h"

#include "util/jobs_util.h"
#include "util/fmt.h"

typedef void (*row_fn)(const struct md *m, const json_t *row);

/* Writes the md_table header (given as a full "| a | b |\n|---|---|\n" block by head) and the
 * rows: all of them, or when there are many, the ones that stand out followed by the full
 * md_table inside <details>. */
static void md_table(const struct md *m, void (*head)(const struct md *m), row_fn fn)
{
    const json_t *row;
    size_t i, shown = 0;
    char a[32], b[32];
    unsigned char *pick = NULL;

    if (m->nrows <= MD_MAX_ROWS) {
        head(m);
        json_array_foreach(m->rows, i, row) fn(m, row);
        md_put(m, "\n");
        return;
    }
    pick = calloc(m->nrows, 1);
    if (pick) {
        json_array_foreach(m->rows, i, row) if (md_row_stands_out(m, row))
        {
            pick[i] = 1;
            shown++;
        }
    }
    snprintf(a, sizeof(a), "%zu", m->nrows);
    snprintf(b, sizeof(b), "%zu", shown);
    md_tmpl(m, md_t(m, M_NOTABLE_ONLY), a, b, MD_END);
    md_put(m, "\n\n");
    if (shown > 0) {
        head(m);
        json_array_foreach(m->rows, i, row) if (pick[i]) fn(m, row);
        md_put(m, "\n");
    }
    md_put(m, "<details><summary>");
    md_tmpl(m, md_t(m, M_DETAILS_FULL), a, MD_END);
    md_put(m, "</summary>\n\n");
    head(m);
    json_array_foreach(m->rows, i, row) fn(m, row);
    md_put(m, "\n</details>\n\n");
    free(pick);
}

static int any_server_cpu(const struct md *m)
{
    return m->server_cpu;
}

/* Two versions. */

static void ab_tput_head(const struct md *m)
{
    fprintf(m->f, "| %s | %s | %s | %s | %s | %s |", md_t(m, M_COL_CONFIG), md_t(m, M_COL_BASE_KS),
            md_t(m, M_COL_CAND_KS), md_t(m, M_COL_CHANGE), md_t(m, M_COL_CPU_BC),
            md_t(m, M_COL_EFF_CHANGE));
    if (any_server_cpu(m))
        fprintf(m->f, " %s |", md_t(m, M_COL_SERVER_CPU));
    fprintf(m->f, " %s |\n|---|---:|---:|---:|---:|---:|%s---|\n", md_t(m, M_COL_VERDICT),
            any_server_cpu(m) ? "---:|" : "");
}

/* After an undecided verdict of metric: why, and the runs a side that would decide it. */
static void undecided_why(const struct md *m, const json_t *row, const char *metric, const char *c)
{
    const json_t *vs = summary_vs(row, metric, c);
    const char *r = ju_str(vs, "reason", ""), *v = ju_str(vs, "verdict", "");
    enum i18n_msg id = strcmp(r, STATS_REASON_TOO_FEW) == 0     ? M_R_TOO_FEW
                       : strcmp(r, STATS_REASON_DISTURBED) == 0 ? M_R_DISTURBED
                                                                : M_R_NOISE;
    char n[32];

    if (strcmp(v, VERDICT_UNDECIDED) != 0)
        return;
    snprintf(n, sizeof(n), "%.0f", ju_num(vs, "runs_needed", 0));
    if (ju_num(vs, "runs_needed", 0) > 0)
        md_tmpl(m, md_t(m, M_R_WHY_RUNS), md_t(m, id), n, MD_END);
    else
        md_tmpl(m, md_t(m, M_R_WHY), md_t(m, id), MD_END);
}

/* Candidate c's throughput verdict, with CPU efficiency's when it says something else. */
static void tput_verdict(const struct md *m, const json_t *row, const char *c)
{
    const char *v = md_verdict(row, "throughput", c), *ev = md_verdict(row, "cpu_efficiency", c);

    md_put(m, v);
    undecided_why(m, row, "throughput", c);
    if (strcmp(ev, v) != 0 && strcmp(ev, VERDICT_SAME) != 0) {
        md_put(m, " (");
        md_tmpl(m, md_t(m, M_EFF_NOTE), ev, MD_END);
        md_put(m, ")");
    }
}

/* Candidate c's latency verdicts: "P50 x, P99 y". */
static void lat_verdict(const struct md *m, const json_t *row, const char *c)
{
    fprintf(m->f, "P50 %s", md_verdict(row, "p50_us", c));
    undecided_why(m, row, "p50_us", c);
    fprintf(m->f, ", P99 %s", md_verdict(row, "p99_us", c));
    undecided_why(m, row, "p99_us", c);
}

static void ab_tput_row(const struct md *m, const json_t *row)
{
    const char *c = md_version(m, 1);

    md_put(m, "| ");
    md_cell(m, md_row_label(row));
    fprintf(m->f, " | %s | %s | %s | %s → %s | %s |",
            num_range(summary_values(row, "throughput", m->base), 1000, 2).s,
            num_range(summary_values(row, "throughput", c), 1000, 2).s,
            num_pct(json_object_get(summary_vs(row, "throughput", c), "change")).s,
            num_median(summary_values(row, "cpu_percent", m->base), 1, 2).s,
            num_median(summary_values(row, "cpu_percent", c), 1, 2).s,
            num_pct(json_object_get(summary_vs(row, "cpu_efficiency", c), "change")).s);
    if (any_server_cpu(m))
        fprintf(m->f, " %s → %s |",
                num_median(summary_values(row, SUMMARY_SERVER_CPU, m->base), 1, 2).s,
                num_median(summary_values(row, SUMMARY_SERVER_CPU, c), 1, 2).s);
    md_put(m, " ");
    tput_verdict(m, row, c);
    md_put(m, " |\n");
}

static void ab_lat_head(const struct md *m)
{
    fprintf(m->f, "| %s | %s | %s | %s | %s | %s | %s |\n|---|---:|---:|---:|---:|---:|---|\n",
            md_t(m, M_COL_CONFIG), md_t(m, M_COL_BASE_P50), md_t(m, M_COL_CAND_P50),
            md_t(m, M_COL_BASE_P99), md_t(m, M_COL_CAND_P99), md_t(m, M_COL_P99_CHANGE),
            md_t(m, M_COL_VERDICT));
}

static void mem_verdict(const struct md *m, const json_t *row, const char *c)
{
    md_put(m, md_verdict(row, "rss_mib", c));
}

typedef void (*verdict_fn)(const struct md *m, const json_t *row, const char *c);

/* A two-version row of ranges: baseline and candidate per metric, change_metric's change,
 * then the verdict cell written by fn. */
static void ab_ranges_row(const struct md *m, const json_t *row, const char *const *metrics,
                          size_t n, const char *change_metric, verdict_fn fn)
{
    const char *c = md_version(m, 1);
    size_t i;

    md_put(m, "| ");
    md_cell(m, md_row_label(row));
    for (i = 0; i < n; i++)
        fprintf(m->f, " | %s | %s", num_range(summary_values(row, metrics[i], m->base), 1, 1).s,
                num_range(summary_values(row, metrics[i], c), 1, 1).s);
    fprintf(m->f, " | %s | ",
            num_pct(json_object_get(summary_vs(row, change_metric, c), "change")).s);
    fn(m, row, c);
    md_put(m, " |\n");
}

static const char *const lat_metrics[] = {"p50_us", "p99_us"};
static const char *const mem_metrics[] = {"rss_mib"};

static void ab_lat_row(const struct md *m, const json_t *row)
{
    ab_ranges_row(m, row, lat_metrics, 2, "p99_us", lat_verdict);
}

static void ab_mem_head(const struct md *m)
{
    fprintf(m->f, "| %s | %s | %s | %s | %s |\n|---|---:|---:|---:|---|\n", md_t(m, M_COL_CONFIG),
            md_t(m, M_COL_BASE), md_t(m, M_COL_CAND), md_t(m, M_COL_CHANGE),
            md_t(m, M_COL_VERDICT));
}

static void ab_mem_row(const struct md *m, const json_t *row)
{
    ab_ranges_row(m, row, mem_metrics, 1, "rss_mib", mem_verdict);
}

/* N versions: one column per version, the best median in bold. */

static size_t best_index(const struct md *m, const json_t *row, const char *metric, int higher)
{
    size_t vi, best = (size_t)-1;
    double bv = 0;

    for (vi = 0; vi < m->nv; vi++) {
        const json_t *v = summary_values(row, metric, md_version(m, vi));
        double x;

        if (!v)
            continue;
        x = ju_num(v, "median", NAN);
        if (!isfinite(x))
            continue;
        if (best == (size_t)-1 || (higher ? x > bv : x < bv)) {
            best = vi;
            bv = x;
        }
    }
    return best;
}

static void nway_cells(const struct md *m, const json_t *row, const char *metric, int higher,
                       double div, int decimals)
{
    size_t vi, best = best_index(m, row, metric, higher);

    for (vi = 0; vi < m->nv; vi++) {
        const json_t *v = summary_values(row, metric, md_version(m, vi));

        if (vi == best)
            fprintf(m->f, " **%s** |", num_range(v, div, decimals).s);
        else
            fprintf(m->f, " %s |", num_range(v, div, decimals).s);
    }
}

static void nway_version_cols(const struct md *m, const char *suffix)
{
    size_t vi;

    for (vi = 0; vi < m->nv; vi++)
        fprintf(m->f, " `%s`%s |", md_version(m, vi), suffix);
}

static void nway_tput_head(const struct md *m)
{
    size_t vi;

    fprintf(m->f, "| %s |", md_t(m, M_COL_CONFIG));
    nway_version_cols(m, " k/s");
    for (vi = 1; vi < m->nv; vi++) {
        md_put(m, " ");
        md_tmpl(m, md_t(m, M_COL_VS), md_version(m, vi), m->base, MD_END);
        md_put(m, " |");
    }
    fprintf(m->f, " %s (", md_t(m, M_COL_CPU));
    for (vi = 0; vi < m->nv; vi++)
        fprintf(m->f, "%s%s", vi ? " → " : "", md_version(m, vi));
    fprintf(m->f, ") | %s (", md_t(m, M_COL_EFF_CHANGE));
    for (vi = 1; vi < m->nv; vi++)
        fprintf(m->f, "%s%s", vi > 1 ? " / " : "", md_version(m, vi));
    fprintf(m->f, ") | %s (", md_t(m, M_COL_VERDICT));
    for (vi = 1; vi < m->nv; vi++)
        fprintf(m->f, "%s%s", vi > 1 ? " / " : "", md_version(m, vi));
    md_put(m, ") |\n|---|");
    for (vi = 0; vi < 2 * m->nv - 1; vi++)
        md_put(m, "---:|");
    md_put(m, "---:|---:|---|\n");
}

/* The verdict cell of an N-way row: each candidate's verdict, " / " between them. */
static void nway_verdicts(const struct md *m, const json_t *row, verdict_fn fn)
{
    size_t vi;

    md_put(m, " ");
    for (vi = 1; vi < m->nv; vi++) {
        md_put(m, vi > 1 ? " / " : "");
        fn(m, row, md_version(m, vi));
    }
    md_put(m, " |\n");
}

static void nway_tput_row(const struct md *m, const json_t *row)
{
    size_t vi;

    md_put(m, "| ");
    md_cell(m, md_row_label(row));
    md_put(m, " |");
    nway_cells(m, row, "throughput", 1, 1000, 2);
    for (vi = 1; vi < m->nv; vi++)
        fprintf(
            m->f, " %s |",
            num_pct(json_object_get(summary_vs(row, "throughput", md_version(m, vi)), "change")).s);
    md_put(m, " ");
    for (vi = 0; vi < m->nv; vi++)
        fprintf(m->f, "%s%s", vi ? " → " : "",
                num_median(summary_values(row, "cpu_percent", md_version(m, vi)), 1, 2).s);
    md_put(m, " | ");
    for (vi = 1; vi < m->nv; vi++)
        fprintf(
            m->f, "%s%s", vi > 1 ? " / " : "",
            num_pct(json_object_get(summary_vs(row, "cpu_efficiency", md_version(m, vi)), "change"))
                .s);
    md_put(m, " |");
    nway_verdicts(m, row, tput_verdict);
}

/* The header of an N-way table of per-version ranges: a column per version for each suffix
 * (" P50", " P99"; "" for one group), then the verdict. */
static void nway_ranges_head(const struct md *m, const char *const *suffixes, size_t n)
{
    size_t vi;

    fprintf(m->f, "| %s |", md_t(m, M_COL_CONFIG));
    for (vi = 0; vi < n; vi++)
        nway_version_cols(m, suffixes[vi]);
    fprintf(m->f, " %s |\n|---|", md_t(m, M_COL_VERDICT));
    for (vi = 0; vi < n * m->nv; vi++)
        md_put(m, "---:|");
    md_put(m, "---|\n");
}

/* An N-way row of ranges: every version's range per metric, then fn's verdict per candidate. */
static void nway_ranges_row(const struct md *m, const json_t *row, const char *const *metrics,
                            size_t n, verdict_fn fn)
{
    size_t i;

    md_put(m, "| ");
    md_cell(m, md_row_label(row));
    md_put(m, " |");
    for (i = 0; i < n; i++)
        nway_cells(m, row, metrics[i], 0, 1, 1);
    nway_verdicts(m, row, fn);
}

static void nway_lat_head(const struct md *m)
{
    static const char *const suffixes[] = {" P50", " P99"};

    nway_ranges_head(m, suffixes, 2);
}

static void nway_lat_row(const struct md *m, const json_t *row)
{
    nway_ranges_row(m, row, lat_metrics, 2, lat_verdict);
}

static void nway_mem_head(const struct md *m)
{
    static const char *const suffixes[] = {""};

    nway_ranges_head(m, suffixes, 1);
}

static void nway_mem_row(const struct md *m, const json_t *row)
{
    nway_ranges_row(m, row, mem_metrics, 1, mem_verdict);
}

/* ---- evidence ---- */

static void evid_head(const struct md *m)
{
    size_t vi;

    fprintf(m->f, "| %s |", md_t(m, M_COL_CONFIG));
    for (vi = 1; vi < m->nv; vi++) {
        const char *sfx = m->nv > 2 ? md_version(m, vi) : NULL;

        if (sfx)
            fprintf(m->f, " %s (`%s`) | %s (`%s`) | %s (`%s`) | %s (`%s`) |", md_t(m, M_COL_P_TPUT),
                    sfx, md_t(m, M_COL_PAIRED), sfx, md_t(m, M_COL_OVERLAP), sfx,
                    md_t(m, M_COL_P_P99), sfx);
        else
            fprintf(m->f, " %s | %s | %s | %s |", md_t(m, M_COL_P_TPUT), md_t(m, M_COL_PAIRED),
                    md_t(m, M_COL_OVERLAP), md_t(m, M_COL_P_P99));
    }
    md_put(m, "\n|---|");
    for (vi = 1; vi < m->nv; vi++)
        md_put(m, "---:|---:|---|---:|");
    md_put(m, "\n");
}

static struct num num_p(const json_t *vs)
{
    return num_fixed(ju_num(vs, "p", NAN), 4);
}

static void evid_row(const struct md *m, const json_t *row)
{
    size_t vi;

    md_put(m, "| ");
    md_cell(m, md_row_label(row));
    md_put(m, " |");
    for (vi = 1; vi < m->nv; vi++) {
        const char *c = md_version(m, vi);
        const json_t *vs = summary_vs(row, "throughput", c), *pr, *ov;

        pr = json_object_get(vs, "paired_ratio");
        ov = json_object_get(vs, "overlap");
        fprintf(m->f, " %s | %s | %s | %s |", num_p(vs).s, num_range(pr, 1, 4).s,
                json_is_boolean(ov) ? md_t(m, json_is_true(ov) ? M_YES : M_NO) : FMT_MISSING,
                num_p(summary_vs(row, "p99_us", c)).s);
    }
    md_put(m, "\n");
}

void md_evidence(const struct md *m)
{
    const json_t *th = json_object_get(m->summary, "thresholds_pct");
    const json_t *ch = json_object_get(m->summary, "chance");
    long long rounds = (long long)ju_num(m->summary, "rounds", 0);
    char *ths, *fam, r[32], comb[32], comp[32];
    double c = 1;
    long long i;

    fprintf(m->f, "## %s\n\n", md_t(m, M_H_EVIDENCE));
    ths = md_tmpl_str(md_t(m, M_THRESHOLDS), num_fixed(ju_num(th, "throughput", 5), 0).s,
                      num_fixed(ju_num(th, "cpu_efficiency", 5), 0).s,
                      num_fixed(ju_num(th, "p50_us", 5), 0).s,
                      num_fixed(ju_num(th, "p99_us", 10), 0).s,
                      num_fixed(ju_num(th, "rss_mib", 10), 0).s, MD_END);
    md_tmpl(m, md_t(m, M_EVID_RULE), ths ? ths : "",
            num_fixed(ju_num(th, "noise_limit_pct", 20), 0).s, MD_END);
    free(ths);
    md_put(m, "\n\n");
    if (rounds >= 2 && rounds <= 30) {
        for (i = 1; i <= rounds; i++)
            c = c * (double)(rounds + i) / (double)i;
        snprintf(r, sizeof(r), "%lld", rounds);
        snprintf(comb, sizeof(comb), "%.0f", c);
        md_tmpl(m, md_t(m, M_EVID_MWU), r, comb, num_fixed(2 / c, 4).s,
                num_fixed(2 / ldexp(1, (int)rounds), 4).s, MD_END);
        md_put(m, md_t(m, M_SENT_SEP));
    }
    fam = sent_floor(ch, m->lang);
    if (fam) {
        md_put(m, fam);
        md_put(m, md_t(m, M_SENT_SEP));
        free(fam);
    }
    fam = sent_family(ch, m->lang);
    if (fam) {
        md_put(m, fam);
        md_put(m, md_t(m, M_SENT_SEP));
        free(fam);
    }
    snprintf(comp, sizeof(comp), "%lld", (long long)ju_num(ch, "comparisons", 0));
    md_tmpl(m, md_t(m, M_EVID_CHANCE), comp,
            num_fixed(ju_num(ch, "expected_false_flags", NAN), 2).s,
            num_fixed(ju_num(ch, "expected_disjoint_by_chance", NAN), 2).s, MD_END);
    md_put(m, "\n\n");
    md_put(m, md_t(m, M_EVID_TABLE));
    md_put(m, "\n\n");
    if (m->nrows > MD_MAX_ROWS) {
        char a[32];

        snprintf(a, sizeof(a), "%zu", m->nrows);
        md_put(m, "<details><summary>");
        md_tmpl(m, md_t(m, M_DETAILS_FULL), a, MD_END);
        md_put(m, "</summary>\n\n");
    }
    {
        const json_t *row;
        size_t k;

        evid_head(m);
        json_array_foreach(m->rows, k, row) evid_row(m, row);
    }
    md_put(m, m->nrows > MD_MAX_ROWS ? "\n</details>\n\n" : "\n");
}

void md_table_throughput(const struct md *m)
{
    if (m->nv > 2)
        md_table(m, nway_tput_head, nway_tput_row);
    else
        md_table(m, ab_tput_head, ab_tput_row);
}

void md_table_latency(const struct md *m)
{
    if (m->nv > 2)
        md_table(m, nway_lat_head, nway_lat_row);
    else
        md_table(m, ab_lat_head, ab_lat_row);
}

void md_table_memory(const struct md *m)
{
    if (m->nv > 2)
        md_table(m, nway_mem_head, nway_mem_row);
    else
        md_table(m, ab_mem_head, ab_mem_row);
}
