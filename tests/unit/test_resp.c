/* resp.c: every reply type, fed whole, byte by byte and in random splits, gives the same
 * tally; wrong content counts as verify, error replies as protocol, malformed input -1. */
#include <stdint.h>
#include <stdlib.h>

#include "proto/resp.h"
#include "t.h"

struct reply_case {
    const char *name;
    const char *bytes;
    size_t len; /* 0: strlen(bytes) */
    struct resp_expect expect;
    /* expected tally after feeding the bytes */
    uint64_t replies, ok, verify, protocol;
};

#define X(v) .value = (v), .value_len = sizeof(v) - 1

static const struct reply_case cases[] = {
    {"pong", "+PONG\r\n", 0, {RESP_CHECK_PONG, NULL, 0, 0}, 1, 1, 0, 0},
    {"pong wrong", "+PONX\r\n", 0, {RESP_CHECK_PONG, NULL, 0, 0}, 1, 0, 1, 0},
    {"ok", "+OK\r\n", 0, {RESP_CHECK_OK, NULL, 0, 0}, 1, 1, 0, 0},
    {"ok as pong", "+OK\r\n", 0, {RESP_CHECK_PONG, NULL, 0, 0}, 1, 0, 1, 0},
    {"ok as bulk", "$2\r\nOK\r\n", 0, {RESP_CHECK_OK, NULL, 0, 0}, 1, 0, 1, 0},
    {"echo", "$5\r\nhello\r\n", 0, {RESP_CHECK_BULK_EQ, X("hello"), 0}, 1, 1, 0, 0},
    {"echo mismatch", "$5\r\nhellx\r\n", 0, {RESP_CHECK_BULK_EQ, X("hello"), 0}, 1, 0, 1, 0},
    {"echo short", "$4\r\nhell\r\n", 0, {RESP_CHECK_BULK_EQ, X("hello"), 0}, 1, 0, 1, 0},
    {"echo empty", "$0\r\n\r\n", 0, {RESP_CHECK_BULK_EQ, X(""), 0}, 1, 1, 0, 0},
    {"echo binary", "$3\r\na\0b\r\n", 9, {RESP_CHECK_BULK_EQ, "a\0b", 3, 0}, 1, 1, 0, 0},
    {"echo nil", "$-1\r\n", 0, {RESP_CHECK_BULK_EQ, X("hello"), 0}, 1, 0, 1, 0},
    {"get value", "$3\r\nabc\r\n", 0, {RESP_CHECK_BULK_EQ_OR_NIL, X("abc"), 0}, 1, 1, 0, 0},
    {"get nil2", "$-1\r\n", 0, {RESP_CHECK_BULK_EQ_OR_NIL, X("abc"), 0}, 1, 1, 0, 0},
    {"get nil3", "_\r\n", 0, {RESP_CHECK_BULK_EQ_OR_NIL, X("abc"), 0}, 1, 1, 0, 0},
    {"get other", "$3\r\nabd\r\n", 0, {RESP_CHECK_BULK_EQ_OR_NIL, X("abc"), 0}, 1, 0, 1, 0},
    {"get int", ":3\r\n", 0, {RESP_CHECK_BULK_EQ_OR_NIL, X("abc"), 0}, 1, 0, 1, 0},
    {"pop bulk", "$1\r\nz\r\n", 0, {RESP_CHECK_BULK_OR_NIL, NULL, 0, 0}, 1, 1, 0, 0},
    {"pop nil", "*-1\r\n", 0, {RESP_CHECK_BULK_OR_NIL, NULL, 0, 0}, 1, 1, 0, 0},
    {"pop status", "+z\r\n", 0, {RESP_CHECK_BULK_OR_NIL, NULL, 0, 0}, 1, 0, 1, 0},
    {"integer", ":42\r\n", 0, {RESP_CHECK_INTEGER, NULL, 0, 0}, 1, 1, 0, 0},
    {"integer neg", ":-7\r\n", 0, {RESP_CHECK_INTEGER, NULL, 0, 0}, 1, 1, 0, 0},
    {"integer as ok", ":1\r\n", 0, {RESP_CHECK_OK, NULL, 0, 0}, 1, 0, 1, 0},
    /* SET expects +OK: a nil (RESP2 bulk or array, RESP3 null) is wrong content */
    {"nil2 as ok", "$-1\r\n", 0, {RESP_CHECK_OK, NULL, 0, 0}, 1, 0, 1, 0},
    {"nil array as ok", "*-1\r\n", 0, {RESP_CHECK_OK, NULL, 0, 0}, 1, 0, 1, 0},
    {"nil3 as ok", "_\r\n", 0, {RESP_CHECK_OK, NULL, 0, 0}, 1, 0, 1, 0},
    {"integer double", ",1.5\r\n", 0, {RESP_CHECK_INTEGER, NULL, 0, 0}, 1, 0, 1, 0},
    {"error", "-ERR wrong\r\n", 0, {RESP_CHECK_ANY, NULL, 0, 0}, 1, 0, 0, 1},
    {"error as int", "-WRONGTYPE Operation\r\n", 0, {RESP_CHECK_INTEGER, NULL, 0, 0}, 1, 0, 0, 1},
    {"nested error", "*2\r\n-ERR x\r\n:1\r\n", 0, {RESP_CHECK_POP_PAIR, NULL, 0, 0}, 1, 0, 0, 1},
    {"zpop pair2",
     "*2\r\n$1\r\na\r\n$1\r\n5\r\n",
     0,
     {RESP_CHECK_POP_PAIR, NULL, 0, 0},
     1,
     1,
     0,
     0},
    {"zpop pair3", "*2\r\n$1\r\na\r\n,5\r\n", 0, {RESP_CHECK_POP_PAIR, NULL, 0, 0}, 1, 1, 0, 0},
    {"zpop empty", "*0\r\n", 0, {RESP_CHECK_POP_PAIR, NULL, 0, 0}, 1, 1, 0, 0},
    {"zpop three", "*3\r\n:1\r\n:2\r\n:3\r\n", 0, {RESP_CHECK_POP_PAIR, NULL, 0, 0}, 1, 0, 1, 0},
    {"lrange",
     "*3\r\n$1\r\nx\r\n$1\r\nx\r\n$1\r\nx\r\n",
     0,
     {RESP_CHECK_ARRAY_N, X("x"), 3},
     1,
     1,
     0,
     0},
    {"lrange count",
     "*3\r\n$1\r\nx\r\n$1\r\nx\r\n$1\r\nx\r\n",
     0,
     {RESP_CHECK_ARRAY_N, X("x"), 2},
     1,
     0,
     1,
     0},
    {"lrange elem", "*2\r\n$1\r\nx\r\n$1\r\ny\r\n", 0, {RESP_CHECK_ARRAY_N, X("x"), 2}, 1, 0, 1, 0},
    {"lrange type", "*2\r\n$1\r\nx\r\n:1\r\n", 0, {RESP_CHECK_ARRAY_N, X("x"), 2}, 1, 0, 1, 0},
    {"lrange set", "~1\r\n$1\r\nx\r\n", 0, {RESP_CHECK_ARRAY_N, X("x"), 1}, 1, 0, 1, 0},
    {"lrange nested", "*1\r\n*1\r\n$1\r\nx\r\n", 0, {RESP_CHECK_ARRAY_N, X("x"), 1}, 1, 0, 1, 0},
    {"map",
     "%2\r\n+server\r\n$5\r\nredis\r\n+proto\r\n:3\r\n",
     0,
     {RESP_CHECK_ANY, NULL, 0, 0},
     1,
     1,
     0,
     0},
    {"map as ok", "%1\r\n+a\r\n:1\r\n", 0, {RESP_CHECK_OK, NULL, 0, 0}, 1, 0, 1, 0},
    {"set", "~2\r\n+a\r\n+b\r\n", 0, {RESP_CHECK_ANY, NULL, 0, 0}, 1, 1, 0, 0},
    {"double", ",3.14\r\n", 0, {RESP_CHECK_ANY, NULL, 0, 0}, 1, 1, 0, 0},
    {"double inf", ",inf\r\n", 0, {RESP_CHECK_ANY, NULL, 0, 0}, 1, 1, 0, 0},
    {"bool", "#t\r\n", 0, {RESP_CHECK_ANY, NULL, 0, 0}, 1, 1, 0, 0},
    {"bool as int", "#f\r\n", 0, {RESP_CHECK_INTEGER, NULL, 0, 0}, 1, 0, 1, 0},
    {"bignum",
     "(3492890328409238509324850943850943825024385\r\n",
     0,
     {RESP_CHECK_ANY, NULL, 0, 0},
     1,
     1,
     0,
     0},
    {"verbatim", "=15\r\ntxt:Some string\r\n", 0, {RESP_CHECK_ANY, NULL, 0, 0}, 1, 1, 0, 0},
    {"null3", "_\r\n", 0, {RESP_CHECK_ANY, NULL, 0, 0}, 1, 1, 0, 0},
    {"push skipped",
     ">3\r\n$10\r\ninvalidate\r\n*1\r\n$3\r\nfoo\r\n-ERR in push\r\n+PONG\r\n",
     0,
     {RESP_CHECK_PONG, NULL, 0, 0},
     1,
     1,
     0,
     0},
    {"push only",
     ">2\r\n$7\r\nmessage\r\n$1\r\nx\r\n",
     0,
     {RESP_CHECK_PONG, NULL, 0, 0},
     0,
     0,
     0,
     0},
    {"three", "+PONG\r\n+PONG\r\n+PONX\r\n", 0, {RESP_CHECK_PONG, NULL, 0, 0}, 3, 2, 1, 0},
    {"mixed", ":1\r\n-ERR a\r\n:2\r\n$1\r\nx\r\n", 0, {RESP_CHECK_INTEGER, NULL, 0, 0}, 4, 2, 1, 1},
    {"partial", "$5\r\nhel", 0, {RESP_CHECK_BULK_EQ, X("hello"), 0}, 0, 0, 0, 0},
};

