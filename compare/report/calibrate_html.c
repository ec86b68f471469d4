/* calibrate_html: calibration.html from calibration.json — the count of A/A false alarms, one
 * bar chart of the smallest detectable change per configuration (throughput and batch P99,
 * drawn by report_html_svg), and the table of noise, spread, detectable change and gate floor
 * per configuration and metric. Same style sheet as report.html; no script, no URL; the same
 * calibration gives the same bytes. Everything taken from the data is escaped. */
#include "calibrate_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "report_html.h"
#include "report_html_svg.h"

#define L(zh, en, zh_text) ((zh) ? (zh_text) : (en))

/* The chart's two series: the headline metrics. */
static const char *const chart_keys[] = {"throughput", "p99_us"};

static double num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);

    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void pct_cell(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "<td class=\"n\">%.2f%%</td>", v);
    else
        fputs("<td class=\"n\">n/a</td>", f);
}

static const char *label_of(const json_t *row)
{
    const char *s = json_string_value(json_object_get(row, "label"));

    if (!s)
        s = json_string_value(json_object_get(row, "config"));
    return s ? s : "?";
}

static const char *proto_name(const char *p)
{
    static const char *const names[][2] = {
        {"redis", "Redis"}, {"tcp", "TCP echo"}, {"http", "HTTP"}, {"ws", "WebSocket"}};
    size_t i;

    for (i = 0; p && i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(p, names[i][0]) == 0)
            return names[i][1];
    return p;
}

/* "Redis · TLS · 1 KiB": the band of a row (protocol, transport, payload), "" without params;
 * each band has its own axis, so one very noisy row does not flatten the others. */
static void band_name(const json_t *row, char *out, size_t len)
{
    const json_t *p = json_object_get(row, "params"), *pl = json_object_get(p, "payload");
    const char *proto = proto_name(json_string_value(json_object_get(p, "protocol")));
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
static int chart(FILE *f, const json_t *rows, int zh)
{
    size_t n = json_array_size(rows), r, k, nk = sizeof(chart_keys) / sizeof(chart_keys[0]);
    struct svg_row *srows = calloc(n + 1, sizeof(*srows));
    struct svg_bar *bars = calloc((n + 1) * nk, sizeof(*bars));
    struct svg_group *groups = calloc(n + 1, sizeof(*groups));
    char(*gnames)[96] = calloc(n + 1, sizeof(*gnames));
    const char *names[2], *labels[2];
    struct svg_chart ch;
    size_t ngroups = 0;
    int rc = -1;

    if (!srows || !bars || !groups || !gnames)
        goto out;
    names[0] = L(zh, "throughput", "吞吐量");
    names[1] = L(zh, "batch P99", "批次 P99");
    labels[0] = L(zh, "throughput: detectable change", "吞吐量：可检测的变化");
    labels[1] = L(zh, "batch P99: detectable change", "批次 P99：可检测的变化");
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

            b->median = b->min = b->max = num(m, "detectable_pct");
            b->present = isfinite(b->median);
        }
    }
    memset(&ch, 0, sizeof(ch));
    ch.metric = "detectable_pct";
    ch.title = L(zh, "Smallest detectable change per configuration", "各配置可检测到的最小变化");
    ch.axis_label = L(zh, "smallest detectable change, % (lower is better)",
                      "可检测到的最小变化，%（越低越好）");
    ch.no_value = L(zh, "no paired runs", "无配对运行");
    ch.versions = names;
    ch.version_labels = labels;
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
    return rc;
}

