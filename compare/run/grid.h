/* grid: one grid document (docs/architecture.md#grid) validated strictly and expanded into
 * configurations — the cartesian product of its axes over its defaults, minus exclude, plus configs
 * — each with a stable id (first 8 hex digits of the SHA-256 of its canonical JSON) and a human
 * label. Pure logic, no I/O: unit tests and fuzzers call it on JSON documents. */
#ifndef PAIRBENCH_GRID_H
#define PAIRBENCH_GRID_H

#include <stddef.h>

#include <jansson.h>

/* The most configurations a grid (and a spec, all grids together) may expand to: a run plans,
 * records and renders every one, in time linear in their number. */
#define GRID_MAX_CONFIGS 100000

struct grid_config {
    char id[9];
    char label[192];
    json_t *params; /* owned: the configuration (grid defaults, axes, driver defaults) */
    size_t grid;    /* index of its grid in the spec */
};

/* Validates and expands one grid document: axes product over defaults, minus exclude, plus
 * configs, in that order (first axis outermost). *out and *n get the configurations (ids and
 * labels filled; release each params and free the array). file names the grid in messages,
 * e.g. "grids/x.json: $.axes.payload[2]: expected a positive integer (bytes), got "4k"".
 * Returns 0, or -1 with err. */
int grid_expand(const json_t *grid, const char *file, struct grid_config **out, size_t *n,
                char *err, size_t errlen);

/* Checks one configuration key/value; path is the JSON path for messages. Returns 0, or -1. */
int grid_check_key(const char *file, const char *path, const char *key, const json_t *value,
                   char *err, size_t errlen);

/* The stable id: first 8 hex digits of SHA-256 over the canonical JSON (sorted keys, compact)
 * of params without "host" and "port". Returns 0, or -1. */
int grid_config_id(const json_t *params, char id[9]);
/* A configuration of cfgs[0..n) at a fixed rate (a number, not a percentage) whose window
 * holds fewer requests than the driver runs (1 due, 5 with "arrival": "poisson"): -1 with
 * err naming it, the rate and what was expected (the driver refuses it, exit 2). The window
 * is cli_s when >= 0, else the configuration's "duration", else spec_s when >= 0, else 5. */
int grid_check_rate_windows(const struct grid_config *cfgs, size_t n, double cli_s, double spec_s,
                            char *err, size_t errlen);

/* The label, e.g. "redis · tls · 4 KiB · pipeline16 · window1 · 4 clients". */
void grid_config_label(const json_t *params, char *out, size_t outlen);

/* grid_redis.c: whether key is one of the Redis workload keys (command, commands,
 * key_pattern, setup); their check as the driver parses them (a template, a mix, a key
 * pattern, a setup: its file is read); and the label text of the command or mix. */
int grid_redis_is_key(const char *key);
int grid_check_redis(const char *file, const char *path, const char *key, const json_t *value,
                     char *err, size_t errlen);
void grid_redis_label(const json_t *params, char *out, size_t outlen);

/* grid_http.c: whether key is "headers" or "paths"; its check as the driver reads it; and the
 * label text of the paths ("/a", "3 paths", or "" without paths). */
int grid_http_is_key(const char *key);
int grid_check_http(const char *file, const char *path, const char *key, const json_t *value,
                    char *err, size_t errlen);
void grid_http_label(const json_t *params, char *out, size_t outlen);

/* Appends "key value" to the labels of configs[0..n) for every axis with two or more values
 * whose key grid_config_label() does not show (host, port, sni, timeout, warmup, ...), so
 * a label names every axis that varies. */
void grid_label_axes(struct grid_config *configs, size_t n, const char *const *axis_key,
                     json_t *const *axis_val, size_t n_axes);

/* A "rate" given as a percentage of the saturation rate ("50%", "12.5%"): the percentage
 * (1 to 100); 0 when v is no string (an absolute rate, or none); -1 when v is a string of
 * another form or out of range. */
double grid_rate_percent(const json_t *v);

/* Size in words: "64 B", "4 KiB", "1 MiB", "1500 B". */
void grid_format_size(unsigned long long bytes, char *out, size_t outlen);

/* Whether s is one of the words of list (NULL-ended). */
int grid_word_in(const char *s, const char *const *list);

/* The first key of obj that is not one of keys (NULL-ended), in obj's order; NULL when every
 * key is known (or obj is no object). */
const char *grid_unknown_key(const json_t *obj, const char *const *keys);

/* A JSON value as compact JSON for an error message, cut at 60 characters. */
void grid_show_value(const json_t *v, char *out, size_t outlen);

/* Writes "FILE: PATH: expected WHAT, got VALUE" (the value as compact JSON, cut at 60
 * characters) to err and returns -1. */
int grid_fail_expected(const char *file, const char *path, const char *what, const json_t *v,
                       char *err, size_t errlen);

#endif