static size_t case_len(const struct reply_case *c)
{
    return c->len ? c->len : strlen(c->bytes);
}

/* Feeds the case in pieces given by `split` (0 = whole, 1 = byte by byte, 2 = random).
 * Returns the feed's failure flag; fills *t. */
static int feed_case(const struct reply_case *c, int split, unsigned *seed, struct wl_tally *t)
{
    struct resp_verifier v;
    size_t len = case_len(c), off = 0;
    int failed = 0;

    memset(t, 0, sizeof(*t));
    if (resp_verifier_init(&v, &c->expect) < 0)
        return -1;
    while (off < len) {
        size_t n = len - off;

        if (split == 1)
            n = 1;
        else if (split == 2)
            n = 1 + (size_t)rand_r(seed) % (len - off);
        if (resp_feed(&v, c->bytes + off, n, t) != (ssize_t)n) {
            failed = 1;
            break;
        }
        off += n;
    }
    resp_verifier_release(&v);
    return failed;
}

static void test_cases(void)
{
    unsigned seed = 12345;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct reply_case *c = &cases[i];

        for (int split = 0; split < 3; split++) {
            for (int round = 0; round < (split == 2 ? 20 : 1); round++) {
                struct wl_tally t;
                int failed = feed_case(c, split, &seed, &t);

                CHECK_MSG(!failed, "%s split %d: feed failed", c->name, split);
                CHECK_MSG(t.replies == c->replies && t.ok == c->ok && t.verify == c->verify &&
                              t.protocol == c->protocol,
                          "%s split %d: replies %llu ok %llu verify %llu protocol %llu", c->name,
                          split, (unsigned long long)t.replies, (unsigned long long)t.ok,
                          (unsigned long long)t.verify, (unsigned long long)t.protocol);
            }
        }
    }
}

