/* report_md: the Markdown report. Layout (design §7, seed comparison report): title, method
 * line, summary paragraph (notable rows in words, whether the throughput ranges overlap, the
 * cause not confirmed), completeness and weaknesses, "Throughput and CPU", "Latency (µs)",
 * memory, evidence (exact p, chance flags), then environment/provenance/reproduce
 * (report_md_env.c). Two versions: baseline/candidate columns; three or more: one column per
 * version with the best value in bold; one version: the "Detailed results" page. More than
 * MD_MAX_ROWS rows: the tables show the rows that stand out and the full table goes into a
 * collapsible <details> block. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report_md.h"
#include "report_md_int.h"
#include "stats.h"
#include "summary.h"

#define MD_MAX_ROWS 12
#define MD_LIST_MAX 6 /* rows named in one sentence before "and N more" */

static const char *const gated[] = {"throughput", "cpu_efficiency", "p50_us", "p99_us",
                                    "rss_mib"};
#define N_GATED (sizeof(gated) / sizeof(gated[0]))

/* ---- writer helpers ---- */

const char *md_t(const struct md *m, enum i18n_msg id)
{
    return i18n(m->lang, id);
}

void md_put(const struct md *m, const char *s)
{
    fputs(s, m->f);
}

static void md_vtmpl(FILE *f, const char *tmpl, va_list ap)
{
    const char *args[10] = {0}, *a, *p;
    int n = 0;

    while (n < 10 && (a = va_arg(ap, const char *)) != NULL)
        args[n++] = a;
    for (p = tmpl; *p; p++) {
        if (p[0] == '{' && p[1] >= '0' && p[1] <= '9' && p[2] == '}' && p[1] - '0' < n) {
            fputs(args[p[1] - '0'], f);
            p += 2;
        } else {
            fputc(*p, f);
        }
    }
}

void md_tmpl(const struct md *m, const char *tmpl, ...)
{
    va_list ap;

    va_start(ap, tmpl);
    md_vtmpl(m->f, tmpl, ap);
    va_end(ap);
}

/* The template's text in a new string (free()). */
static char *tmpl_str(const char *tmpl, ...)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    va_list ap;

    if (!f)
        return NULL;
    va_start(ap, tmpl);
    md_vtmpl(f, tmpl, ap);
    va_end(ap);
    fclose(f);
    return s;
}

void md_cell(const struct md *m, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            md_put(m, "\\|");
        else if (*s == '\n' || *s == '\r')
            fputc(' ', m->f);
        else
            fputc(*s, m->f);
    }
}

struct num num_fixed(double v, int decimals)
{
    struct num n;
    double r = pow(10, decimals);

    if (!isfinite(v)) {
        snprintf(n.s, sizeof(n.s), "—");
        return n;
    }
    if (round(fabs(v) * r) == 0)
        v = 0; /* no "-0.00" */
    if (v < 0)
        snprintf(n.s, sizeof(n.s), "−%.*f", decimals, -v);
    else
        snprintf(n.s, sizeof(n.s), "%.*f", decimals, v);
    return n;
}

struct num num_pct(const json_t *change)
{
    struct num n;
    double v;

    if (!json_is_number(change)) {
        snprintf(n.s, sizeof(n.s), "—");
        return n;
    }
    v = json_number_value(change) * 100;
    if (round(fabs(v) * 100) == 0)
        snprintf(n.s, sizeof(n.s), "0.00%%");
    else if (v < 0)
        snprintf(n.s, sizeof(n.s), "−%.2f%%", -v);
    else
        snprintf(n.s, sizeof(n.s), "+%.2f%%", v);
    return n;
}

/* "97.11 [95.52–99.63]" of values scaled by 1/div, or "—". */
static struct num num_range(const json_t *values, double div, int decimals)
{
    struct num n;

    if (!json_is_object(values)) {
        snprintf(n.s, sizeof(n.s), "—");
        return n;
    }
    snprintf(n.s, sizeof(n.s), "%.100s [%.100s–%.100s]",
             num_fixed(summary_num(values, "median", NAN) / div, decimals).s,
             num_fixed(summary_num(values, "min", NAN) / div, decimals).s,
             num_fixed(summary_num(values, "max", NAN) / div, decimals).s);
    return n;
}

static struct num num_median(const json_t *values, double div, int decimals)
{
    return num_fixed(json_is_object(values) ? summary_num(values, "median", NAN) / div : NAN,
                     decimals);
}

static const char *version_name(const struct md *m, size_t i)
{
    return json_string_value(json_array_get(m->versions, i));
}

static const char *row_label(const json_t *row)
{
    return summary_str(row, "label", summary_str(row, "config", "?"));
}

static const char *verdict_of(const json_t *row, const char *metric, const char *ver)
{
    return summary_str(summary_vs(row, metric, ver), "verdict", "~");
}

