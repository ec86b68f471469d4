/* The Redis workload's templates, mixes and setup (wl_redis.c's side of common/rcmd.h): what
 * the options ask for, parsed and checked once at setup, and one command formatted at a time
 * while the batch rings are built (never on the hot path). */
#ifndef PAIRBENCH_REDIS_TMPL_H
#define PAIRBENCH_REDIS_TMPL_H

#include <stddef.h>
#include <stdint.h>

#include "opts.h"
#include "rcmd.h"
#include "resp.h"

struct redis_tmpl {
    int on;                   /* a template or a mix (not a built-in name) */
    struct rcmd_mix mix;      /* one template is a mix of one */
    double cum[RCMD_MIX_MAX]; /* cumulative weights, for the seeded draw */
    struct rcmd_keypat kp;
    int keyed;      /* commands vary (random parts, several commands): per-connection rings */
    unsigned slots; /* ring slots wanted per connection when keyed */
    enum resp_check check;
    /* setup: RESP bytes then DBSIZE, sent on connection 0 before the warm-up */
    struct rcmd_out setup;
    uint64_t setup_cmds;
    size_t setup_len; /* bytes of the setup proper (without DBSIZE) */
    char setup_sha[65];
};

/* Parses o->command (when not a built-in), o->commands, o->key_pattern and o->setup. value is
 * the payload. 0, or -1 with err naming the flag or key and the bad value (exit 2). */
int redis_tmpl_init(struct redis_tmpl *t, const struct drv_opts *o, int builtin, const char *value,
                    size_t value_len, char *err, size_t errlen);
void redis_tmpl_release(struct redis_tmpl *t);

/* The state one connection formats with. */
struct redis_tmpl_ctx {
    const struct redis_tmpl *t;
    uint64_t keyspace;
    const char *value;
    size_t value_len;
    uint64_t *rng;
    uint64_t seq;
    char num[32];
};

/* Appends one command (drawn from the mix) to out. 0 or -1 (out of memory). */
int redis_tmpl_format(struct redis_tmpl_ctx *x, struct rcmd_out *out);

/* The result's "setup" object ({commands, bytes, sha256, keys}) or NULL without setup. */
json_t *redis_tmpl_setup_json(const struct redis_tmpl *t, long long keys);

#endif