/* All cases of one expectation concatenated: the tallies add up across reply boundaries. */
static void test_stream(void)
{
    struct resp_expect e = {RESP_CHECK_BULK_EQ, X("hello"), 0};
    struct resp_verifier v;
    struct wl_tally t = {0};
    char stream[4096];
    size_t len = 0;
    unsigned seed = 99;

    for (int i = 0; i < 100; i++) {
        const char *r = i % 10 == 3   ? "$5\r\nhellx\r\n"
                        : i % 10 == 7 ? "-ERR no\r\n"
                                      : "$5\r\nhello\r\n";
        memcpy(stream + len, r, strlen(r));
        len += strlen(r);
    }
    CHECK(resp_verifier_init(&v, &e) == 0);
    for (size_t off = 0; off < len;) {
        size_t n = 1 + (size_t)rand_r(&seed) % 23;

        if (n > len - off)
            n = len - off;
        CHECK(resp_feed(&v, stream + off, n, &t) == (ssize_t)n);
        off += n;
    }
    CHECK(t.replies == 100 && t.ok == 80 && t.verify == 10 && t.protocol == 10);
    resp_verifier_release(&v);
}

/* at_rest: true exactly at reply boundaries, on the fast path and through the reader. */
static void test_at_rest(void)
{
    struct resp_expect e = {RESP_CHECK_BULK_EQ, X("hello"), 0};
    static const char stream[] = "$5\r\nhello\r\n-ERR no\r\n*2\r\n:1\r\n:2\r\n";
    static const size_t ends[] = {11, 20, 32};
    struct resp_verifier v;
    struct wl_tally t = {0};
    size_t k = 0;

    CHECK(resp_verifier_init(&v, &e) == 0);
    CHECK(resp_verifier_at_rest(&v));
    for (size_t off = 0; off < sizeof(stream) - 1; off++) {
        CHECK(resp_feed(&v, stream + off, 1, &t) == 1);
        if (k < 3 && off + 1 == ends[k]) {
            CHECK_MSG(resp_verifier_at_rest(&v), "not at rest after byte %zu", off + 1);
            k++;
        } else {
            CHECK_MSG(!resp_verifier_at_rest(&v), "at rest after byte %zu", off + 1);
        }
    }
    CHECK(t.replies == 3);
    resp_verifier_release(&v);
}

