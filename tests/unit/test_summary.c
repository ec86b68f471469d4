/* compare/summary, report_md and render_dir on small hand-built datasets: parsing runs.jsonl,
 * the latest-line-wins rule, version/row order from meta.json, CPU efficiency per run before
 * the median, failed rows, server CPU, the CSV, both report languages, deterministic
 * re-rendering and the dataset-hash warning. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/render.h"
#include "report/report_md.h"
#include "analysis/stats.h"
#include "analysis/summary.h"
#include "data/dataset.h"
#include "util/jobs_util.h"
#include "t.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

/* One runs.jsonl line. status NULL = ok. */
static void line(FILE *f, const char *ver, const char *cfg, int round, const char *status,
                 double tput, double cpu, double p50, double p99, int rss_kib, double srv_cpu_s)
{
    if (status) {
        fprintf(f,
                "{\"version\":\"%s\",\"config\":\"%s\",\"label\":\"tcp · 64 B\",\"round\":%d,"
                "\"position\":1,\"status\":\"%s\",\"reason\":\"driver exited with status 3\","
                "\"result\":null,\"client\":null,\"server\":null}\n",
                ver, cfg, round, status);
        return;
    }
    char server[64] = "null";

    if (srv_cpu_s > 0)
        snprintf(server, sizeof(server), "{\"pid\":1,\"cpu_s\":%g}", srv_cpu_s);
    fprintf(f,
            "{\"version\":\"%s\",\"config\":\"%s\",\"label\":\"tcp · 64 B\",\"round\":%d,"
            "\"position\":1,\"status\":\"ok\",\"reason\":null,\"result\":{\"throughput\":%g,"
            "\"elapsed_s\":5,\"config\":{\"warmup\":1},\"unit\":\"round trips/s\","
            "\"latency_us\":{\"p50\":%g,\"p99\":%g},\"cpu\":{\"percent\":%g},"
            "\"errors\":{\"connect\":0,\"io\":1,\"protocol\":0,\"verify\":0,\"timeout\":0}},"
            "\"client\":{\"cpu_s\":1,\"rss_peak_kib\":%d},\"server\":%s}\n",
            ver, cfg, round, tput, p50, p99, cpu, rss_kib, server);
}

static const char *meta_text =
    "{\"schema\":\"pairbench.meta/1\",\"versions\":[{\"name\":\"base\"},{\"name\":\"cand\"}],"
    "\"settings\":{\"runs\":3,\"warmup\":1,\"duration\":5},"
    "\"configs\":[{\"id\":\"c2\",\"label\":\"second\",\"params\":{\"protocol\":\"tcp\"}},"
    "{\"id\":\"c1\",\"label\":\"first\",\"params\":{\"protocol\":\"tcp\"}}],"
    "\"command_line\":[\"bin/compare\",\"run\",\"--spec\",\"my spec.json\"]}";

static char *dataset_text(size_t *len)
{
    char *s = NULL;
    FILE *f = open_memstream(&s, len);
    int r;

    /* c1: the candidate runs first in the file; efficiency per run: base {100,400,100} */
    line(f, "cand", "c1", 1, NULL, 90, 100, 10, 20, 2048, 0);
    line(f, "base", "c1", 1, NULL, 100, 100, 9, 18, 1024, 0);
    line(f, "base", "c1", 2, NULL, 200, 50, 9, 18, 1024, 0);
    line(f, "cand", "c1", 2, "failed", 0, 0, 0, 0, 0, 0);
    line(f, "cand", "c1", 2, NULL, 91, 100, 10, 20, 2048, 0); /* resume replaces the failure */
    line(f, "base", "c1", 3, NULL, 300, 300, 9, 18, 1024, 0);
    line(f, "cand", "c1", 3, NULL, 92, 100, 10, 20, 2048, 0);
    /* c2: one failed run stays failed */
    for (r = 1; r <= 3; r++) {
        line(f, "base", "c2", r, NULL, 100, 100, 9, 18, 1024, 6); /* 6 s over 1 + 5 s */
        line(f, "cand", "c2", r, r == 2 ? "failed" : NULL, 100, 100, 9, 18, 1024, 0);
    }
    fclose(f);
    return s;
}

