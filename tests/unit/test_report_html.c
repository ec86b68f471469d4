/* report_html: structure of the page built from small summaries made here — one
 * <svg class="chart"> per metric, no external URL, dataset text escaped, Chinese page,
 * N-way bold, single-version table, deterministic bytes, bad input refused.
 * With arguments it is also the integration tests' renderer:
 *   test_report_html --render SUMMARY.json META.json|- en|zh OUT.html */
#include <stdlib.h>
#include <string.h>

#include "run/confirm.h"
#include "report/report_html.h"
#include "report/report_full.h"
#include "report/report_html_svg.h"
#include "t.h"

static const char *const metrics[] = {"throughput", "cpu_percent", "cpu_efficiency",
                                      "p50_us",     "p99_us",      "rss_mib"};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

static json_t *values(double med, double spread)
{
    return json_pack("{s:f, s:f, s:f, s:i, s:[f, f, f, f, f]}", "median", med, "min", med - spread,
                     "max", med + spread, "n", 5, "runs", med - spread, med - spread / 2, med,
                     med + spread / 2, med + spread);
}

/* nv versions (names[]), nrows rows of a redis grid. */
static json_t *make_summary(const char *const *names, size_t nv, size_t nrows)
{
    json_t *s = json_object(), *rows = json_array(), *vers = json_array();
    size_t r, v, m;

    for (v = 0; v < nv; v++)
        json_array_append_new(vers, json_string(names[v]));
    for (r = 0; r < nrows; r++) {
        json_t *row, *mets = json_object();
        char label[128], id[16];

        snprintf(label, sizeof(label), "redis \xc2\xb7 %s \xc2\xb7 1 KiB \xc2\xb7 pipeline%zu",
                 r % 2 ? "tls" : "tcp", r + 1);
        snprintf(id, sizeof(id), "c%07zu", r);
        for (m = 0; m < NMETRICS; m++) {
            json_t *vals = json_object(), *vs = json_object();
            for (v = 0; v < nv; v++) {
                json_object_set_new(vals, names[v],
                                    values(1000.0 * (double)(m + 1) + (double)(v * 37 + r), 20));
                if (v > 0)
                    json_object_set_new(vs, names[v],
                                        json_pack("{s:f, s:b, s:f, s:{s:f, s:f, s:f}, s:s}",
                                                  "change", v == 1 && r == 0 ? -0.0651 : 0.012,
                                                  "overlap", r != 0, "p", r == 0 ? 0.0079 : 0.42,
                                                  "paired_ratio", "median", 0.99, "min", 0.97,
                                                  "max", 1.01, "verdict",
                                                  v == 1 && r == 0 ? "regressed" : "~"));
            }
            json_object_set_new(mets, metrics[m],
                                nv > 1 ? json_pack("{s:o, s:o}", "values", vals, "vs_baseline", vs)
                                       : json_pack("{s:o}", "values", vals));
            if (nv == 1)
                json_decref(vs);
        }
        row = json_pack("{s:s, s:s, s:s, s:{s:s, s:s, s:i, s:i, s:i, s:i}, s:{s:i, s:i, s:i}, "
                        "s:o}",
                        "config", id, "label", label, "status", "ok", "params", "protocol", "redis",
                        "transport", r % 2 ? "tls" : "tcp", "payload", 1024, "pipeline", (int)r + 1,
                        "window", 1, "connections", 4, "runs", "expected", (int)(5 * nv), "ok",
                        (int)(5 * nv), "failed", 0, "metrics", mets);
        json_array_append_new(rows, row);
    }
    json_object_set_new(s, "schema", json_string("pairbench.summary/2"));
    json_object_set_new(s, "baseline", json_string(names[0]));
    json_object_set_new(s, "versions", vers);
    json_object_set_new(s, "rows", rows);
    json_object_set_new(s, "rounds", json_integer(5));
    /* as summary_build writes it (summary.c chance_json): the moderated test's level */
    json_object_set_new(s, "chance",
                        json_pack("{s:s, s:f, s:f, s:i, s:f, s:f, s:b}", "evidence", "moderated",
                                  "alpha", 0.05, "expected_false_flags", 0.2, "runs_per_side", 5,
                                  "p_disjoint", 2.0 / 252, "level", 0.05, "reachable", 1));
    return s;
}

