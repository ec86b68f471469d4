/* sha256: SHA-256 digests through OpenSSL's EVP interface. Files are streamed in 64 KiB
 * blocks so a large runs.jsonl costs no memory; glob patterns from the spec's "hash_sources"
 * are expanded with POSIX glob(3) and the results sorted by path, so the provenance table is
 * stable from run to run. */
#include "util/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

static void to_hex(const unsigned char *md, unsigned n, char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    unsigned i;

    for (i = 0; i < n && i < 32; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    hex[2 * i] = '\0';
}

int sha256_mem(const void *p, size_t n, char hex[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;

    if (!EVP_Digest(p, n, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32)
        return -1;
    to_hex(md, mdlen, hex);
    return 0;
}

/* Hashes what fd holds, at most max_bytes (0 = no limit). */
static int hash_fd(int fd, const char *path, unsigned long long max_bytes, char hex[65], char *err,
                   size_t errlen)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;
    EVP_MD_CTX *ctx = NULL;
    unsigned char *block = NULL;
    unsigned long long total = 0;
    int rc = -1;
    ssize_t got;

    block = malloc(65536);
    ctx = EVP_MD_CTX_new();
    if (!block || !ctx) {
        snprintf(err, errlen, "sha256: '%s': out of memory", path);
        goto out;
    }
    if (!EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
        snprintf(err, errlen, "sha256: '%s': digest init failed", path);
        goto out;
    }
    for (;;) {
        got = read(fd, block, 65536);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                snprintf(err, errlen,
                         "sha256: read '%s': nothing to read yet (expected a file with an end, "
                         "not a stream)",
                         path);
                goto out;
            }
            snprintf(err, errlen, "sha256: read '%s': %s", path, strerror(errno));
            goto out;
        }
        if (got == 0)
            break;
        total += (unsigned long long)got;
        if (max_bytes && total > max_bytes) {
            snprintf(err, errlen,
                     "sha256: '%s': longer than %llu MiB (expected a source file; a file that "
                     "never ends, like one in /proc, is not hashed)",
                     path, max_bytes >> 20);
            goto out;
        }
        if (!EVP_DigestUpdate(ctx, block, (size_t)got)) {
            snprintf(err, errlen, "sha256: '%s': digest update failed", path);
            goto out;
        }
    }
    if (!EVP_DigestFinal_ex(ctx, md, &mdlen) || mdlen != 32) {
        snprintf(err, errlen, "sha256: '%s': digest final failed", path);
        goto out;
    }
    to_hex(md, mdlen, hex);
    rc = 0;
out:
    EVP_MD_CTX_free(ctx);
    free(block);
    return rc;
}

int sha256_file(const char *path, char hex[65], char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

    if (fd < 0) {
        snprintf(err, errlen, "sha256: open '%s': %s", path, strerror(errno));
        return -1;
    }
    rc = hash_fd(fd, path, 0, hex, err, errlen);
    close(fd);
    return rc;
}

int sha256_source_file(const char *path, unsigned long long max_bytes, char hex[65], char *err,
                       size_t errlen)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY), rc;

    if (fd < 0) {
        snprintf(err, errlen, "sha256: open '%s': %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen,
                 "sha256: '%s': not a regular file (a FIFO, device or socket may never end; "
                 "expected a source file)",
                 path);
        close(fd);
        return -1;
    }
    rc = hash_fd(fd, path, max_bytes, hex, err, errlen);
    close(fd);
    return rc;
}

static int cmp_path(const void *a, const void *b)
{
    const json_t *x = *(const json_t *const *)a, *y = *(const json_t *const *)b;

    return strcmp(json_string_value(json_object_get(x, "path")),
                  json_string_value(json_object_get(y, "path")));
}

