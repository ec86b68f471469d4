/* report_md: the Markdown report. Layout (docs/architecture.md#summary, seed comparison report):
 * title, method line, summary paragraph (notable rows in words, whether the throughput ranges
 * overlap, the cause not confirmed), completeness and weaknesses, "Throughput and CPU", "Latency
 * (µs)", memory, evidence (exact p, chance flags), then environment/provenance/reproduce
 * (report_md_env.c). Two versions: baseline/candidate columns; three or more: one column per
 * version with the best value in bold; one version: the "Detailed results" page. More than
 * MD_MAX_ROWS rows: the tables show the rows that stand out and the full table goes into a
 * collapsible <details> block. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/confirm_words.h"
#include "report/report_md.h"
#include "report/report_md_int.h"
#include "report/sentences.h"
#include "report/window_text.h"
#include "analysis/stats.h"
#include "analysis/summary.h"

#include "util/jobs_util.h"
#include "util/fmt.h"

static void md_window(const struct md *m);

/* ---- words for the summary ---- */

const char *md_verdict_word(const struct md *m, const char *v)
{
    return sent_verdict_word(m->lang, v);
}

/* Writes items (already formatted strings) as a sentence list: "a, b and c", at most
 * MD_LIST_MAX then "and N more". */

/* ---- summary paragraph ---- */

static char *flag_text(const struct md *m, const json_t *row, const char *ver)
{
    char *s = NULL;
    size_t n = 0, i;
    FILE *f = open_memstream(&s, &n);
    int first = 1;

    if (!f)
        return NULL;
    for (i = 0; i < METRIC_ALL; i++) { /* counted metrics (instructions) included */
        const char *v = md_verdict(row, metric_name((enum metric)i), ver);

        if (!metric_gateable((enum metric)i))
            continue;
        if (strcmp(v, VERDICT_REGRESSED) != 0 && strcmp(v, VERDICT_IMPROVED) != 0)
            continue;
        if (!first)
            fputs(md_t(m, M_LIST_SEP), f);
        first = 0;
        {
            struct md fm = *m;

            fm.f = f;
            md_tmpl(&fm, md_t(m, M_FLAG), md_t(m, i18n_metric_msg(i)), md_verdict_word(m, v),
                    MD_END);
        }
    }
    fclose(f);
    return s;
}

/* The notable rows of candidate vi (or the largest throughput changes when none), then
 * whether its throughput ranges overlap the baseline's: the model's facts in words. */
static void summary_for(const struct md *m, size_t vi)
{
    const struct model_candidate *c = &m->model->cand[vi];
    const char *ver = c->version;
    char **items = calloc(m->nrows + 1, sizeof(*items)), *s;
    size_t k = 0;

    if (!items)
        return;
    if (c->n_notable > 0) {
        for (k = 0; k < c->n_notable; k++) {
            const json_t *row = json_array_get(m->rows, c->notable[k]);
            char *flags = flag_text(m, row, ver);

            items[k] = md_tmpl_str(
                md_t(m, M_NOTABLE_ITEM), md_row_label(row),
                num_pct(json_object_get(summary_vs(row, "throughput", ver), "change")).s,
                num_pct(json_object_get(summary_vs(row, "p99_us", ver), "change")).s,
                flags ? flags : "", MD_END);
            free(flags);
        }
        s = sent_notable_intro(m->model, vi, m->lang);
        md_put(m, s ? s : "");
        free(s);
        md_put_list(m, items, k);
        md_put(m, md_t(m, M_PERIOD));
    } else if (c->n_changed == 0) {
        md_put(m, md_t(m, M_NO_DATA));
    } else {
        md_tmpl(m, md_t(m, M_NONE_NOTABLE), ver, m->base, MD_END);
        for (k = 0; k < c->n_changed && k < 2; k++) {
            const json_t *r = json_array_get(m->rows, c->by_change[k]);

            items[k] = md_tmpl_str(
                md_t(m, M_CHANGE_ITEM), md_row_label(r),
                num_pct(json_object_get(summary_vs(r, "throughput", ver), "change")).s,
                num_pct(json_object_get(summary_vs(r, "p99_us", ver), "change")).s, MD_END);
        }
        md_put_list(m, items, k);
        md_put(m, md_t(m, M_PERIOD));
    }
    md_put(m, md_t(m, M_SENT_SEP));
    md_free_items(items, k);
    if (c->n_overlap_known > 0 && c->n_disjoint == 0) {
        md_tmpl(m, md_t(m, M_OVERLAP_ALL), m->base, ver, MD_END);
    } else if (c->n_overlap_known > 0) {
        char a[32], b[32], *list = sent_rows(m->model, c->disjoint, c->n_disjoint, m->lang);

        snprintf(a, sizeof(a), "%zu", c->n_disjoint);
        snprintf(b, sizeof(b), "%zu", c->n_overlap_known);
        md_tmpl(m, md_t(m, M_OVERLAP_SOME), m->base, ver, a, b, list ? list : "", MD_END);
        free(list);
    }
    md_put(m, "\n\n");
}

