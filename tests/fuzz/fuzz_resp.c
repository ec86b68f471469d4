/* libFuzzer target for resp.c: arbitrary bytes under every expectation, fed in pieces whose
 * sizes come from the input. The tally must match feeding the same bytes whole and feeding
 * them to the reader alone (the fast path off), and never
 * count more replies than complete values could fit. Inputs whose first byte is >= 0xf0 go
 * through the whole wl_redis table instead (handshake replies, then command replies). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/resp.h"
#include "wl/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int feed_all(const struct resp_expect *e, const char *p, size_t n, unsigned split, int slow,
                    struct wl_tally *t)
{
    struct resp_verifier v;
    int failed = 0;

    memset(t, 0, sizeof(*t));
    if (resp_verifier_init(&v, e) < 0)
        return -2;
    if (slow) /* the reader alone, without the in-place fast path */
        memset(&v.fast, 0, sizeof(v.fast));
    for (size_t off = 0; off < n;) {
        size_t k = split ? 1 + (off * 7 + split) % (split + 1) : n - off;

        if (k > n - off)
            k = n - off;
        if (resp_feed(&v, p + off, k, t) < 0) {
            failed = 1;
            break;
        }
        off += k;
    }
    resp_verifier_release(&v);
    return failed;
}

static const char *const fuzz_cmds[] = {"ECHO", "GET", "LRANGE_100", "ZPOPMIN", "PING", "MSET"};

/* wl_redis: setup, hello, hello_feed over the first part, feed over the rest. */
static void fuzz_table(const uint8_t *data, size_t size)
{
    struct drv_opts o;
    void *sh = NULL, *st = NULL;
    struct buf out = {0};
    struct wl_tally t = {0};
    char err[512];
    int done = 0;
    size_t cut;

    memset(&o, 0, sizeof(o));
    o.protocol = PROTO_REDIS;
    o.connections = 1;
    o.workers = 1;
    o.pipeline = 1 + data[1] % 4;
    o.window = 1;
    o.payload = data[1] % 5;
    o.resp = data[1] & 0x80 ? 3 : 2;
    o.keyspace = data[1] & 0x40 ? 10 : 0;
    snprintf(o.command, sizeof(o.command), "%s", fuzz_cmds[data[0] % 6]);
    if (wl_redis.setup(&o, &sh, err, sizeof(err)) < 0)
        return;
    st = wl_redis.conn_new(sh, 0, 1);
    if (st == NULL || buf_init(&out, 1 << 16) < 0)
        goto out;
    data += 2, size -= 2;
    cut = size / 2;
    if (wl_redis.hello(st, &out) > 0) {
        ssize_t used = wl_redis.hello_feed(st, (const char *)data, cut, &done, err, sizeof(err));
        if (used < 0 || !done)
            goto out;
        if ((size_t)used != cut)
            abort();
    } else {
        cut = 0;
    }
    if (wl_redis.feed(st, (const char *)data + cut, size - cut, &t, NULL) >= 0 &&
        t.ok + t.verify + t.protocol != t.replies)
        abort();
out:
    buf_release(&out);
    if (st != NULL)
        wl_redis.conn_free(st);
    wl_redis.teardown(sh);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct resp_expect e;
    struct wl_tally whole, pieces, slow;
    int fw, fp, fs;

    if (size < 2)
        return 0;
    if (data[0] >= 0xf0) {
        fuzz_table(data, size);
        return 0;
    }
    memset(&e, 0, sizeof(e));
    e.check = (enum resp_check)(data[0] % (RESP_CHECK_ARRAY_N + 1));
    e.value = "xyz";
    e.value_len = data[1] % 4;
    e.count = data[1] % 5;
    fw = feed_all(&e, (const char *)data + 2, size - 2, 0, 0, &whole);
    fp = feed_all(&e, (const char *)data + 2, size - 2, data[1] % 13 + 1, 0, &pieces);
    fs = feed_all(&e, (const char *)data + 2, size - 2, data[1] % 13 + 1, 1, &slow);
    if (fw == -2 || fp == -2 || fs == -2)
        return 0;
    /* Whole or in pieces, with or without the fast path, the same replies are seen before
     * any failure. */
    if (fw != fp || fw != fs)
        abort();
    if (!fw &&
        (memcmp(&whole, &pieces, sizeof(whole)) != 0 || memcmp(&whole, &slow, sizeof(whole)) != 0))
        abort();
    if (whole.ok + whole.verify + whole.protocol != whole.replies)
        abort();
    if (whole.replies > (size - 2) / 3)
        abort();
    return 0;
}
