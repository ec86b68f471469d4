/* spec: strict loading of a spec file (docs/architecture.md#spec: versions, grids, settings) and of
 * the grids it names (grid.h expands each into configurations). Bad input is refused with the file,
 * the JSON path, the bad value and what was expected; nothing runs then. */
#ifndef PAIRBENCH_SPEC_H
#define PAIRBENCH_SPEC_H

#include <stddef.h>

#include <jansson.h>

#include "run/grid.h"
#include "run/run.h"
#include "run/sshhost.h"

/* The most configurations one spec may expand to (all grids together, after de-duplication). */
#define SPEC_MAX_CONFIGS GRID_MAX_CONFIGS

struct spec_version {
    const char *name;        /* unique, [A-Za-z0-9._-]+ */
    const char *ref;         /* or NULL */
    const char *driver;      /* driver command, or NULL = this install's bin/driver */
    const char *description; /* or NULL */
    json_t *server;          /* borrowed: {protocol: command}, or NULL */
    json_t *env;             /* borrowed: {name: value}, or NULL */
    /* "config": a configuration file template, rendered per run into the server's {dir} with
     * the placeholders expanded (words_render), its path the server command's {conf}; NULL:
     * none. The template's text (owned) and SHA-256, and the rendered file's name (the
     * template's base name without a trailing ".in") */
    const char *config_file;
    char *config_text;
    char config_sha256[65];
    char config_name[256];
};

struct spec_grid {
    char *path;       /* as given (relative to the cwd) */
    char *name;       /* the grid's "name", or its file name */
    json_t *root;     /* the parsed grid */
    size_t n_configs; /* configurations it contributed (after de-duplication) */
};

struct spec {
    char *path;
    json_t *root;
    struct spec_version versions[RUN_MAX_VERSIONS];
    size_t n_versions;
    struct spec_grid grids[RUN_MAX_GRIDS];
    size_t n_grids;
    struct grid_config *configs;
    size_t n_configs;
    unsigned runs;           /* 0 when the spec does not say */
    double warmup, duration; /* < 0 when the spec does not say */
    double grace;            /* default 5 */
    double probe_timeout;    /* default 10 */
    double noise_limit;      /* < 0 when the spec does not say */
    unsigned confirm_rounds; /* cap of extra rounds for borderline rows; 0 = none */
    int sequence; /* "sequence": true: each version's server lives through every configuration
                   * of a round, one step each (run/sequence.h); 0 = a fresh server per run */
    const char *description;
    json_t *gate;         /* borrowed, or NULL (validated by gate.c) */
    json_t *hash_sources; /* borrowed array of glob strings, or NULL */
    json_t *instructions; /* borrowed: true/false or {settings} (cost.h), or NULL */
    json_t *cache_sim;    /* borrowed: true/false (run/cost_cache.h), or NULL */
    json_t *syscalls;     /* borrowed: true/false or {settings} (syscount_run.h), or NULL */
    /* "server_host": where every version's server runs (sshhost.h); has_server_host 0 = here */
    int has_server_host;
    struct server_host server_host;
};

/* Loads path (or, when root is given, that document, with path used in messages) and the
 * grids (grid_paths when n_grid_paths > 0, else the spec's "grids"). Returns 0, or -1 with
 * err like "grids/x.json: $.axes.payload[2]: expected a positive integer (bytes), got "4k""
 * or "spec.json:3:15: malformed JSON: ...". Release with spec_release() either way. */
int spec_load(struct spec *sp, const char *path, json_t *root, const char *const *grid_paths,
              size_t n_grid_paths, char *err, size_t errlen);
void spec_release(struct spec *sp);

#endif