/* The rows with failed or missing runs, and the rows left undecided (with why), named in the
 * summary so that a reader of the first paragraph knows. */
static void unjudged(const struct md *m)
{
    char *s = sent_unjudged(m->model, m->lang);

    if (s) {
        md_put(m, s);
        md_put(m, "\n\n");
    }
    free(s);
    s = sent_undecided(m->model, m->lang);
    if (s) {
        md_put(m, s);
        md_put(m, "\n\n");
    }
    free(s);
}

/* ---- completeness and weaknesses ---- */

/* meta.json "confirmation" (confirm.c): the cap and the rows that got extra rounds. */
static void confirmation(const struct md *m)
{
    const json_t *c = json_object_get(m->meta, "confirmation"), *rows, *n, *row;
    const char *id;
    char cap[32], *list = NULL;
    size_t len = 0, i;
    FILE *f;

    if (!json_is_object(c))
        return;
    rows = json_object_get(c, "rows");
    snprintf(cap, sizeof(cap), "%lld", (long long)ju_num(c, "max_extra_rounds", 0));
    md_put(m, "\n- ");
    if (json_object_size(rows) == 0) {
        md_tmpl(m, md_t(m, M_CONFIRM_NONE), cap, MD_END);
        return;
    }
    f = open_memstream(&list, &len);
    if (!f)
        return;
    json_object_foreach((json_t *)rows, id, n)
    {
        const char *label = id;
        const json_t *found = NULL;
        char k[32], p[256] = "";
        struct md sub = *m;
        size_t vi, used = 0;

        json_array_foreach(m->rows, i, row)
        {
            if (strcmp(ju_str(row, "config", ""), id) == 0) {
                label = md_row_label(row);
                found = row;
            }
        }
        /* what its verdict used: throughput's paired change and signed-rank p, per candidate */
        for (vi = 1; vi < m->nv && used < sizeof(p); vi++) {
            char one[96];

            confirm_paired_text(summary_vs(found, "throughput", md_version(m, vi)), one,
                                sizeof(one));
            used += (size_t)snprintf(p + used, sizeof(p) - used, "%s%s", vi > 1 ? " / " : "", one);
        }
        snprintf(k, sizeof(k), "%lld", (long long)json_integer_value(n));
        if (ftell(f) > 0)
            fputs(md_t(m, M_LIST_SEP), f);
        sub.f = f;
        md_tmpl(&sub, md_t(m, M_CONFIRM_ROW), label, k, p, MD_END);
    }
    fclose(f);
    md_tmpl(m, md_t(m, M_CONFIRM_ROWS), cap, list ? list : "", MD_END);
    free(list);
}

/* One sentence of the model as a list item ("- ..."), bold when asked. */
static void md_item(const struct md *m, char *s, int bold)
{
    md_put(m, bold ? "- **" : "- ");
    md_put(m, s ? s : "");
    md_put(m, bold ? "**\n" : "\n");
    free(s);
}

/* The failed runs and the incomplete rows, one item each. */
static void failures(const struct md *m)
{
    const json_t *row, *f;
    size_t i, j;
    char s[2][32];

    json_array_foreach(m->rows, i, row)
    {
        const json_t *runs = json_object_get(row, "runs");

        json_array_foreach(json_object_get(row, "failures"), j, f)
        {
            snprintf(s[0], sizeof(s[0]), "%lld", (long long)ju_num(f, "round", 0));
            md_put(m, "- ");
            md_tmpl(m, md_t(m, M_FAILED_RUN), md_row_label(row), ju_str(f, "version", "?"), s[0],
                    ju_str(f, "reason", "?"), MD_END);
            md_put(m, "\n");
        }
        if (strcmp(ju_str(row, "status", ""), "incomplete") == 0) {
            snprintf(s[0], sizeof(s[0]), "%lld", (long long)ju_num(runs, "ok", 0));
            snprintf(s[1], sizeof(s[1]), "%lld", (long long)ju_num(runs, "expected", 0));
            md_put(m, "- ");
            md_tmpl(m, md_t(m, M_INCOMPLETE_ROW), md_row_label(row), s[0], s[1], MD_END);
            md_put(m, "\n");
        }
    }
}

