/* verify: runs.jsonl against meta.json (see verify.h). */
#include "data/verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/dataset.h"
#include "data/order.h"
#include "util/jobs_util.h"
#include "util/sha256.h"

#define VERIFY_MAX_DATASET (4ull << 30)

/* What the schedule in meta.json allows. */
struct allowed {
    const json_t *versions, *configs;                  /* meta.json's arrays */
    json_t *config_ids;                                /* id -> true */
    const json_t *line_sha;                            /* dataset.line_sha256, or NULL */
    const char *recorded;                              /* dataset.sha256, or NULL */
    long timed_rounds, counted_rounds, syscall_rounds; /* the rounds of each kind of line */
    int repeats_disturbed; /* the gate ran disturbed rounds again (interference_limits) */
    int sequence;          /* settings.sequence: a round cut short runs again whole */
};

static void flag_line(struct verify_result *vr, const char *name, unsigned line, const char *fmt,
                      ...) __attribute__((format(printf, 4, 5)));

static void flag_line(struct verify_result *vr, const char *name, unsigned line, const char *fmt,
                      ...)
{
    char what[400];
    va_list ap;

    if (vr->modified)
        return; /* the first problem is the one named */
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    vr->modified = 1;
    vr->line = line;
    if (line)
        snprintf(vr->problem, sizeof(vr->problem), "%s:%u: %s", name, line, what);
    else
        snprintf(vr->problem, sizeof(vr->problem), "%s: %s", name, what);
}

static int allowed_init(struct allowed *a, const json_t *meta)
{
    const json_t *ds = json_object_get(meta, "dataset"), *c, *inst;
    size_t i;

    memset(a, 0, sizeof(*a));
    a->versions = json_object_get(meta, "versions");
    a->configs = json_object_get(meta, "configs");
    a->config_ids = json_object();
    if (!a->config_ids)
        return -1;
    json_array_foreach(a->configs, i, c)
    {
        const char *id = json_string_value(json_object_get(c, "id"));

        if (id && json_object_set_new(a->config_ids, id, json_true()) < 0)
            return -1;
    }
    a->recorded = json_string_value(json_object_get(ds, "sha256"));
    a->line_sha = json_is_array(json_object_get(ds, "line_sha256"))
                      ? json_object_get(ds, "line_sha256")
                      : NULL;
    /* the planned rounds, and those adaptive confirmation (or the gate's budget) may add */
    a->timed_rounds = ju_int(json_object_get(meta, "settings"), "runs", 0) +
                      ju_int(json_object_get(meta, "confirmation"), "max_extra_rounds", 0);
    a->repeats_disturbed = json_object_get(meta, "interference_limits") != NULL;
    a->sequence = json_is_true(json_object_get(json_object_get(meta, "settings"), "sequence"));
    inst = json_object_get(json_object_get(meta, "spec"), "instructions");
    a->counted_rounds = ju_int(inst, "runs", 3);
    a->syscall_rounds =
        ju_int(json_object_get(json_object_get(meta, "spec"), "syscalls"), "runs", 3);
    return 0;
}

static long version_index(const struct allowed *a, const char *name)
{
    const json_t *v;
    size_t i;

    json_array_foreach(a->versions, i, v)
    {
        const char *n = json_string_value(json_object_get(v, "name"));

        if (n && strcmp(n, name) == 0)
            return (long)i;
    }
    return -1;
}

/* 1 for an instructions line that may belong to a timed run: counted by counters during it,
 * or failed (a failed line names no source). */
static int rides_on_timed(const json_t *obj, const char *kind)
{
    const json_t *inst = json_object_get(obj, "instructions");
    const char *src = json_string_value(json_object_get(inst, "source"));

    return kind && strcmp(kind, "instructions") == 0 &&
           ((src && strcmp(src, "counters") == 0) || !json_is_object(inst));
}

