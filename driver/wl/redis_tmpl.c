/* redis_tmpl: templates, mixes and setup for the Redis workload (see redis_tmpl.h). */
#include "wl/redis_tmpl.h"

#include "hist.h"

#include <inttypes.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RING_SLOTS_RAND 64    /* __rand_int__ only: as many slots as the built-ins */
#define RING_SLOTS_KEYED 1024 /* key patterns and mixes: a longer cycle */

/* Commands whose reply is always an integer, and those always +OK (with no options). */
static const char *const int_cmds[] = {
    "APPEND", "BITCOUNT", "BITOP", "DBSIZE",  "DECR", "DECRBY", "DEL",    "EXISTS",
    "EXPIRE", "GETBIT",   "HDEL",  "HINCRBY", "HLEN", "HSET",   "INCR",   "INCRBY",
    "LLEN",   "LPUSH",    "PFADD", "RPUSH",   "SADD", "SCARD",  "SETBIT", "SREM",
    "STRLEN", "UNLINK",   "ZCARD", "ZREM",    NULL};

/* Commands whose reply is always a bulk string or nil, with exactly that many arguments
 * (LPOP with a count answers an array). */
static const struct {
    const char *name;
    size_t argc;
} bulk_cmds[] = {{"GET", 2},  {"GETDEL", 2}, {"HGET", 3}, {"LINDEX", 3},
                 {"LPOP", 2}, {"RPOP", 2},   {"SPOP", 2}, {NULL, 0}};

static enum resp_check check_of(const struct rcmd *c)
{
    char name[32];

    rcmd_name(c, name, sizeof(name));
    for (size_t i = 0; int_cmds[i]; i++)
        if (strcmp(name, int_cmds[i]) == 0)
            return RESP_CHECK_INTEGER;
    if (strcmp(name, "MSET") == 0 || strcmp(name, "LTRIM") == 0 ||
        (strcmp(name, "SET") == 0 && c->argc == 3))
        return RESP_CHECK_OK;
    if (strcmp(name, "PING") == 0 && c->argc == 1)
        return RESP_CHECK_PONG;
    for (size_t i = 0; bulk_cmds[i].name; i++)
        if (strcmp(name, bulk_cmds[i].name) == 0 && c->argc == bulk_cmds[i].argc)
            return RESP_CHECK_BULK_OR_NIL;
    return RESP_CHECK_ANY;
}

static int load_mix(struct redis_tmpl *t, const struct drv_opts *o, char *err, size_t errlen)
{
    json_error_t je;
    json_t *v = json_loads(o->commands, JSON_DECODE_ANY, &je);
    char why[512];
    int rc = -1;

    if (!v) {
        snprintf(err, errlen, "redis: --commands '%.200s': not JSON: %s", o->commands, je.text);
        return -1;
    }
    if (rcmd_mix_parse(&t->mix, v, why, sizeof(why)) < 0)
        snprintf(err, errlen, "redis: --commands '%.200s': %s", o->commands, why);
    else
        rc = 0;
    json_decref(v);
    return rc;
}

static int load_setup(struct redis_tmpl *t, const struct drv_opts *o, const char *value,
                      size_t value_len, char *err, size_t errlen)
{
    static const char dbsize[] = "*1\r\n$6\r\nDBSIZE\r\n";
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;
    json_error_t je;
    json_t *v = json_loads(o->setup, JSON_DECODE_ANY, &je);
    char why[512];
    int rc = -1;

    if (!v) {
        snprintf(err, errlen, "redis: --setup '%.200s': not JSON: %s", o->setup, je.text);
        return -1;
    }
    t->setup.max = redis_setup_max(o->payload);
    if (rcmd_setup_expand(v, value, value_len, &t->setup, &t->setup_cmds, why, sizeof(why)) < 0) {
        if (t->setup.toobig)
            snprintf(err, errlen,
                     "redis: --setup '%.200s': %s (at --payload %zu: " REDIS_SETUP_RULE
                     "): split the data%s",
                     o->setup, why, (size_t)o->payload,
                     redis_setup_max(o->payload) < REDIS_HELLO_CAP - REDIS_HELLO_ROOM
                         ? " or use a larger --payload"
                         : " (the cap does not grow with --payload)");
        else
            snprintf(err, errlen, "redis: --setup '%.200s': %s", o->setup, why);
        goto out;
    }
    t->setup.max = 0; /* DBSIZE follows */
    t->setup_len = t->setup.len;
    if (!EVP_Digest(t->setup.p ? t->setup.p : "", t->setup.len, md, &mdlen, EVP_sha256(), NULL) ||
        mdlen != 32 || rcmd_out_put(&t->setup, dbsize, sizeof(dbsize) - 1) < 0) {
        snprintf(err, errlen, "redis: --setup: out of memory");
        goto out;
    }
    for (unsigned i = 0; i < 32; i++)
        snprintf(t->setup_sha + 2 * i, 3, "%02x", md[i]);
    rc = 0;
out:
    json_decref(v);
    return rc;
}