static json_t *make_meta(void)
{
    return json_pack("{s:s, s:[s, s, s, s], s:{s:s, s:s}, s:[{s:s, s:s}], s:[s], "
                     "s:{s:i, s:f, s:f}, s:{s:s}}",
                     "schema", "pairbench.meta/1", "command_line", "bin/compare", "run", "--spec",
                     "my spec.json", "dataset", "file", "runs.jsonl", "sha256",
                     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sources",
                     "path", "src/a<b>.c", "sha256", "00", "warnings",
                     "the machine was loaded at start: <load>", "settings", "runs", 5, "warmup",
                     1.0, "duration", 5.0, "environment", "os", "Debian & co");
}

/* Renders into a heap string (free()). */
static char *render(const json_t *summary, const json_t *meta, const char *lang, int *rc)
{
    char *buf = NULL, err[256] = "";
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    *rc = report_html_write(f, summary, meta, lang, err, sizeof(err));
    if (*rc != 0)
        fprintf(stderr, "render: %s\n", err);
    fclose(f);
    return buf;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    const char *p = hay;

    while ((p = strstr(p, needle)) != NULL) {
        n++;
        p += strlen(needle);
    }
    return n;
}

static void check_page(const char *html, size_t nv, const char *what)
{
    char needle[64];
    size_t m;

    CHECK_MSG(count(html, "<svg class=\"chart\"") == NMETRICS, "%s: %zu charts", what,
              count(html, "<svg class=\"chart\""));
    for (m = 0; m < NMETRICS; m++) {
        snprintf(needle, sizeof(needle), "class=\"chart\" data-metric=\"%s\"", metrics[m]);
        CHECK_MSG(count(html, needle) == 1, "%s: %s", what, needle);
    }
    CHECK_MSG(!strstr(html, "http://") && !strstr(html, "https://") && !strstr(html, "//cdn") &&
                  !strstr(html, "src=") && !strstr(html, "<link"),
              "%s: external reference", what);
    CHECK_MSG(!strstr(html, "<script"), "%s: script tag", what);
    CHECK(strncmp(html, "<!DOCTYPE html>", 15) == 0);
    CHECK(strstr(html, "</html>\n") != NULL);
    CHECK(strstr(html, "<meta charset=\"utf-8\">") != NULL);
    /* every version appears in the legend of every chart */
    CHECK_MSG(count(html, "class=\"lg\">") == NMETRICS * nv, "%s: legend entries %zu", what,
              count(html, "class=\"lg\">")); /* the charts' (the forest plot's have x= next) */
}

static int render_files(char **argv)
{
    json_error_t je;
    json_t *s = json_load_file(argv[2], 0, &je), *m = NULL;
    char err[256];
    FILE *f;
    int rc = 1;

    if (!s) {
        fprintf(stderr, "test_report_html: '%s': %s\n", argv[2], je.text);
        return 2;
    }
    if (strcmp(argv[3], "-") != 0 && !(m = json_load_file(argv[3], 0, &je))) {
        fprintf(stderr, "test_report_html: '%s': %s\n", argv[3], je.text);
        json_decref(s);
        return 2;
    }
    f = fopen(argv[5], "w");
    if (f) {
        rc = report_html_write(f, s, m, argv[4], err, sizeof(err)) == 0 ? 0 : 1;
        if (rc)
            fprintf(stderr, "test_report_html: %s\n", err);
        if (fclose(f) != 0)
            rc = 1;
    }
    json_decref(s);
    json_decref(m);
    return rc;
}