/* The last round a line of obj's kind may carry; counters lines any timed round. */
static long last_round(const struct allowed *a, const json_t *obj, const char *kind)
{
    if (!kind)
        return a->timed_rounds;
    if (strcmp(kind, "syscalls") == 0)
        return a->syscall_rounds;
    if (rides_on_timed(obj, kind))
        return a->counted_rounds > a->timed_rounds ? a->counted_rounds : a->timed_rounds;
    return a->counted_rounds;
}

/* Version, configuration, round and position of one parsed line. */
static void check_place(const struct allowed *a, const json_t *obj, const char *name, unsigned line,
                        struct verify_result *vr)
{
    const char *ver = json_string_value(json_object_get(obj, "version"));
    const char *cfg = json_string_value(json_object_get(obj, "config"));
    const char *kind = json_string_value(json_object_get(obj, "kind"));
    const json_t *rj = json_object_get(obj, "round"), *pj = json_object_get(obj, "position");
    size_t nv = json_array_size(a->versions);
    long vi, round, pos, max;

    if (!ver || !cfg || !json_is_integer(rj)) {
        flag_line(vr, name, line,
                  "expected \"version\" and \"config\" strings and an integer "
                  "\"round\"");
        return;
    }
    vi = version_index(a, ver);
    if (nv > 0 && vi < 0) {
        flag_line(vr, name, line, "version '%s' is not one of meta.json's versions", ver);
        return;
    }
    if (json_array_size(a->configs) > 0 && !json_object_get(a->config_ids, cfg)) {
        flag_line(vr, name, line, "configuration id '%s' is not one of meta.json's configs", cfg);
        return;
    }
    if (kind && strcmp(kind, "instructions") != 0 && strcmp(kind, "syscalls") != 0) {
        flag_line(vr, name, line, "kind '%s' is not one the run writes (instructions, syscalls)",
                  kind);
        return;
    }
    round = (long)json_integer_value(rj);
    max = last_round(a, obj, kind);
    if (round < 1 || (max > 0 && round > max)) {
        flag_line(vr, name, line, "round %ld is outside the schedule (1..%ld)", round, max);
        return;
    }
    if (!pj || nv == 0)
        return; /* older datasets record no position */
    pos = json_is_integer(pj) ? (long)json_integer_value(pj) : 0;
    if (pos < 1 || pos > (long)nv) {
        flag_line(vr, name, line, "position %ld is outside the schedule (1..%zu)", pos, nv);
        return;
    }
    if ((long)sched_version_at(nv, (unsigned)round, (unsigned)pos) != vi)
        flag_line(
            vr, name, line,
            "version '%s' does not run at position %ld of round %ld (the schedule runs "
            "'%s' there)",
            ver, pos, round,
            json_string_value(json_object_get(
                json_array_get(a->versions, sched_version_at(nv, (unsigned)round, (unsigned)pos)),
                "name")));
}

/* A (configuration, version, round) run a second time: allowed only after a failed run, or
 * in a round that was disturbed when the gate runs those again. seen: key -> [line, ok]. */
