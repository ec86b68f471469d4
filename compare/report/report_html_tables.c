/* report_html_tables: the tables of report.html. Two or more versions: "Throughput and CPU",
 * "Latency (µs)", "CPU efficiency and memory" and "Evidence" (overlap, exact U-test p,
 * paired ratios), one column per version, changes against the baseline coloured by their
 * verdict, the best value per row in bold when there are three or more versions. One
 * version: the "Detailed results" table. More than HTML_MAX_ROWS rows: each comparison table
 * shows the rows that stand out, and the full table sits in a collapsed <details> block. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_html_int.h"
#include "report/sentences.h"
#include "report/window_text.h"

#include "util/fmt.h"
#include "util/jobs_util.h"

static void th(const struct html_ctx *c, const char *text, const char *version)
{
    fputs("<th>", c->f);
    if (version) {
        html_esc(c, version);
        fputs(" <span class=\"u\">", c->f); /* "千次/秒" stays on one line */
        html_esc(c, text);
        fputs("</span></th>", c->f);
        return;
    }
    html_esc(c, text);
    fputs("</th>", c->f);
}

static void label_cell(const struct html_ctx *c, const json_t *row)
{
    const char *status = ju_str(row, "status", NULL);

    fputs("<td>", c->f);
    html_esc(c,
             ju_str(row, "label", NULL) ? ju_str(row, "label", NULL) : ju_str(row, "config", NULL));
    if (status && strcmp(status, "ok") != 0) {
        fputs(" <span class=\"v-failed\">", c->f);
        html_esc(c, status);
        fputs("</span>", c->f);
    }
    fputs("</td>", c->f);
}

/* The version index with the best median of the row for metric (higher or lower), or -1. */
static int best_version(const struct html_ctx *c, const json_t *row, const char *metric,
                        int higher_better)
{
    double best = 0, x;
    int bi = -1;
    size_t v;

    if (c->nv < 3)
        return -1; /* bold marks the N-way tables only */
    for (v = 0; v < c->nv; v++) {
        if (ju_get_num(html_values(row, metric, c->versions[v]), "median", &x) != 0)
            continue;
        if (bi < 0 || (higher_better ? x > best : x < best)) {
            best = x;
            bi = (int)v;
        }
    }
    return bi;
}

/* One "median [min–max]" cell: the median stands out, the range sits quieter below it. */
static void range_cell(const struct html_ctx *c, const json_t *values, double scale, int decimals,
                       int bold)
{
    char buf[96], *bracket;

    html_fmt_range(values, scale, decimals, buf, sizeof(buf));
    bracket = strchr(buf, '[');
    if (bracket)
        bracket[-1] = '\0';
    fprintf(c->f, bold ? "<td class=\"n\"><b>%s" : "<td class=\"n\">%s", buf);
    if (bracket)
        fprintf(c->f, " <span class=\"rg\">%s</span>", bracket);
    fputs(bold ? "</b></td>" : "</td>", c->f);
}

static void range_cells(const struct html_ctx *c, const json_t *row, const char *metric,
                        double scale, int decimals, int higher_better)
{
    int best = best_version(c, row, metric, higher_better);
    size_t v;

    for (v = 0; v < c->nv; v++)
        range_cell(c, html_values(row, metric, c->versions[v]), scale, decimals, (int)v == best);
}

/* The change of candidate v for metric, coloured by its verdict, the word shown unless "~". */
static void change_cell(const struct html_ctx *c, const json_t *row, const char *metric, size_t v)
{
    const json_t *vs = html_vs(row, metric, c->versions[v]);
    const char *verdict = ju_str(vs, "verdict", NULL);
    char buf[32];
    double ch;

    fprintf(c->f, "<td class=\"n %s\">%s", html_verdict_class(verdict),
            html_fmt_change(ju_get_num(vs, "change", &ch) == 0 ? ch : NAN, buf, sizeof(buf)));
    if (verdict && strcmp(verdict, "~") != 0) {
        fputs(" <small>", c->f);
        html_esc(c, verdict);
        fputs("</small>", c->f);
    }
    fputs("</td>", c->f);
}

static void verdict_cell(const struct html_ctx *c, const json_t *row, const char *metric, size_t v)
{
    const char *verdict = ju_str(html_vs(row, metric, c->versions[v]), "verdict", NULL);

    fprintf(c->f, "<td class=\"%s\">", html_verdict_class(verdict));
    html_esc(c, verdict ? verdict : "n/a");
    fputs("</td>", c->f);
}

