/* report_html_summary: the opening sections of report.html in words — the summary (the rows
 * that changed beyond their threshold with strong evidence, each with its throughput and P99
 * change; whether the throughput ranges overlap; that the cause is not confirmed; for one
 * version the highest throughput and lowest P99), the completeness (rows, runs, driver
 * errors, failed runs) and what weakens the measurement. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "confirm.h"
#include "envinfo.h"
#include "report_html_int.h"
#include "report_html_svg.h"

/* The row with a notable throughput or P99 verdict, in words. */
static void notable_sentence(const struct html_ctx *c, const json_t *row, size_t v)
{
    const json_t *tv = html_vs(row, "throughput", c->versions[v]);
    const json_t *pv = html_vs(row, "p99_us", c->versions[v]);
    double ch;
    char b1[32], b2[32];

    fputs("<li><b>", c->f);
    html_esc(c, html_str(row, "label"));
    fputs("</b>", c->f);
    if (c->nv > 2) {
        fputs(L(c, " (", "（"), c->f);
        html_esc(c, c->versions[v]);
        fputs(L(c, ")", "）"), c->f);
    }
    fprintf(c->f, L(c, ": %s throughput, %s P99", "：吞吐量 %s，P99 %s"),
            html_fmt_change(html_num(tv, "change", &ch) == 0 ? ch : NAN, b1, sizeof(b1)),
            html_fmt_change(html_num(pv, "change", &ch) == 0 ? ch : NAN, b2, sizeof(b2)));
    fprintf(c->f,
            L(c,
              " (throughput <span class=\"%s\">%s</span>, P99 <span class=\"%s\">%s"
              "</span>)",
              "（吞吐量 <span class=\"%s\">%s</span>，P99 <span class=\"%s\">%s</span>）"),
            html_verdict_class(html_str(tv, "verdict")),
            html_str(tv, "verdict") ? html_str(tv, "verdict") : "n/a",
            html_verdict_class(html_str(pv, "verdict")),
            html_str(pv, "verdict") ? html_str(pv, "verdict") : "n/a");
    fputs("</li>\n", c->f);
}

static int is_notable(const char *verdict)
{
    return verdict && (!strcmp(verdict, "regressed") || !strcmp(verdict, "improved"));
}