static int check_repeat(const struct allowed *a, json_t *seen, json_t *disturbed, const json_t *obj,
                        const char *name, unsigned line, struct verify_result *vr)
{
    const char *ver = json_string_value(json_object_get(obj, "version"));
    const char *cfg = json_string_value(json_object_get(obj, "config"));
    const char *kind = json_string_value(json_object_get(obj, "kind"));
    const char *st = json_string_value(json_object_get(obj, "status"));
    long round = (long)json_integer_value(json_object_get(obj, "round"));
    char key[1200], rkey[600], tkey[600];
    const json_t *prev;

    if (!ver || !cfg)
        return 0;
    snprintf(rkey, sizeof(rkey), "%s\x1f%s\x1f%ld", cfg, kind ? kind : "", round);
    snprintf(key, sizeof(key), "%s\x1f%s", rkey, ver);
    prev = json_object_get(seen, key);
    /* a counters line rides on its timed run: rerun with it when that round was disturbed */
    snprintf(tkey, sizeof(tkey), "%s\x1f\x1f%ld", cfg, round);
    /* a sequence's round cut short runs again whole on --resume (run/sequence.h) */
    if (prev && json_is_true(json_array_get(prev, 1)) && !json_object_get(disturbed, rkey) &&
        !(rides_on_timed(obj, kind) && json_object_get(disturbed, tkey)) &&
        !(a->sequence && json_is_object(json_object_get(obj, "sequence"))))
        flag_line(vr, name, line,
                  "a second run of configuration '%s', version '%s', round %ld (line %lld "
                  "already holds it)",
                  cfg, ver, round, (long long)json_integer_value(json_array_get(prev, 0)));
    if (a->repeats_disturbed &&
        json_is_true(json_object_get(json_object_get(obj, "interference"), "disturbed")) &&
        json_object_set_new(disturbed, rkey, json_true()) < 0)
        return -1;
    return json_object_set_new(seen, key,
                               json_pack("[i, b]", (json_int_t)line, st && strcmp(st, "ok") == 0));
}

/* Line n's own hash against the recorded one. */
static void check_line_hash(const struct allowed *a, const char *p, size_t n, const char *name,
                            unsigned line, struct verify_result *vr)
{
    char hex[65];
    const char *want;

    if (!a->line_sha)
        return;
    if (line > json_array_size(a->line_sha)) {
        flag_line(vr, name, line, "not a line the run recorded (it recorded %zu)",
                  json_array_size(a->line_sha));
        return;
    }
    want = json_string_value(json_array_get(a->line_sha, line - 1));
    if (sha256_mem(p, n, hex) != 0 || !want || strncmp(hex, want, VERIFY_LINE_HEX) != 0)
        flag_line(vr, name, line,
                  "differs from the line the run recorded (SHA-256 %.16s, "
                  "recorded %.16s)",
                  hex, want ? want : "?");
}

static int check_lines(struct allowed *a, const char *text, size_t len, const char *name,
                       struct verify_result *vr)
{
    json_t *seen = json_object(), *disturbed = json_object();
    struct dataset_line l = {0};
    size_t off = 0;
    int rc = -1;

    if (!seen || !disturbed)
        goto out;
    while (!vr->modified && dataset_next_line(text, len, &off, &l)) {
        json_error_t je;
        json_t *obj;

        if (l.cut) {
            if (!a->recorded && !a->line_sha) {
                vr->torn_tail = l.no; /* the readers report it and leave it out */
                break;
            }
            flag_line(vr, name, l.no,
                      "truncated (no newline at its end): the file was cut "
                      "after the run");
            break;
        }
        obj = l.blank ? NULL : json_loadb(l.p, l.len, 0, &je);
        if (l.blank)
            ; /* not a run; its hash below still holds it to the record */
        else if (!json_is_object(obj))
            flag_line(vr, name, l.no, "not a JSON object (%s)", obj ? "other JSON value" : je.text);
        else
            check_place(a, obj, name, l.no, vr);
        if (obj && !vr->modified && check_repeat(a, seen, disturbed, obj, name, l.no, vr) < 0) {
            json_decref(obj);
            goto out;
        }
        json_decref(obj);
        check_line_hash(a, l.p, l.len, name, l.no, vr);
    }
    if (!vr->modified && a->line_sha && l.no < json_array_size(a->line_sha) && !vr->torn_tail)
        flag_line(vr, name, l.no + 1, "missing: the run recorded %zu lines, the file has %u",
                  json_array_size(a->line_sha), l.no);
    rc = 0;
out:
    json_decref(seen);
    json_decref(disturbed);
    return rc;
}

/* meta.json's dataset record: missing (unverified, why names the key) or of the wrong shape
 * (modified). meta_name: meta.json's name in messages. */