static void cpu_cell(const struct html_ctx *c, const json_t *row)
{
    char x[48];
    size_t v;

    fputs("<td class=\"n\">", c->f);
    for (v = 0; v < c->nv; v++) {
        if (v)
            fputs(" \xe2\x86\x92 ", c->f);
        fputs(fmt_fixed(ju_num(html_values(row, "cpu_percent", c->versions[v]), "median", NAN), 2,
                        x, sizeof(x)),
              c->f);
    }
    fputs("</td>", c->f);
}

/* A header cell per version, "<version> <text>". */
static void version_ths(const struct html_ctx *c, const char *text)
{
    size_t v;

    for (v = 0; v < c->nv; v++)
        th(c, text, c->versions[v]);
}

/* A header cell per candidate, named after it only when there are several. */
static void candidate_ths(const struct html_ctx *c, const char *text)
{
    size_t v;

    for (v = 1; v < c->nv; v++)
        th(c, text, c->nv > 2 ? c->versions[v] : NULL);
}

/* The change of metric per candidate. */
static void change_cells(const struct html_ctx *c, const json_t *row, const char *metric)
{
    size_t v;

    for (v = 1; v < c->nv; v++)
        change_cell(c, row, metric, v);
}

typedef void (*head_fn)(const struct html_ctx *c);
typedef void (*row_fn)(const struct html_ctx *c, const json_t *row);

/* Whether a row stands out: some candidate has a verdict other than "~" on a gated metric
 * (the same rule as report.md). */
static int row_stands_out(const struct html_ctx *c, const json_t *row)
{
    size_t v;
    int m;

    for (v = 1; v < c->nv; v++)
        for (m = 0; m < METRIC_COUNT; m++) {
            const char *vd = ju_str(html_vs(row, metric_name(m), c->versions[v]), "verdict", NULL);
            if (metric_gateable(m) && vd && strcmp(vd, "~") != 0)
                return 1;
        }
    return 0;
}

static void table_body(const struct html_ctx *c, head_fn head, row_fn fn, int notable_only)
{
    size_t r;

    fputs("<div class=\"wrap\"><table>\n<tr>", c->f);
    th(c, HT(c, M_COL_CONFIG), NULL);
    head(c);
    fputs("</tr>\n", c->f);
    for (r = 0; r < c->nrows; r++) {
        const json_t *row = json_array_get(c->rows, r);

        if (notable_only && !row_stands_out(c, row))
            continue;
        fputs("<tr>", c->f);
        label_cell(c, row);
        fn(c, row);
        fputs("</tr>\n", c->f);
    }
    fputs("</table></div>\n", c->f);
}

/* A titled table: every row, or with more than HTML_MAX_ROWS rows the ones that stand out
 * followed by the full table in a <details> block (collapsed, no script needed). */
static void html_table(const struct html_ctx *c, const char *id, const char *title, head_fn head,
                       row_fn fn)
{
    size_t r, shown = 0;
    char n[32], k[32];

    fprintf(c->f, "<h3 id=\"%s\">", id);
    html_esc(c, title);
    fputs("</h3>\n", c->f);
    if (c->nrows <= HTML_MAX_ROWS) {
        table_body(c, head, fn, 0);
        return;
    }
    for (r = 0; r < c->nrows; r++)
        shown += (size_t)row_stands_out(c, json_array_get(c->rows, r));
    fputs("<p class=\"note\">", c->f);
    snprintf(n, sizeof(n), "%zu", c->nrows);
    snprintf(k, sizeof(k), "%zu", shown);
    html_say(c, shown ? H_TAB_SHOWN : H_TAB_NONE_SHOWN, n, k, (const char *)NULL);
    fputs("</p>\n", c->f);
    if (shown)
        table_body(c, head, fn, 1);
    fputs("<details class=\"full\"><summary>", c->f);
    html_say(c, M_DETAILS_FULL, n, (const char *)NULL);
    fputs("</summary>\n", c->f);
    table_body(c, head, fn, 0);
    fputs("</details>\n", c->f);
}

static void tput_head(const struct html_ctx *c)
{
    size_t v;

    version_ths(c, HT(c, H_TAB_K_S));
    candidate_ths(c, HT(c, H_TAB_CHANGE));
    fprintf(c->f, "<th>%s", HT(c, H_TAB_CPU_OPEN));
    for (v = 0; v < c->nv; v++) {
        fputs(v ? " \xe2\x86\x92 " : "", c->f);
        html_esc(c, c->versions[v]);
    }
    fprintf(c->f, "%s</th>", HT(c, H_PAREN_CLOSE));
    candidate_ths(c, HT(c, M_COL_EFF_CHANGE));
    candidate_ths(c, HT(c, H_TAB_VERDICT));
}

