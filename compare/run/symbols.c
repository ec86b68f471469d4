/* symbols: whether a counted server's binary can name its functions (symbols.h). */
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/symbols.h"

#include "run/cost_exact.h"
#include "util/words.h"

extern char **environ;

/* Reads n bytes at off; 0, or -1. */
static int read_at(int fd, void *buf, size_t n, off_t off)
{
    return pread(fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

/* What a 64-bit ELF file says of its symbols: a symbol table or DWARF in *named, its GNU build
 * id in hex (empty: none). Returns 0, or -1 when the file is not such an ELF file. */
static int elf_symbols(const char *file, int *named, char *build_id, size_t idlen)
{
    Elf64_Ehdr eh;
    Elf64_Shdr sh, strs;
    char *names = NULL;
    int fd = open(file, O_RDONLY | O_CLOEXEC), rc = -1;
    unsigned i;

    *named = 0;
    build_id[0] = '\0';
    if (fd < 0)
        return -1;
    if (read_at(fd, &eh, sizeof(eh), 0) < 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shstrndx >= eh.e_shnum ||
        read_at(fd, &strs, sizeof(strs), (off_t)(eh.e_shoff + eh.e_shstrndx * sizeof(sh))) < 0 ||
        strs.sh_size > (1u << 20) || !(names = calloc(1, strs.sh_size + 1)) ||
        read_at(fd, names, strs.sh_size, (off_t)strs.sh_offset) < 0)
        goto out;
    for (i = 0; i < eh.e_shnum; i++) {
        unsigned char note[512];

        if (read_at(fd, &sh, sizeof(sh), (off_t)(eh.e_shoff + i * sizeof(sh))) < 0)
            goto out;
        if (sh.sh_name >= strs.sh_size)
            continue;
        if (sh.sh_type == SHT_SYMTAB || strcmp(names + sh.sh_name, ".debug_info") == 0)
            *named = 1;
        if (sh.sh_type == SHT_NOTE && strcmp(names + sh.sh_name, ".note.gnu.build-id") == 0 &&
            sh.sh_size >= sizeof(Elf64_Nhdr) + 4 && sh.sh_size <= sizeof(note) &&
            read_at(fd, note, sh.sh_size, (off_t)sh.sh_offset) == 0) {
            Elf64_Nhdr nh;
            size_t at = sizeof(nh), k;

            memcpy(&nh, note, sizeof(nh));
            at += (nh.n_namesz + 3) & ~3u;
            for (k = 0; nh.n_type == NT_GNU_BUILD_ID && k < nh.n_descsz && at + k < sh.sh_size &&
                        2 * k + 3 <= idlen;
                 k++)
                snprintf(build_id + 2 * k, 3, "%02x", note[at + k]);
        }
    }
    rc = 0;
out:
    free(names);
    close(fd);
    return rc;
}

/* Whether Debian's debug file for build id (hex) is installed. */
static int debug_file_present(const char *build_id)
{
    char p[PATH_MAX];
    struct stat st;

    if (strlen(build_id) < 3)
        return 0;
    snprintf(p, sizeof(p), "/usr/lib/debug/.build-id/%.2s/%s.debug", build_id, build_id + 2);
    return stat(p, &st) == 0;
}

/* The Debian package holding file (dpkg-query -S), into pkg; 0, or -1. */
static int package_of(const char *file, char *pkg, size_t n)
{
    char *argv[] = {"dpkg-query", "-S", (char *)file, NULL}, buf[512];
    posix_spawn_file_actions_t fa;
    int fds[2], status = 0;
    ssize_t got = 0, k;
    pid_t pid;

    if (pipe(fds) < 0)
        return -1;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    if (posix_spawnp(&pid, "dpkg-query", &fa, NULL, argv, environ) != 0)
        pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    while (pid > 0 && (size_t)got < sizeof(buf) - 1 &&
           (k = read(fds[0], buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
        got += k;
    close(fds[0]);
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    buf[got] = '\0';
    /* "redis-tools: /usr/bin/redis-check-rdb" (or "a, b: file"; "pkg:amd64: file") */
    k = (ssize_t)strcspn(buf, ":, \n");
    if (k == 0 || (size_t)k >= n)
        return -1;
    memcpy(pkg, buf, (size_t)k);
    pkg[k] = '\0';
    return 0;
}

json_t *symbols_probe(const char *command)
{
    char file[PATH_MAX], found[PATH_MAX], id[2 * 64 + 1], pkg[128], err[256];
    char **argv = NULL;
    size_t argc;
    const char *base;
    json_t *out = NULL;
    int named;

    /* the command's program as it will be exec'd (placeholders kept: a {tree} path is not
     * resolved here) */
    if (!command || words_split(command, NULL, &argv, &argc, err, sizeof(err)) < 0)
        return NULL;
    if (cost_exact_resolve(argv[0], found, sizeof(found)) == 0 && realpath(found, file) &&
        elf_symbols(file, &named, id, sizeof(id)) == 0) {
        base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
        if (!named && id[0])
            named = debug_file_present(id);
        out = json_pack("{s:s, s:s, s:b, s:o, s:o}", "name", base, "path", file, "symbols", named,
                        "build_id", id[0] ? json_string(id) : json_null(), "package",
                        package_of(file, pkg, sizeof(pkg)) == 0 ? json_string(pkg) : json_null());
    }
    words_free(argv);
    return out;
}

void symbols_note(json_t *inst, const char *command)
{
    json_t *fns = json_object_get(inst, "functions"), *v, *probe;
    const char *path, *file;
    char from[PATH_MAX + 16], to[PATH_MAX + 16];

    if (!inst || !(probe = symbols_probe(command)))
        return;
    path = json_string_value(json_object_get(probe, "path"));
    file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(from, sizeof(from), "unknown (%s)", file);
    snprintf(to, sizeof(to), "unknown (%s)", json_string_value(json_object_get(probe, "name")));
    if (json_is_object(fns) && strcmp(from, to) != 0 && (v = json_object_get(fns, from))) {
        json_t *sum = json_object_get(fns, to);

        json_object_set_new(fns, to,
                            json_real(json_number_value(v) + (sum ? json_number_value(sum) : 0)));
        json_object_del(fns, from);
    }
    json_object_set_new(inst, "binary", probe);
}
