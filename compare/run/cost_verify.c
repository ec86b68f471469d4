/* cost_verify: the evidence behind an exact count (see cost_verify.h). */
#include "run/cost_verify.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "analysis/cgprof.h"
#include "run/cost_exact.h"
#include "run/cost_int.h"
#include "util/fmt.h"
#include "util/jobs_util.h"

#define SEED_LIB "libpairbench-seed.so"

/* The last dump of each process (cg.PID.N, highest N) into last ({pid: N}). */
static void last_dumps(const char *dir, json_t *last)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    if (!d)
        return;
    while ((e = readdir(d))) {
        char *end, *end2, key[32];
        long pid, n;
        if (strncmp(e->d_name, "cg.", 3) != 0)
            continue;
        pid = strtol(e->d_name + 3, &end, 10);
        if (end == e->d_name + 3 || *end != '.')
            continue;
        n = strtol(end + 1, &end2, 10);
        if (end2 == end + 1 || *end2)
            continue;
        snprintf(key, sizeof(key), "%ld", pid);
        if (n > json_integer_value(json_object_get(last, key)))
            json_object_set_new(last, key, json_integer(n));
    }
    closedir(d);
}

json_t *cost_verify_window(const char *dir)
{
    json_t *last = json_object(), *out = json_object(), *v;
    const char *k;

    if (!last || !out) {
        json_decref(last);
        json_decref(out);
        return NULL;
    }
    last_dumps(dir, last);
    json_object_foreach(last, k, v)
    {
        char path[4400], why[600], *text;
        size_t len = 0;
        struct cgprof *p = cgprof_new();

        snprintf(path, sizeof(path), "%s/cg.%s.%lld", dir, k, (long long)json_integer_value(v));
        text = ju_read_file(path, (size_t)-1, &len, why, sizeof(why));
        if (p && text && cgprof_parse(p, text, len, path, why, sizeof(why)) == 0)
            json_object_set_new(out, k, json_integer((json_int_t)cgprof_total(p)));
        free(text);
        cgprof_free(p);
    }
    json_decref(last);
    return out;
}

/* The interposer's log: per process its last image ("L pid how exe": images {pid: exe}) and
 * the random-device opens it saw ("O pid fd": opens {pid: n}). */
static void read_seed_log(const char *path, json_t *images, json_t *opens)
{
    FILE *f = fopen(path, "re");
    char line[4400];

    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        long pid;
        char how[16], key[32];
        int at = 0;

        line[strcspn(line, "\n")] = '\0';
        if (sscanf(line, "L %ld %15s %n", &pid, how, &at) == 2 && at > 0) {
            const char *base = strrchr(line + at, '/');
            /* valgrind's launcher, run natively between a traced exec and the next image
             * (valgrind.bin): no image of the server */
            if (base && strncmp(base + 1, "valgrind", 8) == 0)
                continue;
            snprintf(key, sizeof(key), "%ld", pid);
            json_object_set_new(images, key, json_string(line + at));
        } else if (sscanf(line, "O %ld", &pid) == 1) {
            snprintf(key, sizeof(key), "%ld", pid);
            json_object_set_new(opens, key,
                                json_integer(json_integer_value(json_object_get(opens, key)) + 1));
        }
    }
    fclose(f);
}

/* The files mapped in process pid (/proc/PID/maps) into maps (a set); -1 when unreadable. */
static int mapped_files(const char *pid, json_t *maps)
{
    char path[64], line[4400];
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%s/maps", pid);
    if (!(f = fopen(path, "re")))
        return -1;
    while (fgets(line, sizeof(line), f)) {
        char *p = strchr(line, '/');
        if (!p)
            continue;
        p[strcspn(p, "\n")] = '\0';
        json_object_set_new(maps, p, json_true());
    }
    fclose(f);
    return 0;
}

static int lib_mapped(const json_t *maps)
{
    const char *k;
    json_t *v;

    json_object_foreach((json_t *)maps, k, v)
    {
        const char *base = strrchr(k, '/');
        if (base && strcmp(base + 1, SEED_LIB) == 0)
            return 1;
    }
    return 0;
}

/* 1 when exe is the image mapped: itself, or for a script ("#!" line) its interpreter
 * (through env: the program env finds in PATH), by real path. */
