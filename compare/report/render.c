/* render_dir(): a run directory's dataset → summary.json, summary.csv, report.md, report.html.
 * The only I/O of the report path: everything it calls (summary, report_md, report_html) is
 * pure. Each output goes to a temporary file in DIR, is fsync'd and renamed over the old one,
 * so a reader never sees a torn report. The outputs depend on the dataset alone (no render
 * time), so rendering twice gives the same bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/jobs_util.h"
#include "report/flame_read.h"
#include "report/render.h"
#include "report/report_html.h"
#include "report/report_md.h"
#include "report/steps.h"
#include "analysis/summary.h"
#include "data/dataset.h"
#include "data/verify.h"

#define JSON_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(10))

enum out_kind { OUT_JSON, OUT_CSV, OUT_MD, OUT_HTML };

struct out_ctx {
    const json_t *summary, *meta;
    const json_t *flame; /* DIR/flame's folded stacks (flame_read.h) */
    const char *lang;
};

static int emit(FILE *f, enum out_kind kind, const struct out_ctx *c, char *err, size_t errlen)
{
    switch (kind) {
    case OUT_JSON:
        if (json_dumpf(c->summary, f, JSON_FLAGS) != 0 || fputc('\n', f) == EOF) {
            snprintf(err, errlen, "write failed");
            return -1;
        }
        return 0;
    case OUT_CSV:
        if (summary_write_csv(f, c->summary) != 0) {
            snprintf(err, errlen, "write failed");
            return -1;
        }
        return 0;
    case OUT_MD:
        return report_md_write(f, c->summary, c->meta, c->lang, err, errlen);
    case OUT_HTML:
        return report_html_write_flame(f, c->summary, c->meta, c->flame, c->lang, err, errlen);
    }
    return -1;
}

