/* Redis reply verification: hiredis's redisReader parses, our callbacks check each value in
 * place and return a sentinel instead of building a reply object. The per-reply state lives
 * in the verifier, which the reader passes to every callback as task->privdata. */
#include "proto/resp.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <hiredis/read.h>

#define RESP_LINE_MAX (64u * 1024)

/* Returned for every value: the reader only needs a non-NULL pointer (NULL means OOM). */
static char resp_sentinel;

static void verdict_verify(struct resp_verifier *v)
{
    if (v->verdict == RESP_OK)
        v->verdict = RESP_VERIFY;
}

static void verdict_error(struct resp_verifier *v, const char *s, size_t len)
{
    if (v->verdict != RESP_PROTOCOL) {
        size_t n = len < sizeof(v->errtext) - 1 ? len : sizeof(v->errtext) - 1;
        memcpy(v->errtext, s, n);
        v->errtext[n] = '\0';
    }
    v->verdict = RESP_PROTOCOL;
}

/* Inside a push message nothing is checked; a push is recognised at its top level. */
static int in_push(const struct resp_verifier *v, const redisReadTask *task)
{
    return task->parent != NULL && v->push;
}

/* A nested value (depth >= 1) of the current reply: does it fit the expectation? */
static void check_nested(struct resp_verifier *v, const redisReadTask *task, const char *s,
                         size_t len)
{
    const struct resp_expect *e = &v->expect;

    switch (e->check) {
    case RESP_CHECK_ANY:
    case RESP_CHECK_POP_PAIR:
        return;
    case RESP_CHECK_ARRAY_N:
        if (task->parent->parent != NULL || task->type != REDIS_REPLY_STRING || s == NULL ||
            len != e->value_len || memcmp(s, e->value, len) != 0)
            verdict_verify(v);
        return;
    default:
        /* The top level was already found to be of the wrong type. */
        verdict_verify(v);
        return;
    }
}

/* A push message's parts are skipped and a nested element is checked against the expected
 * reply: returns 1 when task was one of those, else records the top-level type, returns 0. */
static int below_top(struct resp_verifier *v, const redisReadTask *task)
{
    if (in_push(v, task))
        return 1;
    if (task->parent != NULL) {
        check_nested(v, task, NULL, 0);
        return 1;
    }
    v->top_type = task->type;
    return 0;
}

static void *cb_string(const redisReadTask *task, char *s, size_t len)
{
    struct resp_verifier *v = task->privdata;
    const struct resp_expect *e = &v->expect;

    if (in_push(v, task))
        return &resp_sentinel;
    if (task->type == REDIS_REPLY_ERROR) {
        verdict_error(v, s, len);
        return &resp_sentinel;
    }
    if (task->parent != NULL) {
        check_nested(v, task, s, len);
        return &resp_sentinel;
    }
    v->top_type = task->type;
    switch (e->check) {
    case RESP_CHECK_ANY:
        break;
    case RESP_CHECK_PONG:
        if (task->type != REDIS_REPLY_STATUS || len != 4 || memcmp(s, "PONG", 4) != 0)
            verdict_verify(v);
        break;
    case RESP_CHECK_OK:
        if (task->type != REDIS_REPLY_STATUS || len != 2 || memcmp(s, "OK", 2) != 0)
            verdict_verify(v);
        break;
    case RESP_CHECK_BULK_EQ:
    case RESP_CHECK_BULK_EQ_OR_NIL:
        if (task->type != REDIS_REPLY_STRING || len != e->value_len ||
            (len && memcmp(s, e->value, len) != 0))
            verdict_verify(v);
        break;
    case RESP_CHECK_BULK_OR_NIL:
        if (task->type != REDIS_REPLY_STRING)
            verdict_verify(v);
        break;
    default:
        verdict_verify(v);
        break;
    }
    return &resp_sentinel;
}

static void *cb_array(const redisReadTask *task, size_t elements)
{
    struct resp_verifier *v = task->privdata;
    const struct resp_expect *e = &v->expect;

    if (below_top(v, task))
        return &resp_sentinel;
    if (task->type == REDIS_REPLY_PUSH) {
        v->push = 1;
        return &resp_sentinel;
    }
    switch (e->check) {
    case RESP_CHECK_ANY:
        break;
    case RESP_CHECK_POP_PAIR:
        if (task->type != REDIS_REPLY_ARRAY || (elements != 0 && elements != 2))
            verdict_verify(v);
        break;
    case RESP_CHECK_ARRAY_N:
        if (task->type != REDIS_REPLY_ARRAY || e->count < 0 || elements != (size_t)e->count)
            verdict_verify(v);
        break;
    default:
        verdict_verify(v);
        break;
    }
    return &resp_sentinel;
}

