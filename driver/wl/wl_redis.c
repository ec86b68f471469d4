/* The Redis workload: the redis-benchmark command suite (PING, ECHO, SET, GET, INCR, LPUSH,
 * RPUSH, LPOP, RPOP, SADD, HSET, SPOP, ZADD, ZPOPMIN, MSET, LRANGE_100..600) with key names
 * and values as redis-benchmark forms them, AUTH / HELLO 3 handshakes, and every reply
 * verified through resp.c.
 *
 * No formatting and no allocation on the hot path: every batch is formatted with hiredis at
 * setup. A command without random parts has one batch shared by all connections. With
 * --keyspace, keys vary per command, so each connection pre-builds a ring of up to
 * RING_SLOTS batches with different random keys at conn_new and batch() cycles through it. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "wl/wl_redis_impl.h"

#define RING_SLOTS 64
#define KEY_DIGITS 12 /* redis-benchmark writes __rand_int__ as 12 zero-padded digits */
#define KEYSPACE_MAX 1000000000000ULL
#define MSET_KEYS 10
#define MAX_ARGS (1 + 2 * MSET_KEYS)

static const struct redis_cmd redis_cmds[] = {
    {"PING", RESP_CHECK_PONG, 0, 0},
    {"ECHO", RESP_CHECK_BULK_EQ, 0, 0},
    {"SET", RESP_CHECK_OK, 0, 1},
    {"GET", RESP_CHECK_BULK_EQ_OR_NIL, 0, 1},
    {"INCR", RESP_CHECK_INTEGER, 0, 1},
    {"LPUSH", RESP_CHECK_INTEGER, 0, 0},
    {"RPUSH", RESP_CHECK_INTEGER, 0, 0},
    {"LPOP", RESP_CHECK_BULK_OR_NIL, 0, 0},
    {"RPOP", RESP_CHECK_BULK_OR_NIL, 0, 0},
    {"SADD", RESP_CHECK_INTEGER, 0, 1},
    {"HSET", RESP_CHECK_INTEGER, 0, 1},
    {"SPOP", RESP_CHECK_BULK_OR_NIL, 0, 0},
    {"ZADD", RESP_CHECK_INTEGER, 0, 1},
    {"ZPOPMIN", RESP_CHECK_POP_PAIR, 0, 0},
    {"MSET", RESP_CHECK_OK, 0, 1},
    {"LRANGE_100", RESP_CHECK_ARRAY_N, 100, 0},
    {"LRANGE_300", RESP_CHECK_ARRAY_N, 300, 0},
    {"LRANGE_500", RESP_CHECK_ARRAY_N, 500, 0},
    {"LRANGE_600", RESP_CHECK_ARRAY_N, 600, 0},
};

/* A template or a mix (redis_tmpl.c) in place of a built-in name. */
static const struct redis_cmd template_cmd = {"TEMPLATE", RESP_CHECK_ANY, 0, 0};

/* splitmix64: a small, good, seedable generator (setup only). */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* "prefix:__rand_int__" as redis-benchmark writes it: literal without --keyspace, else the
 * placeholder replaced by a random number in [0, keyspace) as 12 zero-padded digits. */
static size_t key_format(char *out, size_t cap, const char *prefix, uint64_t keyspace,
                         uint64_t *rng)
{
    int n;

    if (keyspace == 0)
        n = snprintf(out, cap, "%s:__rand_int__", prefix);
    else
        n = snprintf(out, cap, "%s:%0*" PRIu64, prefix, KEY_DIGITS, rng_next(rng) % keyspace);
    return n < 0 ? 0 : (size_t)n;
}

/* One command, formatted by hiredis. Returns its length and sets *out (free with
 * redisFreeCommand), or -1 when out of memory. */