static void test_build(void)
{
    char err[256], *text, *csv = NULL, *md = NULL;
    size_t len, csvlen = 0, mdlen = 0, i, lines = 0;
    json_t *runs, *meta, *sum;
    const json_t *rows, *r1, *r2, *v;
    FILE *f;

    text = dataset_text(&len);
    runs = dataset_parse(text, len, "runs.jsonl", NULL, err, sizeof(err));
    meta = json_loads(meta_text, 0, NULL);
    CHECK(runs && meta);
    sum = summary_build(runs, meta, NULL, err, sizeof(err));
    CHECK_MSG(sum != NULL, "%s", err);
    if (!sum)
        goto out;
    CHECK_STR(ju_str(sum, "baseline", ""), "base");
    CHECK(json_array_size(json_object_get(sum, "versions")) == 2);
    CHECK_STR(json_string_value(json_array_get(json_object_get(sum, "versions"), 1)), "cand");
    rows = json_object_get(sum, "rows");
    CHECK(json_array_size(rows) == 2);
    r2 = json_array_get(rows, 0); /* meta.configs order: c2 first */
    r1 = json_array_get(rows, 1);
    CHECK_STR(ju_str(r2, "config", ""), "c2");
    CHECK_STR(ju_str(r1, "label", ""), "first");
    CHECK_STR(ju_str(r1, "status", ""), "ok");
    CHECK(ju_num(json_object_get(r1, "runs"), "ok", 0) == 6);
    CHECK(ju_num(json_object_get(r1, "runs"), "failed", -1) == 0);
    CHECK(ju_num(json_object_get(r1, "runs"), "replaced", -1) == 1);
    CHECK(ju_num(json_object_get(r1, "errors"), "io", 0) == 6);
    /* efficiency per run before the median: base {100, 400, 100} → 100, not 200/100 → 200 */
    v = summary_values(r1, "cpu_efficiency", "base");
    CHECK(NEAR(ju_num(v, "median", 0), 100));
    CHECK(NEAR(ju_num(v, "max", 0), 400));
    v = summary_values(r1, "throughput", "cand");
    CHECK(NEAR(ju_num(v, "median", 0), 91) && ju_num(v, "n", 0) == 3);
    CHECK(json_array_size(json_object_get(v, "runs")) == 3);
    CHECK(NEAR(json_number_value(json_array_get(json_object_get(v, "runs"), 1)), 91));
    v = summary_values(r1, "rss_mib", "cand"); /* falls back to client.rss_peak_kib */
    CHECK(NEAR(ju_num(v, "median", 0), 2));
    v = summary_vs(r1, "throughput", "cand");
    CHECK(NEAR(ju_num(v, "change", 0), 91.0 / 200 - 1));
    CHECK(json_is_false(json_object_get(v, "overlap"))); /* 90..92 vs 100..300 */
    CHECK(NEAR(ju_num(v, "p", 0), 2.0 / 20));
    CHECK(NEAR(ju_num(json_object_get(v, "paired_ratio"), "median", 0), 91.0 / 200));
    /* disjoint ranges beyond the threshold, but the rounds' ratios (0.90, 0.455, 0.307) swing
     * so far that the paired t-test of their logs, with 2 degrees of freedom and no prior
     * (the run has one measured row: moderate.h fits none), gets p 0.16: undecided for too
     * few runs, and 5 a side would decide it */
    CHECK_STR(ju_str(v, "verdict", ""), "undecided");
    CHECK_STR(ju_str(v, "reason", ""), STATS_REASON_TOO_FEW);
    CHECK(ju_num(v, "runs_needed", 0) == 5);
    {
        const json_t *e = json_object_get(v, "evidence");

        CHECK(json_is_true(json_object_get(e, "paired")) && ju_num(e, "df", 0) == 2);
        CHECK(ju_num(e, "prior_df", -1) == 0 && ju_num(e, "df_total", 0) == 2);
        CHECK(NEAR(ju_num(e, "est", 0), (log(90.0 / 100) + log(91.0 / 200) + log(92.0 / 300)) / 3));
        CHECK_MSG(fabs(ju_num(e, "p", 0) - 0.1589) < 1e-3, "p %g", ju_num(e, "p", 0));
        CHECK(ju_num(e, "alpha", 0) == STATS_EVIDENCE_LEVEL);
        CHECK(ju_num(e, "lo", 0) < -0.05 && ju_num(e, "hi", 0) > 0.05); /* straddles ±5% */
    }
    CHECK_STR(ju_str(summary_vs(r1, "cpu_efficiency", "cand"), "verdict", ""), "undecided");
    CHECK_STR(ju_str(summary_vs(r1, "cpu_efficiency", "cand"), "reason", ""), STATS_REASON_TOO_FEW);
    CHECK(ju_num(summary_vs(r1, "cpu_efficiency", "cand"), "runs_needed", 0) == 11);
    /* latency 9 → 10 µs and RSS 1 → 2 MiB in every round: ratios without spread, p 0, and
     * Holm across the row's 5 gated timed metrics keeps all three */
    CHECK_STR(ju_str(summary_vs(r1, "p50_us", "cand"), "verdict", ""), "regressed");
    CHECK_STR(ju_str(summary_vs(r1, "p99_us", "cand"), "verdict", ""), "regressed");
    CHECK_STR(ju_str(summary_vs(r1, "rss_mib", "cand"), "verdict", ""), "regressed");
    CHECK(ju_num(json_object_get(summary_vs(r1, "p99_us", "cand"), "evidence"), "p", 1) == 0);
    /* the moderated test holds its level at any number of runs: the family's chance is its
     * level whenever a metric has evidence */
    CHECK(NEAR(ju_num(json_object_get(r1, "family"), "chance", -1), 0.05));
    CHECK(ju_num(json_object_get(r1, "family"), "metrics", 0) == 5);
    /* no prior: one row measured (c2 failed), fewer than MOD_PRIOR_MIN_ROWS variances */
    CHECK(json_is_object(json_object_get(sum, "noise")) &&
          json_object_size(json_object_get(sum, "noise")) == 0);
    CHECK_STR(ju_str(sum, "schema", ""), SUMMARY_SCHEMA);
    CHECK_STR(ju_str(summary_vs(r1, "cpu_percent", "cand"), "verdict", ""), "~");
    CHECK(summary_metric(r1, SUMMARY_SERVER_CPU) == NULL);
    /* c2: a failed run */
    CHECK_STR(ju_str(r2, "status", ""), "failed");
    CHECK(json_array_size(json_object_get(r2, "failures")) == 1);
    CHECK(NEAR(ju_num(summary_values(r2, SUMMARY_SERVER_CPU, "base"), "median", 0), 100));
    CHECK_STR(ju_str(summary_vs(r2, "throughput", "cand"), "verdict", ""), "failed");
    CHECK_STR(ju_str(summary_vs(r2, "p99_us", "cand"), "verdict", ""), "failed");
    /* the moderated test's level per metric, whatever the runs; disjoint ranges by luck at
     * three rounds, 2/C(6,3) = 0.1, for the overlap column */
    CHECK(NEAR(ju_num(json_object_get(sum, "chance"), "alpha", 0), 0.05));
    CHECK(NEAR(ju_num(json_object_get(sum, "chance"), "p_disjoint", 0), 0.1));
    CHECK(json_is_true(json_object_get(json_object_get(sum, "chance"), "reachable")));
    CHECK(ju_num(json_object_get(sum, "chance"), "runs_per_side", 0) == 3);
    CHECK(ju_num(json_object_get(sum, "chance"), "comparisons", 0) == 2);

    f = open_memstream(&csv, &csvlen);
    CHECK(summary_write_csv(f, sum) == 0);
    fclose(f);
    for (i = 0; i < csvlen; i++)
        lines += csv[i] == '\n';
    /* header + (c1: 6 metrics + c2: 6 + server CPU) × 2 versions */
    CHECK_MSG(lines == 1 + (6 + 7) * 2, "%zu csv lines", lines);
    CHECK(strncmp(csv, "config,label,status,metric,version,", 35) == 0);

    f = open_memstream(&md, &mdlen);
    CHECK(report_md_write(f, sum, meta, "en", err, sizeof(err)) == 0);
    fclose(f);
    CHECK(strstr(md, "# cand against base") != NULL);
    CHECK(strstr(md, "−54.50%") != NULL); /* U+2212, two decimals */
    CHECK(strstr(md, "0.20 [0.10–0.30]") != NULL);
    CHECK(strstr(md, "bin/compare run --spec 'my spec.json'") != NULL);
    CHECK(strstr(md, "Failed run: second, `cand`, round 2") != NULL);
    free(md);
    md = NULL;
    f = open_memstream(&md, &mdlen);
    CHECK(report_md_write(f, sum, NULL, "zh", err, sizeof(err)) == 0);
    fclose(f);
    CHECK(strstr(md, "## 摘要") != NULL && strstr(md, "## 吞吐量与 CPU") != NULL);
    CHECK(strstr(md, "缺少 `meta.json`") != NULL);
out:
    free(md);
    free(csv);
    free(text);
    json_decref(sum);
    json_decref(runs);
    json_decref(meta);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *p;
    long n;

    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    p = malloc((size_t)n + 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    if (p)
        p[n] = '\0';
    *len = (size_t)n;
    fclose(f);
    return p;
}

static int spit(const char *path, const char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(p, 1, n, f) == n;

    if (f)
        fclose(f);
    return ok ? 0 : -1;
}

static void test_render(void)
{
    char dir[] = "/tmp/pairbench-test-summary.XXXXXX", path[256], err[512];
    char *text, *md1 = NULL, *md2 = NULL, *metas = NULL;
    size_t len, n1 = 0, n2 = 0;
    json_t *meta, *sum = NULL, *dataset;
    struct render_opts ro = {"en", NULL, 0, 0, NULL};
    static const char *const outs[] = {"summary.json", "summary.csv", "report.md", "report.html"};
    size_t i;

    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    text = dataset_text(&len);
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    CHECK(spit(path, text, len) == 0);
    meta = json_loads(meta_text, 0, NULL);
    dataset = json_object();
    json_object_set_new(dataset, "file", json_string("runs.jsonl"));
    json_object_set_new(dataset, "sha256", json_string("0000"));
    json_object_set_new(meta, "dataset", dataset);
    metas = json_dumps(meta, 0);
    snprintf(path, sizeof(path), "%s/meta.json", dir);
    CHECK(spit(path, metas, strlen(metas)) == 0);

    /* a dataset that is not what meta.json recorded is refused, naming it, unless accepted */
    CHECK(render_dir(dir, &ro, &sum, err, sizeof(err)) == RENDER_MODIFIED &&
          strstr(err, "runs.jsonl:") && strstr(err, "--accept-modified"));
    ro.accept_modified = 1;
    CHECK_MSG(render_dir(dir, &ro, &sum, err, sizeof(err)) == 0, "%s", err);
    CHECK(sum && json_is_false(json_object_get(json_object_get(sum, "dataset"), "matches")));
    CHECK(sum && strncmp(json_string_value(json_array_get(json_object_get(sum, "warnings"), 0)),
                         "The data was modified after the run", 35) == 0);
    for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, outs[i]);
        CHECK_MSG(access(path, R_OK) == 0, "%s", path);
    }
    snprintf(path, sizeof(path), "%s/report.md", dir);
    md1 = slurp(path, &n1);
    CHECK(md1 && strstr(md1, "no longer matches the SHA-256 recorded"));
    CHECK(strncmp(md1 ? md1 : "", "**The data was modified after the run", 37) == 0);
    CHECK(render_dir(dir, &ro, NULL, err, sizeof(err)) == 0);
    md2 = slurp(path, &n2);
    CHECK(md1 && md2 && n1 == n2 && memcmp(md1, md2, n1) == 0); /* deterministic */
    ro.lang = "fr";
    CHECK(render_dir(dir, &ro, NULL, err, sizeof(err)) == -1 && strstr(err, "'fr'"));
    snprintf(path, sizeof(path), "%s/nothing", dir);
    CHECK(render_dir(path, NULL, NULL, err, sizeof(err)) == -1);

    for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, outs[i]);
        unlink(path);
    }
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    unlink(path);
    snprintf(path, sizeof(path), "%s/meta.json", dir);
    unlink(path);
    rmdir(dir);
    free(md1);
    free(md2);
    free(metas);
    free(text);
    json_decref(meta);
    json_decref(sum);
}

