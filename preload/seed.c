/* seed: an LD_PRELOAD library for counted runs (compare --instructions). It serves the random
 * bytes a server asks for -- getrandom(2), getentropy(3), arc4random(3), syscall(SYS_getrandom)
 * and reads (read, pread, pread64, readv, fread of a FILE from fopen, fopen64 or fdopen) of
 * /dev/urandom and /dev/random in any spelling (the path is known by its device, 1:8 or 1:9,
 * not its name) opened through open, open64, openat, openat64 or syscall() -- from a
 * deterministic stream derived from PAIRBENCH_SEED, so two processes of one
 * binary given one seed draw the same hash seeds and execute the same instructions. A forked
 * child continues on its own stream (the parent's key and fork number), so the master and
 * the workers of nginx differ from each other but not between runs.
 *
 * What it served goes to the file PAIRBENCH_SEED_LOG (appended, O_APPEND: one write per line,
 * every process of the server into one file): "L <pid> exec|fork <exe>" when a process image
 * starts with it (compare checks that <exe> is the image each counted process runs), "O <pid>
 * <fd>" for every open of a random device it saw (compare matches them against the opens
 * valgrind traced: one it did not see was not served), "S <pid> <source> <bytes>" for each of a
 * process's first SEED_LOG_EVENTS requests (compare reads the file while the server runs),
 * "T <pid> <source> <calls> <bytes>" per source when the process exits normally. Built without
 * sanitizers (it is loaded into servers that are not), depends on libc (and libdl) only. Not for
 * timed runs: a fixed seed is no secret. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "clock.h"
#include "next_fn.h"

#define SEED_MAX_FD 4096
#define SEED_LOG_EVENTS 1024

enum { SRC_GETRANDOM, SRC_GETENTROPY, SRC_URANDOM, SRC_RANDOM, SRC_ARC4RANDOM, SRC_N };
static const char *const src_name[SRC_N] = {"getrandom", "getentropy", "/dev/urandom",
                                            "/dev/random", "arc4random"};

static uint64_t seed_key;
static int seed_on;
static uint64_t seed_ctr;    /* atomic: the stream's next 8-byte block */
static unsigned seed_forks;  /* children forked so far (the child's stream key) */
static unsigned seed_events; /* atomic: lines written by this process */
static uint64_t src_calls[SRC_N], src_bytes[SRC_N]; /* atomic */
static unsigned char fd_src[SEED_MAX_FD];           /* 0, or 1 + SRC_URANDOM/SRC_RANDOM */

/* Exported for the prototypes the headers do not give (fortified open, C23 arc4random). */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t n, off_t off, size_t buflen);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static void log_line(const char *line, size_t len)
{
    const char *path = getenv("PAIRBENCH_SEED_LOG");
    int (*real_open)(const char *, int, ...) = (int (*)(const char *, int, ...))next_fn("open");
    int fd;

    if (!path || !*path || !real_open)
        return;
    fd = real_open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    if (write(fd, line, len) < 0) {
        /* nothing to do: the record then lacks this line, and compare says so */
    }
    (void)close(fd);
}

void clock_log_line(const char *line, size_t len)
{
    log_line(line, len);
}

/* Fills buf from the stream; counts it against src. */
static void serve(int src, void *buf, size_t n)
{
    unsigned char *p = buf;
    uint64_t blocks = (n + 7) / 8, b = __atomic_fetch_add(&seed_ctr, blocks, __ATOMIC_RELAXED);
    size_t i;

    for (i = 0; i < n; i += 8) {
        uint64_t v = mix(seed_key ^ mix(b++));
        memcpy(p + i, &v, n - i < 8 ? n - i : 8);
    }
    __atomic_fetch_add(&src_calls[src], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&src_bytes[src], n, __ATOMIC_RELAXED);
    if (__atomic_fetch_add(&seed_events, 1, __ATOMIC_RELAXED) < SEED_LOG_EVENTS) {
        char line[128];
        int len = snprintf(line, sizeof(line), "S %ld %s %zu\n", (long)getpid(), src_name[src], n);
        if (len > 0 && (size_t)len < sizeof(line))
            log_line(line, (size_t)len);
    }
}

static void at_fork_prepare(void)
{
    seed_forks++;
}

