/* steps: a sequence run's rows in step order (see steps.h). */
#include "report/steps.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "analysis/summary.h"
#include "util/jobs_util.h"

int steps_find(const json_t *summary, const json_t *meta, struct steps *st)
{
    const json_t *rows = json_object_get(summary, "rows"), *cfg, *row;
    size_t i, j;

    memset(st, 0, sizeof(*st));
    if (!json_is_true(json_object_get(json_object_get(meta, "settings"), "sequence")) ||
        json_array_size(rows) == 0)
        return 0;
    st->row = calloc(json_array_size(rows), sizeof(*st->row));
    if (!st->row)
        return -1;
    /* meta.json's configurations are in index order: the order of the steps */
    json_array_foreach(json_object_get(meta, "configs"), i, cfg)
    {
        const char *id = ju_str(cfg, "id", "");
        json_array_foreach(rows, j, row) if (strcmp(ju_str(row, "config", ""), id) == 0)
        {
            st->row[st->n++] = j;
            break;
        }
    }
    return st->n > 0;
}

size_t steps_first_regressed(const struct steps *st, const json_t *rows, const char *metric,
                             const char *ver)
{
    size_t i;

    for (i = 0; i < st->n; i++) {
        const json_t *vs = summary_vs(json_array_get(rows, st->row[i]), metric, ver);
        if (strcmp(ju_str(vs, "verdict", ""), VERDICT_REGRESSED) == 0)
            return i + 1;
    }
    return 0;
}

static int is_sequence(const json_t *meta)
{
    return json_is_true(json_object_get(json_object_get(meta, "settings"), "sequence"));
}

/* fresh's throughput for row: the medians and each candidate's change and verdict. */
static json_t *fresh_figures(const json_t *frow, const json_t *versions)
{
    json_t *vals = json_object(), *vs = json_object(), *v;
    size_t i;

    json_array_foreach(versions, i, v)
    {
        const char *ver = json_string_value(v);
        const json_t *med = json_object_get(summary_values(frow, "throughput", ver), "median"),
                     *cmp = summary_vs(frow, "throughput", ver);

        if (json_is_number(med))
            json_object_set_new(vals, ver, json_real(json_number_value(med)));
        if (i > 0 && cmp)
            json_object_set_new(vs, ver,
                                json_pack("{s:O?,s:s}", "change", json_object_get(cmp, "change"),
                                          "verdict", ju_str(cmp, "verdict", "")));
    }
    return json_pack("{s:{s:o,s:o}}", "throughput", "values", vals, "vs_baseline", vs);
}

const json_t *steps_fresh_vs(const json_t *row, const char *cand)
{
    return json_object_get(
        json_object_get(json_object_get(json_object_get(row, "fresh_server"), "throughput"),
                        "vs_baseline"),
        cand);
}

int steps_beside(json_t *summary, const json_t *meta, const json_t *fresh, const json_t *fmeta,
                 const char *dir, char *err, size_t errlen)
{
    const json_t *versions = json_object_get(summary, "versions"), *v, *frow;
    const json_t *fversions = json_object_get(fresh, "versions");
    json_t *row;
    size_t i, j, k, matched = 0;

    if (!is_sequence(meta)) {
        snprintf(err, errlen,
                 "--fresh '%s': this run is not a sequence (its meta.json settings.sequence is "
                 "not true); expected --fresh on a sequence run's directory",
                 dir);
        return -1;
    }
    if (is_sequence(fmeta)) {
        snprintf(err, errlen,
                 "--fresh '%s': a sequence run (its meta.json settings.sequence is true); "
                 "expected a run with a fresh server per run",
                 dir);
        return -1;
    }
    json_array_foreach(versions, i, v)
    {
        int found = 0;

        json_array_foreach(fversions, j, frow) found |= json_equal(frow, v);
        if (!found) {
            snprintf(err, errlen,
                     "--fresh '%s': version '%s' is not in it (expected the same versions as "
                     "this run's)",
                     dir, json_string_value(v));
            return -1;
        }
    }
    json_array_foreach(json_object_get(summary, "rows"), i, row)
    {
        json_array_foreach(json_object_get(fresh, "rows"), k, frow)
        {
            if (strcmp(ju_str(frow, "config", "?"), ju_str(row, "config", "")) != 0)
                continue;
            json_object_set_new(row, "fresh_server", fresh_figures(frow, versions));
            matched++;
            break;
        }
    }
    if (!matched) {
        snprintf(err, errlen,
                 "--fresh '%s': none of its configurations is a step of this run (expected the "
                 "same grid, whose configuration ids match)",
                 dir);
        return -1;
    }
    json_object_set_new(summary, "fresh_server",
                        json_pack("{s:s,s:O?}", "dir", dir, "sha256",
                                  json_object_get(json_object_get(fresh, "dataset"), "sha256")));
    return 0;
}

void steps_release(struct steps *st)
{
    free(st->row);
    memset(st, 0, sizeof(*st));
}
