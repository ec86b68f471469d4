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

#include "confirm.h"
#include "report_md.h"
#include "report_md_int.h"
#include "stats.h"
#include "summary.h"

/* ---- words for the summary ---- */

static const char *md_str(const json_t *o, const char *key)
{
    return summary_str(o, key, "");
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

    for (i = 0; i < METRIC_COUNT; i++) {
        const char *v = md_verdict(row, metric_name((enum metric)i), ver);

        if (!metric_gateable((enum metric)i))
            continue;
        if (strcmp(v, VERDICT_REGRESSED) == 0 || strcmp(v, VERDICT_IMPROVED) == 0)
            return 1;
    }
    return 0;
}

/* A row has any verdict other than "~" for any candidate. */

static double abs_change(const json_t *row, const char *metric, const char *ver)
{
    const json_t *c = json_object_get(summary_vs(row, metric, ver), "change");

    return json_is_number(c) ? fabs(json_number_value(c)) : -1;
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
    for (i = 0; i < METRIC_COUNT; i++) {
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
            md_tmpl(&fm, md_t(m, M_FLAG), md_t(m, metric_msg(metric_name((enum metric)i))),
                    verdict_word(m, v), MD_END);
        }
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

/* items joined as md_put_list() writes them, as a malloc'd string (free()), or NULL. */
static char *list_text(const struct md *m, char **items, size_t n)
{
    char *list = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&list, &len);
    struct md lm = *m;

    if (!f)
        return NULL;
    lm.f = f;
    md_put_list(&lm, items, n);
    if (fclose(f) != 0) {
        free(list);
        return NULL;
    }
    return list;
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

            items[k++] = md_tmpl_str(
                md_t(m, M_NOTABLE_ITEM), md_row_label(row),
                num_pct(json_object_get(summary_vs(row, "throughput", ver), "change")).s,
                num_pct(json_object_get(summary_vs(row, "p99_us", ver), "change")).s,
                flags ? flags : "", MD_END);
            free(flags);
        }
    }
    snprintf(a, sizeof(a), "%zu", k);
    snprintf(b, sizeof(b), "%zu", m->nrows);
    if (k > 0) {
        md_tmpl(m, md_t(m, M_NOTABLE_INTRO), ver, m->base, a, b, MD_END);
        md_put_list(m, items, k);
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
            md_tmpl(m, md_t(m, M_NONE_NOTABLE), ver, m->base, MD_END);
            for (i = 0; i < with_data && i < 2; i++) {
                const json_t *r = json_array_get(m->rows, (size_t)order[2 * i + 1]);

                items[i] = md_tmpl_str(
                    md_t(m, M_CHANGE_ITEM), md_row_label(r),
                    num_pct(json_object_get(summary_vs(r, "throughput", ver), "change")).s,
                    num_pct(json_object_get(summary_vs(r, "p99_us", ver), "change")).s, MD_END);
            }
            md_put_list(m, items, i);
            md_put(m, md_t(m, M_PERIOD));
            k = i;
        }
    }
    md_put(m, md_t(m, M_SENT_SEP));
    md_free_items(items, k);
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
            items[disjoint++] = strdup(md_row_label(row));
    }
    if (with_data > 0) {
        if (disjoint == 0) {
            md_tmpl(m, md_t(m, M_OVERLAP_ALL), m->base, ver, MD_END);
        } else {
            char *list = list_text(m, items, disjoint);

            snprintf(a, sizeof(a), "%zu", disjoint);
            snprintf(b, sizeof(b), "%zu", with_data);
            md_tmpl(m, md_t(m, M_OVERLAP_SOME), m->base, ver, a, b, list ? list : "", MD_END);
            free(list);
        }
    }
    md_put(m, "\n\n");
out:
    md_free_items(items, disjoint);
    free(order);
}

/* The rows whose verdicts cannot be trusted (failed or missing runs, a spread above the noise
 * limit), named in the summary so that a reader of the first paragraph knows. */
