/* The Redis workload's state (wl_redis.c), shared with its handshake and setup code
 * (wl_redis_hello.c). Private to the two files. */
#ifndef PAIRBENCH_WL_REDIS_IMPL_H
#define PAIRBENCH_WL_REDIS_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "wl/redis_tmpl.h"
#include "proto/resp.h"
#include "wl/secret.h"
#include "wl/workload.h"

struct redis_cmd {
    const char *name;
    enum resp_check check;
    long long count; /* LRANGE_N: N */
    int keyed;       /* has __rand_int__ placeholders (vary with --keyspace) */
};

/* Pre-formatted batches: slot s holds `pipeline` commands; off[s * (pipeline + 1) + i] is
 * where command i of slot s starts, off[s * (pipeline + 1) + pipeline] where the slot ends. */
struct ring {
    char *data;
    size_t *off;
    unsigned char *ids; /* mixes: each command's index in the mix, pipeline per slot */
    unsigned slots;
};

enum hello_step { STEP_HELLO, STEP_AUTH, STEP_PREFILL, STEP_TRIM };

struct redis_shared {
    const struct redis_cmd *cmd;
    unsigned pipeline;
    unsigned connections;
    uint64_t keyspace;
    int auth;
    char *value; /* the payload: ECHO argument and every value written */
    size_t value_len;
    struct resp_expect expect;
    size_t max_pending;  /* reader bound: twice the largest expected reply, at least 256 MiB */
    struct ring fixed;   /* the batch for commands without random parts; slots 0 when keyed */
    unsigned ring_slots; /* slots of each connection's ring when keyed */
    /* handshake: the bytes, and what each reply answers */
    char *hello;
    size_t hello_len;
    unsigned hello_replies;
    enum hello_step steps[4];
    struct redis_tmpl t; /* templates, mixes and setup */
    /* setup, on connection 0: it failed (later handshakes refuse to start); DBSIZE after it */
    int setup_failed;
    long long setup_keys;
    unsigned window;
    struct redis_mixstat **stats; /* mixes: each connection's, by index */
};

struct redis_conn {
    struct redis_shared *sh;
    struct resp_verifier v;
    struct ring own; /* keyed commands: this connection's ring */
    const struct ring *ring;
    unsigned next;
    uint64_t hello_seen;
    unsigned index;
    int setup_due; /* this transport's handshake carries the setup (connection 0, once) */
    int setup_done;
    uint64_t rng;
    struct redis_mixstat ms; /* mixes */
};

/* HELLO 3 / AUTH and the LRANGE prefill into sh->hello. 0, or -1 out of memory. */
int redis_hello_build(struct redis_shared *sh, const struct drv_opts *o, const struct secret *s);
/* A handshake reply that is an error, as the message for its step. */
void redis_hello_error(const struct redis_conn *c, enum hello_step step, char *err, size_t errlen);
/* A setup command answered with an error: which one, and the reply; marks the setup failed. */
void redis_setup_error(struct redis_conn *c, char *err, size_t errlen);

#endif