static void tput_row(const struct html_ctx *c, const json_t *row)
{
    size_t v;

    range_cells(c, row, "throughput", 1000, 2, 1);
    change_cells(c, row, "throughput");
    cpu_cell(c, row);
    change_cells(c, row, "cpu_efficiency");
    for (v = 1; v < c->nv; v++)
        verdict_cell(c, row, "throughput", v);
}

static void throughput_table(const struct html_ctx *c)
{
    html_table(c, "table-throughput", HT(c, M_H_THROUGHPUT), tput_head, tput_row);
    fputs("<p class=\"note\">", c->f);
    html_say(c, H_TAB_NOTE_THROUGHPUT, (const char *)NULL);
    fputs("</p>\n", c->f);
}

static void lat_head(const struct html_ctx *c)
{
    version_ths(c, "P50");
    version_ths(c, "P99");
    candidate_ths(c, HT(c, H_TAB_P50_CHANGE));
    candidate_ths(c, HT(c, M_COL_P99_CHANGE));
}

static void lat_row(const struct html_ctx *c, const json_t *row)
{
    range_cells(c, row, "p50_us", 1, 1, 0);
    range_cells(c, row, "p99_us", 1, 1, 0);
    change_cells(c, row, "p50_us");
    change_cells(c, row, "p99_us");
}

static void latency_table(const struct html_ctx *c)
{
    html_table(c, "table-latency", HT(c, H_TAB_LATENCY_S), lat_head, lat_row);
    fputs("<p class=\"note\">", c->f);
    html_say(c, H_TAB_NOTE_LATENCY, (const char *)NULL);
    fputs("</p>\n", c->f);
}

/* Whether any row has figures for metric (server CPU: found once, the tables ask per row). */
static int have_metric(const struct html_ctx *c, const char *metric)
{
    if (strcmp(metric, "server_cpu_percent") == 0)
        return c->server_cpu;
    return html_has_metric(c, metric);
}

static void eff_head(const struct html_ctx *c)
{
    size_t v;

    version_ths(c, HT(c, H_TAB_K_OPS_S_PER));
    version_ths(c, HT(c, H_TAB_PEAK_RSS_MIB));
    candidate_ths(c, HT(c, H_TAB_RSS_CHANGE));
    for (v = 0; have_metric(c, "server_cpu_percent") && v < c->nv; v++)
        th(c, HT(c, H_TAB_SERVER_CPU), c->versions[v]);
}

static void eff_row(const struct html_ctx *c, const json_t *row)
{
    range_cells(c, row, "cpu_efficiency", 1000, 2, 1);
    range_cells(c, row, "rss_mib", 1, 1, 0);
    change_cells(c, row, "rss_mib");
    if (have_metric(c, "server_cpu_percent"))
        range_cells(c, row, "server_cpu_percent", 1, 2, 0);
}

static void efficiency_table(const struct html_ctx *c)
{
    int server = have_metric(c, "server_cpu_percent");

    html_table(c, "table-efficiency",
               server ? HT(c, H_TAB_CPU_EFFICIENCY_MEMORY_AND)
                      : HT(c, H_TAB_CPU_EFFICIENCY_AND_MEMORY),
               eff_head, eff_row);
    if (server) {
        fputs("<p class=\"note\">", c->f);
        html_say(c, H_TAB_NOTE_SERVER_CPU, (const char *)NULL);
        fputs("</p>\n", c->f);
    }
}

static void evid_head(const struct html_ctx *c)
{
    size_t v;

    for (v = 1; v < c->nv; v++) {
        th(c, HT(c, H_TAB_RANGES_OVERLAP), c->nv > 2 ? c->versions[v] : NULL);
        th(c, HT(c, H_TAB_U_TEST_P), c->nv > 2 ? c->versions[v] : NULL);
        th(c, HT(c, H_TAB_PAIRED_RATIO), c->nv > 2 ? c->versions[v] : NULL);
    }
}

static void evid_row(const struct html_ctx *c, const json_t *row)
{
    char buf[96];
    size_t v;

    for (v = 1; v < c->nv; v++) {
        const json_t *vs = html_vs(row, "throughput", c->versions[v]);
        const json_t *ov = json_object_get(vs, "overlap");
        double p;

        fprintf(c->f, "<td>%s</td>",
                json_is_boolean(ov) ? (json_is_true(ov) ? HT(c, M_YES) : HT(c, M_NO)) : "n/a");
        if (ju_get_num(vs, "p", &p) == 0)
            fprintf(c->f, "<td class=\"n\">%.4f</td>", p);
        else
            fputs("<td class=\"n\">n/a</td>", c->f);
        fprintf(c->f, "<td class=\"n\">%s</td>",
                html_fmt_range(json_object_get(vs, "paired_ratio"), 1, 3, buf, sizeof(buf)));
    }
}