static int image_mapped(const json_t *maps, const char *exe)
{
    char line[512], interp[4200], real[4200], *p, *word;
    FILE *f;

    if (json_object_get(maps, exe))
        return 1;
    if (!(f = fopen(exe, "re")))
        return 0;
    p = fgets(line, sizeof(line), f);
    fclose(f);
    if (!p || strncmp(line, "#!", 2) != 0)
        return 0;
    p = line + 2 + strspn(line + 2, " \t");
    word = p;
    p += strcspn(p, " \t\r\n");
    if (*p)
        *p++ = '\0';
    if (strcmp(word + (strrchr(word, '/') ? strrchr(word, '/') - word + 1 : 0), "env") == 0) {
        word = p + strspn(p, " \t");
        word[strcspn(word, " \t\r\n")] = '\0';
        if (cost_exact_resolve(word, interp, sizeof(interp)) < 0)
            return 0;
    } else {
        snprintf(interp, sizeof(interp), "%s", word);
    }
    return realpath(interp, real) && json_object_get(maps, real) != NULL;
}

/* (1) for process pid: 0, or 1 with why. */
static int check_image(const char *pid, const json_t *images, char *why, size_t whylen)
{
    json_t *maps = json_object();
    const char *exe = json_string_value(json_object_get(images, pid));
    int rc = 0;

    if (!maps || mapped_files(pid, maps) < 0) {
        snprintf(why, whylen,
                 "process %s ended before its image could be checked (/proc/%s/maps): the "
                 "interposer's presence in it is not known",
                 pid, pid);
        rc = 1;
    } else if (!exe) {
        snprintf(why, whylen,
                 "process %s never started the interposer (no line of it in the interposer's "
                 "log: a static binary, a setuid program or an environment without LD_PRELOAD "
                 "or PAIRBENCH_SEED)",
                 pid);
        rc = 1;
    } else if (!image_mapped(maps, exe) || !lib_mapped(maps)) {
        snprintf(why, whylen,
                 "process %s started the interposer in an earlier image (%.300s), not in the "
                 "program it then executed and that was counted: the environment was cleared "
                 "before the exec (env -u LD_PRELOAD, a wrapper that unsets it) or the program "
                 "is static",
                 pid, exe);
        rc = 1;
    }
    json_decref(maps);
    return rc;
}

/* 1 when path (as the trace printed it, for process pid, relative to its dirfd) is
 * /dev/urandom or /dev/random, by device. */
static int random_path(const char *pid, long dirfd, const char *path)
{
    char full[4400];
    struct stat st;

    if (path[0] == '/')
        snprintf(full, sizeof(full), "%s", path);
    else if (dirfd == -100 || dirfd == 4294967196L) /* AT_FDCWD, as printed */
        snprintf(full, sizeof(full), "/proc/%s/cwd/%s", pid, path);
    else
        snprintf(full, sizeof(full), "/proc/%s/fd/%ld/%s", pid, dirfd, path);
    return stat(full, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
           (minor(st.st_rdev) == 8 || minor(st.st_rdev) == 9);
}

/* The path of an open in a trace line ("0x1234(/dev/urandom)") into path; 0 when none. */
static int traced_path(const char *line, char *path, size_t pathlen)
{
    const char *p = line;

    while ((p = strstr(p, "0x"))) {
        const char *q = p + 2;
        while ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f'))
            q++;
        if (*q == '(') {
            size_t n = strcspn(q + 1, ")");
            snprintf(path, pathlen, "%.*s", (int)n, q + 1);
            return 1;
        }
        p = q;
    }
    return 0;
}

static void route_add(json_t *routes, const char *route)
{
    json_object_set_new(routes, route,
                        json_integer(json_integer_value(json_object_get(routes, route)) + 1));
}

/* The addresses libc.so.6's writable data spans in process pid (/proc/PID/maps): its
 * writable mappings and the anonymous one right after them (its .bss); 0 when not found. */
static int libc_data(const char *pid, unsigned long *lo, unsigned long *hi)
{
    char path[64], line[4400];
    FILE *f;
    int after = 0;

    *lo = (unsigned long)-1;
    *hi = 0;
    snprintf(path, sizeof(path), "/proc/%s/maps", pid);
    if (!(f = fopen(path, "re")))
        return 0;
    while (fgets(line, sizeof(line), f)) {
        unsigned long a, b;
        char perm[8];
        const char *base = strrchr(line, '/');
        int libc = base && strncmp(base + 1, "libc.so", 7) == 0;

        if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) != 3)
            continue;
        if (perm[1] == 'w' && (libc || (after && !strchr(line, '/') && a == *hi))) {
            *lo = a < *lo ? a : *lo;
            *hi = b > *hi ? b : *hi;
        }
        after = libc || (after && a == *hi && !strchr(line, '/'));
    }
    fclose(f);
    return *hi > 0;
}