void html_summary_multi(const struct html_ctx *c)
{
    size_t r, v, shown = 0, total = 0, disjoint, nn;
    double ch, best;
    const json_t *row, *best_row;

    for (v = 1; v < c->nv; v++)
        for (r = 0; r < c->nrows; r++) {
            row = json_array_get(c->rows, r);
            if (is_notable(html_str(html_vs(row, "throughput", c->versions[v]), "verdict")) ||
                is_notable(html_str(html_vs(row, "p99_us", c->versions[v]), "verdict")))
                total++;
        }
    if (total) {
        if (c->zh)
            fprintf(c->f, "<p>%zu %s的变化超过阈值且证据充分：</p>\n<ul>\n", total,
                    c->nv > 2 ? "组（配置 × 版本）" : "个配置");
        else
            fprintf(c->f,
                    "<p>%zu %s%s changed beyond the threshold with strong evidence:</p>\n<ul>\n",
                    total, c->nv > 2 ? "configuration/version pair" : "configuration",
                    total == 1 ? "" : "s");
        for (v = 1; v < c->nv; v++)
            for (r = 0; r < c->nrows && shown < 12; r++) {
                row = json_array_get(c->rows, r);
                if (is_notable(html_str(html_vs(row, "throughput", c->versions[v]), "verdict")) ||
                    is_notable(html_str(html_vs(row, "p99_us", c->versions[v]), "verdict"))) {
                    notable_sentence(c, row, v);
                    shown++;
                }
            }
        if (total > shown)
            fprintf(c->f,
                    L(c, "<li>and %zu more (see the tables)</li>\n",
                      "<li>另有 %zu 项（见表格）</li>\n"),
                    total - shown);
        fputs("</ul>\n", c->f);
    } else {
        fputs(L(c, "<p>No configuration changed beyond its threshold with strong evidence.",
                "<p>没有配置的变化在超过阈值的同时具有充分证据。"),
              c->f);
        for (v = 1; v < c->nv; v++) {
            best = -1;
            best_row = NULL;
            for (r = 0; r < c->nrows; r++) {
                row = json_array_get(c->rows, r);
                if (html_num(html_vs(row, "throughput", c->versions[v]), "change", &ch) == 0 &&
                    fabs(ch) > best) {
                    best = fabs(ch);
                    best_row = row;
                }
            }
            if (best_row) {
                char b1[32];
                html_num(html_vs(best_row, "throughput", c->versions[v]), "change", &ch);
                fputs(L(c, " The largest throughput change of ", " "), c->f);
                html_esc(c, c->versions[v]);
                fprintf(c->f, L(c, " is %s, on ", " 的最大吞吐量变化为 %s，出现在 "),
                        html_fmt_change(ch, b1, sizeof(b1)));
                html_esc(c, html_str(best_row, "label"));
                fputs(L(c, ".", "。"), c->f);
            }
        }
        fputs("</p>\n", c->f);
    }

    /* overlap of the throughput ranges, per candidate */
    for (v = 1; v < c->nv; v++) {
        const json_t *o;
        disjoint = 0;
        nn = 0;
        for (r = 0; r < c->nrows; r++) {
            o = json_object_get(html_vs(json_array_get(c->rows, r), "throughput", c->versions[v]),
                                "overlap");
            if (json_is_boolean(o)) {
                nn++;
                disjoint += json_is_false(o);
            }
        }
        fputs("<p>", c->f);
        if (c->zh) {
            fputs("基线", c->f);
            if (strcmp(c->versions[0], "baseline") != 0) {
                fputs("（", c->f);
                html_esc(c, c->versions[0]);
                fputs("）", c->f);
            }
            fputs("与 ", c->f);
            html_esc(c, c->versions[v]);
            if (!disjoint)
                fprintf(c->f, " 的吞吐量范围（最小值–最大值）在全部 %zu 个配置中都有重叠。", nn);
            else
                fprintf(c->f, " 的吞吐量范围在 %zu / %zu 个配置中没有重叠：", disjoint, nn);
        } else {
            fputs("The throughput ranges (min–max) of the baseline", c->f);
            if (strcmp(c->versions[0], "baseline") != 0) {
                fputs(" (", c->f);
                html_esc(c, c->versions[0]);
                fputs(")", c->f);
            }
            fputs(" and ", c->f);
            html_esc(c, c->versions[v]);
            if (!disjoint)
                fprintf(c->f, " overlap in every one of the %zu configurations.", nn);
            else
                fprintf(c->f, " do not overlap in %zu of %zu configurations: ", disjoint, nn);
        }
        if (disjoint) {
            size_t k = 0;
            for (r = 0; r < c->nrows; r++) {
                row = json_array_get(c->rows, r);
                o = json_object_get(html_vs(row, "throughput", c->versions[v]), "overlap");
                if (!json_is_false(o))
                    continue;
                if (k == 8) {
                    fputs(L(c, ", …", " 等"), c->f);
                    break;
                }
                if (k++)
                    fputs(L(c, "; ", "；"), c->f);
                html_esc(c, html_str(row, "label"));
            }
            fputs(L(c, ".", "。"), c->f);
        }
        fputs("</p>\n", c->f);
    }
    fputs(
        L(c,
          "<p>The ranges are the observed runs, not confidence intervals. This measurement "
          "shows differences; it does not confirm their cause.</p>\n",
          "<p>范围是实际观测到的各次运行，不是置信区间。本次测量只显示差异，并不能确认差异的原因。"
          "</p>\n"),
        c->f);
}

