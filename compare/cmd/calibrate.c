/* calibrate: `compare calibrate --spec FILE [run flags]` runs the spec's baseline against
 * itself (an A/A comparison: the same version twice, adjacent, alternating) and measures, per
 * configuration and metric, how far two identical builds drift apart on this machine. From
 * that it derives the smallest change the evidence rule can detect with these runs, a per-row
 * floor for the gate, and counts any A/A flag as a false alarm. Writes calibration.json,
 * calibration.md and calibration.html (calibrate_html.c, in --lang) into the run directory;
 * `compare gate --floors FILE` applies the floors. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/atomic.h"
#include "util/jobs_util.h"
#include "cmd/calibrate.h"
#include "report/calibrate_html.h"
#include "cmd/cmds.h"
#include "run/run.h"
#include "cmd/run_cli.h"
#include "analysis/stats.h"

/* A shift must clear the worst A/A deviation by this factor before it counts as detectable:
 * the A/A sample of paired ratios is small, so its extremes understate the true noise. */
#define CALIBRATE_MARGIN 1.25

static const char usage[] =
    "usage: compare calibrate --spec FILE [--grid FILE]... [--runs N] [--warmup S]\n"
    "                         [--duration S] [--out DIR] [--lang en|zh]\n"
    "Runs the spec's first version against itself and reports, per configuration,\n"
    "the noise of the paired ratios and the smallest change the runs can detect.\n"
    "The gate uses the result with --floors DIR/calibration.json.\n";
static const struct flags_cmd calibrate_cmd = {.cmd = "compare calibrate", .usage = usage};

/* The spec with its first version twice: "<name>" and "<name>-again". New reference, or NULL
 * with err. */
static json_t *aa_spec(const char *spec_path, char *err, size_t errlen)
{
    json_t *spec, *base, *again, *list, *aa = NULL;
    const char *name;
    char again_name[256];
    int ok;

    spec = ju_load_json(spec_path, err, errlen);
    if (!spec)
        return NULL;
    base = json_array_get(json_object_get(spec, "versions"), 0);
    name = json_string_value(json_object_get(base, "name"));
    if (!json_is_object(base) || !name) {
        snprintf(err, errlen, "%s: $.versions[0]: expected a version object with a name",
                 spec_path);
        goto out;
    }
    snprintf(again_name, sizeof(again_name), "%s-again", name);
    again = json_deep_copy(base);
    list = json_array();
    ok = again && list && json_object_set_new(again, "name", json_string(again_name)) == 0 &&
         json_array_append(list, base) == 0 && json_array_append(list, again) == 0 &&
         json_object_set(spec, "versions", list) == 0;
    json_decref(again);
    json_decref(list);
    if (!ok) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    aa = spec;
    spec = NULL;
out:
    json_decref(spec);
    return aa;
}

/* The A/A spec written to a new temporary file whose path goes to path (removed by the
 * caller). */
static int write_aa_spec(const char *spec_path, char *path, size_t pathlen, char *err,
                         size_t errlen)
{
    json_t *spec = aa_spec(spec_path, err, errlen);
    int fd, rc = -1;

    if (!spec)
        return -1;
    snprintf(path, pathlen, "%s/pairbench-calibrate-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary spec '%s': %s", path, strerror(errno));
    } else if (json_dumpfd(spec, fd, JSON_INDENT(2)) < 0) {
        snprintf(err, errlen, "cannot write the temporary spec '%s'", path);
        unlink(path);
    } else {
        rc = 0;
    }
    if (fd >= 0)
        close(fd);
    json_decref(spec);
    return rc;
}

int calibrate_floor(const struct calibrate_metric *cm, double threshold_pct, double *floor_pct)
{
    double f = cm->detectable_pct * CALIBRATE_MARGIN;

    if (!(cm->n_pairs > 0))
        return -1;
    *floor_pct = f > threshold_pct ? f : threshold_pct;
    return 0;
}

int calibrate_metric_from_summary(const json_t *metric, const char *base, const char *again,
                                  struct calibrate_metric *cm)
{
    const json_t *vs = json_object_get(json_object_get(metric, "vs_baseline"), again);
    const json_t *pr = json_object_get(vs, "paired_ratio");
    const json_t *vals = json_object_get(metric, "values");
    const char *sides[2] = {base, again};
    double rmin, rmax;
    int i;

