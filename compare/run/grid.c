/* grid: strict grid validation, expansion, stable ids and labels (see grid.h). */
#include "run/grid.h"

#include <math.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum key_type { K_ENUM, K_INT, K_NUM, K_BOOL, K_STR };

struct key_rule {
    const char *name;
    enum key_type type;
    double min, max;
    const char *const *choices; /* K_ENUM: NULL-terminated */
    const char *what;           /* "expected ..." */
};

static const char *const protocols[] = {"redis", "tcp", "http", "ws", NULL};
static const char *const transports[] = {"tcp", "tls", NULL};
static const char *const http_versions[] = {"1.1", "2", NULL};
/* What the driver's HTTP workload sends (driver/wl/wl_http.c). */
static const char *const methods[] = {"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", NULL};
static const char *const arrivals[] = {"uniform", "poisson", NULL};

static const struct key_rule key_rules[] = {
    {"protocol", K_ENUM, 0, 0, protocols, "one of \"redis\", \"tcp\", \"http\", \"ws\""},
    {"transport", K_ENUM, 0, 0, transports, "\"tcp\" or \"tls\""},
    {"host", K_STR, 0, 0, NULL, "a host name or address (string)"},
    {"port", K_INT, 1, 65535, NULL, "a port number from 1 to 65535"},
    {"connections", K_INT, 1, 10000, NULL, "an integer from 1 to 10000 (connections)"},
    {"workers", K_INT, 1, 1024, NULL, "an integer from 1 to 1024 (worker threads)"},
    {"pipeline", K_INT, 1, 100000, NULL, "an integer from 1 to 100000 (commands per batch)"},
    {"window", K_INT, 1, 4096, NULL,
     "an integer from 1 to 4096 (batches in flight per connection)"},
    {"payload", K_INT, 1, 67108864, NULL, "a positive integer (bytes)"},
    /* grid_redis.c checks these four */
    {"command", K_STR, 0, 0, NULL, "a built-in name or a command template"},
    {"commands", K_STR, 0, 0, NULL, "a mix"},
    {"key_pattern", K_STR, 0, 0, NULL, "a key pattern"},
    {"setup", K_STR, 0, 0, NULL, "setup commands"},
    {"keyspace", K_INT, 1, 1e9, NULL, "an integer from 1 to 1000000000 (keys)"},
    {"auth", K_BOOL, 0, 0, NULL, "true or false"},
    {"resp", K_INT, 2, 3, NULL, "2 or 3"},
    {"http_version", K_ENUM, 0, 0, http_versions, "\"1.1\" or \"2\""},
    {"path", K_STR, 0, 0, NULL, "a request path starting with '/'"},
    {"serve", K_BOOL, 0, 0, NULL, "true or false"},
    {"serve_workers", K_INT, 1, 1024, NULL, "an integer from 1 to 1024 (server threads)"},
    {"warmup", K_NUM, 0, 3600, NULL, "a number of seconds from 0 to 3600"},
    {"duration", K_NUM, 0.001, 86400, NULL, "a number of seconds from 0.001 to 86400"},
    {"requests", K_INT, 1, 1e12, NULL, "a positive integer (operations)"},
    {"method", K_ENUM, 0, 0, methods,
     "one of \"GET\", \"POST\", \"PUT\", \"PATCH\", \"DELETE\", \"OPTIONS\""},
    /* grid_http.c checks headers and paths */
    {"headers", K_STR, 0, 0, NULL, "request headers"},
    {"paths", K_STR, 0, 0, NULL, "weighted paths"},
    {"body", K_STR, 0, 0, NULL, "a request body (string)"},
    {"body_file", K_STR, 0, 0, NULL, "a file path (string)"},
    {"cacert", K_STR, 0, 0, NULL, "a file path (string)"},
    {"cert", K_STR, 0, 0, NULL, "a file path (string)"},
    {"key", K_STR, 0, 0, NULL, "a file path (string)"},
    {"sni", K_STR, 0, 0, NULL, "a server name (string)"},
    {"insecure", K_BOOL, 0, 0, NULL, "true or false"},
    {"timeout", K_NUM, 0.001, 3600, NULL, "a number of seconds from 0.001 to 3600"},
    {"delay_us", K_INT, 0, 10000000, NULL, "an integer from 0 to 10000000 (microseconds)"},
    {"busy_poll_us", K_INT, 0, 1000, NULL, "an integer from 0 to 1000 (microseconds)"},
    {"rate", K_NUM, 0, 1e9, NULL,
     "a number of operations per second from 0 to 1000000000 (0 = closed loop), or a "
     "percentage of the measured saturation rate from \"1%\" to \"100%\" such as \"50%\""},
    {"arrival", K_ENUM, 0, 0, arrivals, "\"uniform\" or \"poisson\""},
    {"interval_ms", K_INT, 0, 60000, NULL,
     "an integer from 0 to 60000 (milliseconds; 0 = no time series)"},
};
#define N_KEY_RULES (sizeof(key_rules) / sizeof(key_rules[0]))