static void table(FILE *f, const json_t *rows, int zh)
{
    size_t r, k;

    fprintf(f,
            "<div class=\"wrap\"><table>\n<tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th>"
            "<th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n",
            L(zh, "Configuration", "配置"), L(zh, "Metric", "指标"), L(zh, "Noise", "噪声"),
            L(zh, "Spread", "离散度"), L(zh, "Detectable", "可检测"), L(zh, "Floor", "下限"),
            L(zh, "Pairs", "配对数"), L(zh, "A/A verdict", "A/A 判定"));
    for (r = 0; r < json_array_size(rows); r++) {
        const json_t *row = json_array_get(rows, r), *metrics = json_object_get(row, "metrics");
        size_t present = 0, shown = 0;

        for (k = 0; k < METRIC_COUNT; k++)
            present += metric_gateable((enum metric)k) &&
                       json_is_object(json_object_get(metrics, metric_name((enum metric)k)));
        if (!present) {
            fputs("<tr><td>", f);
            svg_escape(f, label_of(row));
            fprintf(f, "</td><td colspan=\"7\">%s</td></tr>\n",
                    L(zh, "no paired runs (the row failed)", "无配对运行（该行失败）"));
            continue;
        }
        for (k = 0; k < METRIC_COUNT; k++) {
            const struct metric_def *d = metric_def((enum metric)k);
            const json_t *m = json_object_get(metrics, d->key);
            int alarm;

            if (!d->gateable || !json_is_object(m))
                continue;
            alarm = json_is_true(json_object_get(m, "false_alarm"));
            fputs("<tr>", f);
            if (shown++ == 0) {
                fprintf(f, "<td rowspan=\"%zu\">", present);
                svg_escape(f, label_of(row));
                fputs("</td>", f);
            }
            fprintf(f, "<td>%s</td>", L(zh, d->title_en, d->title_zh));
            pct_cell(f, num(m, "noise_pct"));
            pct_cell(f, num(m, "spread_pct"));
            pct_cell(f, num(m, "detectable_pct"));
            pct_cell(f, num(m, "floor_pct"));
            if (isfinite(num(m, "pairs")))
                fprintf(f, "<td class=\"n\">%.0f</td>", num(m, "pairs"));
            else
                fputs("<td class=\"n\">n/a</td>", f);
            if (alarm)
                fprintf(f, "<td class=\"v-regressed\">%s</td>", L(zh, "false alarm", "误报"));
            else
                fputs("<td>~</td>", f);
            fputs("</tr>\n", f);
        }
    }
    fputs("</table></div>\n", f);
}

/* The paired rounds behind the figures: few pairs, coarse floors. */
static void pairs_sentence(FILE *f, const json_t *rows, int zh)
{
    double lo = INFINITY, hi = 0, p;
    size_t r;

    for (r = 0; r < json_array_size(rows); r++) {
        p = num(json_object_get(json_object_get(json_array_get(rows, r), "metrics"), "throughput"),
                "pairs");
        if (isfinite(p)) {
            lo = p < lo ? p : lo;
            hi = p > hi ? p : hi;
        }
    }
    if (hi > 0 && lo == hi)
        fprintf(f,
                L(zh, "<p>%zu configurations, %.0f paired rounds each.</p>\n",
                  "<p>共 %zu 个配置，每个配置 %.0f 轮配对运行。</p>\n"),
                json_array_size(rows), hi);
    else if (hi > 0)
        fprintf(f,
                L(zh, "<p>%zu configurations, %.0f to %.0f paired rounds each.</p>\n",
                  "<p>共 %zu 个配置，每个配置 %.0f 至 %.0f 轮配对运行。</p>\n"),
                json_array_size(rows), lo, hi);
    else
        fprintf(f, L(zh, "<p>%zu configurations.</p>\n", "<p>共 %zu 个配置。</p>\n"),
                json_array_size(rows));
}

