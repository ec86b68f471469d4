/* spec: strict spec loading, the versions and settings, and the grids it names (see spec.h). */
#include "run/spec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/jobs_util.h"
#include "util/sha256.h"
#include "run/speccheck.h"
#include "util/words.h"

/* ---- spec ---- */

static int valid_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '.' || *s == '_' || *s == '-'))
            return 0;
    return 1;
}

static int check_command(const char *file, const char *path, const json_t *v, char *err,
                         size_t errlen)
{
    char **argv = NULL;
    size_t argc;
    char why[512];

    if (!json_is_string(v) || json_string_length(v) == 0)
        return grid_fail_expected(file, path, "a command string", v, err, errlen);
    if (words_split(json_string_value(v), NULL, &argv, &argc, why, sizeof(why)) < 0) {
        char got[80];
        grid_show_value(v, got, sizeof(got));
        snprintf(err, errlen, "%s: %s: %s, in %s", file, path, why, got);
        return -1;
    }
    words_free(argv);
    return 0;
}

/* The keys of one entry of "versions". */
static const char *const version_keys[] = {"name", "ref",         "driver", "server",
                                           "env",  "description", "config", NULL};

/* One entry of a version's "server": a protocol the driver speaks, and its command. */
static int check_server_entry(const char *file, const char *path, const char *k, const json_t *c,
                              char *err, size_t errlen)
{
    static const char *const protocols[] = {"redis", "tcp", "http", "ws", NULL};

    if (!grid_word_in(k, protocols)) {
        snprintf(err, errlen,
                 "%s: %s: unknown protocol '%s' (expected redis, tcp, http "
                 "or ws)",
                 file, path, k);
        return -1;
    }
    return check_command(file, path, c, err, errlen);
}

/* One entry of a version's "env": a variable name and its string value. */
static int check_env_entry(const char *file, const char *path, const char *k, const json_t *e,
                           char *err, size_t errlen)
{
    if (!valid_name(k) || strchr(k, '.') || strchr(k, '-')) {
        snprintf(err, errlen, "%s: %s: bad environment variable name '%s'", file, path, k);
        return -1;
    }
    if (!json_is_string(e))
        return grid_fail_expected(file, path, "a string", e, err, errlen);
    return 0;
}

/* $.versions[i].KEY: an object (else "expected WHAT") whose every entry check() accepts, each
 * named $.versions[i].KEY.NAME in messages. Returns 0, or -1 with err. */
static int check_version_map(const char *file, size_t i, const char *key, const json_t *x,
                             const char *what,
                             int (*check)(const char *file, const char *path, const char *k,
                                          const json_t *e, char *err, size_t errlen),
                             char *err, size_t errlen)
{
    char path[256];
    const char *k;
    json_t *e;

    snprintf(path, sizeof(path), "$.versions[%zu].%s", i, key);
    if (!json_is_object(x))
        return grid_fail_expected(file, path, what, x, err, errlen);
    json_object_foreach((json_t *)x, k, e)
    {
        snprintf(path, sizeof(path), "$.versions[%zu].%s.%s", i, key, k);
        if (check(file, path, k, e, err, errlen) < 0)
            return -1;
    }
    return 0;
}

/* A version's "config": "FILE" or {"file": "FILE"} (relative to the current directory, as
 * grids are): the template read whole (at most 1 MiB), its SHA-256 and the rendered file's
 * name. 0, or -1 with err naming the key and what was expected. */
static int load_config(struct spec_version *ver, const char *file, size_t i, json_t *x, char *err,
                       size_t errlen)
{
    const json_t *f = json_is_object(x) ? json_object_get(x, "file") : x;
    const char *name, *base;
    char path[64], why[512];
    size_t len, n;

    snprintf(path, sizeof(path), "$.versions[%zu].config", i);
    if (!json_is_string(f) || !json_string_length(f) ||
        (json_is_object(x) && json_object_size(x) != 1))
        return grid_fail_expected(file, path,
                                  "a template file: \"FILE\" or {\"file\": \"FILE\"}, rendered "
                                  "per run and passed as {conf}",
                                  x, err, errlen);
    name = json_string_value(f);
    ver->config_text = ju_read_file(name, 1u << 20, &len, why, sizeof(why));
    if (!ver->config_text) {
        snprintf(err, errlen, "%s: %s: cannot read template '%s': %s", file, path, name, why);
        return -1;
    }
    if (strlen(ver->config_text) != len) {
        snprintf(err, errlen, "%s: %s: template '%s' holds a NUL byte (expected a text file)", file,
                 path, name);
        return -1;
    }
    sha256_mem(ver->config_text, len, ver->config_sha256);
    base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    n = strlen(base);
    if (n > 3 && strcmp(base + n - 3, ".in") == 0)
        n -= 3;
    snprintf(ver->config_name, sizeof(ver->config_name), "%.*s", (int)n, base);
    ver->config_file = name;
    return 0;
}