/* The top-level keys of a grid document. */
static const char *const grid_keys[] = {"name",    "description", "defaults", "axes",
                                        "exclude", "configs",     NULL};

static const char key_list[] =
    "protocol, transport, host, port, connections, workers, pipeline, window, payload, "
    "command, commands, key_pattern, setup, keyspace, auth, resp, http_version, path, serve, "
    "serve_workers, warmup, "
    "duration, requests, method, cacert, cert, key, sni, insecure, timeout, delay_us, "
    "busy_poll_us, rate, arrival, headers, paths, body, body_file, interval_ms";

void grid_show_value(const json_t *v, char *out, size_t outlen)
{
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

    if (!s) {
        snprintf(out, outlen, "?");
        return;
    }
    if (strlen(s) > 60)
        snprintf(out, outlen, "%.57s...", s);
    else
        snprintf(out, outlen, "%s", s);
    free(s);
}

int grid_fail_expected(const char *file, const char *path, const char *what, const json_t *v,
                       char *err, size_t errlen)
{
    char got[80];

    grid_show_value(v, got, sizeof(got));
    snprintf(err, errlen, "%s: %s: expected %s, got %s", file, path, what, got);
    return -1;
}

int grid_word_in(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}

const char *grid_unknown_key(const json_t *obj, const char *const *keys)
{
    const char *k;
    json_t *v;

    json_object_foreach((json_t *)obj, k, v)
    {
        if (!grid_word_in(k, keys))
            return k;
    }
    return NULL;
}

static const struct key_rule *find_rule(const char *key)
{
    size_t i;

    for (i = 0; i < N_KEY_RULES; i++)
        if (strcmp(key_rules[i].name, key) == 0)
            return &key_rules[i];
    return NULL;
}

int grid_check_key(const char *file, const char *path, const char *key, const json_t *value,
                   char *err, size_t errlen)
{
    const struct key_rule *r = find_rule(key);
    double d;
    size_t i;

    if (!r) {
        snprintf(err, errlen, "%s: %s: unknown configuration key '%s' (expected one of: %s)", file,
                 path, key, key_list);
        return -1;
    }
    if (grid_redis_is_key(key))
        return grid_check_redis(file, path, key, value, err, errlen);
    if (grid_http_is_key(key))
        return grid_check_http(file, path, key, value, err, errlen);
    if (strcmp(key, "rate") == 0 && json_is_string(value)) {
        if (grid_rate_percent(value) < 0)
            return grid_fail_expected(file, path, r->what, value, err, errlen);
        return 0;
    }
    switch (r->type) {
    case K_ENUM:
        if (!json_is_string(value))
            return grid_fail_expected(file, path, r->what, value, err, errlen);
        for (i = 0; r->choices[i]; i++)
            if (strcmp(r->choices[i], json_string_value(value)) == 0)
                return 0;
        return grid_fail_expected(file, path, r->what, value, err, errlen);
    case K_INT:
        if (!json_is_integer(value))
            return grid_fail_expected(file, path, r->what, value, err, errlen);
        d = (double)json_integer_value(value);
        if (d < r->min || d > r->max)
            return grid_fail_expected(file, path, r->what, value, err, errlen);
        return 0;
    case K_NUM:
        if (!json_is_number(value))
            return grid_fail_expected(file, path, r->what, value, err, errlen);
        d = json_number_value(value);
        if (!isfinite(d) || d < r->min || d > r->max)
            return grid_fail_expected(file, path, r->what, value, err, errlen);
        return 0;
    case K_BOOL:
        if (!json_is_boolean(value))
            return grid_fail_expected(file, path, r->what, value, err, errlen);
        return 0;
    case K_STR:
        if (!json_is_string(value) || json_string_length(value) == 0 ||
            json_string_length(value) > 4096)
            return grid_fail_expected(file, path, r->what, value, err, errlen);
        if (strcmp(key, "path") == 0 && json_string_value(value)[0] != '/')
            return grid_fail_expected(file, path, r->what, value, err, errlen);
        return 0;
    }
    return 0;
}