/* Sections with nothing to say collapse: a full-cost metric that is 0.000 in every run is one
 * sentence, not a table of zeros (a metric with a figure keeps its table), so is one `~` in
 * every configuration (with the runs' range; "−0.001" prints "0.000", never "−0.000"), and a
 * version's disturbed runs of one fate are one list item with their rounds and ranges. */
static void test_collapsed(json_t *meta)
{
    static const char *const two[] = {"baseline", "candidate"};
    json_t *s = make_summary(two, 2, 1), *row = json_array_get(json_object_get(s, "rows"), 0);
    json_t *mets = json_object_get(row, "metrics"), *dist = json_array();
    char *a;
    int rc = -1, r;

    json_object_set_new(mets, "page_faults",
                        json_pack("{s:{s:{s:f, s:f, s:f}, s:{s:f, s:f, s:f}}}", "values",
                                  "baseline", "median", 0.0, "min", 0.0, "max", 0.0, "candidate",
                                  "median", 0.0, "min", 0.0, "max", 0.0001));
    json_object_set_new(mets, "context_switches",
                        json_pack("{s:{s:{s:f, s:f, s:f}, s:{s:f, s:f, s:f}}}", "values",
                                  "baseline", "median", 0.4, "min", 0.3, "max", 0.5, "candidate",
                                  "median", 0.4, "min", 0.3, "max", 0.6));
    /* compared and `~` everywhere: one sentence with the runs' range; a regressed one keeps
     * its table */
    json_object_set_new(mets, "cpu_migrations",
                        json_pack("{s:{s:{s:f, s:f, s:f}, s:{s:f, s:f, s:f}}, s:{s:{s:s, s:f}}}",
                                  "values", "baseline", "median", 0.02, "min", -0.0004, "max", 0.03,
                                  "candidate", "median", 0.02, "min", 0.01, "max", 0.04,
                                  "vs_baseline", "candidate", "verdict", "~", "change", 0.01));
    json_object_set_new(mets, "syscalls",
                        json_pack("{s:{s:{s:f, s:f, s:f}, s:{s:f, s:f, s:f}}, s:{s:{s:s, s:f}}}",
                                  "values", "baseline", "median", 2.0, "min", 2.0, "max", 2.1,
                                  "candidate", "median", 3.0, "min", 3.0, "max", 3.1, "vs_baseline",
                                  "candidate", "verdict", "regressed", "change", 0.5));
    for (r = 1; r <= 3; r++)
        json_array_append_new(dist, json_pack("{s:s, s:i, s:f, s:f, s:i, s:b}", "version",
                                              "candidate", "round", r, "other_cpu_cores", 0.2 * r,
                                              "steal_pct", 0.0, "nivcsw", 100 * r, "excluded", 1));
    json_object_set_new(
        row, "interference",
        json_pack("{s:o, s:[], s:i}", "disturbed", dist, "outliers", "clean_rounds", 2));
    a = render(s, meta, "en", &rc);
    CHECK(rc == 0 && a);
    if (a) {
        CHECK(strstr(a, "Server page faults per operation: 0.000 in every run of every "
                        "configuration and version, so no table.") != NULL);
        CHECK(strstr(a, "<h3 id=\"full-page_faults\">") == NULL);
        CHECK(strstr(a, "<h3 id=\"full-context_switches\">") != NULL);
        CHECK_MSG(strstr(a, "Server CPU migrations per operation: 0.000\xe2\x80\x93"
                            "0.040 in every run of every version, and <code>~</code> in every "
                            "configuration, so no table.") != NULL,
                  "%s", strstr(a, "full-cpu_migrations") ? strstr(a, "full-cpu_migrations") : "-");
        CHECK(strstr(a, "<h3 id=\"full-cpu_migrations\">") == NULL);
        CHECK(strstr(a, "<h3 id=\"full-syscalls\">") != NULL);
        CHECK_MSG(strstr(a, "candidate \xc2\xb7 rounds 1, 2, 3: other processes 0.20\xe2\x80\x93"
                            "0.60 cores, steal up to 0.0%, 100\xe2\x80\x93"
                            "300 involuntary") != NULL,
                  "%s", strstr(a, "rounds") ? strstr(a, "rounds") : "no rounds");
        CHECK(count(a, "involuntary context switches of the driver") == 1);
    }
    free(a);
    json_decref(s);
}

