/* libFuzzer target for resp.c: arbitrary bytes under every expectation, fed in pieces whose
 * sizes come from the input. The tally must match feeding the same bytes whole, and never
 * count more replies than complete values could fit. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "resp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int feed_all(const struct resp_expect *e, const char *p, size_t n, unsigned split,
                    struct wl_tally *t)
{
    struct resp_verifier v;
    int failed = 0;

    memset(t, 0, sizeof(*t));
    if (resp_verifier_init(&v, e) < 0)
        return -2;
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct resp_expect e;
    struct wl_tally whole, pieces;
    int fw, fp;

    if (size < 2)
        return 0;
    memset(&e, 0, sizeof(e));
    e.check = (enum resp_check)(data[0] % (RESP_CHECK_ARRAY_N + 1));
    e.value = "xyz";
    e.value_len = data[1] % 4;
    e.count = data[1] % 5;
    fw = feed_all(&e, (const char *)data + 2, size - 2, 0, &whole);
    fp = feed_all(&e, (const char *)data + 2, size - 2, data[1] % 13 + 1, &pieces);
    if (fw == -2 || fp == -2)
        return 0;
    /* Whole or in pieces, the same replies are seen before any failure. */
    if (fw != fp)
        abort();
    if (!fw && memcmp(&whole, &pieces, sizeof(whole)) != 0)
        abort();
    if (whole.ok + whole.verify + whole.protocol != whole.replies)
        abort();
    if (whole.replies > (size - 2) / 3)
        abort();
    return 0;
}