/* ---- ids and labels ---- */

int grid_check_rate_windows(const struct grid_config *cfgs, size_t n, double cli_s, double spec_s,
                            char *err, size_t errlen)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const json_t *p = cfgs[i].params, *rate = json_object_get(p, "rate");
        const json_t *dur = json_object_get(p, "duration");
        const char *arrival = json_string_value(json_object_get(p, "arrival"));
        int poisson = arrival && strcmp(arrival, "poisson") == 0;
        double least = poisson ? 5 : 1, d = json_number_value(rate), w = spec_s >= 0 ? spec_s : 5;

        if (cli_s >= 0)
            w = cli_s;
        else if (json_is_number(dur))
            w = json_number_value(dur);
        if (!json_is_number(rate) || !(d > 0) || d * w >= least)
            continue;
        snprintf(err, errlen,
                 "configuration '%s': rate %g: %g requests due in its %g s window; expected at "
                 "least %g requests/s (%s; the driver refuses it)",
                 cfgs[i].label, d, d * w, w, least / w,
                 poisson ? "5 due per window with arrival poisson, so that it is seldom empty"
                         : "1 due per window");
        return -1;
    }
    return 0;
}

int grid_config_id(const json_t *params, char id[9])
{
    json_t *copy = json_deep_copy(params);
    char *text = NULL;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    int rc = -1, i;

    if (!copy)
        return -1;
    json_object_del(copy, "host");
    json_object_del(copy, "port");
    text = json_dumps(copy, JSON_SORT_KEYS | JSON_COMPACT);
    if (!text)
        goto out;
    if (EVP_Digest(text, strlen(text), md, &mdlen, EVP_sha256(), NULL) != 1)
        goto out;
    for (i = 0; i < 4; i++)
        snprintf(id + 2 * i, 3, "%02x", md[i]);
    rc = 0;
out:
    free(text);
    json_decref(copy);
    return rc;
}

/* ---- grids ---- */

static int check_config_object(const char *file, const char *path, const json_t *obj, char *err,
                               size_t errlen)
{
    const char *k;
    json_t *v;
    char sub[256];

    if (!json_is_object(obj))
        return grid_fail_expected(file, path, "an object of configuration keys", obj, err, errlen);
    json_object_foreach((json_t *)obj, k, v)
    {
        snprintf(sub, sizeof(sub), "%s.%s", path, k);
        if (grid_check_key(file, sub, k, v, err, errlen) < 0)
            return -1;
    }
    return 0;
}