static void completeness(const struct md *m)
{
    const struct report_model *rm = m->model;
    char *s = sent_completeness(rm, m->lang);
    size_t i;

    fprintf(m->f, "## %s\n\n", md_t(m, M_H_COMPLETENESS));
    md_put(m, "- ");
    md_put(m, s ? s : "");
    free(s);
    if (rm->runs_replaced > 0) {
        char n[32];

        snprintf(n, sizeof(n), "%lld", rm->runs_replaced);
        md_put(m, md_t(m, M_SENT_SEP));
        md_tmpl(m, md_t(m, M_REPLACED), n, MD_END);
    }
    confirmation(m);
    md_put(m, "\n- ");
    s = sent_driver_errors(rm, m->lang);
    md_put(m, s ? s : "");
    free(s);
    md_put(m, "\n");
    s = sent_reopened(rm, m->lang);
    if (s) {
        md_put(m, "- ");
        md_put(m, s);
        md_put(m, "\n");
    }
    free(s);
    s = sent_series(rm, m->lang);
    if (s) {
        md_put(m, "- ");
        md_put(m, s);
        md_put(m, "\n");
    }
    free(s);
    failures(m);
    md_put(m, "\n");
    md_put(m, md_t(m, M_WEAKNESSES));
    md_put(m, "\n\n");
    for (i = 0; i < rm->n_weak; i++)
        md_item(m, sent_weakness(rm, &rm->weak[i], m->lang), rm->weak[i].kind == WEAK_HASH);
    if (rm->n_weak == 0)
        md_item(m, sent_weakness(rm, NULL, m->lang), 0);
    md_put(m, "\n");
}

/* ---- layouts ---- */

static void method(const struct md *m, enum i18n_msg id)
{
    const json_t *st = json_object_get(m->meta, "settings");
    char runs[32], steps[32];

    snprintf(runs, sizeof(runs), "%lld", (long long)ju_num(m->summary, "rounds", 0));
    snprintf(steps, sizeof(steps), "%zu", m->nrows);
    if (id == M_METHOD && json_is_true(json_object_get(st, "sequence")))
        id = M_METHOD_SEQ; /* one server per version and round (report_md_steps.c) */
    md_tmpl(m, md_t(m, id), runs,
            json_is_number(json_object_get(st, "warmup")) ? num_fixed(ju_num(st, "warmup", 0), 2).s
                                                          : md_t(m, M_UNKNOWN),
            json_is_number(json_object_get(st, "duration"))
                ? num_fixed(ju_num(st, "duration", 0), 2).s
                : md_t(m, M_UNKNOWN),
            steps, MD_END);
    md_put(m, "\n\n");
}

/* The latency definition; rows at a fixed rate count from the due time (docs/driver.md). */
static void latency_definition(const struct md *m)
{
    size_t i;

    fprintf(m->f, "%s", md_t(m, M_DEF_LATENCY));
    for (i = 0; i < m->nrows; i++) {
        const json_t *rate =
            json_object_get(json_object_get(json_array_get(m->rows, i), "params"), "rate");

        if (rate && !json_is_null(rate)) {
            fprintf(m->f, "%s%s", md_t(m, M_SENT_SEP), md_t(m, M_DEF_LATENCY_RATE));
            break;
        }
    }
    md_put(m, "\n\n");
}

static void definitions(const struct md *m, int latency)
{
    fprintf(m->f, "%s%s%s%s%s", md_t(m, M_DEF_THROUGHPUT), md_t(m, M_SENT_SEP), md_t(m, M_DEF_CPU),
            md_t(m, M_SENT_SEP), md_t(m, M_DEF_EFFICIENCY));
    if (m->nv > 1)
        fprintf(m->f, "%s%s", md_t(m, M_SENT_SEP), md_t(m, M_DEF_CHANGE));
    md_put(m, "\n\n");
    if (latency)
        latency_definition(m);
}

/* "a, b and c" of the versions from index `from` on (each in backticks when code), in a new
 * string (free()), or NULL when out of memory. */
static char *version_list(const struct md *m, size_t from, int code)
{
    char *names = NULL;
    size_t vi, n = 0;
    FILE *f = open_memstream(&names, &n);

    if (!f)
        return NULL;
    for (vi = from; vi < m->nv; vi++)
        fprintf(f, code ? "%s`%s`" : "%s%s",
                vi == from        ? ""
                : vi == m->nv - 1 ? md_t(m, M_AND)
                                  : md_t(m, M_LIST_SEP),
                md_version(m, vi));
    fclose(f);
    return names;
}

