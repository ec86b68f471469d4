/* TCP echo workload: a batch is `pipeline` messages of `payload` bytes written together; a
 * reply is complete when `payload` bytes came back. Every byte is checked against a pattern
 * that varies with its position in the message, so lost, duplicated or shifted bytes fail
 * verification. The batch bytes are built once and shared by every connection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl/workload.h"

#define TCP_MAX_BATCH (256u * 1024 * 1024)

struct tcp_shared {
    size_t payload;
    unsigned pipeline;
    unsigned char *batch; /* pipeline copies of the message */
};

struct tcp_conn {
    const struct tcp_shared *sh;
    size_t pos; /* bytes of the current reply seen */
    int bad;    /* the current reply had a wrong byte */
};

/* Byte i of every message: a multiplicative hash of i, so no small shift matches. */
static unsigned char pattern_at(size_t i)
{
    return (unsigned char)(((uint32_t)i * 2654435761u) >> 24);
}

static int tcp_setup(const struct drv_opts *o, void **shared, char *err, size_t errlen)
{
    struct tcp_shared *sh;
    size_t i, total;

    if (o->payload == 0) {
        snprintf(err, errlen, "--payload '0': expected at least 1 byte for tcp echo");
        return -1;
    }
    if (o->payload > TCP_MAX_BATCH / o->pipeline) {
        snprintf(err, errlen,
                 "--payload '%zu' x --pipeline '%u': expected at most %u MiB per batch", o->payload,
                 o->pipeline, TCP_MAX_BATCH >> 20);
        return -1;
    }
    sh = calloc(1, sizeof(*sh));
    total = o->payload * o->pipeline;
    if (!sh || !(sh->batch = malloc(total))) {
        free(sh);
        snprintf(err, errlen, "out of memory for a %zu-byte batch", total);
        return -1;
    }
    sh->payload = o->payload;
    sh->pipeline = o->pipeline;
    for (i = 0; i < o->payload; i++)
        sh->batch[i] = pattern_at(i);
    for (i = 1; i < o->pipeline; i++)
        memcpy(sh->batch + i * o->payload, sh->batch, o->payload);
    *shared = sh;
    return 0;
}

static void tcp_teardown(void *shared)
{
    struct tcp_shared *sh = shared;

    if (sh)
        free(sh->batch);
    free(sh);
}

static void *tcp_conn_new(void *shared, unsigned index, uint64_t seed)
{
    struct tcp_conn *c = calloc(1, sizeof(*c));

    (void)index, (void)seed;
    if (c)
        c->sh = shared;
    return c;
}

static void tcp_conn_free(void *st)
{
    free(st);
}

/* Nothing to send; a new transport starts a new reply. */
static int tcp_hello(void *st, struct buf *out)
{
    struct tcp_conn *c = st;

    (void)out;
    c->pos = 0;
    c->bad = 0;
    return 0;
}

static int tcp_batch(void *st, unsigned n, const char **data, size_t *len)
{
    struct tcp_conn *c = st;

    if (n == 0 || n > c->sh->pipeline)
        return -1;
    *data = (const char *)c->sh->batch;
    *len = (size_t)n * c->sh->payload;
    return 0;
}

static ssize_t tcp_feed(void *st, const char *p, size_t n, struct wl_tally *t, struct buf *ctl)
{
    struct tcp_conn *c = st;
    const unsigned char *msg = c->sh->batch;
    size_t done = 0, k;

    (void)ctl;
    while (done < n) {
        k = c->sh->payload - c->pos;
        if (k > n - done)
            k = n - done;
        if (!c->bad && memcmp(p + done, msg + c->pos, k) != 0)
            c->bad = 1;
        c->pos += k;
        done += k;
        if (c->pos == c->sh->payload) {
            t->replies++;
            if (c->bad)
                t->verify++;
            else
                t->ok++;
            c->pos = 0;
            c->bad = 0;
        }
    }
    return (ssize_t)done;
}

const struct workload wl_tcp = {
    .name = "tcp",
    .unit = "round trips/s",
    .setup = tcp_setup,
    .teardown = tcp_teardown,
    .conn_new = tcp_conn_new,
    .conn_free = tcp_conn_free,
    .hello = tcp_hello,
    .hello_feed = NULL,
    .batch = tcp_batch,
    .feed = tcp_feed,
};
