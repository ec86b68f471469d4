/* The Redis workload's templates, mixes and setup (wl_redis.c's side of common/rcmd.h): what
 * the options ask for, parsed and checked once at setup, and one command formatted at a time
 * while the batch rings are built (never on the hot path). */
#ifndef PAIRBENCH_REDIS_TMPL_H
#define PAIRBENCH_REDIS_TMPL_H

#include <stddef.h>
#include <stdint.h>

#include "opts.h"
#include "rcmd.h"
#include "proto/resp.h"

/* The engine builds a connection's first bytes (AUTH, HELLO and, on connection 0, the setup)
 * in a buffer of 64 KiB + 1024 x (payload + 64) bytes, never more than 256 MiB (workload.h's
 * hello contract). The setup gets that less REDIS_HELLO_ROOM for AUTH and HELLO (a user of
 * 256 bytes and a password of 1 KiB at most, secret.h): its limit, checked before it is
 * built; the exact sum is checked once the hello is built. */
#define REDIS_HELLO_ROOM ((size_t)4 << 10)
#define REDIS_HELLO_CAP ((size_t)256 << 20)
static inline size_t redis_setup_max(size_t payload)
{
    size_t room = (size_t)(64u << 10) + 1024 * (payload + 64);

    return (room < REDIS_HELLO_CAP ? room : REDIS_HELLO_CAP) - REDIS_HELLO_ROOM;
}
#define REDIS_SETUP_RULE                                                                           \
    "64 KiB + 1024 x (payload + 64), at most 256 MiB (the driver's cap on a connection's first "   \
    "bytes), less 4 KiB for AUTH and HELLO"

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

/* Appends one command (drawn from the mix) to out; *which = its index in the mix. 0 or -1
 * (out of memory). */
int redis_tmpl_format(struct redis_tmpl_ctx *x, struct rcmd_out *out, unsigned *which);

/* One connection's figures per command of a mix. The batches in flight are a FIFO of ring
 * slots (replies come in order); each completed measured batch counts its commands and
 * records its round trip in the histogram of every command it holds. */
struct redis_mixstat {
    unsigned *fifo;
    unsigned head, count, cap;
    uint64_t *ops;      /* per command: commands in measured batches */
    struct hist **hist; /* per command, or NULL (too many connections for histograms) */
};
int redis_mixstat_init(struct redis_mixstat *m, unsigned ncmds, unsigned window, int hists);
void redis_mixstat_release(struct redis_mixstat *m, unsigned ncmds);
/* A batch from ring slot `slot` was handed out. */
void redis_mixstat_sent(struct redis_mixstat *m, unsigned slot);
/* The oldest batch completed: ids are the mix indexes of the ring's commands (pipeline per
 * slot). */
void redis_mixstat_done(struct redis_mixstat *m, const unsigned char *ids, unsigned pipeline,
                        unsigned n, uint64_t rtt_ns, int measured);
/* The result's "commands" array: per command its text, weight, ops, throughput and latency,
 * all connections together. */
json_t *redis_mixstat_json(const struct redis_tmpl *t, struct redis_mixstat *const *all,
                           unsigned nconns, double elapsed_s);

/* The result's "setup" object ({commands, bytes, sha256, keys}) or NULL without setup. */
json_t *redis_tmpl_setup_json(const struct redis_tmpl *t, long long keys);

#endif