static void write_compare(const struct md *m)
{
    size_t vi;
    int nway = m->nv > 2;

    md_put(m, "# ");
    if (!nway) {
        md_tmpl(m, md_t(m, M_TITLE_AB), md_version(m, 1), m->base, MD_END);
    } else {
        char *names = version_list(m, 0, 0);

        md_tmpl(m, md_t(m, M_TITLE_NWAY), names ? names : "", MD_END);
        free(names);
    }
    md_put(m, "\n\n");
    method(m, M_METHOD);
    if (!nway) {
        md_tmpl(m, md_t(m, M_ROLES), m->base, md_version(m, 1), MD_END);
    } else {
        char *names = version_list(m, 1, 1);

        md_tmpl(m, md_t(m, M_ROLES_NWAY), m->base, names ? names : "", MD_END);
        free(names);
    }
    md_put(m, "\n\n");

    fprintf(m->f, "## %s\n\n", md_t(m, M_H_SUMMARY));
    for (vi = 1; vi < m->nv; vi++)
        summary_for(m, vi);
    unjudged(m);
    md_put(m, md_t(m, M_CAUSE));
    md_put(m, "\n\n");
    completeness(m);
    md_section_steps(m);

    fprintf(m->f, "## %s\n\n", md_t(m, M_H_THROUGHPUT));
    if (nway) {
        md_put(m, md_t(m, M_BEST_BOLD));
        md_put(m, "\n\n");
    }
    md_table_throughput(m);
    definitions(m, 0);
    fprintf(m->f, "## %s\n\n", md_t(m, M_H_LATENCY));
    md_table_latency(m);
    latency_definition(m);
    md_section_load(m);
    fprintf(m->f, "## %s\n\n", md_t(m, M_H_MEMORY));
    if (m->model->rss_all_same) {
        md_tmpl(m, md_t(m, M_RSS_SAME), num_fixed(m->model->rss_lo, 1).s,
                num_fixed(m->model->rss_hi, 1).s, MD_END);
        md_put(m, md_t(m, M_SENT_SEP));
    } else {
        md_table_memory(m);
    }
    fprintf(m->f, "%s\n\n", md_t(m, M_DEF_RSS));
    md_section_instructions(m);
    md_section_workloads(m);
    md_section_full_cost(m);
    md_evidence(m);
    md_window(m);
}

/* window_text's sentences under their own heading (nothing when the runs have none). */
struct md_window_ctx {
    const struct md *m;
    int started, in_list;
};

static void md_window_put(void *ctx, int item, const char *text)
{
    struct md_window_ctx *w = ctx;

    if (!w->started)
        fprintf(w->m->f, "## %s\n\n", window_text_heading(w->m->lang));
    if (!item && w->in_list)
        fputc('\n', w->m->f);
    fprintf(w->m->f, item ? "- %s\n" : "%s\n\n", text);
    w->started = 1;
    w->in_list = item;
}

static void md_window(const struct md *m)
{
    struct md_window_ctx w = {m, 0, 0};

    window_text(m->summary, m->meta, m->lang, md_window_put, &w);
    if (w.in_list)
        fputc('\n', m->f);
}

/* One version: the "Detailed results" page. */

static void param(const struct md *m, const json_t *row, const char *key)
{
    const json_t *v = json_object_get(json_object_get(row, "params"), key);

    if (v)
        md_json(m, v);
    else
        md_put(m, FMT_MISSING);
}