static void test_malformed(void)
{
    static const char *bad[] = {"!oops\r\n", "$abc\r\n",      ":12x\r\n", "*x\r\n",  "#x\r\n",
                                ",abc\r\n",  "=3\r\nabc\r\n", "$-2\r\n",  "(12a\r\n"};
    struct resp_expect e = {RESP_CHECK_ANY, NULL, 0, 0};

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct resp_verifier v;
        struct wl_tally t = {0};

        CHECK(resp_verifier_init(&v, &e) == 0);
        CHECK_MSG(resp_feed(&v, bad[i], strlen(bad[i]), &t) == -1, "'%s' accepted", bad[i]);
        CHECK(strcmp(resp_error(&v), "no error") != 0);
        /* the reader stays failed */
        CHECK(resp_feed(&v, "+OK\r\n", 5, &t) == -1);
        /* until reset */
        CHECK(resp_verifier_reset(&v) == 0);
        CHECK(resp_feed(&v, "+OK\r\n", 5, &t) == 5 && t.ok == 1);
        resp_verifier_release(&v);
    }
}

/* The error text of an error reply is kept for handshake messages. */
static void test_errtext(void)
{
    struct resp_expect e = {RESP_CHECK_ANY, NULL, 0, 0};
    struct resp_verifier v;
    enum resp_verdict verdict;
    const char *wp = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

    CHECK(resp_verifier_init(&v, &e) == 0);
    CHECK(resp_push_bytes(&v, wp, strlen(wp)) == 0);
    CHECK(resp_next(&v, &verdict) == 1);
    CHECK(verdict == RESP_PROTOCOL);
    CHECK_STR(v.errtext, "WRONGPASS invalid username-password pair or user is disabled.");
    CHECK(resp_next(&v, &verdict) == 0);
    resp_verifier_release(&v);
}