static void unjudged(const struct md *m)
{
    char **items = calloc(m->nrows + 1, sizeof(*items)), a[32], b[32], *list = NULL;
    size_t i, vi, mi, k = 0;
    const json_t *row;

    if (!items)
        return;
    json_array_foreach(m->rows, i, row)
    {
        int bad = strcmp(md_str(row, "status"), "ok") != 0;

        for (vi = 1; vi < m->nv && !bad; vi++)
            for (mi = 0; mi < METRIC_COUNT; mi++)
                if (metric_gateable((enum metric)mi) &&
                    strcmp(md_verdict(row, metric_name((enum metric)mi), md_version(m, vi)),
                           VERDICT_UNSTABLE) == 0)
                    bad = 1;
        if (bad)
            items[k++] = strdup(md_row_label(row));
    }
    if (k > 0 && (list = list_text(m, items, k)) != NULL) {
        snprintf(a, sizeof(a), "%zu", k);
        snprintf(b, sizeof(b), "%zu", m->nrows);
        md_tmpl(m, md_t(m, M_UNJUDGED), a, b, list ? list : "", MD_END);
        md_put(m, "\n\n");
    }
    free(list);
    md_free_items(items, k);
}

/* ---- completeness and weaknesses ---- */

/* A harness warning (compare/run/envinfo.c writes them in English). The known sentences are
 * rewritten in the report's language; anything else is quoted as it is. */
