/* runmeta: meta.json of a run directory (see runmeta.h). */
#include "run/runmeta.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "run/envinfo.h"
#include "run/run.h"
#include "util/jobs_util.h"
#include "util/sha256.h"
#include "data/verify.h"
#include "util/redact.h"
#include "util/words.h"

const char *runmeta_program = "compare";

static void redact_env(json_t *env)
{
    const char *k;
    json_t *v;

    if (!json_is_object(env))
        return;
    json_object_foreach(env, k, v)
    {
        if (redact_secret_name(k))
            json_object_set_new(env, k, json_string(REDACT_MARK));
    }
}

json_t *runmeta_redact_spec(const json_t *spec_root)
{
    json_t *copy = json_deep_copy(spec_root), *v;
    size_t i;

    if (!copy)
        return NULL;
    json_array_foreach(json_object_get(copy, "versions"), i, v)
        redact_env(json_object_get(v, "env"));
    return copy;
}

static int is_sha(const char *s)
{
    size_t i;

    if (!s || strlen(s) != 40)
        return 0;
    for (i = 0; i < 40; i++)
        if (!isxdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

static json_t *versions_json(const struct runner *r)
{
    json_t *arr = json_array();
    size_t v;

    for (v = 0; v < r->sp->n_versions; v++) {
        const struct spec_version *ver = &r->sp->versions[v];
        char **argv = NULL, err[256], shown[2048] = "", q[512];
        size_t argc = 0, i, o = 0;
        json_t *env = ver->env ? json_deep_copy(ver->env) : json_object();

        if (runner_driver_argv(r, v, &argv, &argc, err, sizeof(err)) == 0) {
            for (i = 0; i < argc && o < sizeof(shown); i++)
                o += (size_t)snprintf(shown + o, sizeof(shown) - o, "%s%s", i ? " " : "",
                                      words_quote(argv[i], q, sizeof(q)));
            words_free(argv);
        }
        redact_env(env);
        json_array_append_new(
            arr, json_pack("{s:s,s:o,s:o,s:s,s:o,s:o,s:o,s:o}", "name", ver->name, "ref",
                           ver->ref ? json_string(ver->ref) : json_null(), "commit",
                           is_sha(ver->ref) ? json_string(ver->ref) : json_null(), "driver", shown,
                           "server", ver->server ? json_deep_copy(ver->server) : json_object(),
                           "env", env, "description",
                           ver->description ? json_string(ver->description) : json_null(),
                           "server_version", json_null()));
        /* the configuration template: each run's rendered file is in its line (server) */
        if (ver->config_text)
            json_object_set_new(
                json_array_get(arr, json_array_size(arr) - 1), "config",
                json_pack("{s:s,s:s}", "template", ver->config_file, "sha256", ver->config_sha256));
    }
    return arr;
}

/* `compare commits` knows the commit each version was built from (meta.commits.trees):
 * versions whose ref is not itself a SHA get it as their commit. */
static void commits_known(json_t *meta)
{
    const json_t *trees = json_object_get(json_object_get(meta, "commits"), "trees"), *t;
    json_t *v;
    size_t i, k;

    json_array_foreach(json_object_get(meta, "versions"), i, v)
    {
        if (json_is_string(json_object_get(v, "commit")))
            continue;
        json_array_foreach(trees, k, t)
        {
            if (json_equal(json_object_get(t, "version"), json_object_get(v, "name")) &&
                json_is_string(json_object_get(t, "commit")))
                json_object_set(v, "commit", json_object_get(t, "commit"));
        }
    }
}

json_t *runmeta_build(const struct run_request *rq, const struct runner *r,
                      const unsigned char *selected, unsigned runs, char *err, size_t errlen)
{
    const struct spec *sp = r->sp;
    json_t *meta = NULL, *argv = json_array(), *grids = json_array(), *configs = json_array();
    json_t *warnings = json_array(), *env = NULL, *sources = NULL;
    char cwd[PATH_MAX], hex[65], started[40], shard[32];
    size_t i;
    int k;

    /* the program as it was invoked, then the subcommand's words: what Reproduce prints */
    json_array_append_new(argv, json_string(runmeta_program));
    for (k = 0; k < rq->argc; k++)
        json_array_append_new(argv, json_string(rq->argv[k]));
    if (!getcwd(cwd, sizeof(cwd)))
        snprintf(cwd, sizeof(cwd), ".");
    for (i = 0; i < sp->n_grids; i++) {
        char why[512];
        if (sha256_file(sp->grids[i].path, hex, why, sizeof(why)) < 0)
            snprintf(hex, sizeof(hex), "unknown");
        json_array_append_new(grids, json_pack("{s:s,s:s,s:s,s:I}", "file", sp->grids[i].path,
                                               "name", sp->grids[i].name, "sha256", hex, "configs",
                                               (json_int_t)sp->grids[i].n_configs));
    }
    for (i = 0; i < sp->n_configs; i++) {
        json_t *eff;
        if (!selected[i])
            continue;
        eff = runner_effective_config(r, i);
        json_array_append_new(configs,
                              json_pack("{s:s,s:s,s:I,s:s,s:o}", "id", sp->configs[i].id, "label",
                                        sp->configs[i].label, "index", (json_int_t)i, "grid",
                                        sp->grids[sp->configs[i].grid].name, "params",
                                        eff ? eff : json_object()));
    }
    env = envinfo_collect();
    if (env) {
        json_t *la = json_object_get(env, "loadavg");
        if (la)
            json_object_set(env, "loadavg_start", la);
        envinfo_warnings(env, warnings);
    }
    if (sp->hash_sources) {
        char why[512];
        sources = sha256_globs(sp->hash_sources, NULL, why, sizeof(why));
        if (!sources) {
            char w[600];
            snprintf(w, sizeof(w), "hash_sources: %s", why);
            json_array_append_new(warnings, json_string(w));
        }
    }
    if (rq->shard_n)
        snprintf(shard, sizeof(shard), "%u/%u", rq->shard_k, rq->shard_n);
    runner_utc_now(started, sizeof(started));
    {
        double warm = r->warmup_s >= 0 ? r->warmup_s : sp->warmup >= 0 ? sp->warmup : 1;
        double dur = r->duration_s >= 0 ? r->duration_s : sp->duration >= 0 ? sp->duration : 5;
        meta = json_pack(
            "{s:s,s:{s:s},s:o,s:s,s:s,s:o,s:o,s:o,s:{s:I,s:f,s:f,s:f,s:f,s:o,s:o,s:o,s:o},"
            "s:o,s:o,s:o,s:s,s:o,s:{s:s,s:o},s:o,s:o,s:s}",
            "schema", "pairbench.meta/1", "pairbench", "version", PAIRBENCH_VERSION, "command_line",
            argv, "cwd", cwd, "spec_file", sp->path, "spec", runmeta_redact_spec(sp->root), "grids",
            grids, "versions", versions_json(r), "settings", "runs", (json_int_t)runs, "warmup",
            warm, "duration", dur, "grace", sp->grace, "probe_timeout", sp->probe_timeout, "shard",
            rq->shard_n ? json_string(shard) : json_null(), "pin_driver",
            rq->pin_driver ? json_string(rq->pin_driver) : json_null(), "pin_server",
            rq->pin_server ? json_string(rq->pin_server) : json_null(), "noise_limit",
            sp->noise_limit > 0 ? json_real(sp->noise_limit) : json_null(), "configs", configs,
            "environment", env ? env : json_object(), "driver_build", json_null(), "started",
            started, "ended", json_null(), "dataset", "file", "runs.jsonl", "sha256", json_null(),
            "sources", sources ? sources : json_array(), "warnings", warnings, "lang",
            rq->lang ? rq->lang : "en");
    }
    if (!meta) {
        snprintf(err, errlen, "meta.json: out of memory");
        return NULL;
    }
    if (rq->extra_meta) {
        json_object_update(meta, rq->extra_meta);
        commits_known(meta);
    }
    if (sp->sequence) /* one server per version and round through the configurations */
        json_object_set_new(json_object_get(meta, "settings"), "sequence", json_true());
    if (r->host_meta) /* the server host: its machine, the path and its round trip */
        json_object_set(meta, "server_host", r->host_meta);
    return meta;
}

int runmeta_finish(json_t *meta, const char *dir, const json_t *driver_build,
                   const json_t *server_versions, char *err, size_t errlen)
{
    char path[PATH_MAX], hex[65], ended[40];
    json_t *v;
    size_t i;

    runner_utc_now(ended, sizeof(ended));
    json_object_set_new(meta, "ended", json_string(ended));
    {
        /* the load at the end too: a machine that got busy during the run weakens it */
        json_t *env = json_object_get(meta, "environment"), *end = envinfo_loadavg(), *tmp;
        if (json_is_object(env) && end) {
            json_object_set(env, "loadavg_end", end);
            tmp = json_pack("{s:O,s:O*}", "loadavg_end", end, "cores_logical",
                            json_object_get(env, "cores_logical"));
            if (tmp)
                envinfo_warnings(tmp, json_object_get(meta, "warnings"));
            json_decref(tmp);
        }
        json_decref(end);
    }
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    if (sha256_file(path, hex, err, errlen) < 0)
        return -1;
    json_object_set_new(json_object_get(meta, "dataset"), "sha256", json_string(hex));
    {
        /* each line's own hash: a check can then name the line that changed */
        size_t len = 0;
        char *text = ju_read_file(path, (size_t)-1, &len, err, errlen);
        json_t *lines;

        if (!text)
            return -1;
        lines = verify_line_hashes(text, len);
        free(text);
        if (lines)
            json_object_set_new(json_object_get(meta, "dataset"), "line_sha256", lines);
        else
            json_object_del(json_object_get(meta, "dataset"), "line_sha256");
    }
    if (driver_build)
        json_object_set_new(meta, "driver_build", json_deep_copy(driver_build));
    json_array_foreach(json_object_get(meta, "versions"), i, v)
    {
        json_t *sv =
            json_object_get(server_versions, json_string_value(json_object_get(v, "name")));
        if (sv)
            json_object_set(v, "server_version", sv);
    }
    return 0;
}

/* A fresh reports/ directory name (run.h). */
void run_default_out_dir(char *out, size_t outlen)
{
    time_t now = time(NULL);
    struct tm tm;
    char ts[32];
    unsigned rnd = (unsigned)(clock_now_ns() ^ ((uint64_t)getpid() << 16));
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

    if (fd >= 0) {
        if (read(fd, &rnd, sizeof(rnd)) != (ssize_t)sizeof(rnd))
            rnd ^= (unsigned)now;
        close(fd);
    }
    gmtime_r(&now, &tm);
    strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
    snprintf(out, outlen, "reports/%s-%06x", ts, rnd & 0xffffffu);
}
