/* calibrate_html: calibration.md and calibration.html from calibration.json, every sentence
 * from the string table (i18n.h) in English or Chinese. The page holds the count of A/A false
 * alarms, one bar chart of the smallest detectable change per configuration (throughput and
 * batch P99, drawn by report_html_svg), and the table of noise, spread, detectable change and
 * gate floor per configuration and metric. Same style sheet as report.html; no script, no
 * URL; the same calibration gives the same bytes. Everything taken from the data is escaped
 * (escape.h). */
#include "report/calibrate_html.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/jobs_util.h"
#include "report/i18n.h"
#include "analysis/metrics.h"
#include "report/report_html.h"
#include "report/report_html_svg.h"

/* The chart's two series: the headline metrics. */
static const char *const chart_keys[] = {"throughput", "p99_us"};

static void pct_cell(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "<td class=\"n\">%.2f%%</td>", v);
    else
        fputs("<td class=\"n\">n/a</td>", f);
}

static const char *label_of(const json_t *row)
{
    return ju_str(row, "label", ju_str(row, "config", "?"));
}

/* "Redis · TLS · 1 KiB": the band of a row (protocol, transport, payload), "" without params;
 * each band has its own axis, so one very noisy row does not flatten the others. */
static void band_name(const json_t *row, char *out, size_t len)
{
    const json_t *p = json_object_get(row, "params"), *pl = json_object_get(p, "payload");
    const char *proto =
        report_html_protocol_name(json_string_value(json_object_get(p, "protocol")));
    const char *tr = json_string_value(json_object_get(p, "transport"));
    long long b = json_is_integer(pl) ? (long long)json_integer_value(pl) : -1;
    char pay[32] = "";

    out[0] = '\0';
    if (!proto)
        return;
    if (tr && strcmp(tr, "tls") == 0)
        tr = "TLS";
    else if (tr && strcmp(tr, "tcp") == 0)
        tr = "TCP";
    if (b >= 1024 && b % 1024 == 0)
        snprintf(pay, sizeof(pay), " \xc2\xb7 %lld KiB", b / 1024);
    else if (b >= 0)
        snprintf(pay, sizeof(pay), " \xc2\xb7 %lld B", b);
    snprintf(out, len, "%s%s%s%s", proto, tr ? " \xc2\xb7 " : "", tr ? tr : "", pay);
}

/* The bar chart of detectable change: one row per configuration, one bar per series. */
static int chart(FILE *f, const json_t *rows, const char *lang)
{
    size_t n = json_array_size(rows), r, k, nk = sizeof(chart_keys) / sizeof(chart_keys[0]);
    struct svg_row *srows = calloc(n + 1, sizeof(*srows));
    struct svg_bar *bars = calloc((n + 1) * nk, sizeof(*bars));
    struct svg_group *groups = calloc(n + 1, sizeof(*groups));
    char(*gnames)[96] = calloc(n + 1, sizeof(*gnames));
    const char *names[2];
    char *labels[2] = {NULL, NULL};
    struct svg_chart ch;
    size_t ngroups = 0;
    int rc = -1;

    names[0] = i18n(lang, M_MN_THROUGHPUT);
    names[1] = i18n(lang, C_BATCH_P99);
    labels[0] = i18n_fill(i18n(lang, C_DETECTABLE_OF), names[0], (const char *)NULL);
    labels[1] = i18n_fill(i18n(lang, C_DETECTABLE_OF), names[1], (const char *)NULL);
    if (!srows || !bars || !groups || !gnames || !labels[0] || !labels[1])
        goto out;
    for (r = 0; r < n; r++) {
        const json_t *row = json_array_get(rows, r);

        srows[r].label = label_of(row);
        srows[r].title = label_of(row);
        srows[r].bars = bars + r * nk;
        band_name(row, gnames[r], sizeof(gnames[r]));
        if (ngroups == 0 || strcmp(groups[ngroups - 1].name, gnames[r]) != 0) {
            groups[ngroups].name = gnames[r];
            groups[ngroups].first = r;
            ngroups++;
        }
        groups[ngroups - 1].count++;
        for (k = 0; k < nk; k++) {
            const json_t *m = json_object_get(json_object_get(row, "metrics"), chart_keys[k]);
            struct svg_bar *b = &srows[r].bars[k];

            b->median = b->min = b->max = ju_num(m, "detectable_pct", NAN);
            b->present = isfinite(b->median);
        }
    }
    memset(&ch, 0, sizeof(ch));
    ch.metric = "detectable_pct";
    ch.title = i18n(lang, C_CHART_TITLE);
    ch.axis_label = i18n(lang, C_CHART_AXIS);
    ch.no_value = i18n(lang, C_NO_PAIRS);
    ch.versions = names;
    ch.version_labels = (const char *const *)labels;
    ch.nversions = nk;
    ch.rows = srows;
    ch.nrows = n;
    ch.groups = groups;
    ch.ngroups = ngroups;
    rc = svg_chart_write(f, &ch);
out:
    free(srows);
    free(bars);
    free(groups);
    free(gnames);
    free(labels[0]);
    free(labels[1]);
    return rc;
}