/* Counted runs (kind "instructions") have rounds of their own: three a side past a 1-round
 * timed plan still get the planned-rounds verdict (regressed at +5%), a failed counted run
 * fails only the instructions metric, and the functions that changed come first. */
static json_t *counted(const char *ver, int round, double per_op, double fn_a)
{
    if (per_op < 0)
        return json_pack("{s:s,s:s,s:s,s:i,s:s,s:s}", "version", ver, "config", "c1", "kind",
                         "instructions", "round", round, "status", "failed", "reason",
                         "instructions: valgrind cannot be run");
    return json_pack("{s:s,s:s,s:s,s:i,s:s,s:{s:f,s:s,s:{s:f,s:f}}}", "version", ver, "config",
                     "c1", "kind", "instructions", "round", round, "status", "ok", "instructions",
                     "per_op", per_op, "source", "valgrind-3.19.0", "functions", "lookupKey", fn_a,
                     "dictFind", 100.0);
}

static void test_counted(void)
{
    json_t *runs = json_array(), *meta, *sum, *row;
    char err[256] = "";
    int r;

    meta = json_pack("{s:[{s:s},{s:s}],s:{s:i}}", "versions", "name", "a", "name", "b", "settings",
                     "runs", 1);
    json_array_append_new(runs,
                          json_pack("{s:s,s:s,s:i,s:s,s:{s:f}}", "version", "a", "config", "c1",
                                    "round", 1, "status", "ok", "result", "throughput", 1000.0));
    json_array_append_new(runs,
                          json_pack("{s:s,s:s,s:i,s:s,s:{s:f}}", "version", "b", "config", "c1",
                                    "round", 1, "status", "ok", "result", "throughput", 1000.0));
    for (r = 1; r <= 3; r++) {
        json_array_append_new(runs, counted("a", r, 1000 + r, 400));
        json_array_append_new(runs, counted("b", r, 1050 + r, 810));
    }
    sum = summary_build(runs, meta, NULL, err, sizeof(err));
    CHECK_MSG(sum != NULL, "%s", err);
    row = json_array_get(json_object_get(sum, "rows"), 0);
    CHECK(ju_num(summary_values(row, "instructions", "a"), "n", 0) == 3);
    CHECK_STR(ju_str(summary_vs(row, "instructions", "b"), "verdict", "?"), "regressed");
    CHECK_STR(ju_str(json_array_get(
                         json_object_get(summary_vs(row, "instructions", "b"), "functions"), 0),
                     "name", "?"),
              "lookupKey");
    /* one timed run a side has no variance to bound the change with (and one measured row no
     * prior): undecided for too few runs, never "~" */
    CHECK_STR(ju_str(summary_vs(row, "throughput", "b"), "verdict", "?"), "undecided");
    CHECK_STR(ju_str(summary_vs(row, "throughput", "b"), "reason", "?"), STATS_REASON_TOO_FEW);
    json_decref(sum);
    /* a failed counted run: the instructions metric fails, the timed one does not */
    json_array_append_new(runs, counted("b", 3, -1, 0));
    sum = summary_build(runs, meta, NULL, err, sizeof(err));
    row = json_array_get(json_object_get(sum, "rows"), 0);
    CHECK_STR(ju_str(summary_vs(row, "instructions", "b"), "verdict", "?"), "failed");
    CHECK(strcmp(ju_str(summary_vs(row, "throughput", "b"), "verdict", "?"), "failed") != 0);
    json_decref(sum);
    json_decref(runs);
    json_decref(meta);
}