    memset(cm, 0, sizeof(*cm));
    if (!json_is_object(pr) || !json_is_number(json_object_get(pr, "min")))
        return -1;
    rmin = json_number_value(json_object_get(pr, "min"));
    rmax = json_number_value(json_object_get(pr, "max"));
    cm->n_pairs = (unsigned)json_integer_value(json_object_get(pr, "n"));
    if (!(rmin > 0) || !(rmax > 0) || cm->n_pairs == 0)
        return -1;
    cm->noise_pct = 100.0 * fmax(fabs(rmin - 1.0), fabs(rmax - 1.0));
    /* A true change of d multiplies every paired ratio by (1 + d). The paired evidence rule
     * needs them all on one side of 1: a rise needs (1 + d) * rmin > 1, a fall needs
     * (1 + d) * rmax < 1. The larger of the two is the smallest detectable change. */
    cm->detectable_pct = 100.0 * fmax(1.0 / rmin - 1.0, 1.0 - 1.0 / rmax);
    if (cm->detectable_pct < 0)
        cm->detectable_pct = 0;
    for (i = 0; i < 2; i++) {
        const json_t *v = json_object_get(vals, sides[i]);
        double med = json_number_value(json_object_get(v, "median"));
        double spread;

        if (!(med > 0))
            continue;
        spread = 100.0 *
                 (json_number_value(json_object_get(v, "max")) -
                  json_number_value(json_object_get(v, "min"))) /
                 med;
        if (spread > cm->spread_pct)
            cm->spread_pct = spread;
    }
    {
        const char *verdict = json_string_value(json_object_get(vs, "verdict"));
        cm->false_alarm = verdict && (strcmp(verdict, VERDICT_REGRESSED) == 0 ||
                                      strcmp(verdict, VERDICT_IMPROVED) == 0);
    }
    return 0;
}

/* DIR/NAME from the calibration document, rendered by write (calibrate_html.h). */
static int write_rendered(const char *dir, const char *name, const json_t *doc, const char *lang,
                          int (*write)(FILE *, const json_t *, const char *, char *, size_t),
                          int echo, char *err, size_t errlen)
{
    char path[4096], *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int rc = -1;

    if (!f) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (write(f, doc, lang, err, errlen) < 0) {
        fclose(f);
        goto out;
    }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path)) {
        snprintf(err, errlen, "run directory path too long: '%.200s...'", dir);
        goto out;
    }
    rc = atomic_write(path, text, len, err, errlen);
    if (rc == 0 && echo)
        fputs(text, stdout);
out:
    free(text);
    return rc;
}

/* The calibration of one row: every gateable metric of the metric table its runs measured
 * (the optional ones, server CPU and instructions, only where present). New reference. */
static json_t *calibrate_row(const json_t *row, const char *base, const char *again,
                             const struct verdict_rules *rules, unsigned *false_alarms)
{
    json_t *jrow = json_object(), *jmetrics = json_object();
    size_t k;

    if (!jrow || !jmetrics) {
        json_decref(jrow);
        json_decref(jmetrics);
        return NULL;
    }
    json_object_set(jrow, "config", json_object_get(row, "config"));
    json_object_set(jrow, "label", json_object_get(row, "label"));
    json_object_set(jrow, "params", json_object_get(row, "params"));
    json_object_set(jrow, "status", json_object_get(row, "status"));
    for (k = 0; k < METRIC_ALL; k++) {
        enum metric m = (enum metric)k;
        const json_t *jm = json_object_get(json_object_get(row, "metrics"), metric_name(m));
        struct calibrate_metric cm;
        double floor_pct;

        if (!metric_gateable(m) || calibrate_metric_from_summary(jm, base, again, &cm) < 0 ||
            calibrate_floor(&cm, rules->threshold_pct[m], &floor_pct) < 0)
            continue;
        *false_alarms += (unsigned)cm.false_alarm;
        json_object_set_new(jmetrics, metric_name(m),
                            json_pack("{s:f, s:f, s:f, s:f, s:i, s:b}", "noise_pct", cm.noise_pct,
                                      "spread_pct", cm.spread_pct, "detectable_pct",
                                      cm.detectable_pct, "floor_pct", floor_pct, "pairs",
                                      (int)cm.n_pairs, "false_alarm", cm.false_alarm));
    }
    json_object_set_new(jrow, "metrics", jmetrics);
    return jrow;
}

