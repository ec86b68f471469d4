/* jobs_util: the small helpers of every compare command (one of each): read a whole file, load
 * a JSON file with a message naming it, create a directory path, copy a file, and read one
 * member of a JSON object. */
#ifndef PAIRBENCH_JOBS_UTIL_H
#define PAIRBENCH_JOBS_UTIL_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Reads the rest of f into a NUL-terminated malloc'd buffer (free()); *len gets its size.
 * Returns NULL with errno ENOMEM (out of memory), EFBIG (more than max_bytes) or the read
 * error's. */
char *ju_read_stream(FILE *f, size_t max_bytes, size_t *len);

/* Reads path into a NUL-terminated malloc'd buffer (free()); *len (optional) gets its size.
 * Returns NULL with err naming the file. Files over max_bytes are refused. */
char *ju_read_file(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen);

/* Loads a JSON document from a regular file (a directory or FIFO is refused); a key given
 * twice in one object is malformed. Errors name the file, line and column. New reference or
 * NULL. */
json_t *ju_load_json(const char *path, char *err, size_t errlen);

/* mkdir -p with mode 0755. Returns 0, or -1 with err. */
int ju_mkdir_p(const char *path, char *err, size_t errlen);

/* Copies a regular file (contents only, mode 0644), fsync'd. Returns 0, or -1 with err. */
int ju_copy_file(const char *from, const char *to, char *err, size_t errlen);

/* 1 when path is a directory that exists and holds no entry but . and .., or does not exist;
 * 0 when it holds something; -1 when it is not a directory or cannot be read. */
int ju_dir_empty(const char *path);

/* The JSON getters: o's member k. o may be NULL or not an object (then the default). Nothing
 * returned is owned by the caller; a string lives as long as o. */

/* The number at k (integer or real), or def. */
double ju_num(const json_t *o, const char *k, double def);
/* The integer at k, or def (a real, even 3.0, is not an integer). */
long long ju_int(const json_t *o, const char *k, long long def);
/* The string at k, or def. */
const char *ju_str(const json_t *o, const char *k, const char *def);
/* The number at k (integer or real) into *out: 0, or -1 with *out untouched when k is absent
 * or holds no finite number. */
int ju_get_num(const json_t *o, const char *k, double *out);

/* The first object of array arr whose string member key equals value, or NULL (borrowed). */
json_t *ju_find_by(const json_t *arr, const char *key, const char *value);

#endif