/* The overlap flag, the chance at this dataset's run count and the evidence floor, in
 * report.md's words (sentences.c), never a fixed five. */
static void evidence_note(const struct html_ctx *c, const json_t *chance)
{
    double alpha = NAN, expected = NAN;
    char *s;

    fputs("<p class=\"note\">", c->f);
    html_say(c, H_TAB_NOTE_OVERLAP, (const char *)NULL);
    ju_get_num(chance, "alpha", &alpha);
    s = sent_evidence(c->model, alpha, c->zh ? "zh" : "en");
    if (s) {
        html_text(c, s);
        fputs(c->zh ? "" : " ", c->f);
    }
    free(s);
    s = sent_floor(chance, c->zh ? "zh" : "en");
    if (s) {
        html_text(c, s);
        fputs(c->zh ? "" : " ", c->f);
    }
    free(s);
    s = sent_family(chance, c->zh ? "zh" : "en");
    if (s) {
        html_text(c, s);
        fputs(c->zh ? "" : " ", c->f);
    }
    free(s);
    html_say(c, H_TAB_NOTE_EXACT_P, (const char *)NULL);
    if (!isnan(alpha) && ju_get_num(chance, "expected_false_flags", &expected) == 0) {
        char ba[32], be[32];

        snprintf(ba, sizeof(ba), "%.4f", alpha);
        snprintf(be, sizeof(be), "%.2f", expected);
        html_say(c, H_TAB_NOTE_EXPECTED, ba, be, (const char *)NULL);
    }
    fputs("</p>\n", c->f);
}

/* window_text's sentences (interference, server accounting) as a section. */
struct html_window_ctx {
    const struct html_ctx *c;
    int started, in_list;
};

static void html_window_put(void *ctx, int item, const char *text)
{
    struct html_window_ctx *w = ctx;

    if (!w->started)
        fprintf(w->c->f, "<section id=\"interference\"><h2>%s</h2>\n",
                window_text_heading(w->c->zh ? "zh" : "en"));
    if (item && !w->in_list)
        fputs("<ul>\n", w->c->f);
    if (!item && w->in_list)
        fputs("</ul>\n", w->c->f);
    fputs(item ? "<li>" : "<p>", w->c->f);
    html_esc(w->c, text);
    fputs(item ? "</li>\n" : "</p>\n", w->c->f);
    w->started = 1;
    w->in_list = item;
}

static void window_section(const struct html_ctx *c)
{
    struct html_window_ctx w = {c, 0, 0};

    window_text(c->summary, c->meta, c->zh ? "zh" : "en", html_window_put, &w);
    if (w.in_list)
        fputs("</ul>\n", c->f);
    if (w.started)
        fputs("</section>\n", c->f);
}

static void evidence_table(const struct html_ctx *c)
{
    html_table(c, "table-evidence", HT(c, H_TAB_EVIDENCE_THROUGHPUT), evid_head, evid_row);
    evidence_note(c, json_object_get(c->summary, "chance"));
}

/* "Valkey 8.0 / TLS / RESP3": version, transport and the protocol's mode. */
static void mode_cell(const struct html_ctx *c, const json_t *row)
{
    const json_t *p = json_object_get(row, "params");
    const char *proto = ju_str(p, "protocol", NULL), *tr = ju_str(p, "transport", NULL);
    const json_t *resp = json_object_get(p, "resp");

    fputs("<td>", c->f);
    html_esc(c, c->versions[0]);
    if (tr) {
        fputs(" / ", c->f);
        html_esc(c, strcmp(tr, "tls") == 0 ? "TLS" : strcmp(tr, "tcp") == 0 ? "TCP" : tr);
    }
    if (proto) {
        fputs(" / ", c->f);
        if (strcmp(proto, "redis") == 0 && json_is_integer(resp))
            fprintf(c->f, "RESP%lld", (long long)json_integer_value(resp));
        else if (strcmp(proto, "redis") == 0)
            fputs("Redis", c->f);
        else if (strcmp(proto, "http") == 0 && ju_str(p, "http_version", NULL)) {
            fputs("HTTP/", c->f);
            html_esc(c, ju_str(p, "http_version", NULL));
        } else if (strcmp(proto, "ws") == 0)
            fputs("WebSocket", c->f);
        else if (strcmp(proto, "tcp") == 0)
            fputs(HT(c, H_TAB_ECHO), c->f);
        else
            html_esc(c, proto);
        if (ju_str(p, "command", NULL) && strcmp(proto, "redis") == 0) {
            fputc(' ', c->f);
            html_esc(c, ju_str(p, "command", NULL));
        }
    }
    fputs("</td>", c->f);
}