/* Writes string id of lang filled with the const char * arguments that follow (NULL-ended),
 * HTML-escaped with its Markdown marks as tags. */
static void say(FILE *f, const char *lang, enum i18n_msg id, ...)
{
    va_list ap;

    va_start(ap, id);
    i18n_vput(f, 1, i18n(lang, id), ap);
    va_end(ap);
}

/* open, string id of lang (no arguments), close. */
static void tagged(FILE *f, const char *lang, const char *open, enum i18n_msg id, const char *close)
{
    fputs(open, f);
    say(f, lang, id, (const char *)NULL);
    fputs(close, f);
}

static const enum i18n_msg table_cols[] = {M_COL_CONFIG, M_COL_METRIC,     C_COL_NOISE,
                                           C_COL_SPREAD, C_COL_DETECTABLE, C_COL_FLOOR,
                                           C_COL_PAIRS,  C_COL_VERDICT};

/* The metrics of a row the calibration holds: the gateable ones of the metric table,
 * optional ones (server CPU, instructions) only where the runs measured them. */
static size_t row_metrics(const json_t *metrics)
{
    size_t k, n = 0;

    for (k = 0; k < METRIC_ALL; k++)
        n += metric_gateable((enum metric)k) &&
             json_is_object(json_object_get(metrics, metric_name((enum metric)k)));
    return n;
}

/* One table line: a metric's noise, spread, detectable change, floor, pairs and verdict. */
static void table_line(FILE *f, const json_t *row, enum metric k, size_t present, size_t shown,
                       const char *lang)
{
    const struct metric_def *d = metric_def(k);
    const json_t *m = json_object_get(json_object_get(row, "metrics"), d->key);
    int zh = lang && strcmp(lang, "zh") == 0;

    fputs("<tr>", f);
    if (shown == 0) {
        fprintf(f, "<td rowspan=\"%zu\">", present);
        escape_html(f, label_of(row));
        fputs("</td>", f);
    }
    fputs("<td>", f);
    escape_html(f, zh ? d->title_zh : d->title_en);
    fputs("</td>", f);
    pct_cell(f, ju_num(m, "noise_pct", NAN));
    pct_cell(f, ju_num(m, "spread_pct", NAN));
    pct_cell(f, ju_num(m, "detectable_pct", NAN));
    pct_cell(f, ju_num(m, "floor_pct", NAN));
    if (isfinite(ju_num(m, "pairs", NAN)))
        fprintf(f, "<td class=\"n\">%.0f</td>", ju_num(m, "pairs", NAN));
    else
        fputs("<td class=\"n\">n/a</td>", f);
    if (json_is_true(json_object_get(m, "false_alarm"))) {
        fputs("<td class=\"v-regressed\">", f);
        say(f, lang, C_FALSE_ALARM, (const char *)NULL);
        fputs("</td>", f);
    } else {
        fputs("<td>~</td>", f);
    }
    fputs("</tr>\n", f);
}