static void check_record(const json_t *meta, const char *meta_name, struct verify_result *vr)
{
    const json_t *ds = json_object_get(meta, "dataset"), *sha, *lines;
    char *shown;

    if (!json_is_object(meta)) {
        vr->unverified = 1;
        snprintf(vr->why, sizeof(vr->why), "%.500s is missing", meta_name);
        return;
    }
    if (!ds) {
        vr->unverified = 1;
        snprintf(vr->why, sizeof(vr->why), "%.500s: key \"dataset\" is missing", meta_name);
        return;
    }
    sha = json_object_get(ds, "sha256");
    lines = json_object_get(ds, "line_sha256");
    if (json_is_object(ds) && !sha) {
        vr->unverified = 1;
        snprintf(vr->why, sizeof(vr->why), "%.500s: key \"dataset.sha256\" is missing", meta_name);
        return;
    }
    /* a string that is not this file's hash is a mismatch, said as such further on */
    if (json_is_object(ds) && json_is_string(sha) && (!lines || json_is_array(lines)))
        return;
    shown = json_dumps(ds, JSON_COMPACT | JSON_ENCODE_ANY);
    flag_line(vr, meta_name, 0,
              "\"dataset\": expected {\"file\", \"sha256\": \"64 hex digits\", \"line_sha256\": "
              "[...]}, got %.120s",
              shown ? shown : "?");
    free(shown);
}

int verify_dataset(const char *text, size_t len, const json_t *meta, const char *name,
                   struct verify_result *vr)
{
    struct allowed a;
    char meta_name[4200];
    size_t nl = strlen(name);
    int rc = -1;

    memset(vr, 0, sizeof(*vr));
    if (sha256_mem(text, len, vr->sha) != 0)
        return -1;
    /* name is DIR/runs.jsonl: meta.json is beside it */
    if (nl >= 10 && strcmp(name + nl - 10, "runs.jsonl") == 0)
        snprintf(meta_name, sizeof(meta_name), "%.*smeta.json", (int)(nl - 10), name);
    else
        snprintf(meta_name, sizeof(meta_name), "meta.json");
    check_record(meta, meta_name, vr);
    if (!json_is_object(meta) || vr->modified)
        return 0;
    if (allowed_init(&a, meta) < 0)
        goto out;
    if (check_lines(&a, text, len, name, vr) < 0)
        goto out;
    if (a.recorded && strcmp(a.recorded, vr->sha) != 0)
        flag_line(vr, name, 0, "SHA-256 %.16s... is not the one meta.json recorded (%.16s...)",
                  vr->sha, a.recorded);
    rc = 0;
out:
    json_decref(a.config_ids);
    return rc;
}

json_t *verify_line_hashes(const char *text, size_t len)
{
    json_t *out = json_array();
    size_t off = 0;
    char hex[65];

    while (out && off < len) {
        const char *nl = memchr(text + off, '\n', len - off);
        size_t end = nl ? (size_t)(nl - text) : len;

        if (json_array_size(out) >= VERIFY_MAX_LINES ||
            sha256_mem(text + off, end - off, hex) != 0 ||
            json_array_append_new(out, json_stringn(hex, VERIFY_LINE_HEX)) < 0) {
            json_decref(out);
            return NULL;
        }
        off = end + 1;
    }
    return out;
}

int verify_dir(const char *dir, struct verify_result *vr, char *err, size_t errlen)
{
    char path[4200];
    json_t *meta;
    char *text;
    size_t len = 0;
    int rc = -1;

    snprintf(path, sizeof(path), "%s/meta.json", dir);
    meta = ju_load_json(path, err, errlen);
    if (!meta)
        return -1;
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    text = ju_read_file(path, VERIFY_MAX_DATASET, &len, err, errlen);
    if (!text)
        goto out;
    if (verify_dataset(text, len, meta, path, vr) < 0) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    rc = 0;
out:
    free(text);
    json_decref(meta);
    return rc;
}
