/* The driver's configuration (see opts.h): one table of keys drives both the flag parser and
 * the --config JSON loader, so a key means the same thing in both places and error messages
 * name the flag (`--window`) or the file and key (`'run.json': key 'window'`). */
#include "opts.h"

#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "engine/arrival.h"
#include "num.h"
#include "wl/http_req.h"

#define M_CLIENT 1u
#define M_SERVE 2u
#define M_ALL (M_CLIENT | M_SERVE)

enum key_type {
    T_UNS,       /* unsigned */
    T_INT,       /* int */
    T_U64,       /* uint64_t */
    T_SIZE,      /* size_t, with k/M suffixes */
    T_DBL,       /* double seconds */
    T_STR,       /* char array */
    T_BOOL,      /* int 0/1; a flag without value */
    T_CHOICE,    /* char array, one of a list (case-insensitive, stored as listed) */
    T_TRANSPORT, /* enum drv_transport */
    T_PROTO,     /* config files only: must match the protocol word */
    T_CMD,       /* redis command: a built-in name (stored as listed) or a command line */
    T_JSON,      /* JSON text (a flag's value as written; a config value re-encoded) */
};

struct key {
    const char *name; /* JSON key; the flag is "--" + name with '_' written '-' */
    enum key_type type;
    unsigned modes;
    size_t off, size;
    double min, max;
    const char *const *choices;
    const char *expect; /* what a good value looks like, for messages */
};

static const char *const redis_commands[] = {
    "ECHO", "PING",       "SET",        "GET",        "INCR",       "LPUSH", "RPUSH",
    "LPOP", "RPOP",       "SADD",       "HSET",       "SPOP",       "ZADD",  "ZPOPMIN",
    "MSET", "LRANGE_100", "LRANGE_300", "LRANGE_500", "LRANGE_600", NULL};
static const char *const http_versions[] = {"1.1", "2", NULL};
static const char *const http_methods[] = {"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", 0};
static const char *const arrivals[] = {"uniform", "poisson", NULL};

#define F(field) offsetof(struct drv_opts, field), sizeof(((struct drv_opts *)0)->field)

