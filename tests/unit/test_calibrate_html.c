/* calibrate_html: calibration.html from a small calibration document — one chart of the
 * detectable change, the table with a false alarm marked, the false-alarm count in words,
 * labels escaped, Chinese, a failed row, deterministic bytes, bad input refused; an optional
 * metric (instructions) in both tables; calibration.md in English and Chinese. */
#include <stdlib.h>
#include <string.h>

#include "report/calibrate_html.h"
#include "t.h"

static json_t *metric(double noise, double detectable, int alarm)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:i, s:b}", "noise_pct", noise, "spread_pct", 3.5,
                     "detectable_pct", detectable, "floor_pct",
                     detectable * 1.25 > 5 ? detectable * 1.25 : 5.0, "pairs", 5, "false_alarm",
                     alarm);
}

static json_t *make_cal(unsigned alarms)
{
    json_t *ok = json_pack("{s:o, s:o, s:o}", "throughput", metric(2.0, 2.5, alarms > 0), "p99_us",
                           metric(8.0, 9.75, 0), "rss_mib", metric(0.5, 0.6, alarms > 1));

    return json_pack("{s:s, s:s, s:f, s:i, s:[{s:s, s:s, s:s, s:{s:s, s:s, s:i}, s:o}, "
                     "{s:s, s:s, s:s, s:{s:s, s:s, s:i}, s:{}}]}",
                     "schema", "pairbench.calibration/1", "baseline", "ref<1>", "margin", 1.25,
                     "false_alarms", (int)alarms, "rows", "config", "c1", "label",
                     "tcp \xc2\xb7 64 B <b>", "status", "ok", "params", "protocol", "tcp",
                     "transport", "tcp", "payload", 64, "metrics", ok, "config", "c2", "label",
                     "tcp \xc2\xb7 1 KiB", "status", "failed", "params", "protocol", "tcp",
                     "transport", "tls", "payload", 1024, "metrics");
}

/* The text one of calibrate_html.h's writers makes of cal (malloc'd; NULL when out of memory). */
static char *render_with(int (*write)(FILE *, const json_t *, const char *, char *, size_t),
                         const json_t *cal, const char *lang, int *rc, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    *rc = write(f, cal, lang, err, errlen);
    fclose(f);
    return buf;
}

static char *render(const json_t *cal, const char *lang, int *rc, char *err, size_t errlen)
{
    return render_with(calibrate_html_write, cal, lang, rc, err, errlen);
}

static char *render_md(const json_t *cal, const char *lang, int *rc, char *err, size_t errlen)
{
    return render_with(calibrate_md_write, cal, lang, rc, err, errlen);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;

    while ((hay = strstr(hay, needle)) != NULL) {
        n++;
        hay += strlen(needle);
    }
    return n;
}

