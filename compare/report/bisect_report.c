/* bisect.json and bisect.md of `compare bisect` (bisect_report.h): the answer first (the
 * culprit, its change against its parent, where it went), then the skipped commits and every
 * step. Every sentence of bisect.md comes from the string table in the report's language. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "util/fmt.h"
#include "util/atomic.h"
#include "report/bisect_report.h"
#include "util/escape.h"
#include "report/i18n.h"

static const char *const verdict_names[] = {"", "good", "bad", "skipped", "inconclusive"};

const char *bisect_verdict_name(enum bisect_verdict v)
{
    return v >= BV_NONE && v <= BV_INCONCLUSIVE ? verdict_names[v] : "";
}

enum bisect_verdict bisect_verdict_parse(const char *s)
{
    int v;

    for (v = BV_GOOD; s && v <= BV_INCONCLUSIVE; v++)
        if (strcmp(s, verdict_names[v]) == 0)
            return (enum bisect_verdict)v;
    return BV_NONE;
}

/* The steps in the order they were measured, then the skipped commits. */
static json_t *steps_json(const struct bisect_result *r)
{
    json_t *a = json_array();
    size_t i, k;

    for (k = 1; k <= r->n_steps; k++)
        for (i = 0; i < r->n; i++) {
            const struct bisect_commit *c = &r->c[i];

            if (c->measured != (int)k)
                continue;
            json_array_append_new(
                a, json_pack("{s:i, s:s, s:s, s:s, s:s, s:f, s:f, s:f, s:s, s:O?, s:s}", "step",
                             c->measured, "commit", c->sha, "subject", c->subject, "date", c->date,
                             "build", "built", "value", c->value, "good_value", c->good_value,
                             "change", c->change, "verdict", bisect_verdict_name(c->verdict),
                             "functions", c->functions, "dir", c->dir));
        }
    for (i = 0; i < r->n; i++)
        if (r->c[i].verdict == BV_SKIPPED)
            json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:n, s:s, s:s}", "commit",
                                               r->c[i].sha, "subject", r->c[i].subject, "date",
                                               r->c[i].date, "build", "skipped", "value", "verdict",
                                               "skipped", "dir", r->c[i].dir));
    return a;
}

int bisect_write_json(const struct bisect_result *r, const char *path, char *err, size_t errlen)
{
    json_t *doc, *culprit = json_null();
    int rc;

    if (r->found) {
        const struct bisect_commit *c = &r->c[r->culprit];

        culprit = json_pack("{s:s, s:s, s:s, s:f, s:s, s:f, s:f, s:O?}", "commit", c->sha,
                            "subject", c->subject, "date", c->date, "change", r->culprit_change,
                            "parent", r->parent_sha, "parent_value", r->parent_value, "value",
                            c->value, "functions", c->functions);
    }
    doc = json_pack("{s:s, s:s, s:{s:s, s:s}, s:{s:s, s:s}, s:s, s:s, s:{s:s, s:s}, s:f, s:b, "
                    "s:i, s:i, s:o, s:s?, s:o}",
                    "schema", "pairbench.bisect/1", "repo", r->repo, "good", "ref", r->good_ref,
                    "commit", r->good_sha, "bad", "ref", r->bad_ref, "commit",
                    r->n ? r->c[r->n - 1].sha : "", "metric", r->metric, "build", r->build, "row",
                    "config", r->row_config, "label", r->row_label, "threshold_pct",
                    r->threshold_pct, "found", r->found, "commits", (int)r->n, "measured_steps",
                    (int)r->n_steps, "culprit", culprit, "reason",
                    r->found || !*r->reason ? NULL : r->reason, "steps", steps_json(r));
    if (!doc) {
        snprintf(err, errlen, "%s: could not build the document", path);
        return -1;
    }
    rc = atomic_write_json(path, doc, err, errlen);
    json_decref(doc);
    return rc;
}

static void num(char *out, size_t len, double v)
{
    snprintf(out, len, "%.6g", v);
}

static void pct(char *out, size_t len, double v)
{
    fmt_change(v, out, len);
}

static void md_answer(FILE *f, const struct bisect_result *r)
{
    const struct bisect_commit *c = &r->c[r->culprit];
    char sha[16], par[16], ch[32], pv[32], v[32];

    snprintf(sha, sizeof(sha), "%.12s", c->sha);
    snprintf(par, sizeof(par), "%.12s", r->parent_sha);
    pct(ch, sizeof(ch), r->culprit_change);
    num(pv, sizeof(pv), r->parent_value);
    num(v, sizeof(v), c->value);
    i18n_write(f, i18n(r->lang, B_FOUND), sha, c->subject, c->date, r->metric, ch, par, pv, v,
               r->unit, (const char *)NULL);
    fputs("\n\n", f);
    if (json_array_size(c->functions)) {
        json_t *fn;
        size_t i;

        fprintf(f, "## %s\n\n", i18n(r->lang, B_H_WHERE));
        i18n_write(f, i18n(r->lang, B_WHERE_INTRO), (const char *)NULL);
        fprintf(f, "\n\n| %s | %s | %s | %s |\n|---|---:|---:|---:|\n",
                i18n(r->lang, B_COL_FUNCTION), i18n(r->lang, B_COL_GOOD), i18n(r->lang, B_COL_THIS),
                i18n(r->lang, B_COL_DELTA));
        json_array_foreach(c->functions, i, fn)
        {
            if (i >= 5)
                break;
            fputs("| `", f);
            escape_md_cell(f, json_string_value(json_object_get(fn, "name")));
            fprintf(f, "` | %.1f | %.1f | %+.1f |\n",
                    json_number_value(json_object_get(fn, "baseline")),
                    json_number_value(json_object_get(fn, "candidate")),
                    json_number_value(json_object_get(fn, "delta")));
        }
        fputc('\n', f);
    }
}

