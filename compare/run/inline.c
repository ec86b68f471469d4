/* inline: the one-line form of `compare run` and `compare gate` — two server commands and the
 * load (`--baseline 'redis-server --port {port}' --candidate 'valkey-server --port {port}'
 * --redis SET,GET --pipeline 1,16`) instead of a spec file. The spec and its grid are built
 * here as JSON, checked as any grid is (grid_expand), written into the run directory's input/
 * (so the report's provenance and "reproduce" hold) and, with --save-spec, next to the user's
 * file; the run itself is the ordinary one. The load's defaults are the demo's: 4 connections
 * on 4 workers (min(4, connections) workers for other counts), 64-byte values, window 1, so
 * the demo's comparison gets the demo's ids. The other load flags (--window, --rate,
 * --keyspace, --command, --setup) become the grid keys of the same names, refused by
 * grid_expand as a spec's would be. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util/atomic.h"
#include "util/jobs_util.h"
#include "run/grid.h"
#include "num.h"
#include "run/run.h"

#define INLINE_MAX_VALUES 64

/* A comma-separated list of integers in [min, max] into a JSON array; -1 with err naming
 * the flag. */
static json_t *inline_int_list(const char *flag, const char *list, unsigned min, unsigned max,
                               char *err, size_t errlen)
{
    json_t *a = json_array();
    char buf[1024], *p, *comma;
    unsigned n;

    snprintf(buf, sizeof(buf), "%s", list);
    for (p = buf; a; p = comma + 1) {
        comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (num_parse_uint(p, min, max, &n) < 0 || json_array_size(a) == INLINE_MAX_VALUES) {
            snprintf(err, errlen,
                     "%s '%s': expected a comma-separated list of at most %d integers from %u "
                     "to %u, got '%s'",
                     flag, list, INLINE_MAX_VALUES, min, max, p);
            json_decref(a);
            return NULL;
        }
        json_array_append_new(a, json_integer(n));
        if (!comma)
            break;
    }
    return a;
}

/* --redis SET,GET: the commands as a JSON array of strings (grid_expand checks the names). */
static json_t *inline_word_list(const char *list, char *err, size_t errlen)
{
    json_t *a = json_array();
    char buf[1024], *p, *comma;

    snprintf(buf, sizeof(buf), "%s", list);
    for (p = buf; a; p = comma + 1) {
        comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (!*p || json_array_size(a) == INLINE_MAX_VALUES) {
            snprintf(err, errlen,
                     "--redis '%s': expected a comma-separated list of commands like SET,GET",
                     list);
            json_decref(a);
            return NULL;
        }
        json_array_append_new(a, json_string(p));
        if (!comma)
            break;
    }
    return a;
}

/* --rate R,..: operations per second (a number) or a share of the saturation rate ("50%",
 * a string, as in a grid); grid_expand checks the values' ranges. */
static json_t *inline_rate_list(const char *list, char *err, size_t errlen)
{
    json_t *a = json_array();
    char buf[1024], *p, *comma;
    double r;
    size_t n;

    snprintf(buf, sizeof(buf), "%s", list);
    for (p = buf; a; p = comma + 1) {
        comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        n = strlen(p);
        if (n > 1 && p[n - 1] == '%' && json_array_size(a) < INLINE_MAX_VALUES)
            json_array_append_new(a, json_string(p));
        else if (num_parse_double(p, 0, 1e9, &r) == 0 && json_array_size(a) < INLINE_MAX_VALUES)
            json_array_append_new(a, json_real(r));
        else {
            snprintf(err, errlen,
                     "--rate '%s': expected a comma-separated list of at most %d rates, each "
                     "operations per second from 0 to 1000000000 or a percentage like 50%%, "
                     "got '%s'",
                     list, INLINE_MAX_VALUES, p);
            json_decref(a);
            return NULL;
        }
        if (!comma)
            break;
    }
    return a;
}

/* One value stays in the grid's defaults; several make an axis. Steals v. */
static void inline_put(json_t *defaults, json_t *axes, const char *key, json_t *v)
{
    if (json_is_array(v) && json_array_size(v) == 1)
        json_object_set(defaults, key, json_array_get(v, 0));
    else if (json_is_array(v)) {
        json_object_del(defaults, key);
        json_object_set(axes, key, v);
    } else
        json_object_set(defaults, key, v);
    json_decref(v);
}

/* Workers when --workers is not given: min(4, connections) for each connection count, as
 * the demo's 4 on 4; where the connection counts give different worker counts, workers is
 * an axis and the exclusions keep each count's own pair (the spec's refusal of more workers
 * than connections then never applies to the default). */