void html_summary_single(const struct html_ctx *c)
{
    const json_t *row, *best_t = NULL, *best_p = NULL;
    double x, bt = -1, bp = INFINITY;
    char b1[32];
    size_t r;

    for (r = 0; r < c->nrows; r++) {
        row = json_array_get(c->rows, r);
        if (html_num(html_values(row, "throughput", c->versions[0]), "median", &x) == 0 && x > bt) {
            bt = x;
            best_t = row;
        }
        if (html_num(html_values(row, "p99_us", c->versions[0]), "median", &x) == 0 && x < bp) {
            bp = x;
            best_p = row;
        }
    }
    fputs("<p>", c->f);
    fprintf(c->f, L(c, "One version, <b>", "单一版本 <b>"));
    html_esc(c, c->versions[0]);
    fprintf(c->f, L(c, "</b>, measured in %zu configurations.", "</b>，共测量 %zu 个配置。"),
            c->nrows);
    if (best_t) {
        const char *unit = html_str(best_t, "unit");

        /* the driver's unit ("commands/s", "round trips/s") says what was counted */
        if (unit && !c->zh) { /* the unit is the data's: escaped like every other value */
            fprintf(c->f, " Highest throughput: %s ", svg_format_value(bt, b1, sizeof(b1)));
            html_esc(c, unit);
            fputs(" on ", c->f);
        } else if (unit && strcmp(unit, "commands/s") == 0)
            fprintf(c->f, " 最高吞吐量：%s 命令/秒，出现在 ", svg_format_value(bt, b1, sizeof(b1)));
        else if (unit && strcmp(unit, "round trips/s") == 0)
            fprintf(c->f, " 最高吞吐量：%s 消息往返/秒，出现在 ",
                    svg_format_value(bt, b1, sizeof(b1)));
        else
            fprintf(c->f, L(c, " Highest throughput: %s/s on ", " 最高吞吐量：%s/秒，出现在 "),
                    svg_format_value(bt, b1, sizeof(b1)));
        html_esc(c, html_str(best_t, "label"));
        fputs(L(c, ".", "。"), c->f);
    }
    if (best_p) {
        fprintf(c->f, L(c, " Lowest batch P99: %s µs on ", " 最低批次 P99：%s 微秒，出现在 "),
                svg_format_value(bp, b1, sizeof(b1)));
        html_esc(c, html_str(best_p, "label"));
        fputs(L(c, ".", "。"), c->f);
    }
    fputs("</p>\n", c->f);
}

static void weak_item(const struct html_ctx *c, const char *text)
{
    fputs("<li class=\"warn\">", c->f);
    html_esc(c, text);
    fputs("</li>\n", c->f);
}

/* A weakness naming rows: "prefix label; label; …". */
static void weak_rows(const struct html_ctx *c, const char *prefix, const unsigned char *mark)
{
    size_t r, k = 0;

    fputs("<li class=\"warn\">", c->f);
    html_esc(c, prefix);
    for (r = 0; r < c->nrows; r++) {
        if (!mark[r])
            continue;
        if (k++)
            fputs(L(c, "; ", "；"), c->f);
        html_esc(c, html_str(json_array_get(c->rows, r), "label"));
    }
    fputs("</li>\n", c->f);
}

/* A harness warning: envinfo.c writes them in English; on the Chinese page the known
 * sentences are rewritten, anything else is shown as it is. */
static void weak_warning(const struct html_ctx *c, const char *w)
{
    char when[16], gov[64], buf[256];
    double load;
    long cores;

    if (c->zh && sscanf(w, "the machine was loaded at %15[a-z]: load average %lf on %ld CPU", when,
                        &load, &cores) == 3) {
        snprintf(buf, sizeof(buf), "%s机器负载较高：%ld 个 CPU 上的平均负载为 %.2f",
                 strcmp(when, "end") == 0 ? "结束时" : "开始时", cores, load);
        weak_item(c, buf);
    } else if (c->zh &&
               sscanf(w, "CPU frequency governor is '%63[^']', not 'performance'", gov) == 1) {
        snprintf(buf, sizeof(buf), "CPU 调频策略为 '%s'，不是 'performance'", gov);
        weak_item(c, buf);
    } else {
        weak_item(c, w);
    }
}