/* Sort the array in place by "path" and drop entries whose path repeats. */
static json_t *sorted_unique(json_t *arr)
{
    size_t n = json_array_size(arr), i;
    json_t **items = NULL, *out = NULL;

    items = calloc(n ? n : 1, sizeof(json_t *));
    out = json_array();
    if (!items || !out)
        goto fail;
    for (i = 0; i < n; i++)
        items[i] = json_array_get(arr, i);
    qsort(items, n, sizeof(json_t *), cmp_path);
    for (i = 0; i < n; i++) {
        if (i > 0 && cmp_path(&items[i - 1], &items[i]) == 0)
            continue;
        if (json_array_append(out, items[i]))
            goto fail;
    }
    free(items);
    json_decref(arr);
    return out;
fail:
    free(items);
    json_decref(out);
    json_decref(arr);
    return NULL;
}

json_t *sha256_globs(const json_t *patterns, const char *base_dir, char *err, size_t errlen)
{
    json_t *arr = NULL, *item;
    size_t i, k, skip;
    char full[4096], hex[65];
    const char *pat;
    glob_t g;
    struct stat st;
    int r, matched;

    if (!json_is_array(patterns)) {
        snprintf(err, errlen, "sha256: hash_sources: expected an array of glob patterns");
        return NULL;
    }
    arr = json_array();
    if (!arr) {
        snprintf(err, errlen, "sha256: out of memory");
        return NULL;
    }
    json_array_foreach(patterns, i, item)
    {
        pat = json_string_value(item);
        if (!pat || !*pat) {
            snprintf(err, errlen, "sha256: hash_sources[%zu]: expected a non-empty string", i);
            goto fail;
        }
        /* A relative pattern is globbed as base_dir/pattern; the base prefix is cut from the
         * reported path again so the table shows what the spec author wrote. */
        skip = 0;
        if (pat[0] != '/' && base_dir && *base_dir && strcmp(base_dir, ".") != 0) {
            int w = snprintf(full, sizeof(full), "%s/%s", base_dir, pat);
            if (w < 0 || (size_t)w >= sizeof(full)) {
                snprintf(err, errlen, "sha256: hash_sources[%zu]: path too long: '%s'", i, pat);
                goto fail;
            }
            skip = strlen(base_dir) + 1;
        } else {
            int w = snprintf(full, sizeof(full), "%s", pat);
            if (w < 0 || (size_t)w >= sizeof(full)) {
                snprintf(err, errlen, "sha256: hash_sources[%zu]: path too long: '%s'", i, pat);
                goto fail;
            }
        }
        memset(&g, 0, sizeof(g));
        r = glob(full, 0, NULL, &g);
        if (r == GLOB_NOMATCH) {
            globfree(&g);
            snprintf(err, errlen, "sha256: hash_sources[%zu]: pattern '%s' matches no file", i,
                     pat);
            goto fail;
        }
        if (r != 0) {
            globfree(&g);
            snprintf(err, errlen, "sha256: hash_sources[%zu]: glob '%s' failed%s", i, pat,
                     r == GLOB_NOSPACE ? ": out of memory" : ": read error");
            goto fail;
        }
        matched = 0;
        for (k = 0; k < g.gl_pathc; k++) {
            const char *p = g.gl_pathv[k];
            json_t *row;

            /* directories (and other non-regular files) a wildcard matched are not sources;
             * one named outright is refused by sha256_source_file */
            if ((stat(p, &st) != 0 || !S_ISREG(st.st_mode)) && strpbrk(pat, "*?["))
                continue;
            if (sha256_source_file(p, SHA256_MAX_SOURCE_BYTES, hex, err, errlen) != 0) {
                globfree(&g);
                goto fail;
            }
            row = json_pack("{s:s, s:s}", "path", p + (strlen(p) > skip ? skip : 0), "sha256", hex);
            if (!row || json_array_append_new(arr, row)) {
                globfree(&g);
                snprintf(err, errlen, "sha256: out of memory");
                goto fail;
            }
            matched++;
        }
        globfree(&g);
        if (!matched) {
            snprintf(err, errlen, "sha256: hash_sources[%zu]: pattern '%s' matches no regular file",
                     i, pat);
            goto fail;
        }
    }
    arr = sorted_unique(arr);
    if (!arr)
        snprintf(err, errlen, "sha256: out of memory");
    return arr;
fail:
    json_decref(arr);
    return NULL;
}