static void *cb_integer(const redisReadTask *task, long long value)
{
    struct resp_verifier *v = task->privdata;

    if (below_top(v, task))
        return &resp_sentinel;
    v->last_int = value;
    if (v->expect.check != RESP_CHECK_ANY && v->expect.check != RESP_CHECK_INTEGER)
        verdict_verify(v);
    return &resp_sentinel;
}

static void *cb_double(const redisReadTask *task, double value, char *s, size_t len)
{
    struct resp_verifier *v = task->privdata;

    (void)value, (void)s, (void)len;
    if (below_top(v, task))
        return &resp_sentinel;
    if (v->expect.check != RESP_CHECK_ANY)
        verdict_verify(v);
    return &resp_sentinel;
}

static void *cb_nil(const redisReadTask *task)
{
    struct resp_verifier *v = task->privdata;
    enum resp_check c = v->expect.check;

    if (below_top(v, task))
        return &resp_sentinel;
    v->top_type = REDIS_REPLY_NIL;
    if (c != RESP_CHECK_ANY && c != RESP_CHECK_BULK_EQ_OR_NIL && c != RESP_CHECK_BULK_OR_NIL &&
        c != RESP_CHECK_POP_PAIR)
        verdict_verify(v);
    return &resp_sentinel;
}

static void *cb_bool(const redisReadTask *task, int value)
{
    struct resp_verifier *v = task->privdata;

    (void)value;
    if (below_top(v, task))
        return &resp_sentinel;
    if (v->expect.check != RESP_CHECK_ANY)
        verdict_verify(v);
    return &resp_sentinel;
}

/* Nothing to free: every value is the sentinel. */
static redisReplyObjectFunctions resp_fns = {
    .createString = cb_string,
    .createArray = cb_array,
    .createInteger = cb_integer,
    .createDouble = cb_double,
    .createNil = cb_nil,
    .createBool = cb_bool,
    .freeObject = NULL,
};

static void fast_setup(struct resp_verifier *v);

static void reply_reset(struct resp_verifier *v)
{
    v->verdict = RESP_OK;
    v->push = 0;
    v->top_type = 0;
}

int resp_verifier_init(struct resp_verifier *v, const struct resp_expect *e)
{
    redisReader *r;

    memset(v, 0, sizeof(*v));
    r = redisReaderCreateWithFunctions(&resp_fns);
    if (r == NULL)
        return -1;
    /* Keep the input buffer however large it grew: freeing and re-growing it after every
     * large reply would allocate on the hot path. */
    r->maxbuf = 0;
    r->privdata = v;
    v->reader = r;
    v->expect = *e;
    reply_reset(v);
    fast_setup(v);
    return 0;
}

void resp_verifier_release(struct resp_verifier *v)
{
    if (v->reader != NULL)
        redisReaderFree(v->reader);
    v->reader = NULL;
}

int resp_verifier_reset(struct resp_verifier *v)
{
    redisReader *r = v->reader;

    reply_reset(v);
    v->errtext[0] = '\0';
    v->fast.k = 0;
    v->fast.diff = 0;
    if (r != NULL && r->err == 0 && r->ridx == -1 && r->len == r->pos)
        return 0;
    if (r != NULL)
        redisReaderFree(r);
    v->reader = NULL;
    r = redisReaderCreateWithFunctions(&resp_fns);
    if (r == NULL)
        return -1;
    r->maxbuf = 0;
    r->privdata = v;
    v->reader = r;
    return 0;
}

int resp_verifier_at_rest(const struct resp_verifier *v)
{
    const redisReader *r = v->reader;

    if (v->fast.k != 0)
        return 0;
    if (r == NULL)
        return 1;
    /* asked for a reply with no byte left, the reader has a root task of no type yet */
    return r->err == 0 && r->len == r->pos &&
           (r->ridx == -1 || (r->ridx == 0 && r->task[0]->type < 0));
}

/* Sets up the fast path for the expectation (see struct resp_verifier). */
static void fast_setup(struct resp_verifier *v)
{
    const struct resp_expect *e = &v->expect;
    int n = 0;

    memset(&v->fast, 0, sizeof(v->fast));
    if (e->check == RESP_CHECK_OK)
        n = snprintf(v->fast.head, sizeof(v->fast.head), "+OK\r\n");
    else if (e->check == RESP_CHECK_PONG)
        n = snprintf(v->fast.head, sizeof(v->fast.head), "+PONG\r\n");
    else if ((e->check == RESP_CHECK_BULK_EQ || e->check == RESP_CHECK_BULK_EQ_OR_NIL) &&
             (e->value || e->value_len == 0)) {
        n = snprintf(v->fast.head, sizeof(v->fast.head), "$%zu\r\n", e->value_len);
        v->fast.body = e->value_len + 2;
        v->fast.nil = e->check == RESP_CHECK_BULK_EQ_OR_NIL;
        v->fast.cmp = 1;
    } else if (e->check == RESP_CHECK_BULK_OR_NIL && e->value_len > 0) {
        /* any value is accepted: the likely length (the payload) takes the fast path, the
         * value is not compared (the reader would not either), other lengths fall back */
        n = snprintf(v->fast.head, sizeof(v->fast.head), "$%zu\r\n", e->value_len);
        v->fast.body = e->value_len + 2;
        v->fast.nil = 1;
    }
    if (n <= 0 || (size_t)n >= sizeof(v->fast.head)) {
        memset(&v->fast, 0, sizeof(v->fast));
        return;
    }
    v->fast.hlen = (unsigned char)n;
}