/* The names a "where it changed" list shows: code without symbols ("unknown (...)") never,
 * at most max, and none after the first that did not change. */
static void test_where(void)
{
    json_t *l = json_pack("[{s:s,s:f},{s:s,s:f},{s:s,s:f},{s:s,s:f},{s:s,s:f}]", "name",
                          "unknown (?\?\?)", "delta", -7.03, "name", "sdallocx", "delta", 2.1,
                          "name", "unknown (redis-check-rdb)", "delta", 1.5, "name", "zfree",
                          "delta", -0.9, "name", "free", "delta", 0.001);
    const json_t *out[5];
    size_t n = report_full_where(l, out, 5);

    CHECK(n == 2 && strcmp(json_string_value(json_object_get(out[0], "name")), "sdallocx") == 0 &&
          strcmp(json_string_value(json_object_get(out[1], "name")), "zfree") == 0);
    CHECK(report_full_where(l, out, 1) == 1);
    json_array_remove(l, 1);
    json_array_remove(l, 2);
    CHECK(report_full_where(l, out, 5) == 0); /* unknown names and no change left */
    json_decref(l);
}

int main(int argc, char **argv)
{
    static const char *const two[] = {"baseline", "candidate"};
    static const char *const evil[] = {"base&line", "<script>alert(1)</script>", "v\"3'"};
    static const char *const one[] = {"valkey-8.0"};
    json_t *s, *meta, *bad;
    char *a, *b, err[256];
    int rc = -1;

    if (argc == 6 && strcmp(argv[1], "--render") == 0)
        return render_files(argv);
    meta = make_meta();
    test_where();
    test_collapsed(meta);

    /* two versions, English */
    s = make_summary(two, 2, 4);
    a = render(s, meta, "en", &rc);
    CHECK(rc == 0 && a);
    if (a) {
        check_page(a, 2, "two");
        CHECK(strstr(a, "<html lang=\"en\">") != NULL);
        CHECK(strstr(a, "Throughput and CPU") != NULL);
        CHECK(strstr(a, "Latency (\xc2\xb5s)") != NULL);
        CHECK(strstr(a, "\xe2\x88\x92"
                        "6.51%") != NULL); /* real minus sign */
        CHECK(strstr(a, "class=\"n v-regressed\"") != NULL);
        CHECK(strstr(a, "src/a&lt;b&gt;.c") != NULL);
        CHECK(strstr(a, "&lt;load&gt;") != NULL);
        CHECK(strstr(a, "Debian &amp; co") != NULL);
        CHECK(strstr(a, "&#39;my spec.json&#39;") != NULL); /* shell-quoted, escaped */
        CHECK(strstr(a, "With 5 runs a side") != NULL && strstr(a, "2/252") != NULL);
        CHECK(strstr(a, "Evidence level: each metric is judged at 0.05, before the row&#39;s "
                        "family shares it; with 5 runs a side the test has 4 degrees of freedom "
                        "of its own, and the run&#39;s other rows lend it more.") != NULL);
        CHECK(strstr(a, "<b>") == NULL || count(a, "<td class=\"n\"><b>") == 0); /* no N-way bold */
        /* deterministic */
        b = render(s, meta, "en", &rc);
        CHECK(b && strcmp(a, b) == 0);
        free(b);
    }
    free(a);

    /* the evidence note states the chance for the dataset's run count, not 5's */
    json_object_set_new(s, "rounds", json_integer(2));
    a = render(s, meta, "en", &rc);
    CHECK(rc == 0 && a && strstr(a, "With 2 runs a side") && strstr(a, "2/6 ") &&
          !strstr(a, "2/252"));
    free(a);
    json_object_set_new(s, "rounds", json_integer(5));

    /* Chinese */
    a = render(s, meta, "zh", &rc);
    CHECK(rc == 0 && a);
    if (a) {
        check_page(a, 2, "zh");
        CHECK(strstr(a, "<html lang=\"zh\">") != NULL);
        CHECK(strstr(a, "吞吐量") != NULL);
        CHECK(strstr(a, "测量环境") != NULL);
        CHECK(strstr(a, "Throughput and CPU") == NULL);
        CHECK(strstr(a, "Measurement environment") == NULL);
    }
    free(a);

    /* the harness's known warnings in Chinese; English on the English page */
    {
        json_t *wm = json_deep_copy(meta);

        json_object_set_new(wm, "warnings",
                            json_pack("[s, s, s]",
                                      "the machine was loaded at start: load average 3.1 on 2 CPUs",
                                      "CPU frequency governor is 'powersave', not 'performance'",
                                      "something else"));
        /* the facts behind the sentences: the environment they were stated from */
        json_object_set_new(wm, "environment",
                            json_pack("{s:i, s:[f, f, f], s:s}", "cores_logical", 2,
                                      "loadavg_start", 3.1, 1.0, 1.0, "governor", "powersave"));
        a = render(s, wm, "zh", &rc);
        CHECK(rc == 0 && a);
        if (a) {
            CHECK(strstr(a, "开始时负载较高，2 个 CPU 上的平均负载为 3.1") != NULL);
            CHECK(strstr(a, "CPU 频率调节器为 &#39;powersave&#39;，而不是 &#39;performance&#39;") !=
                  NULL);
            CHECK(strstr(a, "something else") != NULL);
            CHECK(strstr(a, "the machine was loaded") == NULL);
        }
        free(a);
        a = render(s, wm, "en", &rc);
        CHECK(rc == 0 && a &&
              strstr(a, "the machine was loaded at start: load average 3.1 on 2 CPUs"));
        free(a);
        json_decref(wm);
    }
    json_decref(s);

    /* three versions with hostile names: escaped, bold best per row */
    s = make_summary(evil, 3, 5);
    a = render(s, NULL, "en", &rc);
    CHECK(rc == 0 && a);
    if (a) {
        check_page(a, 3, "evil");
        CHECK(strstr(a, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL);
        CHECK(strstr(a, "base&amp;line") != NULL);
        CHECK(strstr(a, "v&quot;3&#39;") != NULL);
        CHECK(count(a, "<td class=\"n\"><b>") >= 5);
    }
    free(a);
    json_decref(s);

    /* one version: the detailed results page, same charts */
    s = make_summary(one, 1, 3);
    a = render(s, meta, "en", &rc);
    CHECK(rc == 0 && a);
    if (a) {
        check_page(a, 1, "one");
        CHECK(strstr(a, "Detailed results") != NULL);
        CHECK(strstr(a, "Throughput and CPU") == NULL);
    }
    free(a);
    a = render(s, meta, "zh", &rc);
    CHECK(rc == 0 && a && strstr(a, "详细结果") != NULL);
    free(a);
    /* the driver's unit goes into the summary sentence escaped, like every value (a fuzzer
     * found it raw) */
    {
        size_t r;
        for (r = 0; r < json_array_size(json_object_get(s, "rows")); r++)
            json_object_set_new(json_array_get(json_object_get(s, "rows"), r), "unit",
                                json_string("co<script>mmands/s"));
    }
    a = render(s, meta, "en", &rc);
    CHECK(rc == 0 && a && strstr(a, "Highest throughput:") != NULL);
    CHECK(a && strstr(a, "co&lt;script&gt;mmands/s on ") != NULL && !strstr(a, "<script"));
    free(a);
    json_decref(s);

    /* many rows: the notable ones in the tables, the full tables collapsed below them */
    s = make_summary(two, 2, 20);
    a = render(s, meta, "en", &rc);
    CHECK(rc == 0 && a);
    if (a) {
        check_page(a, 2, "many");
        CHECK_MSG(count(a, "<details class=\"full\"><summary>Full table (20 configurations)") == 4,
                  "details blocks: %zu", count(a, "<details class=\"full\">"));
        CHECK(count(a, "20 configurations: this table shows the 1 that stand out") == 4);
        /* row 0 (regressed): notable table + full table in 4 tables; row 1 only in the full */
        CHECK_MSG(count(a, "<tr><td>redis \xc2\xb7 tcp \xc2\xb7 1 KiB \xc2\xb7 pipeline1</td>") ==
                      8,
                  "row 0 rows: %zu",
                  count(a, "<tr><td>redis \xc2\xb7 tcp \xc2\xb7 1 KiB \xc2\xb7 pipeline1</td>"));
        CHECK(count(a, "<tr><td>redis \xc2\xb7 tls \xc2\xb7 1 KiB \xc2\xb7 pipeline2</td>") == 4);
        CHECK(count(a, "class=\"chart\" data-metric=\"throughput\"") == 1); /* charts stay */
    }
    free(a);
    a = render(s, meta, "zh", &rc);
    CHECK(rc == 0 && a && count(a, "完整表格（20 个配置）") == 4);
    free(a);
    json_decref(s);
    /* two runs a side: the note states that count and its chance, never a fixed five; the
     * moderated test can judge them (one degree of freedom of its own) */
    s = make_summary(two, 2, 2);
    json_object_set_new(s, "chance",
                        json_pack("{s:f, s:f, s:i, s:f, s:f, s:b}", "alpha", 0.05,
                                  "expected_false_flags", 0.1, "runs_per_side", 2, "p_disjoint",
                                  1.0 / 3, "level", 0.05, "reachable", 1));
    json_object_set_new(s, "rounds", json_integer(2));
    a = render(s, meta, "en", &rc);
    CHECK_MSG(rc == 0 && a && strstr(a, "exact two-sided p = 2/6 \xe2\x89\x88 0.3333") &&
                  !strstr(a, "2/252") &&
                  strstr(a, "with 2 runs a side the test has 1 degrees of freedom of its own"),
              "note: %.600s", a && strstr(a, "Overlap flag") ? strstr(a, "Overlap flag") : "");
    free(a);
    /* one run a side: no variance at all, every timed metric undecided (summary.c: reachable
     * from STATS_MIN_RUNS, 2) */
    json_object_set_new(s, "chance",
                        json_pack("{s:f, s:f, s:i, s:f, s:f, s:b}", "alpha", 0.05,
                                  "expected_false_flags", 0.1, "runs_per_side", 1, "p_disjoint",
                                  1.0, "level", 0.05, "reachable", 0));
    json_object_set_new(s, "rounds", json_integer(1));
    a = render(s, meta, "en", &rc);
    CHECK_MSG(rc == 0 && a &&
                  strstr(a, "With 1 run a side there is no variance to judge by (0): every timed "
                            "metric is <code>undecided</code> (too few runs), never "
                            "<code>~</code>; use at least 3 runs a side."),
              "note: %.600s", a && strstr(a, "Overlap flag") ? strstr(a, "Overlap flag") : "");
    free(a);
    json_decref(s);
    s = make_summary(two, 2, 12); /* at the limit: whole tables, nothing collapsed */
    a = render(s, meta, "en", &rc);
    CHECK(rc == 0 && a && !strstr(a, "<details"));
    free(a);
    json_decref(s);

    /* adaptive confirmation from meta.json: cap, rule, rows with extra rounds (en, zh) */
    {
        json_t *cm = json_deep_copy(meta);

        s = make_summary(two, 2, 3);
        json_object_set_new(cm, "confirmation",
                            json_pack("{s:i, s:s, s:{s:i}}", "max_extra_rounds", 4, "rule",
                                      confirm_rule, "rows", "c0000001", 2));
        a = render(s, cm, "en", &rc);
        CHECK(rc == 0 && a);
        if (a) {
            CHECK(strstr(a, "Adaptive confirmation (at most 4 extra rounds per row, fixed before "
                            "the run") != NULL);
            CHECK(strstr(a, "<b>redis \xc2\xb7 tls \xc2\xb7 1 KiB \xc2\xb7 pipeline2</b> got 2 "
                            "extra rounds") != NULL);
            CHECK(strstr(a, "is judged on the median of its per-round ratios") != NULL);
            CHECK(strstr(a, "Rule: a row is borderline when") != NULL);
            /* in the completeness section, before the weaknesses */
            CHECK(strstr(a, "id=\"completeness\"") < strstr(a, "Adaptive confirmation") &&
                  strstr(a, "Adaptive confirmation") < strstr(a, "What weakens"));
        }
        free(a);
        a = render(s, cm, "zh", &rc);
        CHECK(rc == 0 && a);
        if (a) {
            CHECK(strstr(a, "自适应确认（每个配置最多 4 个额外轮次") != NULL);
            CHECK(strstr(a, "</b> 增加了 2 轮") != NULL);
            CHECK(strstr(a, "规则：") != NULL);
            CHECK(strstr(a, "a row is borderline") == NULL);
        }
        free(a);
        json_object_set_new(
            cm, "confirmation",
            json_pack("{s:i, s:s, s:{}}", "max_extra_rounds", 2, "rule", confirm_rule, "rows"));
        a = render(s, cm, "en", &rc);
        CHECK(rc == 0 && a && strstr(a, "at most 2 extra rounds per row") &&
              strstr(a, "no row was borderline"));
        free(a);
        a = render(s, meta, "en", &rc); /* confirmation off: not mentioned */
        CHECK(rc == 0 && a && !strstr(a, "Adaptive confirmation"));
        free(a);
        json_decref(s);
        json_decref(cm);
    }

    /* chart value labels */
    {
        static const struct {
            double v;
            const char *want;
        } fmt[] = {{97110, "97.1k"}, {1843200, "1.84M"}, {695.8, "695.8"}, {42, "42.0"},
                   {3.25, "3.25"},   {0, "0"},           {1204, "1204"},   {0.5, "0.500"},
                   {9999, "9999"},   {10000, "10.0k"}};
        char buf[32];
        size_t i;

        for (i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++)
            CHECK_STR(svg_format_value(fmt[i].v, buf, sizeof(buf)), fmt[i].want);
    }
    /* a chart with a missing bar says so, and its axis ends on a round number */
    {
        struct svg_bar bars[2] = {{100, 90, 130, 1}, {0, 0, 0, 0}};
        struct svg_row row = {"pipeline1", "full <label>", bars};
        const char *const names[] = {"a", "b"};
        struct svg_chart ch;
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        memset(&ch, 0, sizeof(ch));
        ch.metric = "p99_us";
        ch.title = "P99";
        ch.axis_label = "\xc2\xb5s";
        ch.no_value = "no value";
        ch.versions = names;
        ch.nversions = 2;
        ch.rows = &row;
        ch.nrows = 1;
        CHECK(f && svg_chart_write(f, &ch) == 0);
        if (f)
            fclose(f);
        CHECK(buf && strstr(buf, ">no value</text>") != NULL);
        CHECK(buf && strstr(buf, "<title>full &lt;label&gt;</title>") != NULL);
        CHECK(buf && strstr(buf, ">150</text>") != NULL); /* ticks 0, 50, 100, 150 */
        CHECK(buf && strstr(buf, ">200</text>") == NULL);
        CHECK(buf && count(buf, "<rect x=") >= 2);
        free(buf);
    }

    /* a bad summary is refused with a message naming the key */
    bad = json_pack("{s:s}", "rows", "nope");
    {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        CHECK(report_html_write(f, bad, NULL, "en", err, sizeof(err)) == -1);
        CHECK(strstr(err, "rows") != NULL);
        fclose(f);
        free(buf);
    }
    json_decref(bad);
    json_decref(meta);
    return T_DONE();
}