static void inline_workers(json_t *g, json_t *d, json_t *axes)
{
    json_t *conns = json_object_get(axes, "connections"), *ws = json_array(), *ex = json_array();
    json_t *one = json_pack("[O]", json_object_get(d, "connections")), *c, *w;
    size_t i, j;

    if (!conns)
        conns = one;
    json_array_foreach(conns, i, c)
    {
        json_int_t n = json_integer_value(c) < 4 ? json_integer_value(c) : 4;
        int seen = 0;

        json_array_foreach(ws, j, w) seen |= json_integer_value(w) == n;
        if (!seen)
            json_array_append_new(ws, json_integer(n));
    }
    if (json_array_size(ws) > 1) {
        json_array_foreach(conns, i, c) json_array_foreach(ws, j, w)
        {
            json_int_t n = json_integer_value(c) < 4 ? json_integer_value(c) : 4;

            if (json_integer_value(w) != n)
                json_array_append_new(ex, json_pack("{s:O,s:O}", "connections", c, "workers", w));
        }
        json_object_set_new(g, "exclude", ex);
        ex = NULL;
    }
    inline_put(d, axes, "workers", ws);
    json_decref(ex);
    json_decref(one);
}

/* --setup: a JSON array of commands as the spec takes them ('["SET k 1", ["DEL", "x"]]'), or
 * the name of a file of commands; grid_expand checks either. 0, or -1 with err set. */
static int inline_setup(json_t *d, const char *setup, char *err, size_t errlen)
{
    json_error_t je;
    json_t *v;

    if (setup[0] != '[') {
        json_object_set_new(d, "setup", json_string(setup));
        return 0;
    }
    v = json_loads(setup, 0, &je);
    if (!json_is_array(v)) {
        snprintf(err, errlen,
                 "--setup '%.200s': expected a JSON array of commands or a file name (%s)", setup,
                 v ? "not an array" : je.text);
        json_decref(v);
        return -1;
    }
    json_object_set_new(d, "setup", v);
    return 0;
}

/* The grid of the one-line form, or NULL with err set. */
static json_t *inline_grid(const struct run_inline *in, char *err, size_t errlen)
{
    json_t *g = json_object(), *d = json_object(), *axes = json_object(), *v;
    const struct {
        const char *flag, *key, *list;
        unsigned min, max;
    } nums[] = {
        {"--connections", "connections", in->connections, 1, 10000},
        {"--payload", "payload", in->payload, 1, 67108864},
        {"--pipeline", "pipeline", in->pipeline, 1, 100000},
        {"--workers", "workers", in->workers, 1, 1024},
        {"--window", "window", in->window, 1, 4096},
        {"--keyspace", "keyspace", in->keyspace, 1, 1000000000},
    };
    size_t i;

    json_object_set_new(g, "name", json_string("one-line"));
    json_object_set_new(d, "protocol", json_string(in->protocol));
    inline_put(d, axes, "connections", json_integer(4));
    inline_put(d, axes, "workers", json_integer(4));
    inline_put(d, axes, "payload", json_integer(64));
    inline_put(d, axes, "window", json_integer(1));
    if (in->path)
        json_object_set_new(d, "path", json_string(in->path));
    if (in->commands) {
        v = inline_word_list(in->commands, err, errlen);
        if (!v)
            goto fail;
        inline_put(d, axes, "command", v);
    }
    for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
        if (!nums[i].list)
            continue;
        v = inline_int_list(nums[i].flag, nums[i].list, nums[i].min, nums[i].max, err, errlen);
        if (!v)
            goto fail;
        inline_put(d, axes, nums[i].key, v);
    }
    if (!in->workers)
        inline_workers(g, d, axes);
    if (in->command)
        json_object_set_new(d, "command", json_string(in->command));
    if (in->setup && inline_setup(d, in->setup, err, errlen) < 0)
        goto fail;
    if (in->rate) {
        v = inline_rate_list(in->rate, err, errlen);
        if (!v)
            goto fail;
        inline_put(d, axes, "rate", v);
    }
    json_object_set_new(g, "defaults", d);
    if (json_object_size(axes))
        json_object_set_new(g, "axes", axes);
    else
        json_decref(axes);
    return g;
fail:
    json_decref(g);
    json_decref(d);
    json_decref(axes);
    return NULL;
}

/* A version's name from its command's program (redis-server), [A-Za-z0-9._-] only. */
static void inline_name(const char *cmd, char *out, size_t outlen)
{
    const char *p = cmd, *end, *slash;
    size_t n = 0;

    while (*p == ' ')
        p++;
    end = p + strcspn(p, " \t");
    for (slash = p; slash < end; slash++)
        if (*slash == '/')
            p = slash + 1;
    for (; p < end && n + 1 < outlen; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '.' || *p == '_' || *p == '-')
            out[n++] = *p;
    out[n] = '\0';
}

static json_t *inline_spec(const struct run_inline *in, const char *grid_path)
{
    char a[64], b[64];
    json_t *spec;

    inline_name(in->baseline, a, sizeof(a));
    inline_name(in->candidate, b, sizeof(b));
    if (!a[0] || !b[0] || strcmp(a, b) == 0) {
        snprintf(a, sizeof(a), "baseline");
        snprintf(b, sizeof(b), "candidate");
    }
    spec = json_pack("{s:s,s:[{s:s,s:{s:s}},{s:s,s:{s:s}}],s:[s]}", "description",
                     "the one-line form: the baseline's and the candidate's server commands",
                     "versions", "name", a, "server", in->protocol, in->baseline, "name", b,
                     "server", in->protocol, in->candidate, "grids", grid_path);
    if (spec && in->server_host) /* checked as a spec's, by spec_load */
        json_object_set_new(spec, "server_host", json_string(in->server_host));
    return spec;
}