/* 1 when a traced getrandom ("sys_getrandom ( 0xADDR, ...") fills libc's own data: glibc's
 * malloc draws its tcache key so (a check value against double frees, compared but never
 * branched on by the server's work), from inside libc where no interposer reaches. */
static int libc_own(const char *s, unsigned long lo, unsigned long hi)
{
    const char *p = strstr(s, "0x");
    unsigned long a = p ? strtoul(p, NULL, 16) : 0;

    return a >= lo && a < hi;
}

/* (2) for process pid: valgrind's trace dir/vg.PID.log against the opens the interposer saw.
 * Adds what was not served to routes. */
static void check_trace(const char *dir, const char *pid, long served_opens, json_t *routes)
{
    char path[4400], line[4400], opened[4200];
    long opens = 0;
    unsigned long lo, hi;
    int libc = libc_data(pid, &lo, &hi);
    FILE *f;

    snprintf(path, sizeof(path), "%s/vg.%s.log", dir, pid);
    if (!(f = fopen(path, "re"))) {
        route_add(routes, "no system-call trace");
        return;
    }
    while (fgets(line, sizeof(line), f)) {
        const char *s;
        if (strncmp(line, "SYSCALL[", 8) != 0 || !(s = strstr(line, ") sys_")))
            continue;
        s += 6;
        if (strncmp(s, "getrandom ", 10) == 0 && !(libc && libc_own(s, lo, hi))) {
            route_add(routes, "getrandom (a system call the interposer does not see)");
        } else if ((strncmp(s, "open ", 5) == 0 || strncmp(s, "openat ", 7) == 0 ||
                    strncmp(s, "openat2 ", 8) == 0) &&
                   traced_path(s, opened, sizeof(opened))) {
            long dirfd = s[4] == 'a' ? strtol(strchr(s, '(') + 1, NULL, 10) : -100;
            opens += random_path(pid, dirfd, opened);
        }
    }
    fclose(f);
    if (opens > served_opens) {
        long i;
        for (i = 0; i < opens - served_opens; i++)
            route_add(routes, "an open of /dev/urandom or /dev/random the interposer did not see");
    }
}

/* (3): 0, or 1 with why when several processes shared the window's work. */
static int check_shares(const json_t *window, char *why, size_t whylen)
{
    double total = 0;
    size_t busy = 0, len = 0;
    char list[300] = "";
    const char *k;
    json_t *v;

    json_object_foreach((json_t *)window, k, v) total += (double)json_integer_value(v);
    json_object_foreach((json_t *)window, k, v)
    {
        double share = total > 0 ? (double)json_integer_value(v) / total : 0;
        if (share < COST_VERIFY_WORK_SHARE)
            continue;
        busy++;
        if (len < sizeof(list) - 40)
            len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s %.0f%%",
                                    busy > 1 ? ", " : "", k, share * 100);
    }
    if (busy < 2)
        return 0;
    snprintf(why, whylen,
             "%zu processes shared the window's work (pid %s): which of them serves a "
             "connection, and so each one's count, follows scheduling",
             busy, list);
    return 1;
}

int cost_verify_run(const char *dir, const char *log, const json_t *window, json_t *routes,
                    char *why, size_t whylen)
{
    json_t *images = json_object(), *opens = json_object(), *v;
    const char *k;
    int rc = 0;

    if (!images || !opens) {
        snprintf(why, whylen, "out of memory");
        rc = 1;
        goto out;
    }
    read_seed_log(log, images, opens);
    json_object_foreach((json_t *)window, k, v)
    {
        if ((rc = check_image(k, images, why, whylen)))
            goto out;
        check_trace(dir, k, (long)json_integer_value(json_object_get(opens, k)), routes);
    }
    if (json_object_size(routes)) {
        size_t len = (size_t)snprintf(why, whylen,
                                      "randomness reached the server by a route "
                                      "the interposer did not serve:");
        json_object_foreach(routes, k, v)
        {
            if (len < whylen)
                len += (size_t)snprintf(why + len, whylen - len, " %s (%lld)", k,
                                        (long long)json_integer_value(v));
        }
        rc = 1;
        goto out;
    }
    rc = check_shares(window, why, whylen);
out:
    json_decref(images);
    json_decref(opens);
    return rc;
}