/* The throughput verdict of one row of three rounds, base 100 + r and cand 80 + r (about
 * -20% in every round; noisy: 50, 150, 90), with the candidate's run in round
 * disturbed_round (0: none) disturbed by cores other CPU cores. */
static const json_t *held_vs_of(int disturbed_round, const char *cores, int noisy, json_t **sum_out)
{
    static const int wild[] = {50, 150, 90};
    char err[256], *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    json_t *runs, *meta;
    int r;

    for (r = 1; r <= 3; r++)
        for (int c = 0; c < 2; c++)
            fprintf(f,
                    "{\"version\":\"%s\",\"config\":\"c1\",\"round\":%d,\"position\":%d,"
                    "\"status\":\"ok\",\"result\":{\"throughput\":%d,\"elapsed_s\":1,"
                    "\"latency_us\":{\"p50\":9,\"p99\":18},\"cpu\":{\"percent\":100}},"
                    "\"client\":{\"cpu_s\":1,\"rss_peak_kib\":1024},\"server\":null,"
                    "\"interference\":{\"other_cpu_cores\":%s,\"steal_pct\":0,\"nivcsw\":1,"
                    "\"disturbed\":%s}}\n",
                    c ? "cand" : "base", r, c + 1, c ? (noisy ? wild[r - 1] : 80 + r) : 100 + r,
                    c && r == disturbed_round ? cores : "0.01",
                    c && r == disturbed_round ? "true" : "false");
    fclose(f);
    runs = dataset_parse(text, len, "runs.jsonl", NULL, err, sizeof(err));
    meta = json_loads(meta_text, 0, NULL);
    *sum_out = summary_build(runs, meta, NULL, err, sizeof(err));
    free(text);
    json_decref(runs);
    json_decref(meta);
    return summary_vs(json_array_get(json_object_get(*sum_out, "rows"), 1), "throughput", "cand");
}

