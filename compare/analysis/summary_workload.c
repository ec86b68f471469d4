/* summary_workload: a row's Redis workload facts from its runs (see summary_workload.h). */
#include "analysis/summary_workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/summary_row.h"

#include "util/jobs_util.h"

#define STATE_ROUNDS_MAX 1024

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static json_t *median(double *v, size_t n)
{
    if (n == 0)
        return json_null();
    qsort(v, n, sizeof(*v), cmp_double);
    return json_real(n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

/* Per command of the mix: the median throughput and p99 over the ok runs of one version. */
static json_t *version_commands(const char *cfg, const char *ver, const json_t *latest, size_t nr)
{
    json_t *out = NULL;
    size_t ncmd = 0, r, k;
    double *tp = NULL, *p99 = NULL;
    size_t *nt = NULL, *np = NULL;

    for (r = 0; r < nr; r++) {
        char key[512];
        const json_t *run, *cmds, *c;

        summary_run_key(key, sizeof(key), cfg, ver, (long)r + 1);
        run = json_object_get(latest, key);
        cmds = json_object_get(json_object_get(run, "result"), "commands");
        if (!json_is_array(cmds) || strcmp(ju_str(run, "status", ""), "ok") != 0)
            continue;
        if (!out) {
            ncmd = json_array_size(cmds);
            out = json_array();
            tp = calloc(ncmd * nr + 1, sizeof(*tp));
            p99 = calloc(ncmd * nr + 1, sizeof(*p99));
            nt = calloc(ncmd + 1, sizeof(*nt));
            np = calloc(ncmd + 1, sizeof(*np));
            if (!out || !tp || !p99 || !nt || !np)
                goto out;
            json_array_foreach(cmds, k, c)
            {
                json_array_append_new(out, json_pack("{s:O?, s:O?}", "command",
                                                     json_object_get(c, "command"), "weight",
                                                     json_object_get(c, "weight")));
            }
        }
        json_array_foreach(cmds, k, c)
        {
            const json_t *lat = json_object_get(c, "latency_us");

            if (k >= ncmd)
                break;
            tp[k * nr + nt[k]++] = ju_num(c, "throughput", 0);
            if (json_is_number(json_object_get(lat, "p99")))
                p99[k * nr + np[k]++] = ju_num(lat, "p99", 0);
        }
    }
    for (k = 0; out && k < ncmd; k++) {
        json_t *e = json_array_get(out, k);

        json_object_set_new(e, "throughput", median(tp + k * nr, nt[k]));
        json_object_set_new(e, "p99_us", median(p99 + k * nr, np[k]));
    }
out:
    free(tp);
    free(p99);
    free(nt);
    free(np);
    return out;
}

/* The setup facts of one version: its distinct SHA-256s and key counts. */
static json_t *version_setup(const char *cfg, const char *ver, const json_t *latest, size_t nr)
{
    json_t *shas = json_array(), *keys = json_array();
    size_t r;

    for (r = 0; r < nr; r++) {
        char key[512];
        const json_t *s;

        summary_run_key(key, sizeof(key), cfg, ver, (long)r + 1);
        s = json_object_get(json_object_get(json_object_get(latest, key), "result"), "setup");
        if (!json_is_object(s))
            continue;
        if (json_is_string(json_object_get(s, "sha256"))) {
            size_t i;
            json_t *x;
            int seen = 0;

            json_array_foreach(shas, i, x) seen |= json_equal(x, json_object_get(s, "sha256"));
            if (!seen)
                json_array_append(shas, json_object_get(s, "sha256"));
        }
        if (json_object_get(s, "keys")) {
            size_t i;
            json_t *x;
            int seen = 0;

            json_array_foreach(keys, i, x) seen |= json_equal(x, json_object_get(s, "keys"));
            if (!seen)
                json_array_append(keys, json_object_get(s, "keys"));
        }
    }
    if (json_array_size(shas) == 0) {
        json_decref(shas);
        json_decref(keys);
        return NULL;
    }
    return json_pack("{s:o, s:o}", "sha256", shas, "keys", keys);
}

/* A sequence step's server state after the step (its runs' sequence.state): the median of
 * each figure over the version's rounds that recorded it. */
static json_t *version_state(const char *cfg, const char *ver, const json_t *latest, size_t nr)
{
    static const char *const figs[] = {"keys", "used_memory", "rss_kib", "sockets"};
    json_t *out = json_object();
    size_t f, r;

    for (f = 0; f < sizeof(figs) / sizeof(figs[0]); f++) {
        double v[STATE_ROUNDS_MAX];
        size_t n = 0;
        json_t *med;

        for (r = 0; r < nr && n < STATE_ROUNDS_MAX; r++) {
            char key[512];
            const json_t *x;

            summary_run_key(key, sizeof(key), cfg, ver, (long)r + 1);
            x = json_object_get(
                json_object_get(json_object_get(json_object_get(latest, key), "sequence"), "state"),
                figs[f]);
            if (json_is_number(x))
                v[n++] = json_number_value(x);
        }
        if (n && (med = median(v, n))) /* median() of none is null: a figure no round has */
            json_object_set_new(out, figs[f], med);
    }
    if (!json_object_size(out)) {
        json_decref(out);
        return NULL;
    }
    return out;
}

int summary_same_keys(double a, double b)
{
    return fabs(a - b) <= fmax(1, 0.01 * fmax(a, b));
}

/* row.state_after: each version's server state after a sequence step, and "same_keys": whether
 * every version's median key count is the same within 1% (and 1 key). */
static void row_state(json_t *row, const char *cfg, const json_t *latest, const json_t *versions,
                      size_t nr)
{
    json_t *all = json_object(), *st;
    double lo = INFINITY, hi = -INFINITY;
    size_t vi, with_keys = 0;

    for (vi = 0; vi < json_array_size(versions); vi++) {
        const char *ver = json_string_value(json_array_get(versions, vi));
        const json_t *k;

        if (!(st = version_state(cfg, ver, latest, nr)))
            continue;
        if ((k = json_object_get(st, "keys"))) {
            lo = fmin(lo, json_number_value(k));
            hi = fmax(hi, json_number_value(k));
            with_keys++;
        }
        json_object_set_new(all, ver, st);
    }
    if (!json_object_size(all)) {
        json_decref(all);
        return;
    }
    if (with_keys == json_array_size(versions))
        json_object_set_new(all, "same_keys", json_boolean(summary_same_keys(lo, hi)));
    json_object_set_new(row, "state_after", all);
}

void summary_row_workload(json_t *row, const char *cfg, const json_t *latest,
                          const json_t *versions, size_t nr)
{
    json_t *cmds = json_object(), *setup = json_object(), *first = NULL;
    size_t vi;
    int same = 1;

    for (vi = 0; vi < json_array_size(versions); vi++) {
        const char *ver = json_string_value(json_array_get(versions, vi));
        json_t *c = version_commands(cfg, ver, latest, nr),
               *s = version_setup(cfg, ver, latest, nr);

        if (c)
            json_object_set_new(cmds, ver, c);
        if (s) {
            const json_t *sha = json_object_get(s, "sha256");

            if (json_array_size(sha) != 1 || (first && !json_equal(first, sha)))
                same = 0;
            if (!first)
                first = json_deep_copy(sha);
            json_object_set_new(setup, ver, s);
        }
    }
    if (json_object_size(cmds))
        json_object_set_new(row, "commands", cmds);
    else
        json_decref(cmds);
    if (json_object_size(setup)) {
        json_object_set_new(setup, "same_data", json_boolean(same));
        json_object_set_new(row, "setup", setup);
    } else {
        json_decref(setup);
    }
    json_decref(first);
    row_state(row, cfg, latest, versions, nr);
}
