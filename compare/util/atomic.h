/* atomic: write a whole file so that readers see either the old or the new contents, never a
 * torn one (temporary file in the same directory, fsync, rename, fsync of the directory). */
#ifndef PAIRBENCH_ATOMIC_H
#define PAIRBENCH_ATOMIC_H

#include <stddef.h>

#include <jansson.h>

/* Writes all n bytes of p to fd, again after EINTR and short writes. Returns 0, or -1 with
 * errno set (a write that wrote nothing counts as an error). */
int fd_write_all(int fd, const void *p, size_t n);

/* Writes len bytes of data to path. Returns 0, or -1 with a message naming the file in err. */
int atomic_write(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Writes a JSON document (indented, keys in insertion order, trailing newline) to path.
 * Returns 0, or -1 with err set. */
int atomic_write_json(const char *path, const json_t *doc, char *err, size_t errlen);

#endif
