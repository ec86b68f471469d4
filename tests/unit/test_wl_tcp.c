/* wl_tcp and srv_tcp: echo replies verified byte by byte whatever the read splits, wrong or
 * shifted bytes caught, partial batches; the server frames messages of --payload bytes (one
 * request each) or echoes chunks. */
#include <stdlib.h>

#include "srv/srvproto.h"
#include "t.h"
#include "wl/workload.h"

static void *setup(size_t payload, unsigned pipeline, void **shared)
{
    struct drv_opts o;
    char err[256];

    opts_defaults(&o, MODE_CLIENT, PROTO_TCP);
    o.payload = payload;
    o.pipeline = pipeline;
    if (wl_tcp.setup(&o, shared, err, sizeof(err)) < 0)
        return NULL;
    return wl_tcp.conn_new(*shared, 0, 1);
}

/* Feeds data in pieces of at most `split` bytes (0 = random sizes). */
static void feed_split(void *st, const char *p, size_t n, size_t split, struct wl_tally *t)
{
    struct buf ctl = {0};
    size_t off = 0, k;
    ssize_t used;

    while (off < n) {
        k = split ? split : 1 + (size_t)rand() % 97;
        if (k > n - off)
            k = n - off;
        used = wl_tcp.feed(st, p + off, k, t, &ctl);
        CHECK(used == (ssize_t)k);
        off += k;
    }
}

int main(void)
{
    void *shared = NULL, *st;
    const char *data;
    size_t len, splits[] = {1, 2, 7, 100, 1000, 0};
    struct wl_tally t;
    char *copy;
    size_t i;

    st = setup(100, 8, &shared);
    CHECK(st != NULL);
    if (!st)
        return T_DONE();
    CHECK(wl_tcp.batch(st, 8, &data, &len) == 0 && len == 800);
    CHECK(wl_tcp.batch(st, 3, &data, &len) == 0 && len == 300);
    CHECK(wl_tcp.batch(st, 9, &data, &len) == -1);
    CHECK(wl_tcp.batch(st, 0, &data, &len) == -1);
    CHECK(wl_tcp.batch(st, 8, &data, &len) == 0);
    copy = malloc(len + 1);
    if (!copy)
        return T_DONE();

    /* the echo, split every way */
    for (i = 0; i < sizeof(splits) / sizeof(splits[0]); i++) {
        t = (struct wl_tally){0};
        feed_split(st, data, len, splits[i], &t);
        CHECK_MSG(t.replies == 8 && t.ok == 8 && t.verify == 0, "split %zu: %llu/%llu", splits[i],
                  (unsigned long long)t.replies, (unsigned long long)t.ok);
    }
    /* one wrong byte fails exactly its message */
    memcpy(copy, data, len);
    copy[250] ^= 1;
    t = (struct wl_tally){0};
    feed_split(st, copy, len, 13, &t);
    CHECK(t.replies == 8 && t.ok == 7 && t.verify == 1);
    /* a stream shifted by one byte (a lost byte) fails every message after it */
    t = (struct wl_tally){0};
    feed_split(st, data + 1, 100, 100, &t); /* message 1: bytes 1..100 */
    CHECK(t.replies == 1 && t.verify == 1);
    /* a new transport (hello) starts a fresh reply */
    CHECK(wl_tcp.hello(st, NULL) == 0);
    t = (struct wl_tally){0};
    feed_split(st, data, 100, 0, &t);
    CHECK(t.replies == 1 && t.ok == 1);
    wl_tcp.conn_free(st);
    wl_tcp.teardown(shared);

    /* bad sizes are refused at setup */
    {
        struct drv_opts o;
        char err[256];
        void *sh = NULL;
        opts_defaults(&o, MODE_CLIENT, PROTO_TCP);
        o.payload = 0;
        CHECK(wl_tcp.setup(&o, &sh, err, sizeof(err)) == -1);
        CHECK(strstr(err, "--payload") != NULL);
        o.payload = 64 * 1024 * 1024;
        o.pipeline = 100;
        CHECK(wl_tcp.setup(&o, &sh, err, sizeof(err)) == -1);
        CHECK(strstr(err, "--pipeline") != NULL);
    }

    /* server: framed messages of --payload bytes, one request each */
    {
        struct drv_opts o;
        struct buf out;
        void *s;
        int replied = 0, close_after = 0;
        ssize_t rc;
        char in[250];

        memset(in, 'x', sizeof(in));
        opts_defaults(&o, MODE_SERVE, PROTO_TCP);
        o.payload = 100;
        CHECK(srv_tcp.max_request(&o) == 100);
        s = srv_tcp.conn_new(&o);
        CHECK(s != NULL && buf_init(&out, 1024) == 0);
        rc = srv_tcp.feed(s, in, 250, &out, &replied, &close_after);
        CHECK(rc == 100 && replied == 1 && buf_used(&out) == 100);
        rc = srv_tcp.feed(s, in, 60, &out, &replied, &close_after);
        CHECK(rc == 60 && replied == 0 && buf_used(&out) == 160);
        rc = srv_tcp.feed(s, in, 250, &out, &replied, &close_after);
        CHECK(rc == 40 && replied == 1 && buf_used(&out) == 200);
        CHECK(srv_tcp.feed(s, in, 0, &out, &replied, &close_after) == 0);
        CHECK(close_after == 0);
        srv_tcp.conn_free(s);
        /* chunk mode: whatever arrived is one request */
        o.payload = 0;
        s = srv_tcp.conn_new(&o);
        out.off = out.len = 0;
        rc = srv_tcp.feed(s, in, 77, &out, &replied, &close_after);
        CHECK(rc == 77 && replied == 1 && buf_used(&out) == 77);
        srv_tcp.conn_free(s);
        buf_release(&out);
    }
    free(copy);
    return T_DONE();
}