void resp_verifier_expect(struct resp_verifier *v, const struct resp_expect *e)
{
    v->expect = *e;
    fast_setup(v);
}

int resp_push_bytes(struct resp_verifier *v, const char *p, size_t n)
{
    redisReader *r = v->reader;

    if (n == 0)
        return r->err ? -1 : 0;
    if (v->max_pending && !r->err && r->len - r->pos + n > v->max_pending) {
        r->err = REDIS_ERR_PROTOCOL;
        snprintf(r->errstr, sizeof(r->errstr), "a reply larger than %zu bytes", v->max_pending);
        return -1;
    }
    if (redisReaderFeed(r, p, n) != REDIS_OK)
        return -1;
    /* What the reader has not consumed starts with a line (a simple value, or the header of
     * a bulk or aggregate) that it rescans for CRLF on every feed: a line that never ends
     * would cost quadratic time long before max_pending. No real line is this long. */
    if (r->len - r->pos > RESP_LINE_MAX && !memchr(r->buf + r->pos, '\r', RESP_LINE_MAX)) {
        r->err = REDIS_ERR_PROTOCOL;
        snprintf(r->errstr, sizeof(r->errstr), "a reply line longer than %u bytes", RESP_LINE_MAX);
        return -1;
    }
    return 0;
}

int resp_next(struct resp_verifier *v, enum resp_verdict *verdict)
{
    void *reply;

    for (;;) {
        if (redisReaderGetReply(v->reader, &reply) != REDIS_OK)
            return -1;
        if (reply == NULL)
            return 0;
        if (v->push) {
            reply_reset(v);
            continue;
        }
        *verdict = v->verdict;
        reply_reset(v);
        return 1;
    }
}

const char *resp_error(const struct resp_verifier *v)
{
    const redisReader *r = v->reader;

    return r->err ? r->errstr : "no error";
}

/* After each reply, once 1 KiB of its buffer has been consumed, the reader moves the unread
 * rest to the front. Handing it a whole 64-reply read at once would move that rest once per
 * reply (quadratic in the read size), so bytes go in pieces of at most this many. */
#define RESP_FEED_CHUNK 4096

static const char resp_nil[] = "$-1\r\n";

/* Counts one complete reply with its verdict; the first failed one's text goes to t->why. */
static void tally_reply(const struct resp_verifier *v, struct wl_tally *t,
                        enum resp_verdict verdict)
{
    t->replies++;
    if (verdict == RESP_OK) {
        t->ok++;
        return;
    }
    if (verdict == RESP_VERIFY)
        t->verify++;
    else
        t->protocol++;
    if (t->why[0] == '\0')
        snprintf(t->why, sizeof(t->why), "%.*s", (int)sizeof(t->why) - 1,
                 verdict == RESP_VERIFY ? "a reply that differs from what the command returns"
                                        : v->errtext);
}

/* The stream is malformed: says why in t->why. Returns -1. */
static ssize_t feed_malformed(const struct resp_verifier *v, struct wl_tally *t)
{
    snprintf(t->why, sizeof(t->why), "%s", resp_error(v));
    return -1;
}

/* The fast path over p[0..n): consumes whole and partial expected replies, counting each
 * complete one in t. Returns the bytes consumed; stops early (with *fallback set) at the
 * first header byte that matches no candidate: then the header bytes consumed so far have
 * been handed to the reader, and the caller feeds the rest there. */