/* calibration.json from the A/A summary, then calibration.md (also on stdout) and
 * calibration.html rendered from it in lang. */
static int write_calibration(const char *dir, const json_t *summary,
                             const struct verdict_rules *rules, const char *lang,
                             unsigned *false_alarms, char *err, size_t errlen)
{
    const char *base = json_string_value(json_object_get(summary, "baseline"));
    const char *again = json_string_value(json_array_get(json_object_get(summary, "versions"), 1));
    json_t *doc = json_object(), *rows = json_array(), *jrow;
    char path[4096];
    size_t i;
    int rc = -1;

    *false_alarms = 0;
    if (!doc || !rows || !base || !again) {
        snprintf(err, errlen, "%s",
                 (!base || !again) ? "summary has no A/A versions" : "out of memory");
        goto out;
    }
    for (i = 0; i < json_array_size(json_object_get(summary, "rows")); i++) {
        jrow = calibrate_row(json_array_get(json_object_get(summary, "rows"), i), base, again,
                             rules, false_alarms);
        if (!jrow || json_array_append_new(rows, jrow) < 0) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
    }
    json_object_set_new(doc, "schema", json_string("pairbench.calibration/1"));
    json_object_set_new(doc, "baseline", json_string(base));
    json_object_set_new(doc, "margin", json_real(CALIBRATE_MARGIN));
    json_object_set_new(doc, "false_alarms", json_integer(*false_alarms));
    json_object_set(doc, "rows", rows);
    if ((size_t)snprintf(path, sizeof(path), "%s/calibration.json", dir) >= sizeof(path)) {
        snprintf(err, errlen, "run directory path too long: '%.200s...'", dir);
        goto out;
    }
    if (atomic_write_json(path, doc, err, errlen) < 0 ||
        write_rendered(dir, "calibration.md", doc, lang, calibrate_md_write, 1, err, errlen) < 0 ||
        write_rendered(dir, "calibration.html", doc, lang, calibrate_html_write, 0, err, errlen) <
            0)
        goto out;
    rc = 0;
out:
    json_decref(rows);
    json_decref(doc);
    return rc;
}

int cmd_calibrate(int argc, char **argv)
{
    struct run_request rq;
    struct run_outcome out;
    struct verdict_rules rules;
    char err[1024] = "", aa_spec[4096] = "";
    unsigned false_alarms = 0;
    int rc = run_cli_parse(&rq, &calibrate_cmd, NULL, argc, argv);

    if (rc >= 0)
        return rc;
    memset(&out, 0, sizeof(out));
    verdict_rules_default(&rules);
    if (!rq.spec_path) {
        fprintf(stderr, "compare calibrate: --spec FILE is required\n");
        return EXIT_USAGE;
    }
    if (rq.resume) {
        fprintf(stderr, "compare calibrate: --resume is not supported (run it again)\n");
        return EXIT_USAGE;
    }
    if (write_aa_spec(rq.spec_path, aa_spec, sizeof(aa_spec), err, sizeof(err)) < 0) {
        fprintf(stderr, "compare calibrate: %s\n", err);
        return EXIT_USAGE;
    }
    rq.spec_path = aa_spec;
    rq.rules = &rules;
    rc = run_execute(&rq, &out, err, sizeof(err));
    unlink(aa_spec);
    if (rc == EXIT_USAGE) {
        fprintf(stderr, "compare calibrate: %s\n", err);
        return rc;
    }
    if (!out.summary) {
        fprintf(stderr, "compare calibrate: %s\n", err[0] ? err : "no summary was produced");
        run_outcome_release(&out);
        return EXIT_HARNESS;
    }
    if (write_calibration(out.dir, out.summary, &rules, rq.lang, &false_alarms, err, sizeof(err)) <
        0) {
        fprintf(stderr, "compare calibrate: %s\n", err);
        run_outcome_release(&out);
        return EXIT_HARNESS;
    }
    fprintf(stderr, "compare calibrate: %u false alarm%s; floors: %s/calibration.json\n",
            false_alarms, false_alarms == 1 ? "" : "s", out.dir);
    run_outcome_release(&out);
    return rc == EXIT_OK ? EXIT_OK : EXIT_HARNESS;
}
