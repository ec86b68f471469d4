/* sha256: known vectors (FIPS 180-2), file == memory digest, glob expansion sorted by path,
 * and a pattern that matches nothing named in the error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/sha256.h"
#include "t.h"

static const struct {
    const char *in;
    const char *hex;
} vectors[] = {
    {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
};

static void write_file(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");

    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fwrite(data, 1, n, f) == n);
    fclose(f);
}

int main(void)
{
    char hex[65], hex2[65], err[256], dir[] = "/tmp/pb-sha256-XXXXXX", path[512];
    char *big;
    size_t i, n = 200000;
    json_t *pats, *res;

    for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
        CHECK(sha256_mem(vectors[i].in, strlen(vectors[i].in), hex) == 0);
        CHECK_STR(hex, vectors[i].hex);
    }
    /* a million 'a' (the long FIPS vector) */
    big = malloc(1000000);
    CHECK(big != NULL);
    if (!big)
        return T_DONE();
    memset(big, 'a', 1000000);
    CHECK(sha256_mem(big, 1000000, hex) == 0);
    CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");

    CHECK(mkdtemp(dir) != NULL);
    /* a file larger than one read block hashes like the same bytes in memory */
    for (i = 0; i < n; i++)
        big[i] = (char)(i * 31 + 7);
    snprintf(path, sizeof(path), "%s/b.bin", dir);
    write_file(path, big, n);
    CHECK(sha256_file(path, hex, err, sizeof(err)) == 0);
    CHECK(sha256_mem(big, n, hex2) == 0);
    CHECK_STR(hex, hex2);
    snprintf(path, sizeof(path), "%s/a.txt", dir);
    write_file(path, "abc", 3);
    snprintf(path, sizeof(path), "%s/missing", dir);
    CHECK(sha256_file(path, hex, err, sizeof(err)) == -1);
    CHECK(strstr(err, "missing") != NULL);

    /* globs: relative to base_dir, sorted, deduplicated, directories skipped */
    snprintf(path, sizeof(path), "%s/sub", dir);
    CHECK(mkdir(path, 0700) == 0);
    pats = json_pack("[s, s, s]", "*.bin", "*", "a.txt");
    res = sha256_globs(pats, dir, err, sizeof(err));
    CHECK_MSG(res != NULL, "%s", err);
    CHECK(json_array_size(res) == 2);
    CHECK_STR(json_string_value(json_object_get(json_array_get(res, 0), "path")), "a.txt");
    CHECK_STR(json_string_value(json_object_get(json_array_get(res, 0), "sha256")), vectors[1].hex);
    CHECK_STR(json_string_value(json_object_get(json_array_get(res, 1), "path")), "b.bin");
    CHECK_STR(json_string_value(json_object_get(json_array_get(res, 1), "sha256")), hex2);
    json_decref(res);
    json_decref(pats);

    pats = json_pack("[s, s]", "a.txt", "src/*.c");
    res = sha256_globs(pats, dir, err, sizeof(err));
    CHECK(res == NULL);
    CHECK_MSG(strstr(err, "'src/*.c'") != NULL && strstr(err, "hash_sources[1]") != NULL, "%s",
              err);
    json_decref(pats);
    pats = json_pack("[i]", 3);
    CHECK(sha256_globs(pats, dir, err, sizeof(err)) == NULL);
    json_decref(pats);

    /* hash_sources never blocks: a FIFO named outright is refused (a wildcard skips it), a
     * file past the cap is refused, not read forever */
    snprintf(path, sizeof(path), "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0);
    pats = json_pack("[s]", "fifo");
    CHECK(sha256_globs(pats, dir, err, sizeof(err)) == NULL);
    CHECK_MSG(strstr(err, "fifo': not a regular file") != NULL, "%s", err);
    json_decref(pats);
    pats = json_pack("[s]", "*");
    res = sha256_globs(pats, dir, err, sizeof(err));
    CHECK_MSG(res != NULL && json_array_size(res) == 2, "%s", err);
    json_decref(res);
    json_decref(pats);
    unlink(path);
    snprintf(path, sizeof(path), "%s/a.txt", dir);
    CHECK(sha256_source_file(path, 3, hex, err, sizeof(err)) == 0);
    CHECK_STR(hex, vectors[1].hex);
    CHECK(sha256_source_file(path, 2, hex, err, sizeof(err)) == -1);
    CHECK_MSG(strstr(err, "a.txt': longer than") != NULL, "%s", err);
    CHECK(sha256_source_file("/dev/zero", 1 << 20, hex, err, sizeof(err)) == -1);
    CHECK_MSG(strstr(err, "not a regular file") != NULL, "%s", err);

    snprintf(path, sizeof(path), "%s/a.txt", dir);
    unlink(path);
    snprintf(path, sizeof(path), "%s/b.bin", dir);
    unlink(path);
    snprintf(path, sizeof(path), "%s/sub", dir);
    rmdir(path);
    rmdir(dir);
    free(big);
    return T_DONE();
}