/* Writes DIR/name through DIR/.name.tmp.PID, fsync, rename. */
static int write_output(const char *dir, const char *name, enum out_kind kind,
                        const struct out_ctx *c, char *err, size_t errlen)
{
    char path[4096], tmp[4096], e[512] = "";
    FILE *f = NULL;
    int rc = -1;

    if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
        (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.tmp.%ld", dir, name, (long)getpid()) >=
            sizeof(tmp)) {
        snprintf(err, errlen, "'%s': path too long", dir);
        return -1;
    }
    f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, errlen, "create '%s': %s", tmp, strerror(errno));
        return -1;
    }
    if (emit(f, kind, c, e, sizeof(e)) != 0) {
        int saved = errno;

        /* A stream error's cause (ENOSPC, EIO) is in errno; a renderer's own error in e. */
        if (ferror(f) && saved != 0)
            snprintf(err, errlen, "write '%s': %s", path, strerror(saved));
        else
            snprintf(err, errlen, "write '%s': %s", path, e);
        goto out;
    }
    if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) {
        snprintf(err, errlen, "write '%s': %s", tmp, strerror(errno));
        goto out;
    }
    if (fclose(f) != 0) {
        f = NULL;
        snprintf(err, errlen, "close '%s': %s", tmp, strerror(errno));
        goto out;
    }
    f = NULL;
    if (rename(tmp, path) != 0) {
        snprintf(err, errlen, "rename '%s' to '%s': %s", tmp, path, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    if (f)
        fclose(f);
    if (rc != 0)
        unlink(tmp);
    return rc;
}

/* Into note: the sentence that leads every output when the dataset is not what the run
 * recorded ("" when it is). Returns -1 with err when it is not and --accept-modified was not
 * given. A merge of modified shards carries their sentence on in meta.json
 * (dataset.modified). */
static int modified_note(const json_t *meta, const struct verify_result *vr,
                         const struct render_opts *ro, char *note, size_t notelen, char *err,
                         size_t errlen)
{
    const char *inherited = ju_str(json_object_get(meta, "dataset"), "modified", NULL);

    note[0] = '\0';
    if (vr->modified && !(ro && (ro->accept_modified || ro->unverified))) {
        snprintf(err, errlen,
                 "%s: not what the run recorded in meta.json; judging it needs "
                 "--accept-modified",
                 vr->problem);
        return -1;
    }
    if (vr->unverified && !(ro && ro->unverified)) {
        snprintf(err, errlen,
                 "%s: runs.jsonl cannot be checked against what the run recorded (a run that "
                 "did not finish: --resume it); judging it needs --unverified",
                 vr->why);
        return -1;
    }
    if (vr->modified)
        snprintf(note, notelen, "%s: %s.", VERIFY_MODIFIED_LEAD, vr->problem);
    else if (vr->unverified)
        snprintf(note, notelen, "%s: %s: runs.jsonl was not checked against the run's record.",
                 VERIFY_UNVERIFIED_LEAD, vr->why);
    else if (inherited)
        snprintf(note, notelen, "%s", inherited);
    if (*note)
        fprintf(stderr, "compare: warning: %s\n", note);
    return 0;
}

/* The summary's "dataset" (the file, its hash against the recorded one, what modified it) and
 * "warnings" (the modification, then meta.json's warnings). */
static void add_dataset(json_t *summary, const json_t *meta, const char *hex, const char *modified)
{
    const char *recorded;
    json_t *dataset, *warnings;

    recorded = ju_str(json_object_get(meta, "dataset"), "sha256", NULL);
    dataset = json_object();
    json_object_set_new(dataset, "file", json_string("runs.jsonl"));
    json_object_set_new(dataset, "sha256", json_string(hex));
    json_object_set_new(dataset, "recorded_sha256", recorded ? json_string(recorded) : json_null());
    json_object_set_new(dataset, "matches",
                        recorded ? json_boolean(strcmp(recorded, hex) == 0) : json_null());
    if (*modified)
        json_object_set_new(dataset, "modified", json_string(modified));
    json_object_set_new(summary, "dataset", dataset);
    warnings = json_array();
    if (*modified)
        json_array_append_new(warnings, json_string(modified));
    {
        const json_t *w = json_object_get(meta, "warnings"), *x;
        size_t i;

        json_array_foreach(w, i, x) if (json_is_string(x))
            json_array_append_new(warnings, json_string(json_string_value(x)));
    }
    json_object_set_new(summary, "warnings", warnings);
}

/* A run directory's meta.json (or NULL when it has none) and its summary built from its
 * verified runs.jsonl, with its dataset record: 0, RENDER_MODIFIED or -1 with err. */
static int load_dir(const char *dir, const struct render_opts *ro, json_t **meta_out,
                    json_t **summary_out, char *err, size_t errlen)
{
    char path[4096], hex[65], e[512], modified[700];
    char *text = NULL;
    size_t len = 0;
    json_t *meta = NULL, *runs = NULL, *summary = NULL;
    struct verify_result vr;
    int rc = -1;

    snprintf(path, sizeof(path), "%s/meta.json", dir);
    if (access(path, F_OK) != 0) {
        fprintf(stderr,
                "compare: warning: '%s' is missing: versions, settings and the "
                "environment are unknown\n",
                path);
    } else if (!(meta = ju_load_json(path, err, errlen))) {
        goto out;
    } else if (!json_is_object(meta)) {
        snprintf(err, errlen, "%s: expected a JSON object", path);
        goto out;
    }
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    if (!(text = ju_read_file(path, (size_t)-1, &len, err, errlen)))
        goto out;
    if (verify_dataset(text, len, meta, path, &vr) < 0) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    if (modified_note(meta, &vr, ro, modified, sizeof(modified), err, errlen) < 0) {
        rc = RENDER_MODIFIED;
        goto out;
    }
    runs = dataset_parse(text, len, path, NULL, err, errlen); /* reports a cut last line */
    if (!runs)
        goto out;
    snprintf(hex, sizeof(hex), "%s", vr.sha);
    summary = summary_build(runs, meta, ro ? ro->rules : NULL, e, sizeof(e));
    if (!summary) {
        snprintf(err, errlen, "%s: %s", dir, e);
        goto out;
    }
    add_dataset(summary, meta, hex, modified);
    *meta_out = meta;
    *summary_out = summary;
    meta = summary = NULL;
    rc = 0;
out:
    free(text);
    json_decref(meta);
    json_decref(runs);
    json_decref(summary);
    return rc;
}

/* --fresh DIR: that run's summary, built and verified as this one's, set beside a sequence's
 * steps (steps.h). */
static int add_fresh(json_t *summary, const json_t *meta, const char *fresh,
                     const struct render_opts *ro, char *err, size_t errlen)
{
    json_t *fmeta = NULL, *fsum = NULL;
    char e[1024];
    int rc = load_dir(fresh, ro, &fmeta, &fsum, e, sizeof(e));

    if (rc == 0)
        rc = steps_beside(summary, meta, fsum, fmeta, fresh, err, errlen);
    else
        snprintf(err, errlen, "--fresh '%s': %s", fresh, e);
    json_decref(fmeta);
    json_decref(fsum);
    return rc < 0 ? RENDER_MODIFIED : 0; /* bad input, whatever made it so: exit 2 */
}

int render_dir(const char *dir, const struct render_opts *ro, json_t **summary_out, char *err,
               size_t errlen)
{
    json_t *meta = NULL, *summary = NULL, *flame = NULL;
    const char *lang = ro ? ro->lang : NULL;
    int rc;
    struct out_ctx c;

    if (summary_out)
        *summary_out = NULL;
    rc = load_dir(dir, ro, &meta, &summary, err, errlen);
    if (rc < 0)
        goto out;
    if (ro && ro->fresh_dir && (rc = add_fresh(summary, meta, ro->fresh_dir, ro, err, errlen)) < 0)
        goto out;
    rc = -1;
    if (!lang)
        lang = ju_str(meta, "lang", "en");
    if (strcmp(lang, "en") != 0 && strcmp(lang, "zh") != 0) {
        snprintf(err, errlen, "--lang '%s': expected en or zh", lang);
        goto out;
    }
    c.summary = summary;
    c.meta = meta;
    c.lang = lang;
    c.flame = flame = flame_read_dir(dir);
    if (write_output(dir, "summary.json", OUT_JSON, &c, err, errlen) != 0 ||
        write_output(dir, "summary.csv", OUT_CSV, &c, err, errlen) != 0 ||
        write_output(dir, "report.md", OUT_MD, &c, err, errlen) != 0 ||
        write_output(dir, "report.html", OUT_HTML, &c, err, errlen) != 0)
        goto out;
    if (summary_out) {
        *summary_out = summary;
        summary = NULL;
    }
    rc = 0;
out:
    json_decref(meta);
    json_decref(summary);
    json_decref(flame);
    return rc;
}