/* Cross-key rules and driver defaults, once a configuration is complete. */
static int finish_config(const char *file, const char *where, json_t *p, char *err, size_t errlen)
{
    const char *proto;
    static const char *const redis_only[] = {"command",  "keyspace", "auth",       "resp",
                                             "commands", "setup",    "key_pattern"};
    static const char *const web_only[] = {"path",  "http_version", "method",   "headers",
                                           "paths", "body",         "body_file"};
    size_t i;

    if (!json_object_get(p, "protocol")) {
        snprintf(err, errlen,
                 "%s: %s: missing key 'protocol' (expected one of \"redis\", "
                 "\"tcp\", \"http\", \"ws\")",
                 file, where);
        return -1;
    }
    proto = json_string_value(json_object_get(p, "protocol"));
    for (i = 0; i < sizeof(redis_only) / sizeof(redis_only[0]); i++)
        if (strcmp(proto, "redis") != 0 && json_object_get(p, redis_only[i])) {
            snprintf(err, errlen,
                     "%s: %s: key '%s' applies to protocol \"redis\" only, got "
                     "protocol \"%s\"",
                     file, where, redis_only[i], proto);
            return -1;
        }
    for (i = 0; i < sizeof(web_only) / sizeof(web_only[0]); i++)
        if (strcmp(proto, "http") != 0 && strcmp(proto, "ws") != 0 &&
            json_object_get(p, web_only[i])) {
            snprintf(err, errlen,
                     "%s: %s: key '%s' applies to protocols \"http\" and \"ws\" "
                     "only, got protocol \"%s\"",
                     file, where, web_only[i], proto);
            return -1;
        }
    if (json_object_get(p, "delay_us") && !json_is_true(json_object_get(p, "serve"))) {
        snprintf(err, errlen,
                 "%s: %s: key 'delay_us' needs \"serve\": true (it slows the "
                 "reference server the driver hosts)",
                 file, where);
        return -1;
    }
    if (json_object_get(p, "serve_workers") && !json_is_true(json_object_get(p, "serve"))) {
        snprintf(err, errlen, "%s: %s: key 'serve_workers' needs \"serve\": true", file, where);
        return -1;
    }
    if (json_is_true(json_object_get(p, "serve")) && strcmp(proto, "redis") == 0) {
        snprintf(err, errlen,
                 "%s: %s: \"serve\": true needs protocol \"tcp\", \"http\" or "
                 "\"ws\" (there is no reference redis server)",
                 file, where);
        return -1;
    }
    /* the driver's defaults made explicit, so that {} and {"connections": 1} are one id */
    if (!json_object_get(p, "transport"))
        json_object_set_new(p, "transport", json_string("tcp"));
    if (!json_object_get(p, "connections"))
        json_object_set_new(p, "connections", json_integer(1));
    if (!json_object_get(p, "workers"))
        json_object_set_new(p, "workers", json_integer(1));
    if (!json_object_get(p, "pipeline"))
        json_object_set_new(p, "pipeline", json_integer(1));
    if (!json_object_get(p, "window"))
        json_object_set_new(p, "window", json_integer(1));
    if (!json_object_get(p, "payload"))
        json_object_set_new(p, "payload", json_integer(64));
    if (strcmp(proto, "redis") == 0 && !json_object_get(p, "command") &&
        !json_object_get(p, "commands"))
        json_object_set_new(p, "command", json_string("ECHO"));
    if (json_integer_value(json_object_get(p, "workers")) >
        json_integer_value(json_object_get(p, "connections"))) {
        /* a worker without a connection measures nothing and idles a thread */
        snprintf(err, errlen,
                 "%s: %s: key 'workers' is %lld but 'connections' is %lld (expected workers <= "
                 "connections: each worker drives at least one connection)",
                 file, where, (long long)json_integer_value(json_object_get(p, "workers")),
                 (long long)json_integer_value(json_object_get(p, "connections")));
        return -1;
    }
    return 0;
}

static int excluded(const json_t *p, const json_t *exclude)
{
    size_t i;
    json_t *e;

    json_array_foreach(exclude, i, e)
    {
        const char *k;
        json_t *v;
        int all = 1;
        json_object_foreach(e, k, v)
        {
            if (!json_equal(json_object_get(p, k), v)) {
                all = 0;
                break;
            }
        }
        if (all && json_object_size(e) > 0)
            return 1;
    }
    return 0;
}

static int push_config(struct grid_config **arr, size_t *n, size_t *cap, json_t *p)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        struct grid_config *na = realloc(*arr, nc * sizeof(*na));
        if (!na)
            return -1;
        *arr = na;
        *cap = nc;
    }
    memset(&(*arr)[*n], 0, sizeof((*arr)[*n]));
    (*arr)[*n].params = p;
    grid_config_id(p, (*arr)[*n].id);
    grid_config_label(p, (*arr)[*n].label, sizeof((*arr)[*n].label));
    (*n)++;
    return 0;
}