static enum i18n_msg metric_msg(const char *metric)
{
    if (strcmp(metric, "throughput") == 0)
        return M_MN_THROUGHPUT;
    if (strcmp(metric, "cpu_efficiency") == 0)
        return M_MN_EFFICIENCY;
    if (strcmp(metric, "p50_us") == 0)
        return M_MN_P50;
    if (strcmp(metric, "p99_us") == 0)
        return M_MN_P99;
    if (strcmp(metric, "rss_mib") == 0)
        return M_MN_RSS;
    return M_MN_CPU;
}

static const char *verdict_word(const struct md *m, const char *v)
{
    if (strcmp(v, VERDICT_REGRESSED) == 0)
        return md_t(m, M_V_REGRESSED);
    if (strcmp(v, VERDICT_IMPROVED) == 0)
        return md_t(m, M_V_IMPROVED);
    if (strcmp(v, VERDICT_UNSTABLE) == 0)
        return md_t(m, M_V_UNSTABLE);
    if (strcmp(v, VERDICT_FAILED) == 0)
        return md_t(m, M_V_FAILED);
    return v;
}

/* A row passes a threshold with strong evidence for candidate ver. */
static int row_flagged(const json_t *row, const char *ver)
{
    size_t i;

    for (i = 0; i < N_GATED; i++) {
        const char *v = verdict_of(row, gated[i], ver);

        if (strcmp(v, VERDICT_REGRESSED) == 0 || strcmp(v, VERDICT_IMPROVED) == 0)
            return 1;
    }
    return 0;
}

/* A row has any verdict other than "~" for any candidate. */
static int row_stands_out(const struct md *m, const json_t *row)
{
    size_t vi, i;

    for (vi = 1; vi < m->nv; vi++)
        for (i = 0; i < N_GATED; i++)
            if (strcmp(verdict_of(row, gated[i], version_name(m, vi)), VERDICT_SAME) != 0)
                return 1;
    return 0;
}

static double abs_change(const json_t *row, const char *metric, const char *ver)
{
    const json_t *c = json_object_get(summary_vs(row, metric, ver), "change");

    return json_is_number(c) ? fabs(json_number_value(c)) : -1;
}

/* Writes items (already formatted strings) as a sentence list: "a, b and c", at most
 * MD_LIST_MAX then "and N more". */
static void put_list(const struct md *m, char **items, size_t n)
{
    size_t i, shown = n > MD_LIST_MAX ? MD_LIST_MAX : n;
    char more[32];

    for (i = 0; i < shown; i++) {
        if (i > 0)
            md_put(m, md_t(m, (i == shown - 1 && shown == n) ? M_AND : M_LIST_SEP));
        md_put(m, items[i] ? items[i] : "?");
    }
    if (shown < n) {
        snprintf(more, sizeof(more), "%zu", n - shown);
        md_put(m, md_t(m, M_AND));
        md_tmpl(m, md_t(m, M_MORE), more, NULL);
    }
}