static void note_process(const char *how)
{
    char line[4200], exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    int len;

    exe[n > 0 ? n : 0] = '\0';
    len = snprintf(line, sizeof(line), "L %ld %s %s\n", (long)getpid(), how, exe);

    if (len > 0 && (size_t)len < sizeof(line))
        log_line(line, (size_t)len);
}

static void at_fork_child(void)
{
    size_t i;

    seed_key = mix(seed_key ^ ((uint64_t)seed_forks << 32));
    seed_ctr = 0;
    seed_forks = 0;
    seed_events = 0;
    for (i = 0; i < SRC_N; i++)
        src_calls[i] = src_bytes[i] = 0;
    note_process("fork");
}

/* Run by the loader, and by the first request that comes before it (another library's
 * constructor asking for random bytes): served too. */
__attribute__((constructor)) static void seed_init(void)
{
    const char *s = getenv("PAIRBENCH_SEED");
    char *end;
    unsigned long long v;

    if (seed_on || !s || !*s)
        return;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end)
        return;
    seed_key = mix((uint64_t)v ^ 0x70616972ull);
    seed_on = 1;
    (void)pthread_atfork(at_fork_prepare, NULL, at_fork_child);
    note_process("exec");
}

__attribute__((destructor)) static void seed_fini(void)
{
    size_t i;

    if (!seed_on)
        return;
    for (i = 0; i < SRC_N; i++) {
        char line[160];
        int len;
        if (!src_calls[i])
            continue;
        len = snprintf(line, sizeof(line), "T %ld %s %llu %llu\n", (long)getpid(), src_name[i],
                       (unsigned long long)src_calls[i], (unsigned long long)src_bytes[i]);
        if (len > 0 && (size_t)len < sizeof(line))
            log_line(line, (size_t)len);
    }
}

/* 1 + the source of a random device's stat (character device 1:8 /dev/random, 1:9
 * /dev/urandom), or 0. */
static int dev_src(const struct stat *st)
{
    if (!S_ISCHR(st->st_mode) || major(st->st_rdev) != 1)
        return 0;
    return minor(st->st_rdev) == 9 ? 1 + SRC_URANDOM : minor(st->st_rdev) == 8 ? 1 + SRC_RANDOM : 0;
}

/* 1 + the source the path names (relative to dirfd), by the device it is, or 0. */
static int path_src_at(int dirfd, const char *path)
{
    struct stat st;

    if (!seed_on)
        seed_init();
    if (!seed_on || !path || fstatat(dirfd, path, &st, 0) < 0)
        return 0;
    return dev_src(&st);
}

static int path_src(const char *path)
{
    return path_src_at(AT_FDCWD, path);
}

/* An open of a random device, logged ("O pid fd") for compare's match with the traced opens. */
static void note_open(int fd)
{
    char line[64];
    int len = snprintf(line, sizeof(line), "O %ld %d\n", (long)getpid(), fd);

    if (len > 0 && (size_t)len < sizeof(line))
        log_line(line, (size_t)len);
}

static int track(int fd, int src)
{
    if (src > 0)
        note_open(fd);
    if (fd >= 0 && fd < SEED_MAX_FD)
        __atomic_store_n(&fd_src[fd], (unsigned char)(src > 0 ? src : 0), __ATOMIC_RELAXED);
    return fd;
}

/* Whether a tracked fd is still /dev/urandom or /dev/random (character device 1:9 or 1:8):
 * a close inside libc (not through close() below) leaves the mark on a reused number. */
static int still_random(int fd)
{
    struct stat st;

    return fstat(fd, &st) == 0 && dev_src(&st) != 0;
}

/* 1 + the source fd reads (a tracked random device), or 0. */
static int fd_source(int fd)
{
    int src = fd >= 0 && fd < SEED_MAX_FD ? __atomic_load_n(&fd_src[fd], __ATOMIC_RELAXED) : 0;

    if (src && !still_random(fd)) { /* closed inside libc, the number reused */
        track(fd, 0);
        src = 0;
    }
    return src;
}

/* ---- the entry points ---- */

ssize_t getrandom(void *buf, size_t n, unsigned flags)
{
    ssize_t (*real)(void *, size_t, unsigned);

    if (!seed_on)
        seed_init();
    if (seed_on) {
        serve(SRC_GETRANDOM, buf, n);
        return (ssize_t)n;
    }
    real = (ssize_t(*)(void *, size_t, unsigned))next_fn("getrandom");
    return real ? real(buf, n, flags) : (errno = ENOSYS, -1);
}