/* Everything that weakens the measurement: no meta, the dataset changed since it was
 * recorded, the harness's warnings (or, for datasets without them, the load average judged
 * here), failed runs, unstable rows, TLS without verification. */
static void weaknesses(const struct html_ctx *c, double failed)
{
    const json_t *ds = json_object_get(c->summary, "dataset"), *w, *list;
    unsigned char *unstable = calloc(c->nrows + 1, 1), *insecure = calloc(c->nrows + 1, 1);
    size_t i, r, v, m, nunstable = 0, ninsecure = 0, n = 0;
    char buf[256];
    json_t *own = NULL;

    fprintf(c->f, "<h3>%s</h3>\n<ul class=\"weak\">\n",
            L(c, "What weakens this measurement", "影响本次测量可信度的因素"));
    if (!json_is_object(c->meta)) {
        weak_item(c, L(c, "meta.json is missing: the environment and provenance are unknown",
                       "缺少 meta.json：环境与来源信息未知"));
        n++;
    }
    if (json_is_false(json_object_get(ds, "matches"))) {
        fputs("<li class=\"warn\"><b>", c->f);
        fputs(L(c,
                "The dataset no longer matches meta.json: runs.jsonl was changed after the "
                "run (recorded SHA-256 ",
                "数据集与 meta.json 不再一致：runs.jsonl 在运行后被修改过（记录的 SHA-256 "),
              c->f);
        html_esc(c, html_str(ds, "recorded_sha256"));
        fputs(L(c, ", now ", "，现在为 "), c->f);
        html_esc(c, html_str(ds, "sha256"));
        fputs(L(c, ").</b></li>\n", "）。</b></li>\n"), c->f);
        n++;
    }
    /* render_dir copies meta.warnings into summary.warnings; older summaries lack them */
    list = json_object_get(c->summary, "warnings");
    if (!json_is_array(list))
        list = json_object_get(c->meta, "warnings");
    if (json_array_size(list) == 0 && json_object_get(c->meta, "environment")) {
        own = json_array();
        if (own)
            envinfo_warnings(json_object_get(c->meta, "environment"), own);
        list = own;
    }
    json_array_foreach((json_t *)list, i, w)
    {
        if (json_is_string(w))
            weak_warning(c, json_string_value(w));
        else if (json_is_object(w) && html_str(w, "message"))
            weak_warning(c, html_str(w, "message"));
        else
            continue;
        n++;
    }
    json_decref(own);
    if (failed > 0) {
        snprintf(buf, sizeof(buf),
                 L(c, "%.0f run(s) failed; their rows have no verdict other than failed",
                   "%.0f 次运行失败；相关行的判定只能是 failed"),
                 failed);
        weak_item(c, buf);
        n++;
    }
    for (r = 0; r < c->nrows && unstable && insecure; r++) {
        const json_t *row = json_array_get(c->rows, r);

        for (v = 1; v < c->nv; v++)
            for (m = 0; m < METRIC_COUNT; m++) {
                const char *vd =
                    html_str(html_vs(row, metric_name((enum metric)m), c->versions[v]), "verdict");
                if (metric_gateable((enum metric)m) && vd && strcmp(vd, "unstable") == 0)
                    unstable[r] = 1;
            }
        nunstable += unstable[r];
        insecure[r] = json_is_true(json_object_get(row, "tls_insecure"));
        ninsecure += insecure[r];
    }
    if (nunstable) {
        weak_rows(c,
                  L(c, "Unstable rows (a side's spread exceeds the noise limit): ",
                    "不稳定的行（某一方的离散度超过噪声上限）："),
                  unstable);
        n++;
    }
    if (ninsecure) {
        weak_rows(c,
                  L(c, "TLS without certificate verification (--insecure): ",
                    "TLS 未校验证书（--insecure）："),
                  insecure);
        n++;
    }
    if (!n)
        fprintf(
            c->f, "<li>%s</li>\n",
            L(c, "Nothing recorded weakens this measurement.", "没有记录到影响本次测量的因素。"));
    fputs("</ul>\n", c->f);
    free(unstable);
    free(insecure);
}