static int load_version(struct spec *sp, size_t i, json_t *v, char *err, size_t errlen)
{
    const char *file = sp->path, *k;
    struct spec_version *ver = &sp->versions[i];
    json_t *x;
    char path[256];
    size_t j;

    snprintf(path, sizeof(path), "$.versions[%zu]", i);
    if (!json_is_object(v))
        return grid_fail_expected(file, path, "a version object", v, err, errlen);
    if ((k = grid_unknown_key(v, version_keys))) {
        snprintf(err, errlen,
                 "%s: %s.%s: unknown key '%s' (expected one of: name, ref, "
                 "driver, server, env, description, config)",
                 file, path, k, k);
        return -1;
    }
    x = json_object_get(v, "name");
    snprintf(path, sizeof(path), "$.versions[%zu].name", i);
    if (!x) {
        snprintf(err, errlen,
                 "%s: %s: missing (expected a name of letters, digits, '.', '_', "
                 "'-')",
                 file, path);
        return -1;
    }
    if (!json_is_string(x) || !valid_name(json_string_value(x)) || json_string_length(x) > 64)
        return grid_fail_expected(file, path, "a name of 1 to 64 letters, digits, '.', '_', '-'", x,
                                  err, errlen);
    ver->name = json_string_value(x);
    for (j = 0; j < i; j++)
        if (strcmp(sp->versions[j].name, ver->name) == 0) {
            snprintf(err, errlen, "%s: %s: duplicate version name \"%s\" (also $.versions[%zu])",
                     file, path, ver->name, j);
            return -1;
        }
    if ((x = json_object_get(v, "ref"))) {
        snprintf(path, sizeof(path), "$.versions[%zu].ref", i);
        if (!json_is_string(x))
            return grid_fail_expected(file, path, "a string (git ref or commit)", x, err, errlen);
        ver->ref = json_string_value(x);
    }
    if ((x = json_object_get(v, "description"))) {
        snprintf(path, sizeof(path), "$.versions[%zu].description", i);
        if (!json_is_string(x))
            return grid_fail_expected(file, path, "a string", x, err, errlen);
        ver->description = json_string_value(x);
    }
    if ((x = json_object_get(v, "driver"))) {
        snprintf(path, sizeof(path), "$.versions[%zu].driver", i);
        if (check_command(file, path, x, err, errlen) < 0)
            return -1;
        ver->driver = json_string_value(x);
    }
    if ((x = json_object_get(v, "server"))) {
        if (check_version_map(file, i, "server", x, "an object {protocol: command}",
                              check_server_entry, err, errlen) < 0)
            return -1;
        ver->server = x;
    }
    if ((x = json_object_get(v, "env"))) {
        if (check_version_map(file, i, "env", x, "an object {name: value}", check_env_entry, err,
                              errlen) < 0)
            return -1;
        ver->env = x;
    }
    if ((x = json_object_get(v, "config")) && load_config(ver, file, i, x, err, errlen) < 0)
        return -1;
    return 0;
}

static int get_num(const char *file, json_t *root, const char *key, double min, double max,
                   const char *what, double *out, char *err, size_t errlen)
{
    json_t *v = json_object_get(root, key);
    char path[64];

    if (!v)
        return 0;
    snprintf(path, sizeof(path), "$.%s", key);
    if (!json_is_number(v) || json_number_value(v) < min || json_number_value(v) > max ||
        !isfinite(json_number_value(v)))
        return grid_fail_expected(file, path, what, v, err, errlen);
    *out = json_number_value(v);
    return 0;
}

