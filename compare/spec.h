/* spec: strict loading of a spec file (design §2: versions, grids, settings) and of its grids
 * (design §3), expanded into the list of configurations to run, each with a stable id (first
 * 8 hex digits of the SHA-256 of its canonical JSON) and a human label. Bad input is refused
 * with the file, the JSON path, the bad value and what was expected; nothing runs then. */
#ifndef PAIRBENCH_SPEC_H
#define PAIRBENCH_SPEC_H

#include <stddef.h>

#include <jansson.h>

#include "run.h"

struct spec_version {
    const char *name;        /* unique, [A-Za-z0-9._-]+ */
    const char *ref;         /* or NULL */
    const char *driver;      /* driver command, or NULL = this install's bin/driver */
    const char *description; /* or NULL */
    json_t *server;          /* borrowed: {protocol: command}, or NULL */
    json_t *env;             /* borrowed: {name: value}, or NULL */
};

struct spec_grid {
    char *path;       /* as given (relative to the cwd) */
    char *name;       /* the grid's "name", or its file name */
    json_t *root;     /* the parsed grid */
    size_t n_configs; /* configurations it contributed (after de-duplication) */
};

struct spec_config {
    char id[9];
    char label[192];
    json_t *params; /* owned: the configuration (grid defaults, axes, driver defaults) */
    size_t grid;    /* index into spec.grids */
};

struct spec {
    char *path;
    json_t *root;
    struct spec_version versions[RUN_MAX_VERSIONS];
    size_t n_versions;
    struct spec_grid grids[RUN_MAX_GRIDS];
    size_t n_grids;
    struct spec_config *configs;
    size_t n_configs;
    unsigned runs;           /* 0 when the spec does not say */
    double warmup, duration; /* < 0 when the spec does not say */
    double grace;            /* default 5 */
    double probe_timeout;    /* default 10 */
    double noise_limit;      /* < 0 when the spec does not say */
    const char *description;
    json_t *gate;         /* borrowed, or NULL (validated by gate.c) */
    json_t *hash_sources; /* borrowed array of glob strings, or NULL */
};

/* Loads path (or, when root is given, that document, with path used in messages) and the
 * grids (grid_paths when n_grid_paths > 0, else the spec's "grids"). Returns 0, or -1 with
 * err like "grids/x.json: $.axes.payload[2]: expected a positive integer (bytes), got "4k""
 * or "spec.json:3:15: malformed JSON: ...". Release with spec_release() either way. */
int spec_load(struct spec *sp, const char *path, json_t *root, const char *const *grid_paths,
              size_t n_grid_paths, char *err, size_t errlen);
void spec_release(struct spec *sp);

/* Validates and expands one grid document: axes product over defaults, minus exclude, plus
 * configs, in that order (first axis outermost). *out and *n get the configurations (ids and
 * labels filled; release each params and free the array). file names the grid in messages.
 * Returns 0, or -1 with err. */
int spec_grid_expand(const json_t *grid, const char *file, struct spec_config **out, size_t *n,
                     char *err, size_t errlen);

/* Checks one configuration key/value; path is the JSON path for messages. Returns 0, or -1. */
int spec_check_key(const char *file, const char *path, const char *key, const json_t *value,
                   char *err, size_t errlen);

/* The stable id: first 8 hex digits of SHA-256 over the canonical JSON (sorted keys, compact)
 * of params without "host" and "port". Returns 0, or -1. */
int spec_config_id(const json_t *params, char id[9]);

/* The label, e.g. "redis · tls · 4 KiB · pipeline16 · window1 · 4 clients". */
void spec_config_label(const json_t *params, char *out, size_t outlen);

/* Size in words: "64 B", "4 KiB", "1 MiB", "1500 B". */
void spec_format_size(unsigned long long bytes, char *out, size_t outlen);

#endif