/* One grid being expanded: its parts, its axes in order, the configurations so far. */
struct expansion {
    const char *file;
    const json_t *defaults, *axes, *exclude, *configs;
    const char *axis_key[64];
    json_t *axis_val[64];
    size_t n_axes;
    struct grid_config *arr;
    size_t cnt, cap;
    char *err;
    size_t errlen;
};

/* The grid's own keys: an object of known keys, its name and description strings. */
static int check_grid_keys(const json_t *grid, const char *file, char *err, size_t errlen)
{
    const char *k;
    json_t *v;

    if (!json_is_object(grid))
        return grid_fail_expected(file, "$", "a grid object", grid, err, errlen);
    if ((k = grid_unknown_key(grid, grid_keys))) {
        snprintf(err, errlen,
                 "%s: $.%s: unknown key '%s' (expected one of: name, "
                 "description, defaults, axes, exclude, configs)",
                 file, k, k);
        return -1;
    }
    if ((v = json_object_get(grid, "name")) && (!json_is_string(v) || !json_string_length(v)))
        return grid_fail_expected(file, "$.name", "a non-empty string", v, err, errlen);
    if ((v = json_object_get(grid, "description")) && !json_is_string(v))
        return grid_fail_expected(file, "$.description", "a string", v, err, errlen);
    return 0;
}

/* "axes": every key known, every value list non-empty and valid, at most 64 axes whose
 * product stays within GRID_MAX_CONFIGS; the axes are noted in x in order. */
static int check_axes(struct expansion *x)
{
    const char *k;
    json_t *v;
    char path[256];
    size_t total = 1;

    if (!json_is_object(x->axes))
        return grid_fail_expected(x->file, "$.axes", "an object of key: [values]", x->axes, x->err,
                                  x->errlen);
    json_object_foreach((json_t *)x->axes, k, v)
    {
        size_t j;
        json_t *e;
        snprintf(path, sizeof(path), "$.axes.%s", k);
        if (!find_rule(k)) {
            snprintf(x->err, x->errlen,
                     "%s: %s: unknown configuration key '%s' (expected one of: "
                     "%s)",
                     x->file, path, k, key_list);
            return -1;
        }
        if (!json_is_array(v) || json_array_size(v) == 0)
            return grid_fail_expected(x->file, path, "a non-empty array of values", v, x->err,
                                      x->errlen);
        json_array_foreach(v, j, e)
        {
            snprintf(path, sizeof(path), "$.axes.%s[%zu]", k, j);
            if (grid_check_key(x->file, path, k, e, x->err, x->errlen) < 0)
                return -1;
        }
        if (x->n_axes == 64) {
            snprintf(x->err, x->errlen, "%s: $.axes: more than 64 axes", x->file);
            return -1;
        }
        x->axis_key[x->n_axes] = k;
        x->axis_val[x->n_axes] = v;
        x->n_axes++;
        /* saturating: the message names the count, however large */
        total = total > 1000000000000ull ? total : total * json_array_size(v);
    }
    if (total > GRID_MAX_CONFIGS) {
        snprintf(x->err, x->errlen,
                 "%s: $.axes: the product has %llu configurations, more than the %d a run "
                 "can plan (expected at most %d: split the grid, or fewer axis values)",
                 x->file, (unsigned long long)total, GRID_MAX_CONFIGS, GRID_MAX_CONFIGS);
        return -1;
    }
    return 0;
}

/* "exclude" or "configs" (named by key): an array of configuration objects. */
static int check_config_list(const char *file, const char *key, const json_t *list, char *err,
                             size_t errlen)
{
    char path[256];
    size_t i;
    json_t *e;

    snprintf(path, sizeof(path), "$.%s", key);
    if (!json_is_array(list))
        return grid_fail_expected(file, path, "an array of objects", list, err, errlen);
    json_array_foreach(list, i, e)
    {
        snprintf(path, sizeof(path), "$.%s[%zu]", key, i);
        if (check_config_object(file, path, e, err, errlen) < 0)
            return -1;
    }
    return 0;
}

/* Finishes p (a new reference, taken over) as the configuration named where and appends it.
 * Returns 0, or -1 with err (p released). */