static void md_steps(FILE *f, const struct bisect_result *r)
{
    size_t i, k, skipped = 0;

    for (i = 0; i < r->n; i++)
        skipped += r->c[i].verdict == BV_SKIPPED;
    if (skipped) {
        fprintf(f, "## %s\n\n", i18n(r->lang, B_H_SKIPPED));
        for (i = 0; i < r->n; i++) {
            char sha[16], log[1200];

            if (r->c[i].verdict != BV_SKIPPED)
                continue;
            snprintf(sha, sizeof(sha), "%.12s", r->c[i].sha);
            snprintf(log, sizeof(log), "%s/build.log", r->c[i].dir);
            fputs("- ", f);
            i18n_write(f, i18n(r->lang, B_SKIPPED_LINE), sha, r->c[i].subject, log,
                       (const char *)NULL);
            fputc('\n', f);
        }
        fputc('\n', f);
    }
    fprintf(f, "## %s\n\n| %s | %s | %s | %s | %s | %s | %s |\n|---:|---|---|---|---:|---:|---|\n",
            i18n(r->lang, B_H_STEPS), i18n(r->lang, B_COL_STEP), i18n(r->lang, B_COL_THIS),
            i18n(r->lang, B_COL_SUBJECT), i18n(r->lang, B_COL_BUILD), i18n(r->lang, B_COL_VALUE),
            i18n(r->lang, B_COL_CHANGE), i18n(r->lang, B_COL_VERDICT));
    for (k = 1; k <= r->n_steps; k++)
        for (i = 0; i < r->n; i++) {
            const struct bisect_commit *c = &r->c[i];
            char ch[32];
            enum i18n_msg vm = c->verdict == BV_BAD    ? B_V_BAD
                               : c->verdict == BV_GOOD ? B_V_GOOD
                                                       : B_V_INCONCLUSIVE;

            if (c->measured != (int)k)
                continue;
            fprintf(f, "| %zu | `%.12s` | ", k, c->sha);
            escape_md_cell(f, c->subject);
            fprintf(f, " | %s | %.6g | %s | %s |\n", i18n(r->lang, B_BUILT), c->value,
                    fmt_change(c->change, ch, sizeof(ch)), i18n(r->lang, vm));
        }
    for (i = 0; i < r->n; i++)
        if (r->c[i].verdict == BV_SKIPPED) {
            fprintf(f, "| – | `%.12s` | ", r->c[i].sha);
            escape_md_cell(f, r->c[i].subject);
            fprintf(f, " | %s | – | – | – |\n", i18n(r->lang, B_SKIPPED));
        }
    fputc('\n', f);
}

int bisect_write_md(const struct bisect_result *r, const char *path, char *err, size_t errlen)
{
    char tmp[1200], g[16], b[16], n[24], s[24], t[24];
    FILE *f;

    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        return -1;
    }
    fputs("# ", f);
    i18n_write(f, i18n(r->lang, B_TITLE), r->metric, *r->row_label ? r->row_label : "?",
               (const char *)NULL);
    fputs("\n\n", f);
    if (r->found)
        md_answer(f, r);
    else if (*r->reason) {
        i18n_write(f, i18n(r->lang, B_NOT_FOUND), r->reason, (const char *)NULL);
        fputs("\n\n", f);
    }
    snprintf(g, sizeof(g), "%.12s", r->good_sha);
    snprintf(b, sizeof(b), "%.12s", r->n ? r->c[r->n - 1].sha : "");
    snprintf(n, sizeof(n), "%zu", r->n);
    snprintf(s, sizeof(s), "%zu", r->n_steps);
    snprintf(t, sizeof(t), "%.2f", r->threshold_pct);
    i18n_write(f, i18n(r->lang, B_RANGE), g, b, r->repo, n, s, r->metric, t, (const char *)NULL);
    fputs("\n\n", f);
    md_steps(f, r);
    if (r->found) {
        fprintf(f, "## %s\n\n", i18n(r->lang, M_H_REPRODUCE));
        i18n_write(f, i18n(r->lang, B_REPRODUCE), (const char *)NULL);
        fprintf(f,
                "\n\n```\ncompare commits --repo '%s' --baseline %.12s --candidate %.12s "
                "--build '%s' --spec '%s'%s\n```\n\n",
                r->repo, r->parent_sha, r->c[r->culprit].sha, r->build, r->spec,
                strcmp(r->metric, "instructions") == 0 ? " --instructions" : "");
    }
    i18n_write(f, i18n(r->lang, B_FOOTER), (const char *)NULL);
    fputc('\n', f);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}