static int load_grid(struct spec *sp, const char *gpath, char *err, size_t errlen)
{
    struct spec_grid *g = &sp->grids[sp->n_grids];
    struct grid_config *cfgs = NULL;
    size_t n = 0, i, j, kept = 0, over = 0;
    const char *slash, *name;
    json_t *seen;

    memset(g, 0, sizeof(*g));
    g->path = strdup(gpath);
    if (!g->path) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    sp->n_grids++;
    g->root = ju_load_json(gpath, err, errlen);
    if (!g->root)
        return -1;
    if (grid_expand(g->root, gpath, &cfgs, &n, err, errlen) < 0)
        return -1;
    name = json_string_value(json_object_get(g->root, "name"));
    if (!name) {
        slash = strrchr(gpath, '/');
        name = slash ? slash + 1 : gpath;
    }
    g->name = strdup(name);
    {
        struct grid_config *na = realloc(sp->configs, (sp->n_configs + n + 1) * sizeof(*na));
        if (!na || !g->name) {
            free(na ? NULL : NULL);
            if (na)
                sp->configs = na;
            for (i = 0; i < n; i++)
                json_decref(cfgs[i].params);
            free(cfgs);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        sp->configs = na;
    }
    /* ids already taken, by an earlier grid or earlier in this one: a hash set keeps
     * de-duplication linear in the number of configurations */
    seen = json_object();
    for (j = 0; seen && j < sp->n_configs; j++)
        json_object_set_new(seen, sp->configs[j].id, json_true());
    for (i = 0; i < n; i++) {
        if (!seen || json_object_get(seen, cfgs[i].id) || sp->n_configs >= SPEC_MAX_CONFIGS) {
            over += seen && !json_object_get(seen, cfgs[i].id);
            json_decref(cfgs[i].params);
            continue;
        }
        json_object_set_new(seen, cfgs[i].id, json_true());
        cfgs[i].grid = sp->n_grids - 1;
        sp->configs[sp->n_configs++] = cfgs[i];
        kept++;
    }
    g->n_configs = kept;
    free(cfgs);
    json_decref(seen);
    if (!seen) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (over) {
        snprintf(err, errlen,
                 "%s: the grids have %zu configurations in all, more than the %d a run "
                 "can plan (expected at most %d: split the grids, or run them in shards "
                 "of separate runs)",
                 gpath, sp->n_configs + over, SPEC_MAX_CONFIGS, SPEC_MAX_CONFIGS);
        return -1;
    }
    return 0;
}

/* Every configuration must have an endpoint in every version: the version's server, the
 * driver's own (serve), or a port given by the grid. */
static int check_endpoints(struct spec *sp, char *err, size_t errlen)
{
    size_t c, v;

    for (c = 0; c < sp->n_configs; c++) {
        json_t *p = sp->configs[c].params;
        const char *proto = json_string_value(json_object_get(p, "protocol"));
        if (json_is_true(json_object_get(p, "serve")) || json_object_get(p, "port"))
            continue;
        for (v = 0; v < sp->n_versions; v++) {
            if (!json_object_get(sp->versions[v].server, proto)) {
                snprintf(err, errlen,
                         "%s: configuration '%s': version \"%s\" has no "
                         "server.%s and the configuration has no port (expected a server "
                         "command for \"%s\" in the version, \"serve\": true, or a port)",
                         sp->grids[sp->configs[c].grid].path, sp->configs[c].label,
                         sp->versions[v].name, proto, proto);
                return -1;
            }
        }
    }
    return 0;
}

/* Labels must tell configurations apart: a repeated label names its worker threads (the one
 * axis grid_config_label() leaves out when workers is 1 or equals connections), and the id when
 * it still repeats. The labels seen so far sit in a hash set, so this stays linear in the
 * number of configurations. */
static void unique_labels(struct spec *sp)
{
    json_t *seen = json_object();
    size_t i;

    for (i = 0; seen && i < sp->n_configs; i++) {
        struct grid_config *c = &sp->configs[i];
        size_t n = strlen(c->label);
        json_int_t w = json_integer_value(json_object_get(c->params, "workers"));

        if (json_object_get(seen, c->label) && w > 0)
            snprintf(c->label + n, sizeof(c->label) - n, " · %lld worker%s", (long long)w,
                     w == 1 ? "" : "s");
        if (json_object_get(seen, c->label)) {
            c->label[n] = '\0';
            snprintf(c->label + n, sizeof(c->label) - n, " · %s", c->id);
        }
        json_object_set_new(seen, c->label, json_true());
    }
    json_decref(seen);
}

/* Every top-level key of the spec is known. */
static int check_keys(const char *file, json_t *root, char *err, size_t errlen)
{
    static const char *const keys[] = {
        "versions",      "grids",    "runs",         "warmup",      "duration",    "grace",
        "probe_timeout", "gate",     "hash_sources", "description", "noise_limit", "confirm_rounds",
        "instructions",  "syscalls", "cache_sim",    "server_host", "sequence",    NULL};
    const char *k = grid_unknown_key(root, keys);

    if (k) {
        snprintf(err, errlen,
                 "%s: $.%s: unknown key '%s' (expected one of: versions, grids, "
                 "runs, warmup, duration, grace, probe_timeout, gate, hash_sources, "
                 "description, noise_limit, confirm_rounds, instructions, syscalls, cache_sim, "
                 "server_host, sequence)",
                 file, k, k);
        return -1;
    }
    return 0;
}

/* The versions, the schedule's settings, the description, the gate section and the source
 * patterns. */
static int load_settings(struct spec *sp, const char *file, json_t *root, char *err, size_t errlen)
{
    json_t *v, *x;
    size_t i;

    v = json_object_get(root, "versions");
    if (!v) {
        snprintf(err, errlen,
                 "%s: $.versions: missing (expected an array of versions, the "
                 "first is the baseline)",
                 file);
        return -1;
    }
    if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > RUN_MAX_VERSIONS)
        return grid_fail_expected(file, "$.versions", "an array of 1 to 16 versions", v, err,
                                  errlen);
    json_array_foreach(v, i, x)
    {
        if (load_version(sp, i, x, err, errlen) < 0)
            return -1;
        sp->n_versions++;
    }
    if ((v = json_object_get(root, "runs"))) {
        if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 1000)
            return grid_fail_expected(file, "$.runs", "an integer from 1 to 1000 (rounds)", v, err,
                                      errlen);
        sp->runs = (unsigned)json_integer_value(v);
    }
    /* the counted-cost channel: true, or an object of settings cost.c validates */
    sp->instructions = json_object_get(root, "instructions");
    if (sp->instructions && !json_is_boolean(sp->instructions) && !json_is_object(sp->instructions))
        return grid_fail_expected(file, "$.instructions", "true, false or an object of settings",
                                  sp->instructions, err, errlen);
    /* counted runs of system calls: true, or an object of settings syscount_run.c validates */
    sp->syscalls = json_object_get(root, "syscalls");
    sp->cache_sim = json_object_get(root, "cache_sim");
    if ((v = json_object_get(root, "server_host"))) {
        char why[512], shown[1100];
        if (!json_is_string(v))
            return grid_fail_expected(file, "$.server_host", "an ssh URL string", v, err, errlen);
        if (sshhost_parse(json_string_value(v), &sp->server_host, why, sizeof(why)) < 0) {
            sshhost_mask(json_string_value(v), shown, sizeof(shown));
            snprintf(err, errlen, "%s: $.server_host: %s, got '%s'", file, why, shown);
            return -1;
        }
        sp->has_server_host = 1;
    }
    /* one server per version and round through every configuration (run/sequence.h) */
    if ((v = json_object_get(root, "sequence"))) {
        if (!json_is_boolean(v))
            return grid_fail_expected(file, "$.sequence",
                                      "true (one server per version and round through every "
                                      "configuration, in grid order) or false",
                                      v, err, errlen);
        sp->sequence = json_is_true(v);
    }
    if ((v = json_object_get(root, "confirm_rounds"))) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 100)
            return grid_fail_expected(file, "$.confirm_rounds",
                                      "an integer from 0 to 100 (extra rounds at most)", v, err,
                                      errlen);
        sp->confirm_rounds = (unsigned)json_integer_value(v);
    }
    if (get_num(file, root, "warmup", 0, 3600, "a number of seconds from 0 to 3600", &sp->warmup,
                err, errlen) < 0 ||
        get_num(file, root, "duration", 0.001, 86400, "a number of seconds from 0.001 to 86400",
                &sp->duration, err, errlen) < 0 ||
        get_num(file, root, "grace", 0, 3600, "a number of seconds from 0 to 3600", &sp->grace, err,
                errlen) < 0 ||
        get_num(file, root, "probe_timeout", 0.1, 3600, "a number of seconds from 0.1 to 3600",
                &sp->probe_timeout, err, errlen) < 0 ||
        get_num(file, root, "noise_limit", 0.0001, 100, "a positive number", &sp->noise_limit, err,
                errlen) < 0)
        return -1;
    if ((v = json_object_get(root, "description"))) {
        if (!json_is_string(v))
            return grid_fail_expected(file, "$.description", "a string", v, err, errlen);
        sp->description = json_string_value(v);
    }
    if ((v = json_object_get(root, "gate"))) {
        if (!json_is_object(v))
            return grid_fail_expected(file, "$.gate", "an object", v, err, errlen);
        sp->gate = v;
    }
    if ((v = json_object_get(root, "hash_sources"))) {
        char p2[64];
        if (!json_is_array(v))
            return grid_fail_expected(file, "$.hash_sources", "an array of glob patterns", v, err,
                                      errlen);
        json_array_foreach(v, i, x)
        {
            snprintf(p2, sizeof(p2), "$.hash_sources[%zu]", i);
            if (!json_is_string(x) || !json_string_length(x))
                return grid_fail_expected(file, p2, "a glob pattern (string)", x, err, errlen);
        }
        sp->hash_sources = v;
    }
    return 0;
}