int calibrate_html_write(FILE *f, const json_t *cal, const char *lang, char *err, size_t errlen)
{
    int zh = lang && strcmp(lang, "zh") == 0;
    const char *base = json_string_value(json_object_get(cal, "baseline"));
    const json_t *rows = json_object_get(cal, "rows");
    double margin = num(cal, "margin"), alarms = num(cal, "false_alarms");

    if (!json_is_object(cal) || !base) {
        snprintf(err, errlen, "calibration: '$.baseline': expected a version name");
        return -1;
    }
    if (!json_is_array(rows)) {
        snprintf(err, errlen, "calibration: '$.rows': expected an array");
        return -1;
    }
    if (!isfinite(alarms) || alarms < 0) {
        snprintf(err, errlen, "calibration: '$.false_alarms': expected a count");
        return -1;
    }
    fprintf(f,
            "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>pairbench: ",
            zh ? "zh" : "en");
    fputs(L(zh, "calibration of ", "校准 "), f);
    svg_escape(f, base);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<h1>", report_html_css);
    fputs(L(zh, "Calibration: ", "校准："), f);
    svg_escape(f, base);
    fputs(L(zh, " against itself", " 与自身对比"), f);
    fputs("</h1>\n<p class=\"method\">", f);
    fprintf(f,
            L(zh,
              "An A/A run: the same build twice, in fresh processes, adjacent and in "
              "alternating order. <b>Noise</b> is the largest deviation of a paired per-round "
              "ratio from 1; <b>spread</b> is the larger (max − min) / median of the two sides; "
              "<b>detectable</b> is the smallest change for which every paired ratio would fall "
              "on one side of 1; the <b>floor</b> is max(threshold, %.2f × detectable), what "
              "<code>compare gate --floors calibration.json</code> uses for that row. Any A/A "
              "<code>regressed</code> or <code>improved</code> is a false alarm.",
              "A/A 运行：同一构建运行两次，均为全新进程，相邻并交替顺序运行。<b>噪声</b>为每轮配对"
              "比值偏离 1 的最大值；<b>离散度</b>为两方中较大的 (最大值 − 最小值) / 中位数；"
              "<b>可检测</b>为使所有配对比值都落在 1 同一侧所需的最小变化；<b>下限</b>为 "
              "max(阈值, %.2f × 可检测)，即 <code>compare gate --floors calibration.json</code> "
              "对该行使用的值。A/A 中出现的任何 <code>regressed</code> 或 <code>improved</code> "
              "都是误报。"),
            isfinite(margin) ? margin : 1.25);
    fputs("</p>\n</header>\n<section id=\"summary\">\n<h2>", f);
    fputs(L(zh, "Summary", "摘要"), f);
    fputs("</h2>\n", f);
    if (alarms > 0)
        fprintf(
            f,
            L(zh,
              "<p class=\"warn\"><b>%.0f false alarm%s</b> in this A/A run: a verdict other "
              "than ~ between two identical builds. At the plain thresholds those rows would "
              "cry wolf; their floors in the table are raised to what their noise allows.</p>\n",
              "<p class=\"warn\">本次 A/A 运行中有 <b>%.0f 次误报%s</b>：两个相同构建之间出现了 ~ "
              "以外的判定。按普通阈值这些行会误报；表中它们的下限已按噪声提高。</p>\n"),
            alarms, zh ? "" : (alarms == 1 ? "" : "s"));
    else
        fputs(L(zh, "<p><b>0 false alarms</b> in this A/A run.</p>\n",
                "<p>本次 A/A 运行中<b>没有误报</b>（0 次）。</p>\n"),
              f);
    pairs_sentence(f, rows, zh);
    fputs("</section>\n<section id=\"chart\">\n<h2>", f);
    fputs(L(zh, "Detectable change", "可检测的变化"), f);
    fputs("</h2>\n<figure>\n<figcaption><span class=\"note\">", f);
    fputs(L(zh,
            "Per configuration, the smallest throughput and batch P99 change these runs can "
            "detect; lower is better. Configurations are grouped by protocol · transport · "
            "payload, each group with its own scale. Hover a bar for its figure.",
            "每个配置中这些运行能检测到的最小吞吐量变化与批次 P99 变化；越低越好。"
            "配置按 协议 · 传输 · 负载 分组，每组使用各自的刻度。鼠标悬停可查看数值。"),
          f);
    fputs("</span></figcaption>\n", f);
    if (chart(f, rows, zh) != 0) {
        snprintf(err, errlen, "calibration: out of memory or write error");
        return -1;
    }
    fputs("</figure>\n</section>\n<section id=\"table\">\n<h2>", f);
    fputs(L(zh, "Noise and floors", "噪声与下限"), f);
    fputs("</h2>\n", f);
    table(f, rows, zh);
    fputs("</section>\n<footer>", f);
    fputs(L(zh, "Written by pairbench compare calibrate.", "由 pairbench compare calibrate 生成。"),
          f);
    fputs("</footer>\n</body>\n</html>\n", f);
    if (ferror(f)) {
        snprintf(err, errlen, "calibration: write failed");
        return -1;
    }
    return 0;
}
