/* Fixed-capacity byte buffers (see buf.h). */
#include "buf.h"

#include <stdlib.h>
#include <string.h>

int buf_init(struct buf *b, size_t cap)
{
    b->off = b->len = 0;
    b->cap = cap;
    b->data = malloc(cap ? cap : 1);
    return b->data ? 0 : -1;
}

void buf_release(struct buf *b)
{
    free(b->data);
    b->data = NULL;
    b->off = b->len = b->cap = 0;
}

int buf_append(struct buf *b, const void *p, size_t n)
{
    if (n > b->cap - b->len) {
        buf_compact(b);
        if (n > b->cap - b->len)
            return -1;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

void buf_compact(struct buf *b)
{
    if (b->off == 0)
        return;
    memmove(b->data, b->data + b->off, b->len - b->off);
    b->len -= b->off;
    b->off = 0;
}