static size_t fast_scan(struct resp_verifier *v, const char *p, size_t n, struct wl_tally *t,
                        int *fallback)
{
    const struct resp_expect *e = &v->expect;
    size_t off = 0;

    *fallback = 0;
    while (off < n) {
        size_t k = v->fast.k;

        if (k == 0)
            v->fast.mask = (unsigned char)(1 | (v->fast.nil ? 2 : 0));
        if (v->fast.mask) { /* in a header */
            unsigned char c = (unsigned char)p[off], m = v->fast.mask;

            if ((m & 1) && (k >= v->fast.hlen || (unsigned char)v->fast.head[k] != c))
                m &= (unsigned char)~1u;
            if ((m & 2) && (k >= sizeof(resp_nil) - 1 || (unsigned char)resp_nil[k] != c))
                m &= (unsigned char)~2u;
            if (m == 0) {
                /* the bytes consumed are a prefix of the header that matched until now */
                const char *had = (v->fast.mask & 1) ? v->fast.head : resp_nil;

                v->fast.k = 0;
                *fallback = 1;
                if (k && resp_push_bytes(v, had, k) < 0)
                    *fallback = -1;
                return off;
            }
            v->fast.mask = m;
            v->fast.k = ++k;
            off++;
            if ((m & 2) && k == sizeof(resp_nil) - 1) { /* nil: allowed */
                tally_reply(v, t, RESP_OK);
                v->fast.k = 0;
            } else if ((m & 1) && k == v->fast.hlen) {
                v->fast.mask = 0; /* into the body (fast.diff is 0 between replies) */
                if (v->fast.body == 0) {
                    tally_reply(v, t, RESP_OK);
                    v->fast.k = 0;
                }
            }
            continue;
        }
        { /* in the body: the value, then two bytes the reader would skip unchecked too */
            size_t at = k - v->fast.hlen, want = v->fast.body - at, take = n - off;
            size_t vlen = e->value_len;

            if (take > want)
                take = want;
            if (v->fast.cmp && at < vlen) {
                size_t cmp = take < vlen - at ? take : vlen - at;

                if (memcmp(p + off, e->value + at, cmp) != 0)
                    v->fast.diff = 1;
            }
            off += take;
            v->fast.k = k + take;
            if (take == want) {
                tally_reply(v, t, v->fast.diff ? RESP_VERIFY : RESP_OK);
                v->fast.k = 0;
                v->fast.diff = 0;
            }
        }
    }
    return off;
}

/* The reader waits for more bytes: when what it waits for is a bulk value ('$', or RESP3's
 * '=') whose declared length is past max_pending, the stream can never complete within the
 * limit - say so now instead of waiting for bytes that must not be buffered. The item being
 * read is the reader's current task, its type byte consumed and its length line at the
 * cursor (hiredis re-reads that line until the value is complete). Runs once per read that
 * ends inside a reply, not per reply. 0, or -1 (reader error set). */
static int check_pending_bulk(struct resp_verifier *v)
{
    redisReader *r = v->reader;
    const char *p = r->buf + r->pos, *end = r->buf + r->len;
    unsigned long long len = 0;
    int digits = 0, type;

    if (!v->max_pending || r->ridx < 0 || p >= end)
        return 0;
    type = r->task[r->ridx]->type;
    if (type != REDIS_REPLY_STRING && type != REDIS_REPLY_VERB)
        return 0;
    for (; p < end && *p >= '0' && *p <= '9' && digits < 20; p++, digits++)
        len = len * 10 + (unsigned long long)(*p - '0');
    if (digits == 0 || (p < end && *p != '\r' && digits < 20))
        return 0; /* "$-1", or a malformed header the reader will refuse itself */
    if (digits < 20 && len <= v->max_pending)
        return 0;
    r->err = REDIS_ERR_PROTOCOL;
    snprintf(r->errstr, sizeof(r->errstr), "a bulk length of %s%llu bytes, over the %zu-byte limit",
             digits >= 20 ? "more than " : "", digits >= 20 ? ULLONG_MAX / 10 : len,
             v->max_pending);
    return -1;
}

/* Whether the reader holds nothing: no partial reply, no error. */
static int reader_idle(const struct resp_verifier *v)
{
    const redisReader *r = v->reader;

    return r->err == 0 && r->ridx == -1 && r->pos == r->len;
}

ssize_t resp_feed(struct resp_verifier *v, const char *p, size_t n, struct wl_tally *t)
{
    enum resp_verdict verdict;
    size_t off = 0;
    int rc;

    if (n == 0)
        return resp_push_bytes(v, p, 0) < 0 ? feed_malformed(v, t) : 0;
    do {
        size_t k;

        if (v->fast.hlen && (v->fast.k > 0 || reader_idle(v))) {
            int fallback;

            off += fast_scan(v, p + off, n - off, t, &fallback);
            if (fallback < 0)
                return feed_malformed(v, t);
            if (off == n)
                break;
        }
        k = n - off < RESP_FEED_CHUNK ? n - off : RESP_FEED_CHUNK;

        if (resp_push_bytes(v, p + off, k) < 0)
            return feed_malformed(v, t);
        off += k;
        while ((rc = resp_next(v, &verdict)) == 1)
            tally_reply(v, t, verdict);
        if (rc < 0 || (rc == 0 && !reader_idle(v) && check_pending_bulk(v) < 0))
            return feed_malformed(v, t);
    } while (off < n);
    return (ssize_t)n;
}