static void free_items(char **items, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

/* ---- summary paragraph ---- */

static char *flag_text(const struct md *m, const json_t *row, const char *ver)
{
    char *s = NULL;
    size_t n = 0, i;
    FILE *f = open_memstream(&s, &n);
    int first = 1;

    if (!f)
        return NULL;
    for (i = 0; i < N_GATED; i++) {
        const char *v = verdict_of(row, gated[i], ver);

        if (strcmp(v, VERDICT_REGRESSED) != 0 && strcmp(v, VERDICT_IMPROVED) != 0)
            continue;
        if (!first)
            fputs(md_t(m, M_LIST_SEP), f);
        first = 0;
        fprintf(f, "%s %s", md_t(m, metric_msg(gated[i])), verdict_word(m, v));
    }
    fclose(f);
    return s;
}

static int cmp_change_desc(const void *a, const void *b)
{
    const double *x = a, *y = b; /* [abs change, index] pairs */

    if (x[0] != y[0])
        return x[0] < y[0] ? 1 : -1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

static void summary_for(const struct md *m, const char *ver)
{
    char **items = calloc(m->nrows + 1, sizeof(*items));
    double *order = calloc(2 * (m->nrows + 1), sizeof(*order));
    size_t i, k = 0, with_data = 0, disjoint = 0;
    char a[32], b[32];
    const json_t *row;

    if (!items || !order)
        goto out;
    json_array_foreach(m->rows, i, row)
    {
        if (!row_flagged(row, ver))
            continue;
        {
            char *flags = flag_text(m, row, ver);

            items[k++] = tmpl_str(md_t(m, M_NOTABLE_ITEM), row_label(row),
                                  num_pct(json_object_get(summary_vs(row, "throughput", ver),
                                                          "change"))
                                      .s,
                                  num_pct(json_object_get(summary_vs(row, "p99_us", ver),
                                                          "change"))
                                      .s,
                                  flags ? flags : "", NULL);
            free(flags);
        }
    }
    snprintf(a, sizeof(a), "%zu", k);
    snprintf(b, sizeof(b), "%zu", m->nrows);
    if (k > 0) {
        md_tmpl(m, md_t(m, M_NOTABLE_INTRO), ver, m->base, a, b, NULL);
        put_list(m, items, k);
        md_put(m, md_t(m, M_PERIOD));
    } else {
        json_array_foreach(m->rows, i, row)
        {
            double c = abs_change(row, "throughput", ver);

            if (c < 0)
                continue;
            order[2 * with_data] = c;
            order[2 * with_data + 1] = (double)i;
            with_data++;
        }
        if (with_data == 0) {
            md_put(m, md_t(m, M_NO_DATA));
        } else {
            qsort(order, with_data, 2 * sizeof(double), cmp_change_desc);
            md_tmpl(m, md_t(m, M_NONE_NOTABLE), ver, m->base, NULL);
            for (i = 0; i < with_data && i < 2; i++) {
                const json_t *r = json_array_get(m->rows, (size_t)order[2 * i + 1]);

                items[i] = tmpl_str(
                    md_t(m, M_CHANGE_ITEM), row_label(r),
                    num_pct(json_object_get(summary_vs(r, "throughput", ver), "change")).s,
                    num_pct(json_object_get(summary_vs(r, "p99_us", ver), "change")).s, NULL);
            }
            put_list(m, items, i);
            md_put(m, md_t(m, M_PERIOD));
            k = i;
        }
    }
    md_put(m, " ");
    free_items(items, k);
    items = NULL;

    /* overlap of the throughput ranges */
    items = calloc(m->nrows + 1, sizeof(*items));
    if (!items)
        goto out;
    with_data = 0;
    json_array_foreach(m->rows, i, row)
    {
        const json_t *ov = json_object_get(summary_vs(row, "throughput", ver), "overlap");

        if (!json_is_boolean(ov))
            continue;
        with_data++;
        if (json_is_false(ov))
            items[disjoint++] = strdup(row_label(row));
    }
    if (with_data > 0) {
        if (disjoint == 0) {
            md_tmpl(m, md_t(m, M_OVERLAP_ALL), m->base, ver, NULL);
        } else {
            char *list = NULL;
            size_t ln = 0;
            FILE *lf = open_memstream(&list, &ln);

            if (lf) {
                struct md lm = *m;

                lm.f = lf;
                put_list(&lm, items, disjoint);
                fclose(lf);
            }
            snprintf(a, sizeof(a), "%zu", disjoint);
            snprintf(b, sizeof(b), "%zu", with_data);
            md_tmpl(m, md_t(m, M_OVERLAP_SOME), m->base, ver, a, b, list ? list : "", NULL);
            free(list);
        }
    }
    md_put(m, "\n\n");
out:
    free_items(items, disjoint);
    free(order);
}

/* ---- completeness and weaknesses ---- */

static void completeness(const struct md *m)
{
    const json_t *row, *ds = json_object_get(m->summary, "dataset"), *w;
    long long ok = 0, expected = 0, failed = 0, errs[5] = {0};
    static const char *const kinds[5] = {"connect", "io", "protocol", "verify", "timeout"};
    size_t i, j, complete = 0, ninsecure = 0, nunstable = 0;
    char s[6][32];
    char **insecure = calloc(m->nrows + 1, sizeof(char *));
    char **unstable = calloc(m->nrows + 1, sizeof(char *));
    int weak = 0;
    struct verdict_rules def;

    verdict_rules_default(&def);
    fprintf(m->f, "## %s\n\n", md_t(m, M_H_COMPLETENESS));
    json_array_foreach(m->rows, i, row)
    {
        const json_t *runs = json_object_get(row, "runs");
        size_t vi, mi;
        int is_unstable = 0;

        ok += (long long)summary_num(runs, "ok", 0);
        expected += (long long)summary_num(runs, "expected", 0);
        failed += (long long)summary_num(runs, "failed", 0);
        if (strcmp(summary_str(row, "status", ""), "ok") == 0)
            complete++;
        for (j = 0; j < 5; j++)
            errs[j] += (long long)summary_num(json_object_get(row, "errors"), kinds[j], 0);
        if (json_is_true(json_object_get(row, "tls_insecure")) && insecure)
            insecure[ninsecure++] = strdup(row_label(row));
        for (vi = 1; vi < m->nv; vi++)
            for (mi = 0; mi < N_GATED; mi++)
                if (strcmp(verdict_of(row, gated[mi], version_name(m, vi)), VERDICT_UNSTABLE) ==
                    0)
                    is_unstable = 1;
        if (is_unstable && unstable)
            unstable[nunstable++] = strdup(row_label(row));
    }
    snprintf(s[0], sizeof(s[0]), "%zu", complete);
    snprintf(s[1], sizeof(s[1]), "%zu", m->nrows);
    snprintf(s[2], sizeof(s[2]), "%lld", ok);
    snprintf(s[3], sizeof(s[3]), "%lld", expected > ok + failed ? expected : ok + failed);
    snprintf(s[4], sizeof(s[4]), "%lld", failed);
    md_put(m, "- ");
    md_tmpl(m, md_t(m, M_COMPLETE_ROWS), s[0], s[1], s[2], s[3], s[4], NULL);
    md_put(m, "\n- ");
    for (j = 0; j < 5; j++)
        snprintf(s[j], sizeof(s[j]), "%lld", errs[j]);
    md_tmpl(m, md_t(m, M_DRIVER_ERRORS), s[0], s[1], s[2], s[3], s[4], NULL);
    md_put(m, "\n");
    json_array_foreach(m->rows, i, row)
    {
        const json_t *f, *runs = json_object_get(row, "runs");

        json_array_foreach(json_object_get(row, "failures"), j, f)
        {
            snprintf(s[0], sizeof(s[0]), "%lld", (long long)summary_num(f, "round", 0));
            md_put(m, "- ");
            md_tmpl(m, md_t(m, M_FAILED_RUN), row_label(row), summary_str(f, "version", "?"),
                    s[0], summary_str(f, "reason", "?"), NULL);
            md_put(m, "\n");
        }
        if (strcmp(summary_str(row, "status", ""), "incomplete") == 0) {
            snprintf(s[0], sizeof(s[0]), "%lld", (long long)summary_num(runs, "ok", 0));
            snprintf(s[1], sizeof(s[1]), "%lld", (long long)summary_num(runs, "expected", 0));
            md_put(m, "- ");
            md_tmpl(m, md_t(m, M_INCOMPLETE_ROW), row_label(row), s[0], s[1], NULL);
            md_put(m, "\n");
        }
    }
    md_put(m, "\n");
    md_put(m, md_t(m, M_WEAKNESSES));
    md_put(m, "\n\n");
    if (!json_is_object(m->meta)) {
        md_put(m, "- ");
        md_put(m, md_t(m, M_WEAK_NOMETA));
        md_put(m, "\n");
        weak = 1;
    }
    if (json_is_false(json_object_get(ds, "matches"))) {
        md_put(m, "- **");
        md_tmpl(m, md_t(m, M_WEAK_HASH), summary_str(ds, "recorded_sha256", "?"),
                summary_str(ds, "sha256", "?"), NULL);
        md_put(m, "**\n");
        weak = 1;
    }
    json_array_foreach(json_object_get(m->summary, "warnings"), i, w)
    {
        if (!json_is_string(w))
            continue;
        md_put(m, "- ");
        md_tmpl(m, md_t(m, M_WEAK_MACHINE), json_string_value(w), NULL);
        md_put(m, "\n");
        weak = 1;
    }
    if (failed > 0) {
        snprintf(s[0], sizeof(s[0]), "%lld", failed);
        md_put(m, "- ");
        md_tmpl(m, md_t(m, M_WEAK_FAILED), s[0], NULL);
        md_put(m, "\n");
        weak = 1;
    }
    if (nunstable > 0) {
        char *list = NULL;
        size_t ln = 0;
        FILE *lf = open_memstream(&list, &ln);
        struct md lm = *m;

        if (lf) {
            lm.f = lf;
            put_list(&lm, unstable, nunstable);
            fclose(lf);
        }
        md_put(m, "- ");
        md_tmpl(m, md_t(m, M_WEAK_UNSTABLE),
                num_fixed(summary_num(json_object_get(m->summary, "thresholds_pct"),
                                      "noise_limit_pct", def.noise_limit_pct),
                          0)
                    .s,
                list ? list : "", NULL);
        md_put(m, "\n");
        free(list);
        weak = 1;
    }
    if (ninsecure > 0) {
        char *list = NULL;
        size_t ln = 0;
        FILE *lf = open_memstream(&list, &ln);
        struct md lm = *m;

        if (lf) {
            lm.f = lf;
            put_list(&lm, insecure, ninsecure);
            fclose(lf);
        }
        md_put(m, "- ");
        md_tmpl(m, md_t(m, M_WEAK_INSECURE), list ? list : "", NULL);
        md_put(m, "\n");
        free(list);
        weak = 1;
    }
    if (!weak) {
        md_put(m, "- ");
        md_put(m, md_t(m, M_WEAK_NONE));
        md_put(m, "\n");
    }
    md_put(m, "\n");
    free_items(insecure, ninsecure);
    free_items(unstable, nunstable);
}

/* ---- tables ---- */

typedef void (*row_fn)(const struct md *m, const json_t *row);

/* Writes the table header (given as a full "| a | b |\n|---|---|\n" block by head) and the
 * rows: all of them, or when there are many, the ones that stand out followed by the full
 * table inside <details>. */
static void table(const struct md *m, void (*head)(const struct md *m), row_fn fn)
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
        json_array_foreach(m->rows, i, row) if (row_stands_out(m, row))
        {
            pick[i] = 1;
            shown++;
        }
    }
    snprintf(a, sizeof(a), "%zu", m->nrows);
    snprintf(b, sizeof(b), "%zu", shown);
    md_tmpl(m, md_t(m, M_NOTABLE_ONLY), a, b, NULL);
    md_put(m, "\n\n");
    if (shown > 0) {
        head(m);
        json_array_foreach(m->rows, i, row) if (pick[i]) fn(m, row);
        md_put(m, "\n");
    }
    md_put(m, "<details><summary>");
    md_tmpl(m, md_t(m, M_DETAILS_FULL), a, NULL);
    md_put(m, "</summary>\n\n");
    head(m);
    json_array_foreach(m->rows, i, row) fn(m, row);
    md_put(m, "\n</details>\n\n");
    free(pick);
}