static const struct key keys[] = {
    {"protocol", T_PROTO, M_ALL, 0, 0, 0, 0, NULL, "the protocol named on the command line"},
    {"transport", T_TRANSPORT, M_ALL, F(transport), 0, 0, NULL, "tcp or tls"},
    {"host", T_STR, M_ALL, F(host), 0, 0, NULL, "a host name or address"},
    {"port", T_INT, M_ALL, F(port), 0, 65535, NULL,
     "a port number 1..65535 (driver serve: 0 picks a free one)"},
    {"connections", T_UNS, M_CLIENT, F(connections), 1, 10000, NULL, "an integer in 1..10000"},
    {"workers", T_UNS, M_ALL, F(workers), 1, 10000, NULL, "an integer in 1..10000"},
    {"pipeline", T_UNS, M_CLIENT, F(pipeline), 1, 100000, NULL, "an integer in 1..100000"},
    {"window", T_UNS, M_CLIENT, F(window), 1, 4096, NULL, "an integer in 1..4096"},
    {"payload", T_SIZE, M_ALL, F(payload), 0, 64 * 1024 * 1024, NULL,
     "a size in bytes 0..64MiB (suffix k or M allowed)"},
    {"warmup", T_DBL, M_CLIENT, F(warmup_s), 0, 86400, NULL, "seconds in 0..86400"},
    {"duration", T_DBL, M_CLIENT, F(duration_s), 1e-3, 86400, NULL, "seconds in 0.001..86400"},
    {"requests", T_U64, M_CLIENT, F(requests), 0, 1e15, NULL,
     "an operation count in 1..10^15 (0 = use the duration)"},
    {"command", T_CMD, M_CLIENT, F(command), 0, 0, redis_commands,
     "one of ECHO PING SET GET INCR LPUSH RPUSH LPOP RPOP SADD HSET SPOP ZADD ZPOPMIN MSET "
     "LRANGE_100 LRANGE_300 LRANGE_500 LRANGE_600, or a command line (a template)"},
    {"key_pattern", T_STR, M_CLIENT, F(key_pattern), 0, 0, NULL,
     "uniform, sequential, gaussian or zipf:EXP"},
    {"commands", T_JSON, M_CLIENT, F(commands), 0, 0, NULL,
     "a JSON array of {\"command\": ..., \"weight\": ...}"},
    {"setup", T_JSON, M_CLIENT, F(setup), 0, 0, NULL,
     "a file of commands, or a JSON array of commands and generators"},
    {"keyspace", T_U64, M_CLIENT, F(keyspace), 0, 1e12, NULL, "a key count in 0..10^12"},
    {"auth", T_BOOL, M_CLIENT, F(auth), 0, 0, NULL, "true or false"},
    {"resp", T_INT, M_CLIENT, F(resp), 2, 3, NULL, "2 or 3"},
    {"password_file", T_STR, M_CLIENT, F(password_file), 0, 0, NULL, "a file path"},
    {"no_prefill", T_BOOL, M_CLIENT, F(no_prefill), 0, 0, NULL, "true or false"},
    {"path", T_STR, M_ALL, F(path), 0, 0, NULL, "a request path starting with '/'"},
    {"http_version", T_CHOICE, M_CLIENT, F(http_version), 0, 0, http_versions, "1.1 or 2"},
    {"method", T_CHOICE, M_CLIENT, F(method), 0, 0, http_methods,
     "GET, POST, PUT, PATCH, DELETE or OPTIONS"},
    {"headers", T_JSON, M_CLIENT, F(headers), 0, 0, NULL, "a JSON object of headers"},
    {"body", T_STR, M_CLIENT, F(body), 0, 0, NULL, "a request body (text)"},
    {"body_file", T_STR, M_CLIENT, F(body_file), 0, 0, NULL, "a file path"},
    {"paths", T_JSON, M_CLIENT, F(paths), 0, 0, NULL, "a JSON array of paths and weights"},
    {"cacert", T_STR, M_ALL, F(cacert), 0, 0, NULL, "a file path"},
    {"cert", T_STR, M_ALL, F(cert), 0, 0, NULL, "a file path"},
    {"key", T_STR, M_ALL, F(key), 0, 0, NULL, "a file path"},
    {"sni", T_STR, M_CLIENT, F(sni), 0, 0, NULL, "a host name"},
    {"insecure", T_BOOL, M_CLIENT, F(insecure), 0, 0, NULL, "true or false"},
    {"serve", T_BOOL, M_CLIENT, F(serve), 0, 0, NULL, "true or false"},
    {"serve_workers", T_UNS, M_CLIENT, F(serve_workers), 1, 256, NULL, "an integer in 1..256"},
    {"delay_us", T_UNS, M_ALL, F(delay_us), 0, 10000000, NULL, "microseconds in 0..10000000"},
    {"work", T_UNS, M_ALL, F(work), 0, 100000000, NULL, "a round count in 0..100000000"},
    {"extra_syscalls", T_UNS, M_ALL, F(extra_syscalls), 0, 1000, NULL, "a count in 0..1000"},
    {"extra_allocs", T_UNS, M_ALL, F(extra_allocs), 0, 1000, NULL, "a count in 0..1000"},
    {"extra_wakeups", T_UNS, M_ALL, F(extra_wakeups), 0, 100, NULL, "a count in 0..100"},
    {"timeout", T_DBL, M_ALL, F(timeout_s), 1e-3, 3600, NULL, "seconds in 0.001..3600"},
    {"seed", T_U64, M_CLIENT, F(seed), 0, 2147483647, NULL, "an integer in 0..2147483647"},
    {"busy_poll_us", T_UNS, M_CLIENT, F(busy_poll_us), 0, 1000, NULL, "microseconds in 0..1000"},
    {"lockstep", T_BOOL, M_CLIENT, F(lockstep), 0, 0, NULL, "true or false"},
    {"error_limit", T_DBL, M_CLIENT, F(error_limit), 0, 100, NULL,
     "a percentage of successful operations in 0..100"},
    {"rate", T_DBL, M_CLIENT, F(rate), 0, 1e9, NULL,
     "operations per second in 0..10^9 over all connections (0 = closed loop)"},
    {"arrival", T_CHOICE, M_CLIENT, F(arrival), 0, 0, arrivals, "uniform or poisson"},
    {"stall", T_STR, M_ALL, F(stall), 0, 0, NULL,
     "MS/PERIOD_MS in milliseconds with 0 < MS < PERIOD_MS <= 3600000 (e.g. 50/1000)"},
    {"interval_ms", T_UNS, M_CLIENT, F(interval_ms), 0, 60000, NULL,
     "milliseconds in 0..60000 (0 = no time series)"},
    {"grow_ns", T_UNS, M_ALL, F(grow_ns), 0, 1000000, NULL, "nanoseconds in 0..1000000"},
    {"stall_after", T_U64, M_ALL, F(stall_after), 0, 1e15, NULL, "a request count in 0..10^15"},
    {"stall_ms", T_UNS, M_ALL, F(stall_ms), 0, 3600000, NULL, "milliseconds in 0..3600000"},
};