int redis_tmpl_init(struct redis_tmpl *t, const struct drv_opts *o, int builtin, const char *value,
                    size_t value_len, char *err, size_t errlen)
{
    const unsigned allowed = RCMD_USES(RCMD_RAND_INT) | RCMD_USES(RCMD_RAND_SCORE) |
                             RCMD_USES(RCMD_KEY) | RCMD_USES(RCMD_DATA);
    unsigned uses = 0;
    char why[512];
    double sum = 0;

    memset(t, 0, sizeof(*t));
    if (rcmd_keypat_parse(o->key_pattern, &t->kp, why, sizeof(why)) < 0) {
        snprintf(err, errlen, "redis: --key-pattern: %s", why);
        return -1;
    }
    if (o->commands[0]) {
        if (load_mix(t, o, err, errlen) < 0)
            return -1;
        t->on = 1;
    } else if (!builtin) {
        if (rcmd_parse_str(&t->mix.cmd[0], o->command, allowed, why, sizeof(why)) < 0) {
            snprintf(err, errlen, "redis: --command '%.300s': %s", o->command, why);
            return -1;
        }
        t->mix.weight[0] = 1;
        t->mix.n = 1;
        t->on = 1;
    }
    if (o->setup[0] && load_setup(t, o, value, value_len, err, errlen) < 0)
        return -1;
    if (!t->on)
        return 0;
    t->check = check_of(&t->mix.cmd[0]);
    for (unsigned i = 0; i < t->mix.n; i++) {
        sum += t->mix.weight[i];
        t->cum[i] = sum;
        uses |= t->mix.cmd[i].uses;
        if (check_of(&t->mix.cmd[i]) != t->check)
            t->check = RESP_CHECK_ANY;
    }
    t->keyed =
        t->mix.n > 1 || (uses & RCMD_USES(RCMD_KEY)) ||
        ((uses & (RCMD_USES(RCMD_RAND_INT) | RCMD_USES(RCMD_RAND_SCORE))) && o->keyspace > 0);
    t->slots = t->mix.n > 1 || (uses & RCMD_USES(RCMD_KEY)) ? RING_SLOTS_KEYED : RING_SLOTS_RAND;
    return 0;
}

void redis_tmpl_release(struct redis_tmpl *t)
{
    rcmd_mix_free(&t->mix);
    rcmd_out_free(&t->setup);
}

static size_t fill(void *ctx, unsigned ph, const char **p)
{
    struct redis_tmpl_ctx *x = ctx;
    uint64_t n;
    int len;

    switch (ph) {
    case RCMD_DATA:
        *p = x->value;
        return x->value_len;
    case RCMD_RAND_INT:
        *p = x->num;
        if (x->keyspace == 0) /* redis-benchmark without -r leaves it as written */
            return (size_t)snprintf(x->num, sizeof(x->num), "__rand_int__");
        len = snprintf(x->num, sizeof(x->num), "%0*" PRIu64, RCMD_KEY_DIGITS,
                       rcmd_rng_next(x->rng) % x->keyspace);
        return len < 0 ? 0 : (size_t)len;
    case RCMD_RAND_SCORE: /* as the ZADD built-in: drawn even without a keyspace */
        *p = x->num;
        len = snprintf(x->num, sizeof(x->num), "%u", (unsigned)(rcmd_rng_next(x->rng) % 100));
        return len < 0 ? 0 : (size_t)len;
    default: /* RCMD_KEY */
        n = rcmd_key_next(&x->t->kp, x->keyspace ? x->keyspace : 1, x->rng, &x->seq);
        *p = x->num;
        len = snprintf(x->num, sizeof(x->num), "key:%0*" PRIu64, RCMD_KEY_DIGITS, n);
        return len < 0 ? 0 : (size_t)len;
    }
}