static int any_server_cpu(const struct md *m)
{
    const json_t *row;
    size_t i;

    json_array_foreach(m->rows, i, row) if (summary_metric(row, SUMMARY_SERVER_CPU)) return 1;
    return 0;
}

/* Two versions. */

static void ab_tput_head(const struct md *m)
{
    fprintf(m->f, "| %s | %s | %s | %s | %s | %s |", md_t(m, M_COL_CONFIG),
            md_t(m, M_COL_BASE_KS), md_t(m, M_COL_CAND_KS), md_t(m, M_COL_CHANGE),
            md_t(m, M_COL_CPU_BC), md_t(m, M_COL_EFF_CHANGE));
    if (any_server_cpu(m))
        fprintf(m->f, " %s |", md_t(m, M_COL_SERVER_CPU));
    fprintf(m->f, " %s |\n|---|---:|---:|---:|---:|---:|%s---|\n", md_t(m, M_COL_VERDICT),
            any_server_cpu(m) ? "---:|" : "");
}

static void ab_tput_row(const struct md *m, const json_t *row)
{
    const char *c = version_name(m, 1);
    const char *v = verdict_of(row, "throughput", c), *ev = verdict_of(row, "cpu_efficiency", c);

    md_put(m, "| ");
    md_cell(m, row_label(row));
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
    fprintf(m->f, " %s", v);
    if (strcmp(ev, v) != 0 && strcmp(ev, VERDICT_SAME) != 0) {
        md_put(m, " (");
        md_tmpl(m, md_t(m, M_EFF_NOTE), ev, NULL);
        md_put(m, ")");
    }
    md_put(m, " |\n");
}