int getentropy(void *buf, size_t n)
{
    int (*real)(void *, size_t);

    if (!seed_on)
        seed_init();
    if (seed_on) {
        if (n > 256) {
            errno = EIO;
            return -1;
        }
        serve(SRC_GETENTROPY, buf, n);
        return 0;
    }
    real = (int (*)(void *, size_t))next_fn("getentropy");
    return real ? real(buf, n) : (errno = ENOSYS, -1);
}

void arc4random_buf(void *buf, size_t n)
{
    void (*real)(void *, size_t);

    if (!seed_on)
        seed_init();
    if (seed_on) {
        serve(SRC_ARC4RANDOM, buf, n);
        return;
    }
    real = (void (*)(void *, size_t))next_fn("arc4random_buf");
    if (real)
        real(buf, n);
}

uint32_t arc4random(void)
{
    uint32_t v;

    arc4random_buf(&v, sizeof(v));
    return v;
}

uint32_t arc4random_uniform(uint32_t upper)
{
    uint32_t v, min;

    if (upper < 2)
        return 0;
    min = -upper % upper; /* reject the low values that bias the remainder */
    do
        v = arc4random();
    while (v < min);
    return v % upper;
}

long syscall(long nr, ...)
{
    long (*real)(long, ...) = (long (*)(long, ...))next_fn("syscall");
    long a[6];
    va_list ap;
    int i;

    va_start(ap, nr);
    for (i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    if (!seed_on)
        seed_init();
    if (seed_on && nr == SYS_getrandom) {
        serve(SRC_GETRANDOM, (void *)a[0], (size_t)a[1]);
        return a[1];
    }
    if (seed_on && (nr == SYS_open || nr == SYS_openat)) { /* the same routes as the functions */
        int dirfd = nr == SYS_open ? AT_FDCWD : (int)a[0];
        const char *path = (const char *)a[nr == SYS_open ? 0 : 1];
        int src = path_src_at(dirfd, path);
        long fd = real ? real(nr, a[0], a[1], a[2], a[3], a[4], a[5]) : (errno = ENOSYS, -1);
        return src ? track((int)fd, src) : fd;
    }
    if (seed_on && (nr == SYS_read || nr == SYS_pread64) && fd_source((int)a[0])) {
        serve(fd_source((int)a[0]) - 1, (void *)a[1], (size_t)a[2]);
        return a[2];
    }
    return real ? real(nr, a[0], a[1], a[2], a[3], a[4], a[5]) : (errno = ENOSYS, -1);
}

typedef int (*open_fn)(const char *, int, ...);

static int open_with(open_fn real, const char *path, int flags, mode_t mode)
{
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    int src = path_src(path);

    return track(real(path, flags, mode), src);
}

static mode_t mode_arg(int flags, va_list ap)
{
    return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    mode_t mode;

    va_start(ap, flags);
    mode = mode_arg(flags, ap);
    va_end(ap);
    return open_with((open_fn)next_fn("open"), path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    mode_t mode;

    va_start(ap, flags);
    mode = mode_arg(flags, ap);
    va_end(ap);
    return open_with((open_fn)next_fn("open64"), path, flags, mode);
}

int __open_2(const char *path, int flags)
{
    return open_with((open_fn)next_fn("open"), path, flags, 0);
}

int __open64_2(const char *path, int flags)
{
    return open_with((open_fn)next_fn("open64"), path, flags, 0);
}

typedef int (*openat_fn)(int, const char *, int, ...);

static int openat_with(openat_fn real, int dirfd, const char *path, int flags, mode_t mode)
{
    int src = path_src_at(dirfd, path);

    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    return track(real(dirfd, path, flags, mode), src);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    mode_t mode;

    va_start(ap, flags);
    mode = mode_arg(flags, ap);
    va_end(ap);
    return openat_with((openat_fn)next_fn("openat"), dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    mode_t mode;

    va_start(ap, flags);
    mode = mode_arg(flags, ap);
    va_end(ap);
    return openat_with((openat_fn)next_fn("openat64"), dirfd, path, flags, mode);
}

int __openat_2(int dirfd, const char *path, int flags)
{
    return openat_with((openat_fn)next_fn("openat"), dirfd, path, flags, 0);
}

int __openat64_2(int dirfd, const char *path, int flags)
{
    return openat_with((openat_fn)next_fn("openat64"), dirfd, path, flags, 0);
}

ssize_t read(int fd, void *buf, size_t n)
{
    ssize_t (*real)(int, void *, size_t) = (ssize_t(*)(int, void *, size_t))next_fn("read");
    int src = fd_source(fd);

    if (src) {
        serve(src - 1, buf, n);
        return (ssize_t)n;
    }
    return real ? real(fd, buf, n) : (errno = ENOSYS, -1);
}

ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
    if (n > buflen)
        abort();
    return read(fd, buf, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    ssize_t (*real)(int, void *, size_t, off_t) =
        (ssize_t(*)(int, void *, size_t, off_t))next_fn("pread");
    int src = fd_source(fd);

    if (src) {
        serve(src - 1, buf, n);
        return (ssize_t)n;
    }
    return real ? real(fd, buf, n, off) : (errno = ENOSYS, -1);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
    ssize_t (*real)(int, void *, size_t, off_t) =
        (ssize_t(*)(int, void *, size_t, off_t))next_fn("pread64");
    int src = fd_source(fd);

    if (src) {
        serve(src - 1, buf, n);
        return (ssize_t)n;
    }
    return real ? real(fd, buf, n, off) : (errno = ENOSYS, -1);
}

ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
    if (n > buflen)
        abort();
    return pread(fd, buf, n, off);
}

ssize_t __pread64_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
    if (n > buflen)
        abort();
    return pread64(fd, buf, n, off);
}

ssize_t readv(int fd, const struct iovec *iov, int cnt)
{
    ssize_t (*real)(int, const struct iovec *, int) =
        (ssize_t(*)(int, const struct iovec *, int))next_fn("readv");
    int src = fd_source(fd), i;
    ssize_t total = 0;

    if (!src)
        return real ? real(fd, iov, cnt) : (errno = ENOSYS, -1);
    for (i = 0; i < cnt; i++) {
        serve(src - 1, iov[i].iov_base, iov[i].iov_len);
        total += (ssize_t)iov[i].iov_len;
    }
    return total;
}

int close(int fd)
{
    int (*real)(int) = (int (*)(int))next_fn("close");

    track(fd, 0);
    return real ? real(fd) : (errno = ENOSYS, -1);
}

/* ---- stdio: a FILE whose reads come from the stream ---- */

/* A cookie: the source in the low byte, 1 + the descriptor (fdopen's, closed with the FILE)
 * above it. */
static ssize_t cookie_read(void *c, char *buf, size_t n)
{
    serve((int)((intptr_t)c & 0xff), buf, n);
    return (ssize_t)n;
}

static int cookie_close(void *c)
{
    int fd = (int)((intptr_t)c >> 8) - 1;

    return fd >= 0 ? close(fd) : 0;
}

typedef FILE *(*fopen_fn)(const char *, const char *);

static FILE *fopen_with(fopen_fn real, const char *path, const char *mode)
{
    int src = path_src(path);

    if (src && mode && mode[0] == 'r' && !strchr(mode, '+')) {
        cookie_io_functions_t io = {.read = cookie_read, .close = cookie_close};
        return fopencookie((void *)(intptr_t)(src - 1), "r", io);
    }
    if (!real) {
        errno = ENOSYS;
        return NULL;
    }
    return real(path, mode);
}

FILE *fopen(const char *path, const char *mode)
{
    return fopen_with((fopen_fn)next_fn("fopen"), path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
    return fopen_with((fopen_fn)next_fn("fopen64"), path, mode);
}

FILE *fdopen(int fd, const char *mode)
{
    FILE *(*real)(int, const char *) = (FILE * (*)(int, const char *)) next_fn("fdopen");
    int src = fd_source(fd);

    if (src && mode && mode[0] == 'r' && !strchr(mode, '+')) {
        cookie_io_functions_t io = {.read = cookie_read, .close = cookie_close};
        return fopencookie((void *)(((intptr_t)(fd + 1) << 8) | (src - 1)), "r", io);
    }
    return real ? real(fd, mode) : (errno = ENOSYS, NULL);
}