/* The flags that go together: both commands, one protocol, no spec. */
static int inline_check(const struct run_request *rq, char *err, size_t errlen)
{
    const struct run_inline *in = &rq->inl;

    if (!in->baseline || !in->candidate) {
        snprintf(err, errlen,
                 "%s: the one-line form needs both --baseline CMD and --candidate CMD (server "
                 "commands with {port})",
                 in->baseline ? "--baseline" : "--candidate");
        return -1;
    }
    if (rq->spec_path || rq->n_grids || rq->resume) {
        snprintf(err, errlen,
                 "--baseline/--candidate: cannot be combined with %s (the one-line form builds "
                 "its own spec; run a saved one with --spec FILE)",
                 rq->spec_path ? "--spec"
                 : rq->n_grids ? "--grid"
                               : "--resume");
        return -1;
    }
    if (!in->protocol) {
        snprintf(err, errlen,
                 "--baseline/--candidate: name the load: --redis COMMANDS, --tcp, --http PATH "
                 "or --ws");
        return -1;
    }
    if (in->pipeline && strcmp(in->protocol, "redis") != 0 && strcmp(in->protocol, "http") != 0) {
        snprintf(err, errlen, "--pipeline: only with --redis or --http");
        return -1;
    }
    if (in->command && in->commands) {
        snprintf(err, errlen,
                 "--command: the load is either --redis NAMES or --command TEMPLATE, not both");
        return -1;
    }
    return 0;
}

/* --save-spec FILE: FILE and its grid (FILE's name with .grid.json) */
static int inline_save(const struct run_inline *in, const json_t *grid, char *err, size_t errlen)
{
    char gpath[PATH_MAX];
    size_t n = strlen(in->save_spec);
    json_t *spec;
    int rc;

    if (n > 5 && strcmp(in->save_spec + n - 5, ".json") == 0)
        n -= 5;
    if (snprintf(gpath, sizeof(gpath), "%.*s.grid.json", (int)n, in->save_spec) >=
        (int)sizeof(gpath)) {
        snprintf(err, errlen, "--save-spec '%s': path too long", in->save_spec);
        return -1;
    }
    spec = inline_spec(in, gpath);
    rc = atomic_write_json(gpath, grid, err, errlen) < 0 ||
                 atomic_write_json(in->save_spec, spec, err, errlen) < 0
             ? -1
             : 0;
    json_decref(spec);
    return rc;
}

/* The run directory and its input/: --out, or a new reports/<time>-<id>. */
static int inline_dir(struct run_request *rq, char *err, size_t errlen)
{
    struct run_inline *in = &rq->inl;
    char sub[PATH_MAX + 16];

    if (rq->out_dir)
        snprintf(in->dir, sizeof(in->dir), "%s", rq->out_dir);
    else
        run_default_out_dir(in->dir, sizeof(in->dir));
    snprintf(sub, sizeof(sub), "%s/input", in->dir);
    if (ju_mkdir_p(sub, err, errlen) < 0)
        return -1;
    rq->out_dir = in->dir;
    return 0;
}

int run_inline_prepare(struct run_request *rq, FILE *out, char *err, size_t errlen)
{
    struct run_inline *in = &rq->inl;
    char gpath[PATH_MAX + 32];
    json_t *grid = NULL, *spec = NULL;
    struct grid_config *cfgs = NULL;
    size_t n = 0, i;
    char *text;
    int rc = -1;

    if (!in->baseline && !in->candidate)
        return 0;
    if (inline_check(rq, err, errlen) < 0)
        goto out;
    grid = inline_grid(in, err, errlen);
    if (!grid || grid_expand(grid, "the one-line form's grid", &cfgs, &n, err, errlen) < 0)
        goto out;
    if (inline_dir(rq, err, errlen) < 0)
        goto out;
    snprintf(gpath, sizeof(gpath), "%s/input/grid.json", in->dir);
    snprintf(in->spec_file, sizeof(in->spec_file), "%s/input/spec.json", in->dir);
    spec = inline_spec(in, gpath);
    if (!spec || atomic_write_json(gpath, grid, err, errlen) < 0 ||
        atomic_write_json(in->spec_file, spec, err, errlen) < 0)
        goto out;
    if (in->save_spec && inline_save(in, grid, err, errlen) < 0)
        goto out;
    rq->spec_path = in->spec_file;
    text = json_dumps(spec, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (out && text) {
        fprintf(out, "compare: the spec of this line (%s; its grid %s):\n%s\n", in->spec_file,
                gpath, text);
        if (in->save_spec)
            fprintf(out, "compare: saved as %s (run it again with --spec %s)\n", in->save_spec,
                    in->save_spec);
    }
    free(text);
    rc = 0;
out:
    for (i = 0; i < n; i++)
        json_decref(cfgs[i].params);
    free(cfgs);
    json_decref(grid);
    json_decref(spec);
    return rc;
}