static void table(FILE *f, const json_t *rows, const char *lang)
{
    size_t r, k;

    fputs("<div class=\"wrap\"><table>\n<tr>", f);
    for (k = 0; k < sizeof(table_cols) / sizeof(table_cols[0]); k++) {
        fputs("<th>", f);
        say(f, lang, table_cols[k], (const char *)NULL);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (r = 0; r < json_array_size(rows); r++) {
        const json_t *row = json_array_get(rows, r), *metrics = json_object_get(row, "metrics");
        size_t present = row_metrics(metrics), shown = 0;

        if (!present) {
            fputs("<tr><td>", f);
            escape_html(f, label_of(row));
            fputs("</td><td colspan=\"7\">", f);
            say(f, lang, C_ROW_FAILED, (const char *)NULL);
            fputs("</td></tr>\n", f);
            continue;
        }
        for (k = 0; k < METRIC_ALL; k++)
            if (metric_gateable((enum metric)k) &&
                json_is_object(json_object_get(metrics, metric_name((enum metric)k))))
                table_line(f, row, (enum metric)k, present, shown++, lang);
    }
    fputs("</table></div>\n", f);
}

/* The paired rounds behind the figures: few pairs, coarse floors. */
static void pairs_sentence(FILE *f, const json_t *rows, const char *lang)
{
    double lo = INFINITY, hi = 0, p;
    char n[32], a[32], b[32];
    size_t r;

    for (r = 0; r < json_array_size(rows); r++) {
        p = ju_num(
            json_object_get(json_object_get(json_array_get(rows, r), "metrics"), "throughput"),
            "pairs", NAN);
        if (isfinite(p)) {
            lo = p < lo ? p : lo;
            hi = p > hi ? p : hi;
        }
    }
    snprintf(n, sizeof(n), "%zu", json_array_size(rows));
    snprintf(a, sizeof(a), "%.0f", lo);
    snprintf(b, sizeof(b), "%.0f", hi);
    fputs("<p>", f);
    if (hi > 0 && lo == hi)
        say(f, lang, C_PAIRS_SAME, n, b, (const char *)NULL);
    else if (hi > 0)
        say(f, lang, C_PAIRS_RANGE, n, a, b, (const char *)NULL);
    else
        say(f, lang, C_CONFIGS, n, (const char *)NULL);
    fputs("</p>\n", f);
}

/* The checks of the document's shape; 0 or -1 with err set. */
static int check_shape(const json_t *cal, char *err, size_t errlen)
{
    double alarms = ju_num(cal, "false_alarms", NAN);

    if (!json_is_object(cal) || !json_string_value(json_object_get(cal, "baseline"))) {
        snprintf(err, errlen, "calibration: '$.baseline': expected a version name");
        return -1;
    }
    if (!json_is_array(json_object_get(cal, "rows"))) {
        snprintf(err, errlen, "calibration: '$.rows': expected an array");
        return -1;
    }
    if (!isfinite(alarms) || alarms < 0) {
        snprintf(err, errlen, "calibration: '$.false_alarms': expected a count");
        return -1;
    }
    return 0;
}

/* The head, the title and the method paragraph. */
static void page_head(FILE *f, const json_t *cal, const char *lang)
{
    const char *base = json_string_value(json_object_get(cal, "baseline"));
    double margin = ju_num(cal, "margin", NAN);
    char mg[32];

    snprintf(mg, sizeof(mg), "%.2f", isfinite(margin) ? margin : 1.25);
    fprintf(f,
            "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>pairbench: ",
            lang && strcmp(lang, "zh") == 0 ? "zh" : "en");
    say(f, lang, C_TITLE, base, (const char *)NULL);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<h1>", report_html_css);
    say(f, lang, C_HEADING, base, (const char *)NULL);
    fputs("</h1>\n<p class=\"method\">", f);
    say(f, lang, C_METHOD, mg, (const char *)NULL);
    fputs("</p>\n</header>\n", f);
}

int calibrate_html_write(FILE *f, const json_t *cal, const char *lang, char *err, size_t errlen)
{
    const json_t *rows = json_object_get(cal, "rows");
    double alarms = ju_num(cal, "false_alarms", NAN);
    char n[32];

    if (check_shape(cal, err, errlen) < 0)
        return -1;
    page_head(f, cal, lang);
    tagged(f, lang, "<section id=\"summary\">\n<h2>", M_H_SUMMARY, "</h2>\n");
    snprintf(n, sizeof(n), "%.0f", alarms);
    if (alarms > 0) {
        fputs("<p class=\"warn\">", f);
        say(f, lang, C_ALARMS, n, alarms == 1 ? "" : "s", (const char *)NULL);
    } else {
        fputs("<p>", f);
        say(f, lang, C_NO_ALARMS, (const char *)NULL);
    }
    fputs("</p>\n", f);
    pairs_sentence(f, rows, lang);
    tagged(f, lang, "</section>\n<section id=\"chart\">\n<h2>", C_H_CHART, "</h2>\n");
    tagged(f, lang, "<figure>\n<figcaption><span class=\"note\">", C_CHART_NOTE,
           "</span></figcaption>\n");
    if (chart(f, rows, lang) != 0) {
        snprintf(err, errlen, "calibration: out of memory or write error");
        return -1;
    }
    tagged(f, lang, "</figure>\n</section>\n<section id=\"table\">\n<h2>", C_H_TABLE, "</h2>\n");
    table(f, rows, lang);
    tagged(f, lang, "</section>\n<footer>", C_FOOTER, "</footer>\n</body>\n</html>\n");
    if (ferror(f)) {
        snprintf(err, errlen, "calibration: write failed");
        return -1;
    }
    return 0;
}

int calibrate_md_write(FILE *f, const json_t *cal, const char *lang, char *err, size_t errlen)
{
    const json_t *rows = json_object_get(cal, "rows");
    double margin = ju_num(cal, "margin", NAN), alarms = ju_num(cal, "false_alarms", NAN);
    char mg[32], n[32], *s;
    size_t r, k;

    if (check_shape(cal, err, errlen) < 0)
        return -1;
    snprintf(mg, sizeof(mg), "%.2f", isfinite(margin) ? margin : 1.25);
    snprintf(n, sizeof(n), "%.0f", alarms);
    fputs("# ", f);
    i18n_write(f, i18n(lang, C_HEADING), json_string_value(json_object_get(cal, "baseline")),
               (const char *)NULL);
    fputs("\n\n", f);
    i18n_write(f, i18n(lang, C_METHOD), mg, (const char *)NULL);
    fputs("\n\n|", f);
    for (k = 0; k < sizeof(table_cols) / sizeof(table_cols[0]); k++)
        if (table_cols[k] != C_COL_PAIRS)
            fprintf(f, " %s |", i18n(lang, table_cols[k]));
    fputs("\n|---|---|---:|---:|---:|---:|---|\n", f);
    for (r = 0; r < json_array_size(rows); r++) {
        const json_t *row = json_array_get(rows, r), *metrics = json_object_get(row, "metrics");
        const char *label = json_string_value(json_object_get(row, "label"));

        for (k = 0; k < METRIC_ALL; k++) {
            const json_t *m = json_object_get(metrics, metric_name((enum metric)k));

            if (!metric_gateable((enum metric)k) || !json_is_object(m))
                continue;
            fputs("| ", f);
            escape_md_cell(f, label ? label : "?");
            fprintf(f, " | %s | %.2f%% | %.2f%% | %.2f%% | %.2f%% | ", metric_name((enum metric)k),
                    ju_num(m, "noise_pct", NAN), ju_num(m, "spread_pct", NAN),
                    ju_num(m, "detectable_pct", NAN), ju_num(m, "floor_pct", NAN));
            if (json_is_true(json_object_get(m, "false_alarm")))
                i18n_write(f, "**{0}**", i18n(lang, C_FALSE_ALARM), (const char *)NULL);
            else
                fputs("~", f);
            fputs(" |\n", f);
        }
    }
    s = i18n_fill(i18n(lang, C_ALARMS_LINE), n, alarms == 1 ? "" : "s", (const char *)NULL);
    fprintf(f, "\n%s\n", s ? s : "?");
    free(s);
    if (ferror(f)) {
        snprintf(err, errlen, "calibration: write failed");
        return -1;
    }
    return 0;
}