static long long cmd_format(const struct redis_shared *sh, uint64_t *rng, char **out)
{
    const char *argv[MAX_ARGS];
    size_t argvlen[MAX_ARGS];
    char keys[MSET_KEYS][48], score[24], range_end[24];
    const char *name = sh->cmd->name;
    int argc = 0;

#define ARG(p, n) (argv[argc] = (p), argvlen[argc] = (n), argc++)
#define ARGS(s) ARG((s), strlen(s))
    if (strncmp(name, "LRANGE_", 7) == 0) {
        snprintf(range_end, sizeof(range_end), "%lld", sh->cmd->count - 1);
        ARGS("LRANGE"), ARGS("mylist"), ARGS("0"), ARGS(range_end);
    } else if (strcmp(name, "PING") == 0) {
        ARGS("PING");
    } else if (strcmp(name, "ECHO") == 0) {
        ARGS("ECHO"), ARG(sh->value, sh->value_len);
    } else if (strcmp(name, "SET") == 0) {
        ARGS("SET");
        ARG(keys[0], key_format(keys[0], sizeof(keys[0]), "key", sh->keyspace, rng));
        ARG(sh->value, sh->value_len);
    } else if (strcmp(name, "GET") == 0) {
        ARGS("GET");
        ARG(keys[0], key_format(keys[0], sizeof(keys[0]), "key", sh->keyspace, rng));
    } else if (strcmp(name, "INCR") == 0) {
        ARGS("INCR");
        ARG(keys[0], key_format(keys[0], sizeof(keys[0]), "counter", sh->keyspace, rng));
    } else if (strcmp(name, "LPUSH") == 0 || strcmp(name, "RPUSH") == 0) {
        ARGS(name), ARGS("mylist"), ARG(sh->value, sh->value_len);
    } else if (strcmp(name, "LPOP") == 0 || strcmp(name, "RPOP") == 0) {
        ARGS(name), ARGS("mylist");
    } else if (strcmp(name, "SADD") == 0) {
        ARGS("SADD"), ARGS("myset");
        ARG(keys[0], key_format(keys[0], sizeof(keys[0]), "element", sh->keyspace, rng));
    } else if (strcmp(name, "HSET") == 0) {
        ARGS("HSET"), ARGS("myhash");
        ARG(keys[0], key_format(keys[0], sizeof(keys[0]), "element", sh->keyspace, rng));
        ARG(sh->value, sh->value_len);
    } else if (strcmp(name, "SPOP") == 0) {
        ARGS("SPOP"), ARGS("myset");
    } else if (strcmp(name, "ZADD") == 0) {
        snprintf(score, sizeof(score), "%u", (unsigned)(rng_next(rng) % 100));
        ARGS("ZADD"), ARGS("myzset"), ARGS(score);
        ARG(keys[0], key_format(keys[0], sizeof(keys[0]), "element", sh->keyspace, rng));
    } else if (strcmp(name, "ZPOPMIN") == 0) {
        ARGS("ZPOPMIN"), ARGS("myzset");
    } else if (strcmp(name, "MSET") == 0) {
        ARGS("MSET");
        for (int k = 0; k < MSET_KEYS; k++) {
            ARG(keys[k], key_format(keys[k], sizeof(keys[k]), "key", sh->keyspace, rng));
            ARG(sh->value, sh->value_len);
        }
    } else {
        return -1;
    }
#undef ARG
#undef ARGS
    return redisFormatCommandArgv(out, argc, argv, argvlen);
}

static void ring_release(struct ring *r)
{
    free(r->data);
    free(r->off);
    free(r->ids);
    memset(r, 0, sizeof(*r));
}

/* One command: a built-in's by hiredis (free with redisFreeCommand), or a template's into
 * tmp (x set). Its length, or -1 out of memory. */
static long long cmd_next(const struct redis_shared *sh, uint64_t *rng, struct redis_tmpl_ctx *x,
                          struct rcmd_out *tmp, char **out, unsigned *which)
{
    if (!x)
        return cmd_format(sh, rng, out);
    tmp->len = 0;
    if (redis_tmpl_format(x, tmp, which) < 0)
        return -1;
    *out = tmp->p;
    return (long long)tmp->len;
}

/* Formats `slots` batches of sh->pipeline commands into r (templates with x). 0, or -1 out
 * of memory. */
static int ring_build(struct ring *r, const struct redis_shared *sh, unsigned slots, uint64_t *rng,
                      struct redis_tmpl_ctx *x)
{
    size_t per = (size_t)sh->pipeline + 1, len = 0, cap = 0;
    struct rcmd_out tmp = {0};
    char *cmd = NULL;
    int rc = -1;