/* A reply announced larger than the bound is a malformed stream, not a growing buffer. */
static void test_max_pending(void)
{
    struct resp_expect e = {RESP_CHECK_BULK_EQ, X("hello"), 0};
    struct resp_verifier v;
    struct wl_tally t = {0};
    char junk[600];

    memset(junk, 'z', sizeof(junk));
    CHECK(resp_verifier_init(&v, &e) == 0);
    v.max_pending = 1000;
    CHECK(resp_feed(&v, "$5\r\nhello\r\n", 11, &t) == 11 && t.ok == 1);
    CHECK(resp_feed(&v, "+", 1, &t) == 1);
    CHECK(resp_feed(&v, junk, sizeof(junk), &t) == (ssize_t)sizeof(junk));
    CHECK(resp_feed(&v, junk, sizeof(junk), &t) == -1);
    CHECK(strstr(resp_error(&v), "larger than 1000 bytes") != NULL);
    CHECK(strstr(t.why, "larger than 1000 bytes") != NULL);
    resp_verifier_release(&v);

    /* a bulk length past the bound fails as soon as its header is in, with the cause (not
     * after waiting for bytes that must never be buffered), top level or nested, whatever
     * the split; lengths within the bound still wait */
    {
        static const char *const huge[] = {"$999999\r\n", "*2\r\n$5\r\nhello\r\n$1001\r\n",
                                           "$99999999999999999999999\r\n"};
        size_t i, k;

        for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
            for (k = 1; k <= strlen(huge[i]); k++) {
                int failed;
                memset(&t, 0, sizeof(t));
                CHECK(resp_verifier_init(&v, &e) == 0);
                v.max_pending = 1000;
                failed = resp_feed(&v, huge[i], k, &t) < 0 ||
                         resp_feed(&v, huge[i] + k, strlen(huge[i]) - k, &t) < 0;
                CHECK_MSG(failed, "'%s' split at %zu accepted", huge[i], k);
                /* 20 digits and more: hiredis's own "Bad bulk string length" */
                CHECK_MSG((strstr(t.why, "a bulk length of") && strstr(t.why, "1000-byte limit")) ||
                              (i == 2 && strstr(t.why, "Bad bulk string length")),
                          "'%s': why '%s'", huge[i], t.why);
                resp_verifier_release(&v);
            }
        }
        memset(&t, 0, sizeof(t));
        CHECK(resp_verifier_init(&v, &e) == 0);
        v.max_pending = 1000;
        CHECK(resp_feed(&v, "$1000\r\nab", 10, &t) == 10 && t.why[0] == '\0');
        resp_verifier_release(&v);
    }
}

/* An error reply's text is the first failed reply's cause (t->why), kept while later ones
 * are counted. */
static void test_error_text(void)
{
    struct resp_expect e = {RESP_CHECK_BULK_EQ, X("hello"), 0};
    struct resp_verifier v;
    struct wl_tally t = {0};
    const char *s = "-NOAUTH Authentication required.\r\n-ERR other\r\n$5\r\nhellx\r\n";

    CHECK(resp_verifier_init(&v, &e) == 0);
    CHECK(resp_feed(&v, s, strlen(s), &t) == (ssize_t)strlen(s));
    CHECK(t.protocol == 2 && t.verify == 1 && t.replies == 3);
    CHECK_STR(t.why, "NOAUTH Authentication required.");
    resp_verifier_release(&v);
}

/* The in-place fast path against the reader alone (fast path off): same tallies and the
 * same failure, whatever the split, for streams that mix expected replies with everything
 * that must fall back (other lengths, nil forms, errors, pushes, a malformed tail). */
static int fast_feed(const struct resp_expect *e, const char *p, size_t n, size_t split, int slow,
                     struct wl_tally *t)
{
    struct resp_verifier v;
    size_t off;
    int failed = 0;

    memset(t, 0, sizeof(*t));
    if (resp_verifier_init(&v, e) < 0)
        return -2;
    if (slow)
        memset(&v.fast, 0, sizeof(v.fast));
    for (off = 0; off < n && !failed; off += split) {
        size_t k = n - off < split ? n - off : split;

        failed = resp_feed(&v, p + off, k, t) < 0;
    }
    resp_verifier_release(&v);
    return failed;
}

