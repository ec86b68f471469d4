/* merge_shards: the engine of `compare merge` (see merge_shards.h; cmd/merge.c parses its
 * argv). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "run/merge_shards.h"
#include "util/atomic.h"
#include "util/jobs_util.h"
#include "run/metacmp.h"
#include "num.h"
#include "report/render.h"
#include "util/sha256.h"
#include "data/dataset.h"
#include "data/verify.h"
#include "util/exit_codes.h"

static int parse_shard(const json_t *settings, unsigned *k, unsigned *n)
{
    const char *s = json_string_value(json_object_get(settings, "shard"));
    const char *slash;
    char kb[16];

    if (!s || !(slash = strchr(s, '/')) || (size_t)(slash - s) >= sizeof(kb))
        return -1;
    memcpy(kb, s, (size_t)(slash - s));
    kb[slash - s] = '\0';
    if (num_parse_uint(kb, 1, MERGE_MAX_SHARDS, k) < 0 ||
        num_parse_uint(slash + 1, 1, MERGE_MAX_SHARDS, n) < 0 || *k > *n)
        return -1;
    return 0;
}

static int check_shards(struct shard *sh, size_t n, char *err, size_t errlen)
{
    unsigned char seen[MERGE_MAX_SHARDS + 1] = {0};
    json_t *ids = json_object();
    size_t i;
    int rc = -1;

    for (i = 0; i < n; i++) {
        json_t *cfg;
        size_t c;

        if (parse_shard(json_object_get(sh[i].meta, "settings"), &sh[i].k, &sh[i].n) < 0) {
            snprintf(err, errlen,
                     "'%s/meta.json': $.settings.shard: expected \"K/N\" (a `run --shard K/N` "
                     "directory)",
                     sh[i].dir);
            goto out;
        }
        if (sh[i].n != sh[0].n) {
            snprintf(err, errlen, "'%s' is shard %u/%u but '%s' is shard %u/%u: different splits",
                     sh[i].dir, sh[i].k, sh[i].n, sh[0].dir, sh[0].k, sh[0].n);
            goto out;
        }
        if (seen[sh[i].k]) {
            snprintf(err, errlen, "shard %u/%u given twice ('%s')", sh[i].k, sh[i].n, sh[i].dir);
            goto out;
        }
        seen[sh[i].k] = 1;
        if (i > 0) {
            char what[512];
            if (metacmp_diff(sh[0].meta, sh[i].meta, what, sizeof(what))) {
                snprintf(err, errlen,
                         "shards '%s' and '%s' differ in their %s: they are not parts of one run",
                         sh[0].dir, sh[i].dir, what);
                goto out;
            }
        }
        json_array_foreach(json_object_get(sh[i].meta, "configs"), c, cfg)
        {
            const char *id = json_string_value(json_object_get(cfg, "id"));
            json_t *prev;

            if (!id) {
                snprintf(err, errlen, "'%s/meta.json': $.configs[%zu].id: expected a string",
                         sh[i].dir, c);
                goto out;
            }
            prev = json_object_get(ids, id);
            if (prev) {
                snprintf(err, errlen,
                         "configuration '%s' is in both '%s' and '%s': shard sets must be "
                         "disjoint",
                         id, json_string_value(prev), sh[i].dir);
                goto out;
            }
            json_object_set_new(ids, id, json_string(sh[i].dir));
        }
    }
    for (i = 1; i <= sh[0].n; i++)
        if (!seen[i]) {
            snprintf(err, errlen, "shard %zu/%u is missing: merge needs all %u shards", i, sh[0].n,
                     sh[0].n);
            goto out;
        }
    rc = 0;
out:
    json_decref(ids);
    return rc;
}

static int cmp_index(const void *a, const void *b)
{
    json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "index"));
    json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b, "index"));

    return (x > y) - (x < y);
}

/* The unsharded command: the first shard's command line without --shard K/N, its --out
 * naming the merged directory (out_abs, absolute: the recorded cwd is the shard's) instead
 * of the shard's own, so the Reproduce line measures into a new directory, not a shard's. */
static json_t *unsharded_command(const json_t *cmd, const char *out_abs)
{
    json_t *out = json_array(), *w;
    char eq[4096 + 8];
    size_t i;

    json_array_foreach(cmd, i, w)
    {
        const char *s = json_string_value(w);

        if (s && strcmp(s, "--shard") == 0) {
            i++;
            continue;
        }
        if (s && strncmp(s, "--shard=", 8) == 0)
            continue;
        if (s && strcmp(s, "--out") == 0) {
            json_array_append(out, w);
            json_array_append_new(out, json_string(out_abs));
            i++;
            continue;
        }
        if (s && strncmp(s, "--out=", 6) == 0) {
            snprintf(eq, sizeof(eq), "--out=%s", out_abs);
            json_array_append_new(out, json_string(eq));
            continue;
        }
        json_array_append(out, w);
    }
    return out;
}