static void ab_lat_head(const struct md *m)
{
    fprintf(m->f, "| %s | %s | %s | %s | %s | %s | %s |\n|---|---:|---:|---:|---:|---:|---|\n",
            md_t(m, M_COL_CONFIG), md_t(m, M_COL_BASE_P50), md_t(m, M_COL_CAND_P50),
            md_t(m, M_COL_BASE_P99), md_t(m, M_COL_CAND_P99), md_t(m, M_COL_P99_CHANGE),
            md_t(m, M_COL_VERDICT));
}

static void ab_lat_row(const struct md *m, const json_t *row)
{
    const char *c = version_name(m, 1);
    const char *v50 = verdict_of(row, "p50_us", c), *v99 = verdict_of(row, "p99_us", c);

    md_put(m, "| ");
    md_cell(m, row_label(row));
    fprintf(m->f, " | %s | %s | %s | %s | %s | P50 %s, P99 %s |\n",
            num_range(summary_values(row, "p50_us", m->base), 1, 1).s,
            num_range(summary_values(row, "p50_us", c), 1, 1).s,
            num_range(summary_values(row, "p99_us", m->base), 1, 1).s,
            num_range(summary_values(row, "p99_us", c), 1, 1).s,
            num_pct(json_object_get(summary_vs(row, "p99_us", c), "change")).s, v50, v99);
}

static void ab_mem_head(const struct md *m)
{
    fprintf(m->f, "| %s | %s | %s | %s | %s |\n|---|---:|---:|---:|---|\n",
            md_t(m, M_COL_CONFIG), md_t(m, M_COL_BASE), md_t(m, M_COL_CAND),
            md_t(m, M_COL_CHANGE), md_t(m, M_COL_VERDICT));
}

static void ab_mem_row(const struct md *m, const json_t *row)
{
    const char *c = version_name(m, 1);

    md_put(m, "| ");
    md_cell(m, row_label(row));
    fprintf(m->f, " | %s | %s | %s | %s |\n",
            num_range(summary_values(row, "rss_mib", m->base), 1, 1).s,
            num_range(summary_values(row, "rss_mib", c), 1, 1).s,
            num_pct(json_object_get(summary_vs(row, "rss_mib", c), "change")).s,
            verdict_of(row, "rss_mib", c));
}

/* N versions: one column per version, the best median in bold. */