/* Keys that apply to some protocols only (client mode): one bit per enum drv_proto. Any
 * other key applies to all. */
#define P_BIT(p) (1u << (p))
static const struct {
    const char *name;
    unsigned protos;
    const char *which;
} proto_keys[] = {
    {"command", P_BIT(PROTO_REDIS), "redis"},       {"keyspace", P_BIT(PROTO_REDIS), "redis"},
    {"auth", P_BIT(PROTO_REDIS), "redis"},          {"resp", P_BIT(PROTO_REDIS), "redis"},
    {"password_file", P_BIT(PROTO_REDIS), "redis"}, {"http_version", P_BIT(PROTO_HTTP), "http"},
    {"key_pattern", P_BIT(PROTO_REDIS), "redis"},   {"commands", P_BIT(PROTO_REDIS), "redis"},
    {"setup", P_BIT(PROTO_REDIS), "redis"},         {"method", P_BIT(PROTO_HTTP), "http"},
    {"headers", P_BIT(PROTO_HTTP), "http"},         {"body", P_BIT(PROTO_HTTP), "http"},
    {"body_file", P_BIT(PROTO_HTTP), "http"},       {"paths", P_BIT(PROTO_HTTP), "http"},
    {"no_prefill", P_BIT(PROTO_REDIS), "redis"},
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const char *const proto_names[] = {"redis", "tcp", "http", "ws"};

const char *opts_proto_name(enum drv_proto p)
{
    return (unsigned)p < 4 ? proto_names[p] : "?";
}

int opts_proto_parse(const char *s, enum drv_proto *p)
{
    unsigned i;

    for (i = 0; i < 4; i++)
        if (strcmp(s, proto_names[i]) == 0) {
            *p = (enum drv_proto)i;
            return 0;
        }
    return -1;
}

void opts_defaults(struct drv_opts *o, enum drv_mode mode, enum drv_proto proto)
{
    memset(o, 0, sizeof(*o));
    o->mode = mode;
    o->protocol = proto;
    o->transport = TRANSPORT_TCP;
    snprintf(o->host, sizeof(o->host), "127.0.0.1");
    o->port = proto == PROTO_REDIS ? 6379 : 8080;
    o->connections = 1;
    o->workers = 1;
    o->pipeline = 1;
    o->window = 1;
    /* the echo server frames messages only when told their size (0 = echo what arrives) */
    o->payload = mode == MODE_SERVE && proto == PROTO_TCP ? 0 : 64;
    o->warmup_s = 1;
    o->duration_s = 5;
    snprintf(o->command, sizeof(o->command), "ECHO");
    o->resp = 2;
    snprintf(o->path, sizeof(o->path), "/");
    snprintf(o->http_version, sizeof(o->http_version), "1.1");
    snprintf(o->method, sizeof(o->method), "GET");
    snprintf(o->arrival, sizeof(o->arrival), "uniform");
    o->serve_workers = 1;
    o->timeout_s = 5;
    o->error_limit = OPTS_ERROR_LIMIT_DEFAULT;
    o->interval_ms = 100;
}

static const struct key *key_find(const char *name)
{
    size_t i;

    for (i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

/* "--pipeline" for messages about flags. */
static void flag_name(const struct key *k, char *out, size_t n)
{
    size_t i;

    snprintf(out, n, "--%s", k->name);
    for (i = 0; out[i]; i++)
        if (out[i] == '_')
            out[i] = '-';
}

/* Decimal notation only ("2", "0.5", ".5", "1e-3"): strtod alone also takes "0x10", "inf"
 * and "nan". */
static int is_decimal(const char *s)
{
    size_t i = 0, digits = 0;

    while (s[i] >= '0' && s[i] <= '9')
        i++, digits++;
    if (s[i] == '.')
        for (i++; s[i] >= '0' && s[i] <= '9'; i++)
            digits++;
    if (digits == 0)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        i++;
        if (s[i] == '+' || s[i] == '-')
            i++;
        if (s[i] < '0' || s[i] > '9')
            return 0;
        while (s[i] >= '0' && s[i] <= '9')
            i++;
    }
    return s[i] == '\0';
}

/* Sets key k from the text s. where names the source for messages: "flag '--window'" or
 * "'run.json': key 'window'". shown is the value as the user wrote it. */
/* A T_JSON key's text; --setup FILE (not an array or string) is stored as a JSON string. */
static int key_set_json(const struct key *k, char *field, const char *s)
{
    if (strlen(s) >= k->size)
        return -1;
    if (strcmp(k->name, "setup") == 0 && s[0] != '[' && s[0] != '"') {
        /* --setup FILE: the file name as a JSON string */
        json_t *js = json_string(s);
        char *t = js ? json_dumps(js, JSON_ENCODE_ANY) : NULL;

        json_decref(js);
        if (!t || strlen(t) >= k->size) {
            free(t);
            return -1;
        }
        snprintf(field, k->size, "%s", t);
        free(t);
        return 0;
    }
    snprintf(field, k->size, "%s", s);
    return 0;
}

static int key_set(struct drv_opts *o, const struct key *k, const char *s, const char *where,
                   const char *shown, char *err, size_t errlen)
{
    char *field = (char *)o + k->off;
    uint64_t u;
    double d;
    size_t i;

    switch (k->type) {
    case T_UNS:
    case T_INT:
    case T_U64:
        if (num_parse_u64(s, (uint64_t)k->min, (uint64_t)k->max, &u) < 0)
            goto bad;
        if (k->type == T_UNS)
            *(unsigned *)(void *)field = (unsigned)u;
        else if (k->type == T_INT)
            *(int *)(void *)field = (int)u;
        else
            *(uint64_t *)(void *)field = u;
        return 0;
    case T_SIZE:
        if (num_parse_size(s, (uint64_t)k->min, (uint64_t)k->max, &u) < 0)
            goto bad;
        *(size_t *)(void *)field = (size_t)u;
        return 0;
    case T_DBL:
        if (!is_decimal(s) || num_parse_double(s, k->min, k->max, &d) < 0)
            goto bad;
        *(double *)(void *)field = d;
        return 0;
    case T_STR:
        if (strlen(s) >= k->size)
            goto bad;
        if (strcmp(k->name, "path") == 0 && s[0] != '/')
            goto bad;
        if (strcmp(k->name, "host") == 0 && s[0] == '\0')
            goto bad;
        if (strcmp(k->name, "stall") == 0 && opts_stall_parse(s, NULL, NULL) < 0)
            goto bad;
        snprintf(field, k->size, "%s", s);
        return 0;
    case T_BOOL:
        if (strcmp(s, "true") == 0 || strcmp(s, "1") == 0)
            *(int *)(void *)field = 1;
        else if (strcmp(s, "false") == 0 || strcmp(s, "0") == 0)
            *(int *)(void *)field = 0;
        else
            goto bad;
        return 0;
    case T_CHOICE:
        for (i = 0; k->choices[i]; i++)
            if (strcasecmp(s, k->choices[i]) == 0) {
                snprintf(field, k->size, "%s", k->choices[i]);
                return 0;
            }
        goto bad;
    case T_CMD:
        for (i = 0; k->choices[i]; i++)
            if (strcasecmp(s, k->choices[i]) == 0) {
                snprintf(field, k->size, "%s", k->choices[i]);
                return 0;
            }
        if (strlen(s) >= k->size)
            goto bad;
        snprintf(field, k->size, "%s", s);
        return 0;
    case T_JSON:
        if (key_set_json(k, field, s) < 0)
            goto bad;
        return 0;
    case T_TRANSPORT:
        if (strcmp(s, "tcp") == 0)
            o->transport = TRANSPORT_TCP;
        else if (strcmp(s, "tls") == 0)
            o->transport = TRANSPORT_TLS;
        else
            goto bad;
        return 0;
    case T_PROTO:
        if (strcmp(s, opts_proto_name(o->protocol)) != 0)
            goto bad;
        return 0;
    }
bad:
    snprintf(err, errlen, "%s value '%s': expected %s", where, shown, k->expect);
    return -1;
}

/* After a good value: a key of another protocol is refused rather than ignored. */
static int key_for_protocol(const struct drv_opts *o, const struct key *k, const char *where,
                            const char *shown, char *err, size_t errlen)
{
    size_t i;

    if (o->mode != MODE_CLIENT)
        return 0;
    for (i = 0; i < sizeof(proto_keys) / sizeof(proto_keys[0]); i++)
        if (strcmp(proto_keys[i].name, k->name) == 0 &&
            !(proto_keys[i].protos & P_BIT(o->protocol))) {
            snprintf(err, errlen, "%s value '%s': applies to 'driver %s' only, not to 'driver %s'",
                     where, shown, proto_keys[i].which, opts_proto_name(o->protocol));
            return -1;
        }
    return 0;
}

static int key_allowed(const struct drv_opts *o, const struct key *k, const char *where, char *err,
                       size_t errlen)
{
    unsigned m = o->mode == MODE_SERVE ? M_SERVE : M_CLIENT;

    if (k->modes & m)
        return 0;
    snprintf(err, errlen, "%s is not used by 'driver %s'", where,
             o->mode == MODE_SERVE ? "serve" : opts_proto_name(o->protocol));
    return -1;
}

/* A JSON array of arguments as one command line the template parser splits back into the
 * same arguments: each quoted with '...' unless it is plain. 0, or -1 (not strings, too
 * long). */
static int quote_args(const json_t *v, char *out, size_t cap)
{
    size_t i, n = 0, j;
    json_t *a;

    json_array_foreach(v, i, a)
    {
        const char *t = json_string_value(a);
        int plain = t && t[0];

        if (!t)
            return -1;
        for (j = 0; t[j] && plain; j++)
            plain =
                strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:.,/@%+=-",
                       t[j]) != NULL;
        if (n + 2 >= cap)
            return -1;
        if (i)
            out[n++] = ' ';
        if (!plain)
            out[n++] = '\'';
        for (j = 0; t[j]; j++) {
            if (n + 6 >= cap)
                return -1;
            if (t[j] == '\'' && !plain) {
                memcpy(out + n, "'\\''", 4);
                n += 4;
            } else {
                out[n++] = t[j];
            }
        }
        if (!plain)
            out[n++] = '\'';
    }
    out[n] = '\0';
    return 0;
}

int opts_apply_json(struct drv_opts *o, const json_t *obj, const char *src, char *err,
                    size_t errlen)
{
    const char *name;
    json_t *v;
    char where[PATH_MAX + 64], text[64], *shown = NULL;
    char cmdline[sizeof(o->command)];
    const char *s;
    const struct key *k;
    int rc = -1;

    if (!json_is_object(obj)) {
        snprintf(err, errlen, "'%s': expected a JSON object of configuration keys", src);
        return -1;
    }
    json_object_foreach((json_t *)obj, name, v)
    {
        k = key_find(name);
        snprintf(where, sizeof(where), "'%s': key '%s'", src, name);
        if (!k) {
            snprintf(err, errlen, "'%s': unknown key '%s'", src, name);
            goto out;
        }
        if (key_allowed(o, k, where, err, errlen) < 0)
            goto out;
        free(shown);
        shown = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        s = NULL;
        switch (k->type) {
        case T_UNS:
        case T_INT:
        case T_U64:
            if (json_is_integer(v) && json_integer_value(v) >= 0) {
                snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(v));
                s = text;
            }
            break;
        case T_SIZE:
            if (json_is_integer(v) && json_integer_value(v) >= 0) {
                snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(v));
                s = text;
            } else if (json_is_string(v)) {
                s = json_string_value(v);
            }
            break;
        case T_DBL:
            if (json_is_number(v)) {
                snprintf(text, sizeof(text), "%.17g", json_number_value(v));
                s = text;
            }
            break;
        case T_BOOL:
            if (json_is_boolean(v))
                s = json_is_true(v) ? "true" : "false";
            break;
        case T_CHOICE:
            if (json_is_string(v))
                s = json_string_value(v);
            else if (strcmp(k->name, "http_version") == 0 && json_is_number(v)) {
                snprintf(text, sizeof(text), "%g", json_number_value(v));
                s = text;
            }
            break;
        case T_STR:
        case T_TRANSPORT:
        case T_PROTO:
            if (json_is_string(v))
                s = json_string_value(v);
            break;
        case T_CMD:
            if (json_is_string(v))
                s = json_string_value(v);
            else if (json_is_array(v) && quote_args(v, cmdline, sizeof(cmdline)) == 0)
                s = cmdline;
            break;
        case T_JSON:
            s = shown;
            break;
        }
        if (!s) {
            snprintf(err, errlen, "%s value '%s': expected %s", where, shown ? shown : "?",
                     k->expect);
            goto out;
        }
        if (key_set(o, k, s, where, shown ? shown : s, err, errlen) < 0 ||
            key_for_protocol(o, k, where, shown ? shown : s, err, errlen) < 0)
            goto out;
    }
    rc = 0;