static json_t *merged_meta(struct shard *sh, size_t n, const char *out_dir, int argc, char **argv,
                           const char *sha)
{
    json_t *meta = json_deep_copy(sh[0].meta), *configs = json_array(), *shards = json_array();
    json_t *warnings = json_object_get(meta, "warnings"), *merged_by = json_array();
    json_t **list = NULL, *cfg, *settings;
    const char *started = NULL, *ended = NULL;
    char out_abs[4096];
    size_t i, c, total = 0;

    if (!json_is_array(warnings)) {
        warnings = json_array();
        json_object_set_new(meta, "warnings", warnings);
    }
    for (i = 0; i < n; i++) {
        const char *s = json_string_value(json_object_get(sh[i].meta, "started"));
        const char *e = json_string_value(json_object_get(sh[i].meta, "ended"));
        json_t *env = json_object_get(sh[i].meta, "environment");

        total += json_array_size(json_object_get(sh[i].meta, "configs"));
        if (s && (!started || strcmp(s, started) < 0))
            started = s;
        if (e && (!ended || strcmp(e, ended) > 0))
            ended = e;
        json_array_append_new(shards,
                              json_pack("{s:i, s:i, s:s, s:O?, s:O?, s:O?, s:O?, s:O?}", "k",
                                        (int)sh[i].k, "n", (int)sh[i].n, "dir", sh[i].dir,
                                        "started", json_object_get(sh[i].meta, "started"), "ended",
                                        json_object_get(sh[i].meta, "ended"), "command_line",
                                        json_object_get(sh[i].meta, "command_line"), "environment",
                                        env, "dataset", json_object_get(sh[i].meta, "dataset")));
        if (i > 0 &&
            !json_equal(json_object_get(env, "machine"),
                        json_object_get(json_object_get(sh[0].meta, "environment"), "machine"))) {
            char w[512];

            snprintf(w, sizeof(w),
                     "shards ran on different machines ('%s' and '%s'): each comparison is "
                     "paired within its shard, but rows from different shards are not "
                     "comparable with each other",
                     sh[0].dir, sh[i].dir);
            json_array_append_new(warnings, json_string(w));
        }
    }
    list = calloc(total ? total : 1, sizeof(json_t *));
    if (!list) {
        json_decref(meta);
        json_decref(configs);
        json_decref(shards);
        json_decref(merged_by);
        return NULL;
    }
    total = 0;
    for (i = 0; i < n; i++)
        json_array_foreach(json_object_get(sh[i].meta, "configs"), c, cfg) list[total++] = cfg;
    qsort(list, total, sizeof(json_t *), cmp_index);
    for (c = 0; c < total; c++)
        json_array_append(configs, list[c]);
    free(list);
    json_object_set_new(meta, "configs", configs);
    json_object_set_new(meta, "shards", shards);
    settings = json_object_get(meta, "settings");
    if (json_is_object(settings))
        json_object_set_new(settings, "shard", json_null());
    if (started)
        json_object_set_new(meta, "started", json_string(started));
    if (ended)
        json_object_set_new(meta, "ended", json_string(ended));
    if (!realpath(out_dir, out_abs))
        snprintf(out_abs, sizeof(out_abs), "%s", out_dir);
    json_object_set_new(meta, "command_line",
                        unsharded_command(json_object_get(sh[0].meta, "command_line"), out_abs));
    for (i = 0; i < (size_t)argc; i++)
        json_array_append_new(merged_by, json_string(argv[i]));
    json_object_set_new(meta, "merged_by", merged_by);
    json_object_set_new(meta, "dataset",
                        json_pack("{s:s, s:s}", "file", "runs.jsonl", "sha256", sha));
    for (i = 0; i < n; i++)
        if (sh[i].vr.modified || sh[i].vr.unverified) {
            /* accepted: the merged dataset is whole again, but its reports still say so */
            char note[700];

            if (sh[i].vr.modified)
                snprintf(note, sizeof(note), "%s: %s.", VERIFY_MODIFIED_LEAD, sh[i].vr.problem);
            else
                snprintf(note, sizeof(note),
                         "%s: %s: the shard's runs.jsonl was not checked against its run's "
                         "record.",
                         VERIFY_UNVERIFIED_LEAD, sh[i].vr.why);
            json_object_set_new(json_object_get(meta, "dataset"), "modified", json_string(note));
            break;
        }
    return meta;
}