/* meta.json "confirmation" (confirm.c): the cap fixed before the run, the rule, and the rows
 * that got extra rounds, as report.md states it. Nothing when confirmation was off. */
static void confirmation(const struct html_ctx *c)
{
    const json_t *cf = json_object_get(c->meta, "confirmation"), *rows, *n;
    const char *id, *rule;
    double cap = 0;
    size_t k = 0, r;

    if (!json_is_object(cf))
        return;
    html_num(cf, "max_extra_rounds", &cap);
    rows = json_object_get(cf, "rows");
    rule = html_str(cf, "rule");
    fputs("<li class=\"confirm\">", c->f);
    if (json_object_size(rows) == 0)
        fprintf(c->f,
                L(c,
                  "Adaptive confirmation was on (at most %.0f extra rounds per row, fixed "
                  "before the run); no row was borderline, so none got extra rounds.",
                  "自适应确认已开启（每个配置最多 %.0f 个额外轮次，运行前已固定）；"
                  "没有处于临界的配置，因此没有配置增加轮次。"),
                cap);
    else {
        fprintf(c->f,
                L(c,
                  "Adaptive confirmation (at most %.0f extra rounds per row, fixed before the "
                  "run; the extra rounds count whatever they show, and a row that got them is "
                  "judged on the median of its per-round ratios, throughput's given here, not "
                  "on the tables' change of the medians): ",
                  "自适应确认（每个配置最多 %.0f 个额外轮次，运行前已固定；额外轮次无论结果如何"
                  "都计入，增加了轮次的配置按各轮比值的中位数判定（此处给出吞吐量的），"
                  "而非表中两个中位数之比的变化）："),
                cap);
        json_object_foreach((json_t *)rows, id, n)
        {
            const char *label = id;
            const json_t *found = NULL;
            size_t v;

            for (r = 0; r < c->nrows; r++) {
                const json_t *row = json_array_get(c->rows, r);
                if (html_str(row, "config") && strcmp(html_str(row, "config"), id) == 0) {
                    found = row;
                    if (html_str(row, "label"))
                        label = html_str(row, "label");
                }
            }
            if (k++)
                fputs(L(c, "; ", "；"), c->f);
            fputs("<b>", c->f);
            html_esc(c, label);
            fprintf(c->f,
                    L(c,
                      "</b> got %lld extra rounds (throughput: the median per-round change "
                      "[its 90%% interval], and the signed-rank p of the per-round ratios: ",
                      "</b> 增加了 %lld 轮（吞吐量：各轮变化的中位数［其 90%% "
                      "区间］，以及各轮比值的符号秩检验 p："),
                    (long long)json_integer_value(n));
            /* what its verdict used, per candidate: the paired change [interval] and p */
            for (v = 1; v < c->nv; v++) {
                char one[96];

                if (v > 1)
                    fputs(" / ", c->f);
                confirm_paired_text(found ? html_vs(found, "throughput", c->versions[v]) : NULL,
                                    one, sizeof(one));
                html_esc(c, one);
            }
            fputs(L(c, ")", "）"), c->f);
        }
        fputs(L(c, ".", "。"), c->f);
    }
    if (rule) {
        fputs(L(c, " Rule: ", "规则："), c->f);
        if (c->zh && strcmp(rule, confirm_rule) == 0)
            fputs("某个参与判定的指标变化超过阈值但证据不充分（判定 ~ 或 unstable），或在计划轮次"
                  "之后某一方的离散度超过噪声上限（判定 "
                  "unstable），或计划轮次的判定仅依据配对比值全部在 1 的同一侧而两方范围重叠、"
                  "这种证据偶然出现的概率大于 2/252（五对时为 1/16）时，该配置处于临界；"
                  "每次再交替运行两轮，直到不再临界，"
                  "最多到上限为止。增加轮次后，其变化取各轮配对比值的中位数"
                  "（同一轮两次运行共有的漂移在比值中抵消）；只要吞吐量配对比值中位数的 90% "
                  "区间（顺序统计量）仍越过阈值，该配置就仍处于临界；且只有这些比值的精确 Wilcoxon "
                  "符号秩检验 p 在各次判断共享的 2/252 预算内"
                  "（达到上限之前每次为 2/252 ÷（4 × 判断次数，即上限的一半），达到上限时为"
                  " 2/252 的 3/4）时，变化才算数；某一方的噪声按其四分位距折算为五次运行"
                  "的离散度，且只有当配对变化的 90% 区间仍触及阈值时，噪声才使该指标判为 "
                  "unstable。",
                  c->f);
        else {
            html_esc(c, rule);
            fputs(L(c, ".", "。"), c->f);
        }
    }
    fputs("</li>\n", c->f);
}

