/* compare/report/term and compare/analysis/outcome: terminal cell widths of UTF-8 (ASCII,
 * µ, CJK, combining marks, invalid bytes), cuts that keep whole characters and fit the
 * budget, the table of a hand-built summary (every line within 100 cells, valid UTF-8, one
 * line per row, the changes and verdicts), and the outcome's counts and overall word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/outcome.h"
#include "t.h"
#include "report/term.h"

static json_t *metric(const char *verdict, double change)
{
    return json_pack("{s:{s:{s:f,s:s}}}", "vs_baseline", "cand", "change", change, "verdict",
                     verdict);
}

static json_t *row(const char *label, const char *status, const char *tput, double ch)
{
    return json_pack("{s:s,s:s,s:{s:i},s:{s:o,s:o,s:o}}", "label", label, "status", status, "runs",
                     "failed", strcmp(status, "failed") == 0 ? 1 : 0, "metrics", "throughput",
                     metric(tput, ch), "cpu_efficiency", metric("~", ch / 2), "p99_us",
                     metric("~", -ch));
}

int main(void)
{
    char out[256];
    size_t w;

    CHECK(term_width("redis · 64 B") == 12);
    CHECK(term_width("delay 300 µs") == 12);
    CHECK(term_width("中文标签") == 8);
    CHECK(term_width("e\xCC\x81") == 1); /* e + combining acute */
    CHECK(term_width("a\xFF"
                     "b") == 3); /* an invalid byte counts one */

    w = term_fit("short", 10, 1, out, sizeof(out));
    CHECK(w == 10);
    CHECK_STR(out, "short     ");
    /* a cut in the middle never splits a character and never exceeds the budget */
    {
        const char *lbls[] = {"redis · SET · 64 B · pipeline16 · window1 · 50 clients",
                              "中文标签中文标签中文标签中文标签中文标签",
                              "µµµµµµµµµµµµµµµµµµµµµµµµ",
                              "e\xCC\x81"
                              "e\xCC\x81"
                              "e\xCC\x81"
                              "e\xCC\x81"
                              "e\xCC\x81"
                              "xxxxxxxxxxx"};
        size_t i, cells;
        for (i = 0; i < sizeof(lbls) / sizeof(lbls[0]); i++)
            for (cells = 1; cells < 30; cells++) {
                w = term_fit(lbls[i], cells, 0, out, sizeof(out));
                CHECK_MSG(valid_utf8(out), "'%s' cut to %zu cells is not UTF-8", lbls[i], cells);
                CHECK_MSG(term_width(out) <= cells && w == term_width(out), "%s: %zu > %zu",
                          lbls[i], term_width(out), cells);
                CHECK(term_width(lbls[i]) <= cells || strstr(out, "…"));
            }
        term_fit(lbls[0], 21, 0, out, sizeof(out));
        CHECK_STR(out, "redis · SE…50 clients");
    }
    /* a tiny buffer is never overrun */
    CHECK(term_fit("中文标签", 8, 1, out, 4) == 0 && out[0] == '\0');

    /* the table and the outcome */
    {
        /* tcp: too few runs to decide its +20% (the old "~" with reason "too few runs") */
        json_t *tcp = row("tcp · 64 B", "ok", "undecided", 0.2);
        json_t *s = json_pack("{s:[s,s],s:[o,o,o,o]}", "versions", "base", "cand", "rows",
                              row("redis · ECHO · 64 B · pipeline1 · window1 · 4 clients · "
                                  "中文很长的标签文字很长很长",
                                  "ok", "regressed", -0.123),
                              row("ws · 1500 B · delay 300 µs", "ok", "improved", 0.07), tcp,
                              row("http · 4 KiB", "failed", "failed", 0));
        json_t *oc,
            *tv = json_object_get(
                json_object_get(json_object_get(json_object_get(tcp, "metrics"), "throughput"),
                                "vs_baseline"),
                "cand");
        char *buf = NULL, *line, *save = NULL;
        size_t len = 0;
        FILE *f;
        int lines = 0;

        json_object_set_new(tv, "reason", json_string("too few runs"));
        json_object_set_new(tv, "runs_needed", json_integer(7));
        oc = outcome_build(s, NULL);
        CHECK_STR(json_string_value(json_object_get(oc, "overall")), "regressed");
        CHECK(json_integer_value(json_object_get(json_object_get(oc, "verdicts"), "regressed")) ==
              1);
        CHECK(json_integer_value(json_object_get(json_object_get(oc, "verdicts"), "improved")) ==
              1);
        CHECK(json_integer_value(json_object_get(json_object_get(oc, "verdicts"), "undecided")) ==
              1);
        CHECK(json_integer_value(json_object_get(json_object_get(oc, "verdicts"), "~")) == 0);
        CHECK(json_integer_value(json_object_get(json_object_get(oc, "verdicts"), "incomplete")) ==
              0);
        CHECK(json_integer_value(json_object_get(json_object_get(oc, "verdicts"), "failed")) == 1);
        CHECK(json_integer_value(json_object_get(oc, "failed_runs")) == 1);
        json_object_set_new(s, "outcome", oc);

        f = open_memstream(&buf, &len);
        CHECK(f && term_table(f, s, NULL, 100) == 0);
        fclose(f);
        CHECK(valid_utf8(buf));
        CHECK(buf && strstr(buf, "-12.3%") && strstr(buf, "regressed"));
        CHECK(buf && strstr(buf, "ws · 1500 B · delay 300 µs") && strstr(buf, "improved"));
        CHECK(buf && strstr(buf, "regressed: 1 regressed, 1 improved, 0 ~ (within threshold), "
                                 "1 undecided, 1 failed (1 runs failed)\n"));
        CHECK(buf && strstr(buf, "tcp · 64 B") && strstr(buf, "  undecided\n"));
        /* under the table, what keeps the undecided row open and what would decide it */
        CHECK_MSG(buf && strstr(buf, "\nundecided: tcp · 64 B\n  throughput: too few runs (~7 "
                                     "runs a side would decide)\n"),
                  "%s", buf ? buf : "");
        for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            lines++;
            CHECK_MSG(term_width(line) <= 100, "%zu cells: %s", term_width(line), line);
        }
        CHECK(lines == 8); /* header, 4 rows, the undecided row and its metric, the outcome */
        free(buf);

        /* a row failed without a regression: failed; an undecided row beside an improved one:
         * undecided (never "improved" on what was not decided); only improvements: improved */
        json_array_remove(json_object_get(s, "rows"), 0);
        oc = outcome_build(s, NULL);
        CHECK_STR(json_string_value(json_object_get(oc, "overall")), "failed");
        json_decref(oc);
        json_array_remove(json_object_get(s, "rows"), 2);
        oc = outcome_build(s, NULL);
        CHECK_STR(json_string_value(json_object_get(oc, "overall")), "undecided");
        json_decref(oc);
        json_array_remove(json_object_get(s, "rows"), 1);
        oc = outcome_build(s, NULL);
        CHECK_STR(json_string_value(json_object_get(oc, "overall")), "improved");
        json_decref(oc);
        json_decref(s);
    }
    /* a counted row: its instructions/op verdict decides the row and gets a column; rows
     * without the metric are passed over */
    {
        json_t *counted = row("redis · SET · 64 B", "ok", "~", 0.004);
        json_t *s = json_pack("{s:[s,s],s:[o,o]}", "versions", "base", "cand", "rows", counted,
                              row("tcp · 64 B", "ok", "~", 0.01));
        json_t *oc;
        char *buf = NULL;
        size_t len = 0;
        FILE *f;

        json_object_set_new(json_object_get(counted, "metrics"), "instructions",
                            metric("regressed", 0.0197));
        oc = outcome_build(s, NULL);
        CHECK_STR(json_string_value(json_object_get(oc, "overall")), "regressed");
        CHECK(json_integer_value(json_object_get(json_object_get(oc, "verdicts"), "~")) == 1);
        json_decref(oc);
        f = open_memstream(&buf, &len);
        CHECK(f && term_table(f, s, NULL, 100) == 0);
        fclose(f);
        CHECK_MSG(buf && strstr(buf, "instructions") && strstr(buf, "+2.0%"), "%s", buf);
        free(buf);
        json_decref(s);
    }
    /* an incomplete row: counted apart from undecided, named on the outcome line only when
     * there is one, and the overall word is undecided (nothing regressed or failed) */
    {
        json_t *s = json_pack("{s:[s,s],s:[o,o]}", "versions", "base", "cand", "rows",
                              row("tcp · 64 B", "incomplete", "~", 0.01),
                              row("tcp · 4 KiB", "ok", "~", -0.01));
        char *buf = NULL;
        size_t len = 0;
        FILE *f;

        json_object_set_new(s, "outcome", outcome_build(s, NULL));
        f = open_memstream(&buf, &len);
        CHECK(f && term_table(f, s, NULL, 100) == 0);
        fclose(f);
        CHECK_MSG(buf && strstr(buf, "undecided: 0 regressed, 0 improved, 1 ~ (within threshold), "
                                     "0 undecided, 1 incomplete, 0 failed\n"),
                  "%s", buf);
        free(buf);
        json_decref(s);
    }
    /* the demo's six rows: each names what varies (command, pipeline) whole, the values
     * every row shares come once above the table; a label too long is cut between values */
    {
        static const char *const cmds[] = {"ECHO", "SET", "GET"};
        json_t *rows = json_array(), *s;
        char lbl[160], *buf = NULL, *line, *save = NULL, want[64];
        size_t len = 0, i, p;
        FILE *f;
        int lines = 0, seen = 0;

        for (i = 0; i < 3; i++)
            for (p = 0; p < 2; p++) {
                snprintf(lbl, sizeof(lbl), "redis · %s · 64 B · pipeline%s · window1 · 4 clients",
                         cmds[i], p ? "16" : "1");
                json_array_append_new(rows, row(lbl, "ok", "~", 0.01));
            }
        s = json_pack("{s:[s,s],s:o}", "versions", "redis-7.0", "valkey-8.0", "rows", rows);
        f = open_memstream(&buf, &len);
        CHECK(f && term_table(f, s, NULL, 100) == 0);
        fclose(f);
        CHECK_MSG(buf && strncmp(buf, "all rows: redis · 64 B · window1 · 4 clients\n", 47) == 0,
                  "%s", buf);
        for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            lines++;
            CHECK_MSG(term_width(line) <= 100, "%zu cells: %s", term_width(line), line);
            CHECK_MSG(!strstr(line, "…"), "a cut label: %s", line);
            for (i = 0; i < 3; i++)
                for (p = 0; p < 2; p++) {
                    snprintf(want, sizeof(want), "%s · pipeline%s ", cmds[i], p ? "16" : "1");
                    if (strncmp(line, want, strlen(want)) == 0)
                        seen |= 1 << (i * 2 + p);
                }
        }
        CHECK_MSG(seen == 0x3f, "rows seen %#x", (unsigned)seen);
        CHECK(lines == 8); /* shared values, header, 6 rows (no outcome in this summary) */
        free(buf);
        json_decref(s);

        /* cut between values, never inside one */
        s = json_pack("{s:[s,s],s:[o,o]}", "versions", "a", "b", "rows",
                      row("redis · ECHO · 4 KiB · pipeline16 · window1 · 4 clients · "
                          "keyspace 1000000 · timeout 30 · threads 4 · extra-long-value-one · "
                          "extra-long-value-two",
                          "ok", "~", 0.01),
                      row("redis · SET · 4 KiB · pipeline16 · window1 · 4 clients · "
                          "keyspace 1000000 · timeout 30 · threads 4 · extra-long-value-one · "
                          "extra-long-value-three",
                          "ok", "~", 0.01));
        buf = NULL;
        f = open_memstream(&buf, &len);
        CHECK(f && term_table(f, s, NULL, 100) == 0);
        fclose(f);
        CHECK_MSG(buf && strstr(buf, "\nECHO · extra-long-value-two ") &&
                      strstr(buf, "\nSET · extra-long-value-three "),
                  "%s", buf);
        CHECK_MSG(buf && strstr(buf, "all rows: redis · 4 KiB · pipeline16 · window1 · "
                                     "4 clients · keyspace 1000000 · timeout 30 …\n"),
                  "%s", buf);
        free(buf);
        json_decref(s);
    }
    return T_DONE();
}