out:
    free(shown);
    return rc;
}

static int apply_config_file(struct drv_opts *o, const char *path, char *err, size_t errlen)
{
    json_error_t je;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    int rc;

    if (!root) {
        if (je.line <= 0)
            snprintf(err, errlen, "--config '%s': %s", path, je.text);
        else
            snprintf(err, errlen, "--config '%s': line %d: %s", path, je.line, je.text);
        return -1;
    }
    rc = opts_apply_json(o, root, path, err, errlen);
    json_decref(root);
    return rc;
}

/* Splits "--name[=value]" into the key and an optional inline value. */
static const struct key *flag_lookup(const char *arg, char *name, size_t n, const char **inl)
{
    size_t i, len;
    const char *eq;

    *inl = NULL;
    if (strncmp(arg, "--", 2) != 0)
        return NULL;
    arg += 2;
    eq = strchr(arg, '=');
    len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (len == 0 || len >= n)
        return NULL;
    for (i = 0; i < len; i++)
        name[i] = arg[i] == '-' ? '_' : arg[i];
    name[len] = '\0';
    if (eq)
        *inl = eq + 1;
    return key_find(name);
}

int opts_parse(struct drv_opts *o, int argc, char **argv, char *err, size_t errlen)
{
    char name[64], where[96];
    const char *inl, *val;
    const struct key *k;
    int i;

    /* --config first, wherever it appears: flags given next to it override the file */
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--config") == 0) {
            if (i + 1 >= argc) {
                snprintf(err, errlen, "flag '--config' needs a value: a JSON file");
                return -1;
            }
            if (apply_config_file(o, argv[++i], err, errlen) < 0)
                return -1;
        } else if (strncmp(argv[i], "--config=", 9) == 0) {
            if (apply_config_file(o, argv[i] + 9, err, errlen) < 0)
                return -1;
        }
    }
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--config") == 0) {
            i++;
            continue;
        }
        if (strncmp(argv[i], "--config=", 9) == 0)
            continue;
        k = flag_lookup(argv[i], name, sizeof(name), &inl);
        if (!k || k->type == T_PROTO) {
            snprintf(err, errlen, "unknown flag '%s' (see driver --help)", argv[i]);
            return -1;
        }
        snprintf(where, sizeof(where), "flag '%s'", argv[i]);
        if (inl) {
            char *eq = strchr(where, '=');
            if (eq) {
                eq[0] = '\'';
                eq[1] = '\0';
            }
        }
        if (key_allowed(o, k, where, err, errlen) < 0)
            return -1;
        if (inl) {
            val = inl;
        } else if (k->type == T_BOOL) {
            val = "true";
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            char fl[64];
            flag_name(k, fl, sizeof(fl));
            snprintf(err, errlen, "flag '%s' needs a value: %s", fl, k->expect);
            return -1;
        }
        if (key_set(o, k, val, where, val, err, errlen) < 0 ||
            key_for_protocol(o, k, where, val, err, errlen) < 0)
            return -1;
    }
    return 0;
}