/* The grids: the spec's list, or the --grid files instead of it. */
static int load_grids(struct spec *sp, const char *file, json_t *root,
                      const char *const *grid_paths, size_t n_grid_paths, char *err, size_t errlen)
{
    json_t *v, *x;
    size_t i;

    if (n_grid_paths > 0) {
        if (n_grid_paths > RUN_MAX_GRIDS) {
            snprintf(err, errlen, "--grid: at most %d grids", RUN_MAX_GRIDS);
            return -1;
        }
        if ((v = json_object_get(root, "grids")) && !json_is_array(v))
            return grid_fail_expected(file, "$.grids", "an array of grid file paths", v, err,
                                      errlen);
        for (i = 0; i < n_grid_paths; i++)
            if (load_grid(sp, grid_paths[i], err, errlen) < 0)
                return -1;
        return 0;
    }
    v = json_object_get(root, "grids");
    if (!v) {
        snprintf(err, errlen,
                 "%s: $.grids: missing (expected an array of grid files, or pass --grid FILE)",
                 file);
        return -1;
    }
    if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > RUN_MAX_GRIDS)
        return grid_fail_expected(file, "$.grids", "an array of 1 to 32 grid file paths", v, err,
                                  errlen);
    json_array_foreach(v, i, x)
    {
        char p2[64];
        snprintf(p2, sizeof(p2), "$.grids[%zu]", i);
        if (!json_is_string(x) || !json_string_length(x))
            return grid_fail_expected(file, p2, "a grid file path (string)", x, err, errlen);
    }
    json_array_foreach(v, i, x)
    {
        if (load_grid(sp, json_string_value(x), err, errlen) < 0)
            return -1;
    }
    return 0;
}

