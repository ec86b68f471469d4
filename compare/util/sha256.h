/* sha256: SHA-256 (OpenSSL EVP) of files and memory, lower-case hex, and of the files named by
 * the spec's "hash_sources" glob patterns, for the provenance in meta.json and the reports. */
#ifndef PAIRBENCH_SHA256_H
#define PAIRBENCH_SHA256_H

#include <stddef.h>

#include <jansson.h>

/* Hash the file at `path` (streamed in blocks) into `hex` (64 hex digits + NUL). Returns 0,
 * or -1 with a message naming the file in err. */
int sha256_file(const char *path, char hex[65], char *err, size_t errlen);

/* Hash `n` bytes at `p` into `hex`. Returns 0, or -1 (OpenSSL failure). */
int sha256_mem(const void *p, size_t n, char hex[65]);

/* The most bytes hash_sources hashes per file: a source file is smaller; a file that never
 * ends (a /proc file, a device) is refused instead of read forever. */
#define SHA256_MAX_SOURCE_BYTES (64ull << 20)

/* Like sha256_file, for one file named by hash_sources: it must be a regular file and end
 * within max_bytes (opened non-blocking, so a /proc file with nothing to read fails at once).
 * Returns 0, or -1 with err naming the file, what it is and the limit. */
int sha256_source_file(const char *path, unsigned long long max_bytes, char hex[65], char *err,
                       size_t errlen);

/* Expand each pattern of `patterns` (a JSON array of strings, POSIX glob(3) syntax; a
 * relative pattern resolves against `base_dir`, NULL = the current directory) and hash every
 * regular file matched (sha256_source_file: bounded; a
 * non-regular file named without a wildcard is an error, one a wildcard matched is skipped). New
 * reference: an array of {"path", "sha256"} sorted by path, each path written as its pattern
 * produced it (relative stays relative to base_dir), without duplicates. A pattern that matches no
 * file is an error naming it. NULL on error with the message in err. Free with json_decref(). */
json_t *sha256_globs(const json_t *patterns, const char *base_dir, char *err, size_t errlen);

#endif