int redis_tmpl_format(struct redis_tmpl_ctx *x, struct rcmd_out *out, unsigned *which)
{
    const struct redis_tmpl *t = x->t;
    unsigned k = 0;

    if (t->mix.n > 1) {
        /* the seeded draw: a fixed order per connection seed */
        double u =
            (double)(rcmd_rng_next(x->rng) >> 11) / 9007199254740992.0 * t->cum[t->mix.n - 1];

        while (k + 1 < t->mix.n && u >= t->cum[k])
            k++;
    }
    *which = k;
    return rcmd_encode(&t->mix.cmd[k], fill, x, out);
}

int redis_mixstat_init(struct redis_mixstat *m, unsigned ncmds, unsigned window, int hists)
{
    memset(m, 0, sizeof(*m));
    m->cap = window;
    m->fifo = calloc(window, sizeof(*m->fifo));
    m->ops = calloc(ncmds, sizeof(*m->ops));
    if (hists)
        m->hist = calloc(ncmds, sizeof(struct hist *));
    if (!m->fifo || !m->ops || (hists && !m->hist))
        return -1;
    for (unsigned k = 0; hists && k < ncmds; k++)
        if (!(m->hist[k] = hist_new()))
            return -1;
    return 0;
}

void redis_mixstat_release(struct redis_mixstat *m, unsigned ncmds)
{
    for (unsigned k = 0; m->hist && k < ncmds; k++)
        hist_free(m->hist[k]);
    free(m->hist);
    free(m->fifo);
    free(m->ops);
    memset(m, 0, sizeof(*m));
}

void redis_mixstat_sent(struct redis_mixstat *m, unsigned slot)
{
    if (m->count < m->cap)
        m->fifo[(m->head + m->count++) % m->cap] = slot;
}

void redis_mixstat_done(struct redis_mixstat *m, const unsigned char *ids, unsigned pipeline,
                        unsigned n, uint64_t rtt_ns, int measured)
{
    uint64_t seen = 0;
    unsigned slot;

    if (m->count == 0)
        return;
    slot = m->fifo[m->head];
    m->head = (m->head + 1) % m->cap;
    m->count--;
    if (!measured)
        return;
    ids += (size_t)slot * pipeline;
    for (unsigned i = 0; i < n; i++) {
        m->ops[ids[i]]++;
        if (m->hist && !(seen & (UINT64_C(1) << ids[i]))) {
            seen |= UINT64_C(1) << ids[i];
            hist_record(m->hist[ids[i]], rtt_ns);
        }
    }
}

static json_t *real1(double v)
{
    return json_real((double)(long long)(v * 10.0 + 0.5) / 10.0);
}

json_t *redis_mixstat_json(const struct redis_tmpl *t, struct redis_mixstat *const *all,
                           unsigned nconns, double elapsed_s)
{
    json_t *arr = json_array();
    struct hist *h = NULL;

    for (unsigned k = 0; arr && k < t->mix.n; k++) {
        uint64_t ops = 0;
        json_t *one, *lat = json_null();

        h = all[0] && all[0]->hist ? hist_new() : NULL;
        for (unsigned c = 0; c < nconns; c++) {
            if (!all[c])
                continue;
            ops += all[c]->ops[k];
            if (h)
                hist_merge(h, all[c]->hist[k]);
        }
        if (h) {
            lat = json_pack("{s:o, s:o, s:o, s:o, s:I}", "p50", real1(hist_percentile(h, 50) / 1e3),
                            "p99", real1(hist_percentile(h, 99) / 1e3), "max",
                            real1((double)hist_max(h) / 1e3), "mean", real1(hist_mean(h) / 1e3),
                            "samples", (json_int_t)hist_count(h));
            hist_free(h);
        }
        one = json_pack("{s:s, s:f, s:I, s:o, s:o}", "command", t->mix.cmd[k].shown, "weight",
                        t->mix.weight[k], "ops", (json_int_t)ops, "throughput",
                        real1(elapsed_s > 0 ? (double)ops / elapsed_s : 0), "latency_us", lat);
        json_array_append_new(arr, one);
    }
    return arr;
}

json_t *redis_tmpl_setup_json(const struct redis_tmpl *t, long long keys)
{
    if (!t->setup.len)
        return NULL;
    return json_pack("{s:I, s:I, s:s, s:I}", "commands", (json_int_t)t->setup_cmds, "bytes",
                     (json_int_t)t->setup_len, "sha256", t->setup_sha, "keys", (json_int_t)keys);
}