static void write_single(const struct md *m)
{
    const json_t *row, *p;
    size_t i;
    long long ok = 0, exp = 0;
    char a[32], b[32], c[32];

    md_put(m, "# ");
    md_tmpl(m, md_t(m, M_TITLE_ONE), m->base, MD_END);
    md_put(m, "\n\n");
    method(m, M_METHOD_ONE);
    fprintf(m->f, "## %s\n\n", md_t(m, M_H_SUMMARY));
    json_array_foreach(m->rows, i, row)
    {
        ok += (long long)ju_num(json_object_get(row, "runs"), "ok", 0);
        exp += (long long)ju_num(json_object_get(row, "runs"), "expected", 0);
    }
    snprintf(a, sizeof(a), "%zu", m->nrows);
    snprintf(b, sizeof(b), "%lld", ok);
    snprintf(c, sizeof(c), "%lld", exp);
    md_tmpl(m, md_t(m, M_ONE_SUMMARY), a, m->base, b, c, MD_END);
    {
        char *best = sent_one_best(m->model, m->lang);

        if (best) {
            md_put(m, md_t(m, M_SENT_SEP));
            md_put(m, best);
        }
        free(best);
    }
    md_put(m, "\n\n");
    completeness(m);
    fprintf(m->f,
            "## %s\n\n| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            md_t(m, M_H_DETAILED), md_t(m, M_COL_CONFIG), md_t(m, M_COL_VTM),
            md_t(m, M_COL_PAYLOAD), md_t(m, M_COL_CLIENTS), md_t(m, M_COL_BATCH),
            md_t(m, M_COL_OPS), md_t(m, M_COL_P50_US), md_t(m, M_COL_P99_US), md_t(m, M_COL_CPU),
            md_t(m, M_COL_RSS), md_t(m, M_COL_ROUNDS));
    json_array_foreach(m->rows, i, row)
    {
        const json_t *tv = summary_values(row, "throughput", m->base);

        p = json_object_get(row, "params");
        md_put(m, "| ");
        md_cell(m, md_row_label(row));
        fprintf(m->f, " | `%s` · ", m->base);
        param(m, row, "transport");
        md_put(m, " · ");
        param(m, row, "protocol");
        if (json_object_get(p, "command")) {
            md_put(m, " ");
            param(m, row, "command");
        }
        if (json_object_get(p, "resp")) {
            md_put(m, " RESP");
            param(m, row, "resp");
        }
        if (json_is_true(json_object_get(p, "auth"))) {
            md_put(m, " ");
            md_put(m, md_t(m, M_AUTH));
        }
        if (json_is_true(json_object_get(p, "serve"))) {
            md_put(m, " · ");
            md_put(m, md_t(m, M_SERVE_MODE));
        }
        md_put(m, " | ");
        param(m, row, "payload");
        md_put(m, " | ");
        param(m, row, "connections");
        md_put(m, " | ");
        param(m, row, "pipeline");
        md_put(m, " / ");
        param(m, row, "window");
        fprintf(m->f, " | %s | %s | %s | %s | %s | %lld |\n", num_range(tv, 1, 0).s,
                num_median(summary_values(row, "p50_us", m->base), 1, 1).s,
                num_median(summary_values(row, "p99_us", m->base), 1, 1).s,
                num_median(summary_values(row, "cpu_percent", m->base), 1, 1).s,
                num_median(summary_values(row, "rss_mib", m->base), 1, 1).s,
                (long long)ju_num(tv, "n", 0));
    }
    md_put(m, "\n");
    md_put(m, md_t(m, M_ONE_NOTE));
    md_put(m, "\n\n");
    definitions(m, 1);
}

int report_md_write(FILE *f, const json_t *summary, const json_t *meta, const char *lang, char *err,
                    size_t errlen)
{
    struct md m;
    struct report_model model;

    memset(&m, 0, sizeof(m));
    m.f = f;
    m.lang = lang && strcmp(lang, "zh") == 0 ? "zh" : "en";
    m.summary = summary;
    m.meta = json_is_object(meta) ? meta : NULL;
    m.rows = json_object_get(summary, "rows");
    m.versions = json_object_get(summary, "versions");
    if (!json_is_array(m.rows) || !json_is_array(m.versions) || json_array_size(m.versions) == 0 ||
        !json_is_string(json_array_get(m.versions, 0))) {
        snprintf(err, errlen, "summary: expected \"rows\" and a non-empty \"versions\" array");
        return -1;
    }
    m.nv = json_array_size(m.versions);
    m.nrows = json_array_size(m.rows);
    {
        const json_t *row;
        size_t i;
        json_array_foreach(m.rows, i, row) m.server_cpu |=
            summary_metric(row, SUMMARY_SERVER_CPU) != NULL;
    }
    m.base = json_string_value(json_array_get(m.versions, 0));
    if (report_model_build(&model, summary, m.meta) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m.model = &model;
    if (ju_str(json_object_get(summary, "dataset"), "modified", NULL)) {
        /* judged with --accept-modified: the first line says so, before anything else */
        md_put(&m, "**");
        md_cell(&m, ju_str(json_object_get(summary, "dataset"), "modified", ""));
        md_put(&m, "**\n\n");
    }
    if (m.nv == 1)
        write_single(&m);
    else
        write_compare(&m);
    md_env_sections(&m);
    report_model_release(&model);
    if (fflush(f) != 0 || ferror(f)) {
        snprintf(err, errlen, "write failed");
        return -1;
    }
    return 0;
}