int spec_load(struct spec *sp, const char *path, json_t *root, const char *const *grid_paths,
              size_t n_grid_paths, char *err, size_t errlen)
{
    const char *file;

    memset(sp, 0, sizeof(*sp));
    sp->warmup = sp->duration = sp->noise_limit = -1;
    sp->grace = 5;
    sp->probe_timeout = 10;
    sp->path = strdup(path);
    if (!sp->path) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    file = sp->path;
    if (root) {
        sp->root = json_incref(root);
    } else {
        sp->root = ju_load_json(path, err, errlen);
        if (!sp->root)
            return -1;
    }
    root = sp->root;
    if (!json_is_object(root))
        return grid_fail_expected(file, "$", "a spec object", root, err, errlen);
    if (check_keys(file, root, err, errlen) < 0 || load_settings(sp, file, root, err, errlen) < 0 ||
        load_grids(sp, file, root, grid_paths, n_grid_paths, err, errlen) < 0 ||
        check_endpoints(sp, err, errlen) < 0 || speccheck_run(sp, err, errlen) < 0)
        return -1;
    unique_labels(sp);
    return 0;
}

void spec_release(struct spec *sp)
{
    size_t i;

    for (i = 0; i < sp->n_configs; i++)
        json_decref(sp->configs[i].params);
    free(sp->configs);
    for (i = 0; i < RUN_MAX_VERSIONS; i++) /* a version refused half-loaded holds one too */
        free(sp->versions[i].config_text);
    for (i = 0; i < sp->n_grids; i++) {
        free(sp->grids[i].path);
        free(sp->grids[i].name);
        json_decref(sp->grids[i].root);
    }
    json_decref(sp->root);
    free(sp->path);
    memset(sp, 0, sizeof(*sp));
}