static const json_t *held_vs(int disturbed_round, const char *cores, json_t **sum_out)
{
    return held_vs_of(disturbed_round, cores, 0, sum_out);
}

/* A regressed verdict that rests on a disturbed run (too few clean rounds to set it aside) is
 * held at undecided, with the reason, when the disturbance could have made the change: 0.4
 * other cores can slow a side by up to ln(1.4) = 0.34 on the log scale, past the -20%
 * (ln 0.80 = -0.22). 0.05 cores (ln 1.05 = 0.049, plus 3 standard errors of ratios that
 * hardly move) cannot, and the verdict stands. The same runs undisturbed are regressed: the
 * paired log ratios agree to 0.5%, p far below 0.05 at 3 runs a side. */
static void test_held(void)
{
    json_t *sum = NULL;
    const json_t *vs = held_vs(0, "0.01", &sum);

    CHECK_STR(ju_str(vs, "verdict", ""), "regressed");
    CHECK(json_object_get(vs, "reason") == NULL);
    CHECK(ju_num(json_object_get(vs, "evidence"), "p", 1) < 0.001);
    json_decref(sum);
    vs = held_vs(2, "0.4", &sum);
    CHECK_STR(ju_str(vs, "verdict", ""), "undecided");
    CHECK_STR(ju_str(vs, "reason", ""), STATS_REASON_DISTURBED);
    json_decref(sum);
    vs = held_vs(2, "0.05", &sum);
    CHECK_STR(ju_str(vs, "verdict", ""), "regressed");
    CHECK(json_object_get(vs, "reason") == NULL);
    json_decref(sum);
    /* a verdict undecided for its noise, measured on a disturbed run, names the disturbance */
    vs = held_vs_of(0, "0.01", 1, &sum);
    CHECK_STR(ju_str(vs, "verdict", ""), "undecided");
    CHECK_STR(ju_str(vs, "reason", ""), STATS_REASON_NOISE);
    json_decref(sum);
    vs = held_vs_of(2, "0.4", 1, &sum);
    CHECK_STR(ju_str(vs, "verdict", ""), "undecided");
    CHECK_STR(ju_str(vs, "reason", ""), STATS_REASON_DISTURBED);
    json_decref(sum);
}