static void machine_warning(const struct md *m, const char *w)
{
    char when[16], gov[64], a[32], b[32];
    double load;
    long cores;

    if (strcmp(m->lang, "en") != 0) {
        if (sscanf(w, "the machine was loaded at %15[a-z]: load average %lf on %ld CPU", when,
                   &load, &cores) == 3) {
            snprintf(a, sizeof(a), "%.1f", load);
            snprintf(b, sizeof(b), "%ld", cores);
            md_tmpl(m, md_t(m, strcmp(when, "end") == 0 ? M_WARN_LOAD_END : M_WARN_LOAD_START), a,
                    b, MD_END);
            return;
        }
        if (sscanf(w, "CPU frequency governor is '%63[^']', not 'performance'", gov) == 1) {
            md_tmpl(m, md_t(m, M_WARN_GOVERNOR), gov, MD_END);
            return;
        }
    }
    md_tmpl(m, md_t(m, M_WEAK_MACHINE), w, MD_END);
}

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
    snprintf(cap, sizeof(cap), "%lld", (long long)summary_num(c, "max_extra_rounds", 0));
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
            if (strcmp(summary_str(row, "config", ""), id) == 0) {
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
            insecure[ninsecure++] = strdup(md_row_label(row));
        for (vi = 1; vi < m->nv; vi++)
            for (mi = 0; mi < METRIC_COUNT; mi++)
                if (metric_gateable((enum metric)mi) &&
                    strcmp(md_verdict(row, metric_name((enum metric)mi), md_version(m, vi)),
                           VERDICT_UNSTABLE) == 0)
                    is_unstable = 1;
        if (is_unstable && unstable)
            unstable[nunstable++] = strdup(md_row_label(row));
    }
    snprintf(s[0], sizeof(s[0]), "%zu", complete);
    snprintf(s[1], sizeof(s[1]), "%zu", m->nrows);
    snprintf(s[2], sizeof(s[2]), "%lld", ok);
    snprintf(s[3], sizeof(s[3]), "%lld", expected > ok + failed ? expected : ok + failed);
    snprintf(s[4], sizeof(s[4]), "%lld", failed);
    md_put(m, "- ");
    md_tmpl(m, md_t(m, M_COMPLETE_ROWS), s[0], s[1], s[2], s[3], s[4], MD_END);
    {
        long long replaced = 0;

        json_array_foreach(m->rows, i, row) replaced +=
            (long long)summary_num(json_object_get(row, "runs"), "replaced", 0);
        if (replaced > 0) {
            snprintf(s[0], sizeof(s[0]), "%lld", replaced);
            md_put(m, md_t(m, M_SENT_SEP));
            md_tmpl(m, md_t(m, M_REPLACED), s[0], MD_END);
        }
    }
    confirmation(m);
    md_put(m, "\n- ");
    for (j = 0; j < 5; j++)
        snprintf(s[j], sizeof(s[j]), "%lld", errs[j]);
    md_tmpl(m, md_t(m, M_DRIVER_ERRORS), s[0], s[1], s[2], s[3], s[4], MD_END);
    md_put(m, "\n");
    json_array_foreach(m->rows, i, row)
    {
        const json_t *f, *runs = json_object_get(row, "runs");

        json_array_foreach(json_object_get(row, "failures"), j, f)
        {
            snprintf(s[0], sizeof(s[0]), "%lld", (long long)summary_num(f, "round", 0));
            md_put(m, "- ");
            md_tmpl(m, md_t(m, M_FAILED_RUN), md_row_label(row), summary_str(f, "version", "?"),
                    s[0], summary_str(f, "reason", "?"), MD_END);
            md_put(m, "\n");
        }
        if (strcmp(summary_str(row, "status", ""), "incomplete") == 0) {
            snprintf(s[0], sizeof(s[0]), "%lld", (long long)summary_num(runs, "ok", 0));
            snprintf(s[1], sizeof(s[1]), "%lld", (long long)summary_num(runs, "expected", 0));
            md_put(m, "- ");
            md_tmpl(m, md_t(m, M_INCOMPLETE_ROW), md_row_label(row), s[0], s[1], MD_END);
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
                summary_str(ds, "sha256", "?"), MD_END);
        md_put(m, "**\n");
        weak = 1;
    }
    json_array_foreach(json_object_get(m->summary, "warnings"), i, w)
    {
        if (!json_is_string(w))
            continue;
        md_put(m, "- ");
        machine_warning(m, json_string_value(w));
        md_put(m, "\n");
        weak = 1;
    }
    if (json_array_size(json_object_get(m->summary, "warnings")) == 0) {
        /* datasets whose harness recorded no warnings: judge the load average ourselves */
        const json_t *env = json_object_get(m->meta, "environment");
        const json_t *la = json_object_get(env, "loadavg_start");
        double cores = summary_num(env, "cores_logical", 0), l1;

        if (!la)
            la = json_object_get(env, "loadavg");
        l1 = json_is_array(la) && json_is_number(json_array_get(la, 0))
                 ? json_number_value(json_array_get(la, 0))
             : json_is_number(la) ? json_number_value(la)
                                  : 0;
        if (cores > 0 && l1 > 0.5 * cores) {
            snprintf(s[0], sizeof(s[0]), "%.2f", l1);
            snprintf(s[1], sizeof(s[1]), "%.0f", cores);
            md_put(m, "- ");
            md_tmpl(m, md_t(m, M_WEAK_LOAD), s[0], s[1], MD_END);
            md_put(m, "\n");
            weak = 1;
        }
    }
    if (failed > 0) {
        snprintf(s[0], sizeof(s[0]), "%lld", failed);
        md_put(m, "- ");
        md_tmpl(m, md_t(m, M_WEAK_FAILED), s[0], MD_END);
        md_put(m, "\n");
        weak = 1;
    }
    if (nunstable > 0) {
        char *list = list_text(m, unstable, nunstable);

        md_put(m, "- ");
        md_tmpl(m, md_t(m, M_WEAK_UNSTABLE),
                num_fixed(summary_num(json_object_get(m->summary, "thresholds_pct"),
                                      "noise_limit_pct", def.noise_limit_pct),
                          0)
                    .s,
                list ? list : "", MD_END);
        md_put(m, "\n");
        free(list);
        weak = 1;
    }
    if (ninsecure > 0) {
        char *list = list_text(m, insecure, ninsecure);

        md_put(m, "- ");
        md_tmpl(m, md_t(m, M_WEAK_INSECURE), list ? list : "", MD_END);
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
    md_free_items(insecure, ninsecure);
    md_free_items(unstable, nunstable);
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
            MD_END);
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
        fprintf(m->f, "%s\n\n", md_t(m, M_DEF_LATENCY));
}