static void int_param_cell(const struct html_ctx *c, const json_t *row, const char *key)
{
    const json_t *v = json_object_get(json_object_get(row, "params"), key);

    if (json_is_integer(v))
        fprintf(c->f, "<td class=\"n\">%lld</td>", (long long)json_integer_value(v));
    else
        fputs("<td class=\"n\">\xe2\x80\x94</td>", c->f);
}

static void detail_head(const struct html_ctx *c)
{
    th(c, HT(c, H_TAB_VERSION_TRANSPORT_MODE), NULL);
    th(c, HT(c, H_TAB_PAYLOAD_B), NULL);
    th(c, HT(c, H_TAB_CLIENTS), NULL);
    th(c, HT(c, H_TAB_COMMANDS_PER_BATCH_BATCHES), NULL);
    th(c, HT(c, H_TAB_OPS_S_K), NULL);
    th(c, HT(c, H_TAB_BATCH_P50_S), NULL);
    th(c, HT(c, H_TAB_BATCH_P99_S), NULL);
    th(c, "CPU %", NULL);
    th(c, "RSS MiB", NULL);
    th(c, HT(c, H_TAB_ROUNDS), NULL);
}

static void detail_row(const struct html_ctx *c, const json_t *row)
{
    const json_t *p = json_object_get(row, "params");
    const json_t *runs = json_object_get(row, "runs");
    const char *metrics[] = {"throughput", "p50_us", "p99_us", "cpu_percent", "rss_mib"};
    const double scale[] = {1000, 1, 1, 1, 1};
    const int decimals[] = {2, 1, 1, 2, 1};
    double ok, expected;
    size_t m;

    mode_cell(c, row);
    int_param_cell(c, row, "payload");
    int_param_cell(c, row, "connections");
    if (json_is_integer(json_object_get(p, "pipeline")) &&
        json_is_integer(json_object_get(p, "window")))
        fprintf(c->f, "<td class=\"n\">%lld / %lld</td>",
                (long long)json_integer_value(json_object_get(p, "pipeline")),
                (long long)json_integer_value(json_object_get(p, "window")));
    else
        fputs("<td class=\"n\">\xe2\x80\x94</td>", c->f);
    for (m = 0; m < 5; m++)
        range_cell(c, html_values(row, metrics[m], c->versions[0]), scale[m], decimals[m], 0);
    if (ju_get_num(runs, "ok", &ok) == 0 && ju_get_num(runs, "expected", &expected) == 0)
        fprintf(c->f, "<td class=\"n\">%.0f / %.0f</td>", ok, expected);
    else if (ju_get_num(html_values(row, "throughput", c->versions[0]), "n", &ok) == 0)
        fprintf(c->f, "<td class=\"n\">%.0f</td>", ok);
    else
        fputs("<td class=\"n\">\xe2\x80\x94</td>", c->f);
}

/* One version: no verdicts, so nothing stands out; the table is the page's content and
 * stays whole. */
static void detailed_table(const struct html_ctx *c)
{
    fputs("<h3 id=\"table-detailed\">", c->f);
    html_esc(c, HT(c, M_H_DETAILED));
    fputs("</h3>\n", c->f);
    table_body(c, detail_head, detail_row, 0);
    fputs("<p class=\"note\">", c->f);
    html_say(c, H_TAB_NOTE_DETAIL, (const char *)NULL);
    fputs("</p>\n", c->f);
}

void html_tables(const struct html_ctx *c)
{
    fprintf(c->f, "<section id=\"tables\">\n<h2>%s</h2>\n", HT(c, H_NAV_TABLES));
    if (c->nv > 1) {
        throughput_table(c);
        latency_table(c);
        efficiency_table(c);
    } else {
        detailed_table(c);
    }
    fputs("</section>\n", c->f);
}

void html_evidence(const struct html_ctx *c)
{
    if (c->nv < 2)
        return;
    fprintf(c->f, "<section id=\"evidence\">\n<h2>%s</h2>\n", HT(c, M_H_EVIDENCE));
    evidence_table(c);
    fputs("</section>\n", c->f);
    window_section(c);
}