/* Each shard's meta.json and runs.jsonl; *total gets the bytes the merged dataset may need. */
static int load_shards(struct shard *sh, size_t n, const struct merge_cli *cli, size_t *total,
                       char *err, size_t errlen)
{
    char path[4096];
    size_t i;

    *total = 0;
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "%s/meta.json", sh[i].dir);
        sh[i].meta = ju_load_json(path, err, errlen);
        if (!sh[i].meta)
            return -1;
        snprintf(path, sizeof(path), "%s/runs.jsonl", sh[i].dir);
        sh[i].runs = ju_read_file(path, MERGE_MAX_DATASET, &sh[i].runs_len, err, errlen);
        if (!sh[i].runs)
            return -1;
        if (verify_dataset(sh[i].runs, sh[i].runs_len, sh[i].meta, path, &sh[i].vr) < 0) {
            snprintf(err, errlen, "%s: out of memory", path);
            return -1;
        }
        if (sh[i].vr.modified && !cli->accept_modified && !cli->unverified) {
            snprintf(err, errlen,
                     "%s: not what the shard's run recorded in meta.json; merging it needs "
                     "--accept-modified",
                     sh[i].vr.problem);
            return -1;
        }
        if (sh[i].vr.unverified && !cli->unverified) {
            snprintf(err, errlen,
                     "%s: the shard's runs.jsonl cannot be checked against what its run "
                     "recorded; merging it needs --unverified",
                     sh[i].vr.why);
            return -1;
        }
        *total += sh[i].runs_len + 1;
    }
    return 0;
}

/* The shards' runs.jsonl one after the other into all (room for total bytes), a cut last
 * line of a shard reported and left out (data/dataset.h's rule). Returns the merged length. */
static size_t concat_runs(const struct shard *sh, size_t n, char *all)
{
    size_t total = 0, i, whole;
    unsigned cut;
    char path[4200];

    for (i = 0; i < n; i++) {
        whole = dataset_whole_len(sh[i].runs, sh[i].runs_len);
        memcpy(all + total, sh[i].runs, whole);
        total += whole;
        cut = dataset_cut_line(sh[i].runs, sh[i].runs_len);
        if (cut) {
            snprintf(path, sizeof(path), "%s/runs.jsonl", sh[i].dir);
            dataset_warn_cut(path, cut);
        }
    }
    return total;
}

int merge_shards(struct merge_cli *cli, int argc, char **argv)
{
    struct shard *sh = cli->sh;
    const char *out_dir = cli->out_dir;
    char err[5000] = "", path[4096], sha[65];
    size_t n = cli->n, i, total = 0;
    char *all = NULL;
    json_t *meta = NULL, *summary = NULL;
    int rc = EXIT_USAGE, e;

    if (load_shards(sh, n, cli, &total, err, sizeof(err)) < 0 ||
        check_shards(sh, n, err, sizeof(err)) < 0)
        goto out;
    e = ju_dir_empty(out_dir);
    if (e != 1) {
        snprintf(err, sizeof(err), "--out '%s': %s", out_dir,
                 e == 0 ? "not empty (merge writes a new run directory)" : "not a directory");
        goto out;
    }
    rc = EXIT_HARNESS;
    if (ju_mkdir_p(out_dir, err, sizeof(err)) < 0)
        goto out;
    all = malloc(total + 1);
    if (!all) {
        snprintf(err, sizeof(err), "out of memory");
        goto out;
    }
    total = concat_runs(sh, n, all);
    snprintf(path, sizeof(path), "%s/runs.jsonl", out_dir);
    if (atomic_write(path, all, total, err, sizeof(err)) < 0 || sha256_mem(all, total, sha) < 0)
        goto out;
    meta = merged_meta(sh, n, out_dir, argc, argv, sha);
    snprintf(path, sizeof(path), "%s/meta.json", out_dir);
    if (meta) {
        json_t *lines = verify_line_hashes(all, total);

        if (lines)
            json_object_set_new(json_object_get(meta, "dataset"), "line_sha256", lines);
    }
    if (!meta) {
        snprintf(err, sizeof(err), "out of memory");
        goto out;
    }
    if (atomic_write_json(path, meta, err, sizeof(err)) < 0)
        goto out;
    {
        struct render_opts ro = {NULL, NULL, cli->accept_modified, cli->unverified, NULL};

        if (render_dir(out_dir, &ro, &summary, err, sizeof(err)) < 0)
            goto out;
    }
    printf("merged %zu shards (%zu configurations) into %s\n", n,
           json_array_size(json_object_get(meta, "configs")), out_dir);
    rc = EXIT_OK;
out:
    if (rc != EXIT_OK)
        fprintf(stderr, "compare: merge: %s\n", err);
    for (i = 0; i < n; i++) {
        json_decref(sh[i].meta);
        free(sh[i].runs);
    }
    free(all);
    json_decref(meta);
    json_decref(summary);
    return rc;
}