static int add_config(struct expansion *x, const char *where, json_t *p)
{
    if (finish_config(x->file, where, p, x->err, x->errlen) < 0) {
        json_decref(p);
        return -1;
    }
    if (push_config(&x->arr, &x->cnt, &x->cap, p) < 0) {
        snprintf(x->err, x->errlen, "%s: out of memory", x->file);
        json_decref(p);
        return -1;
    }
    return 0;
}

/* A fresh copy of the grid's defaults (an empty object without), or NULL with err. */
static json_t *new_config(struct expansion *x)
{
    json_t *p = x->defaults ? json_deep_copy(x->defaults) : json_object();

    if (!p)
        snprintf(x->err, x->errlen, "%s: out of memory", x->file);
    return p;
}

/* The axes' product over the defaults, first axis outermost, minus the excluded ones. */
static int expand_axes(struct expansion *x)
{
    size_t idx[64] = {0}, i;

    for (;;) {
        json_t *p = new_config(x);
        if (!p)
            return -1;
        for (i = 0; i < x->n_axes; i++)
            json_object_set(p, x->axis_key[i], json_array_get(x->axis_val[i], idx[i]));
        if (!x->exclude || !excluded(p, x->exclude)) {
            char where[192];
            char lbl[160];
            grid_config_label(p, lbl, sizeof(lbl));
            snprintf(where, sizeof(where), "configuration '%s'", lbl);
            if (add_config(x, where, p) < 0)
                return -1;
        } else {
            json_decref(p);
        }
        /* odometer, last axis fastest */
        for (i = x->n_axes; i > 0; i--) {
            if (++idx[i - 1] < json_array_size(x->axis_val[i - 1]))
                break;
            idx[i - 1] = 0;
        }
        if (i == 0)
            return 0;
    }
}

/* Each of "configs" over the defaults. */
static int expand_configs(struct expansion *x)
{
    size_t i;
    json_t *e;

    json_array_foreach(x->configs, i, e)
    {
        const char *ck;
        json_t *cv, *p = new_config(x);
        char path[256];
        if (!p)
            return -1;
        json_object_foreach(e, ck, cv)
        {
            json_object_set(p, ck, cv);
        }
        snprintf(path, sizeof(path), "$.configs[%zu]", i);
        if (add_config(x, path, p) < 0)
            return -1;
    }
    return 0;
}

int grid_expand(const json_t *grid, const char *file, struct grid_config **out, size_t *n,
                char *err, size_t errlen)
{
    struct expansion x = {.file = file, .err = err, .errlen = errlen};
    size_t i;

    *out = NULL;
    *n = 0;
    if (check_grid_keys(grid, file, err, errlen) < 0)
        return -1;
    x.defaults = json_object_get(grid, "defaults");
    x.axes = json_object_get(grid, "axes");
    x.exclude = json_object_get(grid, "exclude");
    x.configs = json_object_get(grid, "configs");
    if ((x.defaults && check_config_object(file, "$.defaults", x.defaults, err, errlen) < 0) ||
        (x.axes && check_axes(&x) < 0) ||
        (x.exclude && check_config_list(file, "exclude", x.exclude, err, errlen) < 0) ||
        (x.configs && check_config_list(file, "configs", x.configs, err, errlen) < 0))
        return -1;
    if (!x.axes && !x.configs && !x.defaults) {
        snprintf(err, errlen, "%s: $: a grid needs \"axes\", \"defaults\" or \"configs\"", file);
        return -1;
    }
    /* axes product over defaults (without axes and configs: defaults alone is one config) */
    if (((x.axes || !x.configs) && expand_axes(&x) < 0) || (x.configs && expand_configs(&x) < 0))
        goto fail;
    grid_label_axes(x.arr, x.cnt, x.axis_key, x.axis_val, x.n_axes);
    if (x.cnt == 0) {
        snprintf(err, errlen, "%s: $.exclude: every configuration is excluded", file);
        goto fail;
    }
    *out = x.arr;
    *n = x.cnt;
    return 0;
fail:
    for (i = 0; i < x.cnt; i++)
        json_decref(x.arr[i].params);
    free(x.arr);
    return -1;
}