int main(void)
{
    char err[256] = "", *a, *b;
    json_t *cal = make_cal(1), *bad;
    int rc = -1;

    a = render(cal, "en", &rc, err, sizeof(err));
    CHECK_MSG(rc == 0 && a, "%s", err);
    if (a) {
        CHECK(strncmp(a, "<!DOCTYPE html>\n<html lang=\"en\">", 31) == 0);
        CHECK(count(a, "<svg class=\"chart\" data-metric=\"detectable_pct\"") == 1);
        CHECK(count(a, "class=\"lg\"") == 2); /* throughput and P99 */
        /* one band (own axis) per protocol · transport · payload */
        CHECK(count(a, "class=\"gh\"") == 2);
        CHECK(strstr(a, "class=\"gh\">TCP echo \xc2\xb7 TCP \xc2\xb7 64 B</text>") != NULL);
        CHECK(strstr(a, "class=\"gh\">TCP echo \xc2\xb7 TLS \xc2\xb7 1 KiB</text>") != NULL);
        CHECK(!strstr(a, "<script") && !strstr(a, "http://") && !strstr(a, "https://") &&
              !strstr(a, "src="));
        CHECK(strstr(a, "<b>1 false alarm</b> in this A/A run") != NULL);
        CHECK(count(a, "<td class=\"v-regressed\">false alarm</td>") == 1);
        CHECK(strstr(a, "tcp \xc2\xb7 64 B &lt;b&gt;") != NULL);
        CHECK(strstr(a, "ref&lt;1&gt;") != NULL && !strstr(a, "ref<1>"));
        CHECK(strstr(a, "<td rowspan=\"3\">") != NULL);
        CHECK(strstr(a, "<td class=\"n\">9.75%</td>") != NULL);
        CHECK(strstr(a, "no paired runs (the row failed)") != NULL);
        CHECK(strstr(a, "1.25 \xc3\x97 detectable") != NULL);
        CHECK(strstr(a, "<p>2 configurations, 5 paired rounds each.</p>") != NULL);
        CHECK(strstr(a, "</html>\n") != NULL);
        b = render(cal, "en", &rc, err, sizeof(err));
        CHECK(b && strcmp(a, b) == 0); /* deterministic */
        free(b);
    }
    free(a);

    a = render(cal, "zh", &rc, err, sizeof(err));
    CHECK(rc == 0 && a);
    if (a) {
        CHECK(strstr(a, "<html lang=\"zh\">") != NULL);
        CHECK(strstr(a, "1 次误报") != NULL);
        CHECK(strstr(a, "噪声与下限") != NULL);
        CHECK(strstr(a, "Noise and floors") == NULL && strstr(a, "false alarm") == NULL);
    }
    free(a);
    json_decref(cal);

    cal = make_cal(0);
    a = render(cal, "en", &rc, err, sizeof(err));
    CHECK(rc == 0 && a && strstr(a, "<b>0 false alarms</b>") && !strstr(a, "class=\"warn\""));
    free(a);
    json_decref(cal);
    cal = make_cal(2);
    a = render(cal, "en", &rc, err, sizeof(err));
    CHECK(rc == 0 && a && strstr(a, "<b>2 false alarms</b>"));
    free(a);
    json_decref(cal);

    /* an optional metric the runs measured (instructions/op): a line in both tables */
    cal = make_cal(0);
    json_object_set_new(json_object_get(json_array_get(json_object_get(cal, "rows"), 0), "metrics"),
                        "instructions", metric(0.1, 0.2, 0));
    a = render(cal, "en", &rc, err, sizeof(err));
    CHECK(rc == 0 && a && strstr(a, "<td rowspan=\"4\">") != NULL);
    CHECK(a && strstr(a, "<td>Server instructions per operation (counted)</td>"
                         "<td class=\"n\">0.10%</td>") != NULL);
    free(a);
    a = render_md(cal, "en", &rc, err, sizeof(err));
    CHECK_MSG(rc == 0 && a, "%s", err);
    CHECK(a &&
          strstr(a, "| tcp \xc2\xb7 64 B <b> | instructions | 0.10% | 3.50% | 0.20% |") != NULL);
    CHECK(a && count(a, "| throughput |") == 1 && strstr(a, "\n0 false alarms in this A/A run.\n"));
    free(a);
    a = render_md(cal, "zh", &rc, err, sizeof(err));
    CHECK(rc == 0 && a && valid_utf8(a) && strstr(a, "# 校准：ref<1> 与自身对比\n") != NULL);
    CHECK(a && strstr(a, "| 配置 | 指标 | 噪声 |") && strstr(a, "本次 A/A 运行中有 0 次误报。"));
    CHECK(a && !strstr(a, "false alarm") && !strstr(a, "Noise"));
    free(a);
    json_decref(cal);

    bad = json_pack("{s:s, s:s}", "baseline", "x", "rows", "no");
    a = render(bad, "en", &rc, err, sizeof(err));
    CHECK(rc == -1 && strstr(err, "$.rows") != NULL);
    free(a);
    json_decref(bad);
    bad = json_pack("{s:s, s:[]}", "baseline", "x", "rows");
    a = render(bad, "en", &rc, err, sizeof(err));
    CHECK(rc == -1 && strstr(err, "$.false_alarms") != NULL);
    free(a);
    json_decref(bad);
    return T_DONE();
}