int opts_validate(const struct drv_opts *o, char *err, size_t errlen)
{
    if (opts_buildup_check(o, err, errlen) < 0)
        return -1;
    if (o->mode == MODE_CLIENT) {
        if (o->port < 1) {
            snprintf(err, errlen, "--port '%d': expected a port number 1..65535", o->port);
            return -1;
        }
        if (o->workers > o->connections) {
            snprintf(err, errlen,
                     "--workers '%u': expected at most --connections (%u): a worker needs "
                     "at least one connection",
                     o->workers, o->connections);
            return -1;
        }
        if (o->protocol == PROTO_TCP && o->payload < 1) {
            snprintf(err, errlen, "--payload '0': expected at least 1 byte for tcp echo");
            return -1;
        }
        if (strcmp(o->http_version, "2") == 0 && o->protocol != PROTO_HTTP) {
            snprintf(err, errlen, "--http-version '2': only meaningful for 'driver http'");
            return -1;
        }
        if (http_req_validate(o, err, errlen) < 0)
            return -1;
        if ((o->cert[0] != '\0') != (o->key[0] != '\0')) {
            snprintf(err, errlen, "--cert '%s' --key '%s': a client certificate needs both",
                     o->cert, o->key);
            return -1;
        }
        if ((o->lockstep && o->rate > 0) || (o->rate == 0 && strcmp(o->arrival, "poisson") == 0)) {
            snprintf(err, errlen, "%s: expected %s --rate (a schedule)",
                     o->lockstep ? "--lockstep" : "--arrival 'poisson'",
                     o->lockstep ? "without" : "only with");
            return -1;
        }
        if (!o->requests &&
            arrival_window_check(o->rate, o->duration_s, strcmp(o->arrival, "poisson") == 0, err,
                                 errlen) < 0)
            return -1;
        if (!o->serve && o->stall[0]) {
            snprintf(err, errlen,
                     "--stall '%s': expected only with --serve (it stalls the reference server)",
                     o->stall);
            return -1;
        }
        if (!o->serve && (o->delay_us || o->work)) {
            /* they slow the reference server: without --serve there is none to slow */
            snprintf(err, errlen,
                     "%s '%u': expected only with --serve (it slows the reference server)",
                     o->delay_us ? "--delay-us" : "--work", o->delay_us ? o->delay_us : o->work);
            return -1;
        }
    } else {
        if (o->protocol == PROTO_REDIS) {
            snprintf(err, errlen,
                     "serve 'redis': expected tcp, http or ws (run a real "
                     "redis-server for redis)");
            return -1;
        }
        if (o->transport == TRANSPORT_TLS && (o->cert[0] == '\0' || o->key[0] == '\0')) {
            snprintf(err, errlen, "--transport 'tls': the server needs --cert and --key");
            return -1;
        }
    }
    if (o->serve && o->protocol == PROTO_REDIS) {
        snprintf(err, errlen,
                 "--serve: there is no reference redis server (use tcp, http "
                 "or ws, or a real redis-server)");
        return -1;
    }
    if (o->serve && o->transport == TRANSPORT_TLS && (o->cert[0] == '\0' || o->key[0] == '\0')) {
        snprintf(err, errlen,
                 "--serve with --transport 'tls': the in-process server needs "
                 "--cert and --key");
        return -1;
    }
    return 0;
}