    memset(r, 0, sizeof(*r));
    r->off = calloc((size_t)slots * per, sizeof(*r->off));
    if (r->off == NULL)
        goto out;
    r->slots = slots;
    if (sh->t.mix.n > 1 && !(r->ids = calloc((size_t)slots * sh->pipeline, 1)))
        goto out;
    for (unsigned s = 0; s < slots; s++) {
        for (unsigned i = 0; i < sh->pipeline; i++) {
            unsigned which = 0;
            long long n = cmd_next(sh, rng, x, &tmp, &cmd, &which);

            if (n < 0)
                goto out;
            if (len + (size_t)n > cap) {
                size_t ncap = cap ? cap * 2 : 4096;
                char *p;

                while (ncap < len + (size_t)n)
                    ncap *= 2;
                p = realloc(r->data, ncap);
                if (p == NULL)
                    goto out;
                r->data = p;
                cap = ncap;
            }
            r->off[s * per + i] = len;
            if (r->ids)
                r->ids[(size_t)s * sh->pipeline + i] = (unsigned char)which;
            memcpy(r->data + len, cmd, (size_t)n);
            len += (size_t)n;
            if (!x)
                redisFreeCommand(cmd);
            cmd = NULL;
        }
        r->off[s * per + sh->pipeline] = len;
    }
    rc = 0;
out:
    if (cmd != NULL && !x)
        redisFreeCommand(cmd);
    rcmd_out_free(&tmp);
    if (rc < 0)
        ring_release(r);
    return rc;
}

static void redis_teardown(void *shared)
{
    struct redis_shared *sh = shared;

    if (sh == NULL)
        return;
    ring_release(&sh->fixed);
    redis_tmpl_release(&sh->t);
    free(sh->stats);
    free(sh->value);
    if (sh->hello != NULL)
        explicit_bzero(sh->hello, sh->hello_len);
    free(sh->hello);
    free(sh);
}

static const struct redis_cmd *cmd_lookup(const char *name)
{
    for (size_t i = 0; i < sizeof(redis_cmds) / sizeof(redis_cmds[0]); i++)
        if (strcasecmp(redis_cmds[i].name, name) == 0)
            return &redis_cmds[i];
    return NULL;
}

/* Commands that vary get a ring per connection (sized at conn_new), others one shared batch.
 * 0, or -1 out of memory. */
static int rings_plan(struct redis_shared *sh, uint64_t *rng)
{
    struct redis_tmpl_ctx x = {&sh->t, sh->keyspace, sh->value, sh->value_len, rng, 0, ""};
    struct rcmd_out tmp = {0};
    unsigned cap = sh->t.on ? sh->t.slots : RING_SLOTS, which;
    size_t budget = (64u << 20) / sh->connections, slot_bytes;
    long long one;
    char *cmd = NULL;

    if (!(sh->t.on ? sh->t.keyed : sh->cmd->keyed && sh->keyspace > 0))
        return ring_build(&sh->fixed, sh, 1, rng, sh->t.on ? &x : NULL);
    /* Each connection's ring: up to cap batches, all rings together within a 64 MiB budget
     * (at least one batch each), so 10000 connections stay affordable. */
    one = cmd_next(sh, rng, sh->t.on ? &x : NULL, &tmp, &cmd, &which);
    if (one < 0)
        return -1;
    if (!sh->t.on)
        redisFreeCommand(cmd);
    rcmd_out_free(&tmp);
    slot_bytes = (size_t)one * sh->pipeline;
    sh->ring_slots = slot_bytes ? (unsigned)(budget / slot_bytes) : cap;
    if (sh->ring_slots > cap)
        sh->ring_slots = cap;
    if (sh->ring_slots < 1)
        sh->ring_slots = 1;
    return 0;
}