/* After extra rounds a verdict is judged on the paired change, and the gate says that one: a
 * pinned A/B gate's TCP row was regressed on a paired -17.4% while its sides' medians differed
 * by -0.4%, and gate.md said "fell 0.4% (threshold 5%)". */
static void test_judged_change(void)
{
    json_t *metric =
        json_pack("{s:{s:{s:i}, s:{s:i}}}", "values", "base", "n", 45, "cand", "n", 45);
    json_t *vs = json_pack("{s:f, s:{s:f}}", "change", -0.0037, "paired_ratio", "median", 0.826);
    double ch = 0;

    CHECK(summary_judged_change(metric, vs, 5, &ch) == 0 && fabs(ch + 0.174) < 1e-9);
    CHECK(summary_judged_change(metric, vs, 45, &ch) == 0 && fabs(ch + 0.0037) < 1e-9);
    json_object_del(vs, "change");
    CHECK(summary_judged_change(metric, vs, 45, &ch) == -1);
    json_decref(metric);
    json_decref(vs);
}

/* The stall verdict of a row of five rounds at 10 µs a reply (100 000 batches in 1 s): base
 * stalls of base_ms + r, cand of cand_ms + r/10. */
static const char *stall_verdict(double base_ms, double cand_ms, json_t **sum_out)
{
    char err[256], *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    json_t *runs, *meta;
    int r, c;

    for (r = 1; r <= 5; r++)
        for (c = 0; c < 2; c++)
            fprintf(f,
                    "{\"version\":\"%s\",\"config\":\"c1\",\"round\":%d,\"position\":%d,"
                    "\"status\":\"ok\",\"result\":{\"throughput\":%d,\"elapsed_s\":1,"
                    "\"batches\":100000,\"stall_ms\":%g,"
                    "\"latency_us\":{\"p50\":9,\"p99\":18},\"cpu\":{\"percent\":100}},"
                    "\"client\":{\"cpu_s\":1,\"rss_peak_kib\":1024},\"server\":null}\n",
                    c ? "cand" : "base", r, c + 1, 100000 + r,
                    c ? cand_ms + r / 10.0 : base_ms + r);
    fclose(f);
    runs = dataset_parse(text, len, "runs.jsonl", NULL, err, sizeof(err));
    meta = json_loads(meta_text, 0, NULL);
    *sum_out = summary_build(runs, meta, NULL, err, sizeof(err));
    free(text);
    json_decref(runs);
    json_decref(meta);
    return ju_str(summary_vs(json_array_get(json_object_get(*sum_out, "rows"), 1), "stall", "cand"),
                  "verdict", "");
}

/* A stall changes the verdict only when it moves by 100 reply intervals and by 50 ms: at
 * 10 µs a reply, gaps of 31–35 ms against 0.6–1 ms (an A/A Redis row's descheduling, −97%)
 * are `~`; 310–350 ms against 31–35 ms are a regression. */
static void test_stall_floor(void)
{
    json_t *sum = NULL;

    CHECK_STR(stall_verdict(30, 0.5, &sum), "~");
    json_decref(sum);
    CHECK_STR(stall_verdict(30, 300, &sum), "regressed");
    json_decref(sum);
}

int main(void)
{
    test_stall_floor();
    test_judged_change();
    test_held();
    test_counted();
    test_build();
    test_render();
    return T_DONE();
}