static void test_fast_path(void)
{
    static const struct {
        enum resp_check check;
        const char *stream;
        uint64_t ok, verify, protocol;
        int fails;
    } fcases[] = {
        {RESP_CHECK_BULK_EQ, "$5\r\nhello\r\n$5\r\nhello\r\n$5\r\nhellO\r\n$4\r\nhell\r\n", 2, 2, 0,
         0},
        {RESP_CHECK_BULK_EQ, "$5\r\nhello\r\n-ERR busy\r\n$-1\r\n$5\r\nhello\r\n", 2, 1, 1, 0},
        {RESP_CHECK_BULK_EQ_OR_NIL, "$-1\r\n$5\r\nhello\r\n_\r\n$5\r\nhello\r\n$-1\r\n", 5, 0, 0,
         0},
        {RESP_CHECK_BULK_EQ_OR_NIL,
         "$5\r\nhello\r\n>2\r\n$7\r\nmessage\r\n$1\r\nx\r\n$5\r\nhello\r\n", 2, 0, 0, 0},
        {RESP_CHECK_OK, "+OK\r\n+OK\r\n+OKAY\r\n:1\r\n+OK\r\n", 3, 2, 0, 0},
        {RESP_CHECK_OK, "+OK\r\n$-1\r\n+OK\r\n_\r\n+OK\r\n", 3, 2, 0, 0},
        {RESP_CHECK_PONG, "+PONG\r\n+PONG\r\n+PON\r\n+PONG\r\n", 3, 1, 0, 0},
        {RESP_CHECK_BULK_EQ, "$5\r\nhello\r\n$5\r\nhel", 1, 0, 0, 0},
        {RESP_CHECK_BULK_EQ, "$5\r\nhello\r\n$5x\r\nhello\r\n", 1, 0, 0, 1},
        {RESP_CHECK_OK, "+OK\r\n?what\r\n+OK\r\n", 1, 0, 0, 1},
        {RESP_CHECK_BULK_OR_NIL, "$5\r\nhellO\r\n$-1\r\n$3\r\nabc\r\n_\r\n+x\r\n$5\r\nhello\r\n", 5,
         1, 0, 0},
        {RESP_CHECK_BULK_OR_NIL, "$5\r\nzzzzz\r\n:1\r\n-WRONGTYPE x\r\n$5\r\nab", 1, 1, 1, 0},
    };
    size_t i, split;

    for (i = 0; i < sizeof(fcases) / sizeof(fcases[0]); i++) {
        struct resp_expect e = {fcases[i].check, "hello", 5, 0};
        size_t n = strlen(fcases[i].stream);

        for (split = 1; split <= n; split++) {
            struct wl_tally fast, slow;
            int ff = fast_feed(&e, fcases[i].stream, n, split, 0, &fast);
            int fs = fast_feed(&e, fcases[i].stream, n, split, 1, &slow);

            CHECK_MSG(ff == fs, "case %zu split %zu: fast %d, reader %d", i, split, ff, fs);
            CHECK_MSG(ff == fcases[i].fails, "case %zu split %zu: failed %d", i, split, ff);
            if (ff || fs)
                continue;
            CHECK_MSG(memcmp(&fast, &slow, sizeof(fast)) == 0, "case %zu split %zu: tallies differ",
                      i, split);
            CHECK_MSG(fast.ok == fcases[i].ok && fast.verify == fcases[i].verify &&
                          fast.protocol == fcases[i].protocol,
                      "case %zu split %zu: ok %lld verify %lld protocol %lld", i, split,
                      (long long)fast.ok, (long long)fast.verify, (long long)fast.protocol);
        }
    }
}

int main(void)
{
    test_fast_path();
    test_max_pending();
    test_error_text();
    test_cases();
    test_stream();
    test_at_rest();
    test_malformed();
    test_errtext();
    return T_DONE();
}