/* The valgrind of an exact run also traces the server's system calls (every process: forked
 * children too, each into its own dir/vg.PID.log, a log an exec starts again), the evidence
 * of the randomness routes the interposer does not serve (cost_verify.h). */
void cost_verify_wrap(char **wrap, const char *dir, char *log, size_t loglen)
{
    size_t n = 0;

    snprintf(log, loglen, "--log-file=%s/vg.%%p.log", dir);
    for (n = 0; wrap[n]; n++)
        if (strcmp(wrap[n], "--child-silent-after-fork=yes") == 0)
            wrap[n] = "--child-silent-after-fork=no";
    wrap[n++] = "--trace-syscalls=yes";
    wrap[n++] = log;
    wrap[n] = NULL;
}

/* The repeat of an exact round-1 count (its seed again, a fresh server): the record gets
 * "repeat" {"per_op", "change", "tolerance"}; a repeat that fails, is not exact itself or
 * differs by more than the tolerance makes the line not exact, with why. */
void cost_verify_repeat(json_t *line, const json_t *rep)
{
    json_t *inst = json_object_get(line, "instructions"), *fixed = json_object_get(inst, "fixed");
    const json_t *rinst = json_object_get(rep, "instructions");
    const json_t *rfixed = json_object_get(rinst, "fixed");
    const char *kind = ju_str(json_object_get(fixed, "clock"), "kind", "real");
    double a = ju_num(inst, "per_op", 0), b = ju_num(rinst, "per_op", 0);
    double tol =
        strcmp(kind, "virtual") == 0 ? COST_VERIFY_REPEAT_VIRTUAL : COST_VERIFY_REPEAT_REAL;
    double ch = a > 0 ? b / a - 1 : 0;
    char why[1200], chs[32];

    why[0] = '\0';
    if (!rinst || !json_is_object(rinst))
        snprintf(why, sizeof(why), "the repeat of seed %lld could not be counted (%.900s)",
                 (long long)ju_int(fixed, "seed", 0), ju_str(rep, "reason", "no reason"));
    else if (!json_is_true(json_object_get(rfixed, "exact")))
        snprintf(why, sizeof(why), "the repeat of seed %lld was not exact: %.900s",
                 (long long)ju_int(fixed, "seed", 0), ju_str(rfixed, "reason", "no reason"));
    else if (ch > tol || -ch > tol)
        snprintf(why, sizeof(why),
                 "a repeat of seed %lld counted %.2f instructions per operation against %.2f "
                 "(%s, more than the %.3f%% two counts of one seed may differ by): "
                 "something the interposer does not fix still varies the count",
                 (long long)ju_int(fixed, "seed", 0), b, a, fmt_change(ch, chs, sizeof(chs)),
                 tol * 100);
    if (rinst)
        json_object_set_new(
            fixed, "repeat",
            json_pack("{s:f,s:f,s:f}", "per_op", b, "change", ch, "tolerance", tol));
    if (why[0]) {
        json_object_set_new(fixed, "exact", json_false());
        json_object_set_new(fixed, "reason", json_string(why));
    }
}

/* ---- the scratch directory's dumps (cost_int.h) ---- */

int cost_parse_dumps(const char *dir, json_t *seen, struct cgprof *p, char *why, size_t whylen)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int rc = 0;

    if (!d) {
        snprintf(why, whylen, "cannot read '%.300s': %s", dir, strerror(errno));
        return -1;
    }
    while (rc == 0 && (e = readdir(d))) {
        char path[4400], rerr[600], *text;
        size_t len = 0;

        if (strncmp(e->d_name, "cg.", 3) != 0 || json_object_get(seen, e->d_name) ||
            !strchr(e->d_name + 3, '.'))
            continue; /* cg.PID alone is the exit dump, written at shut-down */
        json_object_set_new(seen, e->d_name, json_true());
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (!(text = ju_read_file(path, (size_t)-1, &len, rerr, sizeof(rerr)))) {
            snprintf(why, whylen, "cannot read %s", rerr);
            rc = -1;
        } else if (cgprof_parse(p, text, len, path, why, whylen) < 0) {
            rc = -1;
        }
        free(text);
    }
    closedir(d);
    return rc;
}

void cost_rm_dir_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4400];

    if (!d)
        return;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            if (unlink(path) < 0 && errno == EISDIR) {
                cost_rm_dir_files(path);
                (void)rmdir(path);
            }
        }
    closedir(d);
}