static int redis_setup(const struct drv_opts *o, void **shared, char *err, size_t errlen)
{
    struct redis_shared *sh = NULL;
    struct secret secret;
    uint64_t rng = 0x70616972626e6368ULL;
    int rc = -1;

    memset(&secret, 0, sizeof(secret));
    *shared = NULL;
    sh = calloc(1, sizeof(*sh));
    if (sh == NULL)
        goto oom;
    sh->cmd = cmd_lookup(o->command);
    if (o->keyspace > KEYSPACE_MAX) {
        snprintf(err, errlen, "redis: --keyspace '%" PRIu64 "': expected at most %llu", o->keyspace,
                 (unsigned long long)KEYSPACE_MAX);
        goto out;
    }
    if (o->resp != 2 && o->resp != 3) {
        snprintf(err, errlen, "redis: --resp '%d': expected 2 or 3", o->resp);
        goto out;
    }
    if (!o->auth && o->password_file[0]) {
        snprintf(err, errlen,
                 "redis: --password-file '%s' without --auth: add --auth to authenticate",
                 o->password_file);
        goto out;
    }
    if (o->pipeline == 0) {
        snprintf(err, errlen, "redis: --pipeline '0': expected at least 1");
        goto out;
    }
    sh->pipeline = o->pipeline;
    sh->window = o->window ? o->window : 1;
    sh->connections = o->connections ? o->connections : 1;
    sh->keyspace = o->keyspace;
    sh->auth = o->auth;
    /* redis-benchmark's values are 'x' * size; ours vary by position so that a reply shifted
     * by a byte fails verification. Deterministic: the same size writes the same value. */
    sh->value_len = o->payload;
    sh->value = malloc(sh->value_len ? sh->value_len : 1);
    if (sh->value == NULL)
        goto oom;
    for (size_t i = 0; i < sh->value_len; i++)
        sh->value[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[i % 36];
    if (redis_tmpl_init(&sh->t, o, sh->cmd != NULL && !o->commands[0], sh->value, sh->value_len,
                        err, errlen) < 0)
        goto out;
    if (sh->t.on)
        sh->cmd = &template_cmd;
    sh->expect.check = sh->t.on ? sh->t.check : sh->cmd->check;
    sh->expect.value = sh->value;
    sh->expect.value_len = sh->value_len;
    sh->expect.count = sh->cmd->count;
    /* The largest reply expected is LRANGE_N's N values; LPOP may return values of earlier
     * runs, hence the generous floor. */
    sh->max_pending = 2 * ((size_t)(sh->cmd->count ? sh->cmd->count : 1) * (sh->value_len + 32));
    if (sh->max_pending < ((size_t)256 << 20))
        sh->max_pending = (size_t)256 << 20;

    if (sh->auth && secret_load(&secret, o->password_file, err, errlen) < 0)
        goto out;
    if (redis_hello_build(sh, o, &secret) < 0)
        goto oom;
    /* the setup was sized against its limit before it was built; the hello beside it is
     * known only now */
    if (sh->t.setup.len + sh->hello_len > redis_setup_max(o->payload) + REDIS_HELLO_ROOM) {
        snprintf(err, errlen,
                 "redis: --setup: %zu bytes of commands and %zu of AUTH/HELLO, expected at "
                 "most %zu together (" REDIS_SETUP_RULE "): split the data or use a larger "
                 "--payload",
                 sh->t.setup.len, sh->hello_len, redis_setup_max(o->payload) + REDIS_HELLO_ROOM);
        goto out;
    }
    if (rings_plan(sh, &rng) < 0 ||
        (sh->t.mix.n > 1 && !(sh->stats = calloc(sh->connections, sizeof(struct redis_mixstat *)))))
        goto oom;
    *shared = sh;
    sh = NULL;
    rc = 0;
    goto out;
oom:
    snprintf(err, errlen, "redis: out of memory preparing commands");
out:
    secret_wipe(&secret);
    redis_teardown(sh);
    return rc;
}

static void redis_conn_free(void *st)
{
    struct redis_conn *c = st;

    if (c == NULL)
        return;
    resp_verifier_release(&c->v);
    ring_release(&c->own);
    redis_mixstat_release(&c->ms, c->sh->t.mix.n);
    free(c);
}

static void *redis_conn_new(void *shared, unsigned index, uint64_t seed)
{
    struct redis_shared *sh = shared;
    struct redis_conn *c = calloc(1, sizeof(*c));
    struct resp_expect any = {.check = RESP_CHECK_ANY};

    if (c == NULL)
        return NULL;
    c->sh = sh;
    c->index = index;
    c->rng = seed ^ ((uint64_t)index << 32) ^ 0x5851f42d4c957f2dULL;
    if (resp_verifier_init(&c->v, sh->hello_replies || sh->t.setup.len ? &any : &sh->expect) < 0)
        goto fail;
    c->v.max_pending = sh->max_pending;
    if (sh->stats && c->index < sh->connections) {
        /* per-command latency histograms while they stay affordable (36 KiB each) */
        if (redis_mixstat_init(&c->ms, sh->t.mix.n, sh->window,
                               sh->connections * sh->t.mix.n <= 4096) < 0)
            goto fail;
        sh->stats[c->index] = &c->ms;
    }
    if (sh->fixed.slots) {
        c->ring = &sh->fixed;
    } else {
        /* sequential keys: each connection starts its walk at its share of the keyspace */
        struct redis_tmpl_ctx x = {
            &sh->t,    sh->keyspace,
            sh->value, sh->value_len,
            &c->rng,   sh->keyspace ? index * (sh->keyspace / sh->connections) : 0,
            ""};

        if (ring_build(&c->own, sh, sh->ring_slots, &c->rng, sh->t.on ? &x : NULL) < 0)
            goto fail;
        c->ring = &c->own;
    }
    return c;
fail:
    redis_conn_free(c);
    return NULL;
}

static int redis_hello(void *st, struct buf *out)
{
    struct redis_conn *c = st;
    struct redis_shared *sh = c->sh;
    struct resp_expect any = {.check = RESP_CHECK_ANY};

    /* A new transport: forget what the previous one left half-read. */
    if (resp_verifier_reset(&c->v) < 0)
        return -1;
    c->hello_seen = 0;
    c->next = 0;
    c->ms.count = 0; /* the batches in flight died with the transport */
    /* the setup goes once, on connection 0, before any connection's first batch */
    c->setup_due = c->index == 0 && sh->t.setup.len > 0 && !c->setup_done;
    if (c->setup_due && sh->setup_failed)
        return -1; /* never resend a setup that failed: the run fails with its reply */
    if (sh->hello_replies == 0 && !c->setup_due) {
        resp_verifier_expect(&c->v, &sh->expect);
        return 0;
    }
    resp_verifier_expect(&c->v, &any);
    if (sh->hello_len && buf_append(out, sh->hello, sh->hello_len) < 0)
        return -1;
    if (c->setup_due && buf_append(out, sh->t.setup.p, sh->t.setup.len) < 0)
        return -1;
    return 1;
}

static ssize_t redis_hello_feed(void *st, const char *p, size_t n, int *done, char *err,
                                size_t errlen)
{
    struct redis_conn *c = st;
    struct redis_shared *sh = c->sh;
    uint64_t total = sh->hello_replies + (c->setup_due ? sh->t.setup_cmds + 1 : 0);
    enum resp_verdict verdict;
    int rc;

    *done = 0;
    if (resp_push_bytes(&c->v, p, n) < 0)
        goto malformed;
    while (c->hello_seen < total && (rc = resp_next(&c->v, &verdict)) != 0) {
        if (rc < 0)
            goto malformed;
        if (verdict != RESP_OK) {
            if (c->hello_seen < sh->hello_replies)
                redis_hello_error(c, sh->steps[c->hello_seen], err, errlen);
            else
                redis_setup_error(c, err, errlen);
            return -1;
        }
        c->hello_seen++;
    }
    if (c->hello_seen == total) {
        if (c->setup_due) {
            sh->setup_keys = c->v.last_int; /* the DBSIZE reply */
            c->setup_done = 1;
        }
        resp_verifier_expect(&c->v, &sh->expect);
        *done = 1;
    }
    return (ssize_t)n;
malformed:
    snprintf(err, errlen, "redis: malformed handshake reply: %s", resp_error(&c->v));
    return -1;
}

static int redis_batch(void *st, unsigned n, const char **data, size_t *len)
{
    struct redis_conn *c = st;
    const struct ring *r = c->ring;
    size_t per = (size_t)c->sh->pipeline + 1;
    size_t base;
    unsigned s = c->next;

    if (n == 0 || n > c->sh->pipeline)
        return -1;
    c->next = s + 1 == r->slots ? 0 : s + 1;
    if (r->ids)
        redis_mixstat_sent(&c->ms, s);
    base = r->off[s * per];
    *data = r->data + base;
    *len = r->off[s * per + n] - base;
    return 0;
}

static ssize_t redis_feed(void *st, const char *p, size_t n, struct wl_tally *t, struct buf *ctl)
{
    struct redis_conn *c = st;

    (void)ctl;
    return resp_feed(&c->v, p, n, t);
}

static int redis_at_rest(const void *st)
{
    const struct redis_conn *c = st;

    return resp_verifier_at_rest(&c->v);
}

static void redis_batch_done(void *st, unsigned n, uint64_t rtt_ns, int measured)
{
    struct redis_conn *c = st;

    if (c->ring->ids)
        redis_mixstat_done(&c->ms, c->ring->ids, c->sh->pipeline, n, rtt_ns, measured);
}

static json_t *redis_report(void *shared, double elapsed_s)
{
    const struct redis_shared *sh = shared;
    json_t *setup = redis_tmpl_setup_json(&sh->t, sh->setup_keys), *j = json_object();

    if (j && setup)
        json_object_set_new(j, "setup", setup);
    if (j && sh->stats)
        json_object_set_new(j, "commands",
                            redis_mixstat_json(&sh->t, sh->stats, sh->connections, elapsed_s));
    return j;
}

const struct workload wl_redis = {
    .name = "redis",
    .unit = "commands/s",
    .setup = redis_setup,
    .teardown = redis_teardown,
    .conn_new = redis_conn_new,
    .conn_free = redis_conn_free,
    .hello = redis_hello,
    .hello_feed = redis_hello_feed,
    .batch = redis_batch,
    .feed = redis_feed,
    .at_rest = redis_at_rest,
    .batch_done = redis_batch_done,
    .report = redis_report,
};