static void write_compare(const struct md *m)
{
    size_t vi;
    int nway = m->nv > 2;

    md_put(m, "# ");
    if (!nway) {
        md_tmpl(m, md_t(m, M_TITLE_AB), md_version(m, 1), m->base, MD_END);
    } else {
        char *names = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&names, &n);

        if (f) {
            for (vi = 0; vi < m->nv; vi++)
                fprintf(f, "%s%s",
                        vi == 0           ? ""
                        : vi == m->nv - 1 ? md_t(m, M_AND)
                                          : md_t(m, M_LIST_SEP),
                        md_version(m, vi));
            fclose(f);
        }
        md_tmpl(m, md_t(m, M_TITLE_NWAY), names ? names : "", MD_END);
        free(names);
    }
    md_put(m, "\n\n");
    method(m, M_METHOD);
    if (!nway) {
        char *b = md_tmpl_str("`{0}`", md_version(m, 1), MD_END);

        md_tmpl(m, md_t(m, M_ROLES), m->base, md_version(m, 1), MD_END);
        free(b);
    } else {
        char *names = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&names, &n);

        if (f) {
            for (vi = 1; vi < m->nv; vi++)
                fprintf(f, "%s`%s`",
                        vi == 1           ? ""
                        : vi == m->nv - 1 ? md_t(m, M_AND)
                                          : md_t(m, M_LIST_SEP),
                        md_version(m, vi));
            fclose(f);
        }
        md_tmpl(m, md_t(m, M_ROLES_NWAY), m->base, names ? names : "", MD_END);
        free(names);
    }
    md_put(m, "\n\n");

    fprintf(m->f, "## %s\n\n", md_t(m, M_H_SUMMARY));
    for (vi = 1; vi < m->nv; vi++)
        summary_for(m, md_version(m, vi));
    unjudged(m);
    md_put(m, md_t(m, M_CAUSE));
    md_put(m, "\n\n");
    completeness(m);

    fprintf(m->f, "## %s\n\n", md_t(m, M_H_THROUGHPUT));
    if (nway) {
        md_put(m, md_t(m, M_BEST_BOLD));
        md_put(m, "\n\n");
    }
    md_table_throughput(m);
    definitions(m, 0);
    fprintf(m->f, "## %s\n\n", md_t(m, M_H_LATENCY));
    md_table_latency(m);
    fprintf(m->f, "%s\n\n", md_t(m, M_DEF_LATENCY));
    fprintf(m->f, "## %s\n\n", md_t(m, M_H_MEMORY));
    md_table_memory(m);
    fprintf(m->f, "%s\n\n", md_t(m, M_DEF_RSS));
    md_section_instructions(m);
    md_evidence(m);
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
    md_tmpl(m, md_t(m, M_TITLE_ONE), m->base, MD_END);
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
    md_tmpl(m, md_t(m, M_ONE_SUMMARY), a, m->base, b, c, MD_END);
    {
        const json_t *best_t = NULL, *best_l = NULL;
        double bt = -1, bl = -1;

        json_array_foreach(m->rows, i, row)
        {
            double t = summary_num(summary_values(row, "throughput", m->base), "median", -1);
            double l = summary_num(summary_values(row, "p50_us", m->base), "median", -1);

            if (t >= 0 && t > bt) {
                bt = t;
                best_t = row;
            }
            if (l >= 0 && (bl < 0 || l < bl)) {
                bl = l;
                best_l = row;
            }
        }
        if (best_t && best_l) {
            md_put(m, md_t(m, M_SENT_SEP));
            md_tmpl(m, md_t(m, M_ONE_BEST), md_row_label(best_t), num_fixed(bt, 0).s,
                    md_row_label(best_l), num_fixed(bl, 1).s, MD_END);
        }
    }
    md_put(m, "\n\n");
    completeness(m);
    fprintf(m->f,
            "## %s\n\n| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            md_t(m, M_H_DETAILED), md_t(m, M_COL_VTM), md_t(m, M_COL_PAYLOAD),
            md_t(m, M_COL_CLIENTS), md_t(m, M_COL_BATCH), md_t(m, M_COL_OPS), md_t(m, M_COL_P50_US),
            md_t(m, M_COL_P99_US), md_t(m, M_COL_CPU), md_t(m, M_COL_RSS), md_t(m, M_COL_ROUNDS));
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
                (long long)summary_num(tv, "n", 0));
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