static size_t best_index(const struct md *m, const json_t *row, const char *metric,
                         int higher)
{
    size_t vi, best = (size_t)-1;
    double bv = 0;

    for (vi = 0; vi < m->nv; vi++) {
        const json_t *v = summary_values(row, metric, version_name(m, vi));
        double x;

        if (!v)
            continue;
        x = summary_num(v, "median", NAN);
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
        const json_t *v = summary_values(row, metric, version_name(m, vi));

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
        fprintf(m->f, " `%s`%s |", version_name(m, vi), suffix);
}

static void nway_tput_head(const struct md *m)
{
    size_t vi;

    fprintf(m->f, "| %s |", md_t(m, M_COL_CONFIG));
    nway_version_cols(m, " k/s");
    for (vi = 1; vi < m->nv; vi++) {
        md_put(m, " ");
        md_tmpl(m, md_t(m, M_COL_VS), version_name(m, vi), m->base, NULL);
        md_put(m, " |");
    }
    fprintf(m->f, " %s | %s | %s |\n|---|", md_t(m, M_COL_CPU), md_t(m, M_COL_EFF_CHANGE),
            md_t(m, M_COL_VERDICT));
    for (vi = 0; vi < 2 * m->nv - 1; vi++)
        md_put(m, "---:|");
    md_put(m, "---:|---:|---|\n");
}

static void nway_tput_row(const struct md *m, const json_t *row)
{
    size_t vi;

    md_put(m, "| ");
    md_cell(m, row_label(row));
    md_put(m, " |");
    nway_cells(m, row, "throughput", 1, 1000, 2);
    for (vi = 1; vi < m->nv; vi++)
        fprintf(m->f, " %s |",
                num_pct(json_object_get(summary_vs(row, "throughput", version_name(m, vi)),
                                        "change"))
                    .s);
    md_put(m, " ");
    for (vi = 0; vi < m->nv; vi++)
        fprintf(m->f, "%s%s", vi ? " → " : "",
                num_median(summary_values(row, "cpu_percent", version_name(m, vi)), 1, 2).s);
    md_put(m, " | ");
    for (vi = 1; vi < m->nv; vi++)
        fprintf(m->f, "%s%s", vi > 1 ? " / " : "",
                num_pct(json_object_get(summary_vs(row, "cpu_efficiency", version_name(m, vi)),
                                        "change"))
                    .s);
    md_put(m, " | ");
    for (vi = 1; vi < m->nv; vi++)
        fprintf(m->f, "%s%s", vi > 1 ? " / " : "",
                verdict_of(row, "throughput", version_name(m, vi)));
    md_put(m, " |\n");
}

static void nway_lat_head(const struct md *m)
{
    size_t vi;

    fprintf(m->f, "| %s |", md_t(m, M_COL_CONFIG));
    nway_version_cols(m, " P50");
    nway_version_cols(m, " P99");
    fprintf(m->f, " %s |\n|---|", md_t(m, M_COL_VERDICT));
    for (vi = 0; vi < 2 * m->nv; vi++)
        md_put(m, "---:|");
    md_put(m, "---|\n");
}

static void nway_lat_row(const struct md *m, const json_t *row)
{
    size_t vi;

    md_put(m, "| ");
    md_cell(m, row_label(row));
    md_put(m, " |");
    nway_cells(m, row, "p50_us", 0, 1, 1);
    nway_cells(m, row, "p99_us", 0, 1, 1);
    md_put(m, " ");
    for (vi = 1; vi < m->nv; vi++)
        fprintf(m->f, "%sP99 %s", vi > 1 ? " / " : "",
                verdict_of(row, "p99_us", version_name(m, vi)));
    md_put(m, " |\n");
}

static void nway_mem_head(const struct md *m)
{
    size_t vi;

    fprintf(m->f, "| %s |", md_t(m, M_COL_CONFIG));
    nway_version_cols(m, "");
    fprintf(m->f, " %s |\n|---|", md_t(m, M_COL_VERDICT));
    for (vi = 0; vi < m->nv; vi++)
        md_put(m, "---:|");
    md_put(m, "---|\n");
}

static void nway_mem_row(const struct md *m, const json_t *row)
{
    size_t vi;

    md_put(m, "| ");
    md_cell(m, row_label(row));
    md_put(m, " |");
    nway_cells(m, row, "rss_mib", 0, 1, 1);
    md_put(m, " ");
    for (vi = 1; vi < m->nv; vi++)
        fprintf(m->f, "%s%s", vi > 1 ? " / " : "",
                verdict_of(row, "rss_mib", version_name(m, vi)));
    md_put(m, " |\n");
}

/* ---- evidence ---- */

static void evid_head(const struct md *m)
{
    size_t vi;

    fprintf(m->f, "| %s |", md_t(m, M_COL_CONFIG));
    for (vi = 1; vi < m->nv; vi++) {
        const char *sfx = m->nv > 2 ? version_name(m, vi) : NULL;

        if (sfx)
            fprintf(m->f, " %s (`%s`) | %s (`%s`) | %s (`%s`) | %s (`%s`) |",
                    md_t(m, M_COL_P_TPUT), sfx, md_t(m, M_COL_PAIRED), sfx,
                    md_t(m, M_COL_OVERLAP), sfx, md_t(m, M_COL_P_P99), sfx);
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
    const json_t *p = json_object_get(vs, "p");

    return num_fixed(json_is_number(p) ? json_number_value(p) : NAN, 4);
}

static void evid_row(const struct md *m, const json_t *row)
{
    size_t vi;

    md_put(m, "| ");
    md_cell(m, row_label(row));
    md_put(m, " |");
    for (vi = 1; vi < m->nv; vi++) {
        const char *c = version_name(m, vi);
        const json_t *vs = summary_vs(row, "throughput", c), *pr, *ov;

        pr = json_object_get(vs, "paired_ratio");
        ov = json_object_get(vs, "overlap");
        fprintf(m->f, " %s | %s | %s | %s |", num_p(vs).s, num_range(pr, 1, 4).s,
                json_is_boolean(ov) ? md_t(m, json_is_true(ov) ? M_YES : M_NO) : "—",
                num_p(summary_vs(row, "p99_us", c)).s);
    }
    md_put(m, "\n");
}

static void evidence(const struct md *m)
{
    const json_t *th = json_object_get(m->summary, "thresholds_pct");
    const json_t *ch = json_object_get(m->summary, "chance");
    long long rounds = (long long)summary_num(m->summary, "rounds", 0);
    char *ths, r[32], comb[32], comp[32];
    double c = 1;
    long long i;

    fprintf(m->f, "## %s\n\n", md_t(m, M_H_EVIDENCE));
    ths = tmpl_str(md_t(m, M_THRESHOLDS), num_fixed(summary_num(th, "throughput", 5), 0).s,
                   num_fixed(summary_num(th, "cpu_efficiency", 5), 0).s,
                   num_fixed(summary_num(th, "p50_us", 5), 0).s,
                   num_fixed(summary_num(th, "p99_us", 10), 0).s,
                   num_fixed(summary_num(th, "rss_mib", 10), 0).s, NULL);
    md_tmpl(m, md_t(m, M_EVID_RULE), ths ? ths : "",
            num_fixed(summary_num(th, "noise_limit_pct", 20), 0).s, NULL);
    free(ths);
    md_put(m, "\n\n");
    if (rounds >= 2 && rounds <= 30) {
        for (i = 1; i <= rounds; i++)
            c = c * (double)(rounds + i) / (double)i;
        snprintf(r, sizeof(r), "%lld", rounds);
        snprintf(comb, sizeof(comb), "%.0f", c);
        md_tmpl(m, md_t(m, M_EVID_MWU), r, comb, num_fixed(2 / c, 4).s,
                num_fixed(summary_num(ch, "alpha", NAN), 4).s, NULL);
        md_put(m, " ");
    }
    snprintf(comp, sizeof(comp), "%lld", (long long)summary_num(ch, "comparisons", 0));
    md_tmpl(m, md_t(m, M_EVID_CHANCE), comp,
            num_fixed(summary_num(ch, "expected_false_flags", NAN), 2).s,
            num_fixed(summary_num(ch, "expected_disjoint_by_chance", NAN), 2).s, NULL);
    md_put(m, "\n\n");
    md_put(m, md_t(m, M_EVID_TABLE));
    md_put(m, "\n\n");
    if (m->nrows > MD_MAX_ROWS) {
        char a[32];

        snprintf(a, sizeof(a), "%zu", m->nrows);
        md_put(m, "<details><summary>");
        md_tmpl(m, md_t(m, M_DETAILS_FULL), a, NULL);
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

/* ---- layouts ---- */

static void method(const struct md *m, enum i18n_msg id)
{
    const json_t *st = json_object_get(m->meta, "settings");
    char runs[32];

    snprintf(runs, sizeof(runs), "%lld", (long long)summary_num(m->summary, "rounds", 0));
    md_tmpl(m, md_t(m, id), runs,
            json_is_number(json_object_get(st, "warmup"))
                ? num_fixed(summary_num(st, "warmup", 0), 2).s
                : md_t(m, M_UNKNOWN),
            json_is_number(json_object_get(st, "duration"))
                ? num_fixed(summary_num(st, "duration", 0), 2).s
                : md_t(m, M_UNKNOWN),
            NULL);
    md_put(m, "\n\n");
}

static void definitions(const struct md *m, int latency)
{
    fprintf(m->f, "%s %s %s\n\n", md_t(m, M_DEF_THROUGHPUT), md_t(m, M_DEF_CPU),
            md_t(m, M_DEF_EFFICIENCY));
    if (latency)
        fprintf(m->f, "%s\n\n", md_t(m, M_DEF_LATENCY));
}

static void write_compare(const struct md *m)
{
    size_t vi;
    int nway = m->nv > 2;

    md_put(m, "# ");
    if (!nway) {
        md_tmpl(m, md_t(m, M_TITLE_AB), version_name(m, 1), m->base, NULL);
    } else {
        char *names = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&names, &n);

        if (f) {
            for (vi = 0; vi < m->nv; vi++)
                fprintf(f, "%s%s", vi == 0 ? "" : vi == m->nv - 1 ? md_t(m, M_AND)
                                                                  : md_t(m, M_LIST_SEP),
                        version_name(m, vi));
            fclose(f);
        }
        md_tmpl(m, md_t(m, M_TITLE_NWAY), names ? names : "", NULL);
        free(names);
    }
    md_put(m, "\n\n");
    method(m, M_METHOD);
    if (!nway) {
        char *b = tmpl_str("`{0}`", version_name(m, 1), NULL);

        md_tmpl(m, md_t(m, M_ROLES), m->base, version_name(m, 1), NULL);
        free(b);
    } else {
        char *names = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&names, &n);

        if (f) {
            for (vi = 1; vi < m->nv; vi++)
                fprintf(f, "%s`%s`", vi == 1 ? "" : vi == m->nv - 1 ? md_t(m, M_AND)
                                                                    : md_t(m, M_LIST_SEP),
                        version_name(m, vi));
            fclose(f);
        }
        md_tmpl(m, md_t(m, M_ROLES_NWAY), m->base, names ? names : "", NULL);
        free(names);
    }
    md_put(m, "\n\n");

    fprintf(m->f, "## %s\n\n", md_t(m, M_H_SUMMARY));
    for (vi = 1; vi < m->nv; vi++)
        summary_for(m, version_name(m, vi));
    md_put(m, md_t(m, M_CAUSE));
    md_put(m, "\n\n");
    completeness(m);

    fprintf(m->f, "## %s\n\n", md_t(m, M_H_THROUGHPUT));
    if (nway) {
        md_put(m, md_t(m, M_BEST_BOLD));
        md_put(m, "\n\n");
    }
    table(m, nway ? nway_tput_head : ab_tput_head, nway ? nway_tput_row : ab_tput_row);
    definitions(m, 0);
    fprintf(m->f, "## %s\n\n", md_t(m, M_H_LATENCY));
    table(m, nway ? nway_lat_head : ab_lat_head, nway ? nway_lat_row : ab_lat_row);
    fprintf(m->f, "%s\n\n", md_t(m, M_DEF_LATENCY));
    fprintf(m->f, "## %s\n\n", md_t(m, M_H_MEMORY));
    table(m, nway ? nway_mem_head : ab_mem_head, nway ? nway_mem_row : ab_mem_row);
    fprintf(m->f, "%s\n\n", md_t(m, M_DEF_RSS));
    evidence(m);
}

/* One version: the "Detailed results" page. */

static void param(const struct md *m, const json_t *row, const char *key)
{
    const json_t *v = json_object_get(json_object_get(row, "params"), key);

    if (v)
        md_json(m, v);
    else
        md_put(m, "—");
}

static void write_single(const struct md *m)
{
    const json_t *row, *p;
    size_t i;
    long long ok = 0, exp = 0;
    char a[32], b[32], c[32];

    md_put(m, "# ");
    md_tmpl(m, md_t(m, M_TITLE_ONE), m->base, NULL);
    md_put(m, "\n\n");
    method(m, M_METHOD_ONE);
    fprintf(m->f, "## %s\n\n", md_t(m, M_H_SUMMARY));
    json_array_foreach(m->rows, i, row)
    {
        ok += (long long)summary_num(json_object_get(row, "runs"), "ok", 0);
        exp += (long long)summary_num(json_object_get(row, "runs"), "expected", 0);
    }
    snprintf(a, sizeof(a), "%zu", m->nrows);
    snprintf(b, sizeof(b), "%lld", ok);
    snprintf(c, sizeof(c), "%lld", exp);
    md_tmpl(m, md_t(m, M_ONE_SUMMARY), a, m->base, b, c, NULL);
    md_put(m, "\n\n");
    completeness(m);
    fprintf(m->f, "## %s\n\n| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n"
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            md_t(m, M_H_DETAILED), md_t(m, M_COL_VTM), md_t(m, M_COL_PAYLOAD),
            md_t(m, M_COL_CLIENTS), md_t(m, M_COL_BATCH), md_t(m, M_COL_OPS),
            md_t(m, M_COL_P50_US), md_t(m, M_COL_P99_US), md_t(m, M_COL_CPU),
            md_t(m, M_COL_RSS), md_t(m, M_COL_ROUNDS));
    json_array_foreach(m->rows, i, row)
    {
        const json_t *tv = summary_values(row, "throughput", m->base);

        p = json_object_get(row, "params");
        fprintf(m->f, "| `%s` · ", m->base);
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
                (long long)summary_num(tv, "n", 0));
    }
    md_put(m, "\n");
    md_put(m, md_t(m, M_ONE_NOTE));
    md_put(m, "\n\n");
    definitions(m, 1);
}

int report_md_write(FILE *f, const json_t *summary, const json_t *meta, const char *lang,
                    char *err, size_t errlen)
{
    struct md m;

    memset(&m, 0, sizeof(m));
    m.f = f;
    m.lang = lang && strcmp(lang, "zh") == 0 ? "zh" : "en";
    m.summary = summary;
    m.meta = json_is_object(meta) ? meta : NULL;
    m.rows = json_object_get(summary, "rows");
    m.versions = json_object_get(summary, "versions");
    if (!json_is_array(m.rows) || !json_is_array(m.versions) ||
        json_array_size(m.versions) == 0 ||
        !json_is_string(json_array_get(m.versions, 0))) {
        snprintf(err, errlen, "summary: expected \"rows\" and a non-empty \"versions\" array");
        return -1;
    }
    m.nv = json_array_size(m.versions);
    m.nrows = json_array_size(m.rows);
    m.base = json_string_value(json_array_get(m.versions, 0));
    if (m.nv == 1)
        write_single(&m);
    else
        write_compare(&m);
    md_env_sections(&m);
    if (fflush(f) != 0 || ferror(f)) {
        snprintf(err, errlen, "write failed");
        return -1;
    }
    return 0;
}
