/* A byte buffer with a fixed capacity chosen at setup: the hot paths append and consume
 * without allocating. data[off..len) is unread/unsent; buf_compact() moves it to the front. */
#ifndef PAIRBENCH_BUF_H
#define PAIRBENCH_BUF_H

#include <stddef.h>

struct buf {
    char *data;
    size_t off; /* first unconsumed byte */
    size_t len; /* end of valid bytes */
    size_t cap;
};

/* Allocates cap bytes. Returns 0, or -1 when out of memory. Free with buf_release(). */
int buf_init(struct buf *b, size_t cap);
void buf_release(struct buf *b);
/* Appends n bytes; returns 0, or -1 when they do not fit (nothing is appended). */
int buf_append(struct buf *b, const void *p, size_t n);
/* Unconsumed bytes and free space at the end. */
static inline size_t buf_used(const struct buf *b)
{
    return b->len - b->off;
}
static inline size_t buf_space(const struct buf *b)
{
    return b->cap - b->len;
}
static inline void buf_consume(struct buf *b, size_t n)
{
    b->off += n;
    if (b->off == b->len)
        b->off = b->len = 0;
}
/* Moves the unconsumed bytes to the start of the buffer. */
void buf_compact(struct buf *b);

#endif