void html_completeness(const struct html_ctx *c)
{
    static const char *const ekeys[] = {"connect", "io", "protocol", "verify", "timeout"};
    double expected = 0, ok = 0, failed = 0, x, etot[5] = {0, 0, 0, 0, 0};
    size_t r, complete = 0, i;
    const json_t *row, *f;

    for (r = 0; r < c->nrows; r++) {
        const json_t *runs;

        row = json_array_get(c->rows, r);
        runs = json_object_get(row, "runs");
        if (html_num(runs, "expected", &x) == 0)
            expected += x;
        if (html_num(runs, "ok", &x) == 0)
            ok += x;
        if (html_num(runs, "failed", &x) == 0)
            failed += x;
        if (html_str(row, "status") && strcmp(html_str(row, "status"), "ok") == 0)
            complete++;
        for (i = 0; i < 5; i++)
            if (html_num(json_object_get(row, "errors"), ekeys[i], &x) == 0)
                etot[i] += x;
    }
    fprintf(c->f, "<section id=\"completeness\">\n<h2>%s</h2>\n<ul>\n<li>",
            L(c, "Completeness", "完整性"));
    fprintf(c->f,
            L(c, "%zu of %zu configurations complete; %.0f of %.0f runs ok, %.0f failed.",
              "%zu / %zu 个配置完整；%.0f / %.0f 次运行成功，%.0f 次失败。"),
            complete, c->nrows, ok, expected > ok + failed ? expected : ok + failed, failed);
    fputs("</li>\n", c->f);
    confirmation(c);
    fprintf(c->f,
            L(c,
              "<li>Driver errors: connect %.0f, I/O %.0f, protocol %.0f, "
              "verify %.0f, timeout %.0f.</li>\n",
              "<li>驱动错误：连接 %.0f，I/O %.0f，协议 %.0f，校验 %.0f，超时 %.0f。"
              "</li>\n"),
            etot[0], etot[1], etot[2], etot[3], etot[4]);
    for (r = 0; r < c->nrows; r++) {
        row = json_array_get(c->rows, r);
        json_array_foreach(json_object_get(row, "failures"), i, f)
        {
            fputs(L(c, "<li>Failed run: ", "<li>失败的运行："), c->f);
            html_esc(c, html_str(row, "label"));
            fputs(" \xc2\xb7 ", c->f);
            html_esc(c, html_str(f, "version"));
            if (html_num(f, "round", &x) == 0)
                fprintf(c->f, L(c, " \xc2\xb7 round %.0f", " \xc2\xb7 第 %.0f 轮"), x);
            fputs(L(c, ": ", "："), c->f);
            html_esc(c, html_str(f, "reason") ? html_str(f, "reason") : "?");
            fputs("</li>\n", c->f);
        }
    }
    fputs("</ul>\n", c->f);
    weaknesses(c, failed);
    fputs("</section>\n", c->f);
}
