/* Redis reply verification on top of hiredis's redisReader, with no I/O. The reader is given
 * a table of callbacks that check each value in place against what the command must return
 * and hand back a static sentinel, so no reply object is allocated per reply: the only
 * memory is the reader's input buffer, which grows to the largest reply once and is kept
 * (maxbuf 0). One verifier per connection. RESP2 and RESP3 (hiredis >= 1.0) both parse;
 * RESP3 push messages are not replies and are skipped. */
#ifndef PAIRBENCH_RESP_H
#define PAIRBENCH_RESP_H

#include <stddef.h>
#include <sys/types.h>

#include "proto/tally.h"

/* What a reply must be. Error replies (-ERR ...) always count as protocol errors. */
enum resp_check {
    RESP_CHECK_ANY,            /* anything but an error (handshake replies) */
    RESP_CHECK_PONG,           /* +PONG */
    RESP_CHECK_OK,             /* +OK */
    RESP_CHECK_BULK_EQ,        /* bulk string equal to value (ECHO) */
    RESP_CHECK_BULK_EQ_OR_NIL, /* bulk equal to value, or nil (GET) */
    RESP_CHECK_BULK_OR_NIL,    /* any bulk string, or nil (LPOP, RPOP, SPOP) */
    RESP_CHECK_INTEGER,        /* integer (INCR, LPUSH, SADD, ...) */
    RESP_CHECK_POP_PAIR,       /* array of 0 or 2 elements, or nil (ZPOPMIN) */
    RESP_CHECK_ARRAY_N,        /* array of exactly count bulk strings equal to value (LRANGE) */
};

struct resp_expect {
    enum resp_check check;
    const char *value; /* not owned; must outlive the verifier */
    size_t value_len;
    long long count;
};

/* The outcome of one complete reply. */
enum resp_verdict { RESP_OK = 0, RESP_VERIFY = 1, RESP_PROTOCOL = 2 };

struct resp_verifier {
    void *reader; /* redisReader * */
    struct resp_expect expect;
    /* Bytes the reader may hold unparsed (a reply still arriving); more is a malformed
     * stream, so a server announcing a huge reply cannot grow the buffer without bound.
     * 0: no limit. Set after init. */
    size_t max_pending;
    /* State of the reply being parsed (it may span many feeds). */
    enum resp_verdict verdict;
    int push;           /* the top-level value is a RESP3 push message */
    int top_type;       /* REDIS_REPLY_* of the top-level value, 0 before it is known */
    char errtext[320];  /* first error reply text in the current reply, NUL-terminated */
    long long last_int; /* the last top-level integer reply (DBSIZE after a setup) */
    /* The fast path of resp_feed(): when the expected reply has a fixed header (+OK, +PONG,
     * $<len> of a known value or, for any bulk, of the payload's length, and $-1 where nil
     * is allowed), replies are checked in the
     * caller's buffer, header byte by byte and value by memcmp, with no copy into the
     * reader. Anything else (errors, other lengths, pushes, RESP3 nulls) goes to the reader
     * from the first byte that differs, which then sees exactly the bytes it would have. */
    struct {
        char head[24];      /* "$<len>\r\n", "+OK\r\n" or "+PONG\r\n"; empty: no fast path */
        unsigned char hlen; /* strlen(head) */
        unsigned char nil;  /* "$-1\r\n" is an accepted reply too */
        unsigned char mask; /* within a header: 1 head still matches, 2 nil still matches */
        unsigned char diff; /* the value seen so far differs from the expected one */
        unsigned char cmp;  /* the body is compared with the value (not for BULK_OR_NIL) */
        size_t body;        /* bytes after head: value + CRLF, or 0 */
        size_t k;           /* bytes of the current reply consumed (0: at a reply boundary) */
    } fast;
};

/* 0, or -1 when out of memory. Release with resp_verifier_release(). */
int resp_verifier_init(struct resp_verifier *v, const struct resp_expect *e);
void resp_verifier_release(struct resp_verifier *v);
/* Forgets any partial reply and reader error (a new connection): 0, or -1 out of memory. */
int resp_verifier_reset(struct resp_verifier *v);
/* 1 when every byte pushed so far belongs to a complete reply (none is begun but
 * unfinished), else 0. */
int resp_verifier_at_rest(const struct resp_verifier *v);
/* Changes what the following replies must be (after a handshake). */
void resp_verifier_expect(struct resp_verifier *v, const struct resp_expect *e);

/* Hands bytes to the reader (copied). 0, or -1 when the reader is in an error state or out
 * of memory. */
int resp_push_bytes(struct resp_verifier *v, const char *p, size_t n);
/* The next complete reply from the bytes pushed so far: 1 with *verdict set (and, for an
 * error reply, its text in v->errtext), 0 when more bytes are needed, -1 when the stream is
 * malformed (resp_error() says why). Push messages are skipped. */
int resp_next(struct resp_verifier *v, enum resp_verdict *verdict);
/* The reader's error text after -1. */
const char *resp_error(const struct resp_verifier *v);

/* Pushes p[0..n) and adds every complete reply to t. Returns n (all bytes are taken: the
 * reader keeps a partial reply), or -1 when the stream is malformed. */
ssize_t resp_feed(struct resp_verifier *v, const char *p, size_t n, struct wl_tally *t);

#endif
