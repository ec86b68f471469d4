/* cost_exact: the fixed start of a counted server (see cost_exact.h). */
#include "run/cost_exact.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/cost_verify.h"
#include "run/proc.h"
#include "util/words.h"

#define SEED_LIB "libpairbench-seed.so"
#define PAD_VAR "PAIRBENCH_ENV_PAD"
/* jemalloc (system: MALLOC_CONF; redis' bundled, prefix je_: JE_MALLOC_CONF) purges freed
 * pages by their age in wall-clock time; counted runs turn that decay off (time-driven work,
 * like the timers left out by name), unless the environment sets the variable itself */
#define JEMALLOC_CONF "dirty_decay_ms:-1,muzzy_decay_ms:-1,background_thread:false"
/* the virtual clock of counted servers (preload/clock.c): 10 us per event-loop wake-up with
 * events, unless the environment sets PAIRBENCH_CLOCK itself ("real": off) */
#define CLOCK_VIRTUAL "virtual:10000"

extern char **environ;

int cost_exact_find_lib(char *path, size_t pathlen, char *why, size_t whylen)
{
    const char *env = getenv("PAIRBENCH_SEED_LIB");
    char exe[4096], *slash;
    ssize_t n;

    if (env && *env) {
        snprintf(path, pathlen, "%s", env);
        if (access(path, R_OK) == 0)
            return 0;
        snprintf(why, whylen, "PAIRBENCH_SEED_LIB '%.300s': %s", env, strerror(errno));
        return -1;
    }
    n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0) {
        snprintf(why, whylen, "cannot read /proc/self/exe: %s", strerror(errno));
        return -1;
    }
    exe[n] = '\0';
    if ((slash = strrchr(exe, '/')))
        *slash = '\0';
    snprintf(path, pathlen, "%s/%s", exe, SEED_LIB);
    if (access(path, R_OK) == 0)
        return 0;
    snprintf(path, pathlen, "%s/../lib/pairbench/%s", exe, SEED_LIB);
    if (access(path, R_OK) == 0)
        return 0;
    snprintf(why, whylen,
             "the interposer %s is not beside compare (%.300s) nor in ../lib/pairbench (run "
             "make, or make install)",
             SEED_LIB, exe);
    return -1;
}

void cost_exact_idle(const struct cgprof *idle, const struct cgprof *win, double idle_s,
                     double win_s, struct cost_idle *out)
{
    out->idle_wakeups = cgprof_cost_of(idle, COST_WAKE_FN);
    out->window_wakeups = cgprof_cost_of(win, COST_WAKE_FN);
    out->window_waits = cgprof_cost_of(win, COST_WAIT_FN);
    if (out->idle_wakeups > 0) {
        out->method = "wakeups";
        out->scale = (double)out->window_wakeups / (double)out->idle_wakeups;
    } else if (cgprof_cost_of(idle, COST_WAIT_FN) > 0 &&
               cgprof_total(idle) * 10 > cgprof_total(win)) {
        /* the idle server worked on its own (threads that poll: valkey's I/O threads spin
         * before they park), at a rate that says nothing of the window's: counted whole */
        out->method = "none";
        out->scale = 0;
    } else if (cgprof_cost_of(idle, COST_WAIT_FN) > 0) {
        /* the interposer saw the idle server wait, and time never woke it: what the idle
         * phase counted is what a phase's start and end cost (vgdb interrupting the wait),
         * the same in the window */
        out->method = "phase";
        out->scale = 1;
    } else {
        out->method = "time";
        out->scale = idle_s > 0 ? win_s / idle_s : 0;
    }
}

/* 1 when eff runs a built-in LRANGE_N (the driver's names, any case): its handshakes prefill. */
static int lrange_builtin(const json_t *eff)
{
    static const char *const names[] = {"LRANGE_100", "LRANGE_300", "LRANGE_500", "LRANGE_600"};
    const char *c = json_string_value(json_object_get(eff, "command"));
    const char *proto = json_string_value(json_object_get(eff, "protocol"));
    size_t i;

    if (!c || !proto || strcmp(proto, "redis") != 0 || json_object_get(eff, "commands"))
        return 0;
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcasecmp(c, names[i]) == 0)
            return 1;
    return 0;
}

int cost_exact_window_config(const json_t *eff, int no_prefill, json_t **out)
{
    int prefill = no_prefill && lrange_builtin(eff);

    *out = NULL;
    if (!json_object_get(eff, "setup") && !prefill)
        return 0;
    if (!(*out = json_deep_copy(eff)))
        return -1;
    json_object_del(*out, "setup");
    if (prefill && json_object_set_new(*out, "no_prefill", json_true()) < 0) {
        json_decref(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

void cost_exact_connections(struct cost_exact *ex, const json_t *eff)
{
    json_int_t n = json_integer_value(json_object_get(eff, "connections"));
    const char *threads =
        "its I/O threads (--io-threads) poll for work, counted with the rest: how long they "
        "poll follows time (valkey 8.0, 50 connections: 96% of the I/O thread's instructions "
        "and most of the main thread's)";

    if (!ex->applied || n <= 1 || (ex->wave && ex->io_threads <= 1))
        return; /* one connection, or waves: the server finds each one ready at once */
    if (ex->wave)
        snprintf(ex->order, sizeof(ex->order),
                 "%lld connections, sent in waves, but %s; decided by the runs", (long long)n,
                 threads);
    else
        snprintf(ex->order, sizeof(ex->order),
                 "%lld connections: the order in which the server sees their requests, and the "
                 "share of its timers' work in them (e.g. redis' incremental rehashing), depend "
                 "on timing%s; started fixed, decided by the runs%s%s",
                 (long long)n,
                 ex->io_threads > 1 ? ""
                                    : " (a driver without --lockstep cannot send them in waves)",
                 ex->io_threads > 1 ? "; and " : "", ex->io_threads > 1 ? threads : "");
}

/* The value of --io-threads in argv (redis, valkey), or 0. */
static long io_threads_of(char **argv)
{
    size_t i;

    for (i = 0; argv[i]; i++)
        if (strcmp(argv[i], "--io-threads") == 0 && argv[i + 1])
            return strtol(argv[i + 1], NULL, 10);
    return 0;
}

int cost_exact_resolve(const char *prog, char *out, size_t outlen)
{
    const char *p = getenv("PATH");

    if (strchr(prog, '/')) {
        snprintf(out, outlen, "%s", prog);
        return access(out, X_OK);
    }
    while (p && *p) {
        size_t n = strcspn(p, ":");
        snprintf(out, outlen, "%.*s/%s", (int)n, n ? p : ".", prog);
        if (access(out, X_OK) == 0)
            return 0;
        p += n + (p[n] == ':');
    }
    return -1;
}

/* 1: an ELF file without PT_INTERP (static); 0: dynamic or not ELF (a script: its
 * interpreter is checked by the process check after the run). */
static int elf_static(FILE *f)
{
    unsigned char id[EI_NIDENT];
    size_t i;

    if (fread(id, 1, sizeof(id), f) != sizeof(id) || memcmp(id, ELFMAG, SELFMAG) != 0)
        return 0;
    rewind(f);
    if (id[EI_CLASS] == ELFCLASS64) {
        Elf64_Ehdr eh;
        Elf64_Phdr ph;
        if (fread(&eh, sizeof(eh), 1, f) != 1)
            return 0;
        for (i = 0; i < eh.e_phnum; i++)
            if (fseek(f, (long)(eh.e_phoff + i * eh.e_phentsize), SEEK_SET) < 0 ||
                fread(&ph, sizeof(ph), 1, f) != 1 || ph.p_type == PT_INTERP)
                return 0;
        return 1;
    }
    if (id[EI_CLASS] == ELFCLASS32) {
        Elf32_Ehdr eh;
        Elf32_Phdr ph;
        if (fread(&eh, sizeof(eh), 1, f) != 1)
            return 0;
        for (i = 0; i < eh.e_phnum; i++)
            if (fseek(f, (long)(eh.e_phoff + i * eh.e_phentsize), SEEK_SET) < 0 ||
                fread(&ph, sizeof(ph), 1, f) != 1 || ph.p_type == PT_INTERP)
                return 0;
        return 1;
    }
    return 0;
}

void cost_exact_check_program(const char *prog, char *why, size_t whylen)
{
    char path[4200];
    struct stat st;
    FILE *f;

    why[0] = '\0';
    if (cost_exact_resolve(prog, path, sizeof(path)) < 0 || stat(path, &st) < 0)
        return; /* the start reports a missing program */
    if (st.st_mode & (S_ISUID | S_ISGID)) {
        snprintf(why, whylen, "'%.300s' is set%cid: the loader drops LD_PRELOAD", path,
                 (st.st_mode & S_ISUID) ? 'u' : 'g');
        return;
    }
    if (!(f = fopen(path, "re")))
        return;
    if (elf_static(f))
        snprintf(why, whylen,
                 "'%.300s' is statically linked (no PT_INTERP): no interposer can be loaded", path);
    fclose(f);
}

int cost_exact_setid(const struct runner *r, size_t version, const char *cmd, const char *dir,
                     char *why, size_t whylen)
{
    struct words_vars vars = {"1", "127.0.0.1", "x", "x", "x", dir, NULL, "x", "2"};
    char **argv = NULL, path[4200], err[512];
    size_t argc;
    struct stat st;
    int setid = 0;

    vars.tree = r->tree_dirs && version < r->n_tree_dirs ? r->tree_dirs[version] : NULL;
    if (!vars.tree)
        vars.tree = ".";
    if (words_split(cmd, &vars, &argv, &argc, err, sizeof(err)) < 0)
        return 0; /* the start reports it */
    if (cost_exact_resolve(argv[0], path, sizeof(path)) == 0 && stat(path, &st) == 0 &&
        (st.st_mode & (S_ISUID | S_ISGID))) {
        snprintf(why, whylen,
                 "'%.300s' is set%cid, and valgrind does not execute setuid or setgid programs "
                 "(\"Can't execute setuid/setgid/setcap executable\"): the row is judged on "
                 "its timed metrics (count a copy without the bit, chmod u-s,g-s, to count it)",
                 path, (st.st_mode & S_ISUID) ? 'u' : 'g');
        setid = 1;
    }
    words_free(argv);
    return setid;
}

static int cmp_env(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether name is one of list[0..n). */
static int listed(const char *name, const char *const *list, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(name, list[i]) == 0)
            return 1;
    return 0;
}

/* 1 when the entry "NAME=..." names one of the variables the counted start sets itself. */
static int replaced(const char *entry, const json_t *venv)
{
    static const char *const own[] = {"LD_PRELOAD", "PAIRBENCH_SEED", "PAIRBENCH_SEED_LOG",
                                      "PAIRBENCH_WAVE", PAD_VAR};
    static const char *const secrets[] = PROC_SECRET_VARS, *const names[] = PROC_VALGRIND_NAME_VARS;
    size_t n = strcspn(entry, "=");
    char name[256];

    if (n >= sizeof(name))
        return 0;
    memcpy(name, entry, n);
    name[n] = '\0';
    return listed(name, own, sizeof(own) / sizeof(own[0])) ||
           /* the server runs under valgrind */
           listed(name, names, sizeof(names) / sizeof(names[0])) ||
           listed(name, secrets, sizeof(secrets) / sizeof(secrets[0])) ||
           (venv && json_object_get(venv, name) != NULL);
}

static char *entry(const char *name, const char *value)
{
    size_t len = strlen(name) + strlen(value) + 2;
    char *e = malloc(len);

    if (e)
        snprintf(e, len, "%s=%s", name, value);
    return e;
}

/* The environment of the version's counted server, pad characters of padding. NULL-ended;
 * *size gets its total bytes. NULL when out of memory. */
static char **env_build(const struct cost_exact *ex, const json_t *venv, size_t pad, size_t *size)
{
    size_t n = 0, cap = 10, i;
    char **e, seed[32], *padv = malloc(pad + 2), **ep;
    const char *k, *pre = NULL;
    json_t *v;

    for (ep = environ; *ep; ep++)
        cap++;
    cap += venv ? json_object_size(venv) : 0;
    if (!(e = calloc(cap, sizeof(*e))) || !padv) {
        free(e);
        free(padv);
        return NULL;
    }
    memset(padv, 'x', pad + 1);
    padv[pad + 1] = '\0';
    for (ep = environ; *ep; ep++)
        if (!replaced(*ep, venv))
            e[n++] = strdup(*ep);
    json_object_foreach((json_t *)venv, k, v)
    {
        if (strcmp(k, "LD_PRELOAD") == 0)
            pre = json_string_value(v);
        else if (!replaced(k, NULL))
            e[n++] = entry(k, json_string_value(v));
    }
    snprintf(seed, sizeof(seed), "%llu", ex->seed);
    e[n++] = entry("LD_PRELOAD", ex->lib);
    if (pre && *pre) { /* the version's own preload after ours */
        free(e[n - 1]);
        e[n - 1] = malloc(strlen(ex->lib) + strlen(pre) + 14);
        if (e[n - 1])
            snprintf(e[n - 1], strlen(ex->lib) + strlen(pre) + 14, "LD_PRELOAD=%s:%s", ex->lib,
                     pre);
    }
    e[n++] = entry("PAIRBENCH_SEED", seed);
    e[n++] = entry("PAIRBENCH_SEED_LOG", ex->log);
    if (!getenv("MALLOC_CONF") && !(venv && json_object_get(venv, "MALLOC_CONF")))
        e[n++] = entry("MALLOC_CONF", JEMALLOC_CONF);
    if (!getenv("JE_MALLOC_CONF") && !(venv && json_object_get(venv, "JE_MALLOC_CONF")))
        e[n++] = entry("JE_MALLOC_CONF", JEMALLOC_CONF);
    if (!getenv("PAIRBENCH_CLOCK") && !(venv && json_object_get(venv, "PAIRBENCH_CLOCK")))
        e[n++] = entry("PAIRBENCH_CLOCK", CLOCK_VIRTUAL);
    if (ex->wave) {
        char w[16];

        snprintf(w, sizeof(w), "%u", ex->wave);
        e[n++] = entry("PAIRBENCH_WAVE", w);
    }
    e[n++] = entry(PAD_VAR, padv);
    free(padv);
    *size = 0;
    for (i = 0; i < n; i++) {
        if (!e[i]) {
            for (i = 0; i < n; i++)
                free(e[i]);
            free(e);
            return NULL;
        }
        *size += strlen(e[i]) + 1;
    }
    qsort(e, n, sizeof(*e), cmp_env);
    return e;
}

int cost_exact_prepare(struct cost_exact *ex, const struct runner *r, size_t version,
                       const char *cmd, const char *dir, unsigned long long seed, unsigned wave,
                       char *err, size_t errlen)
{
    struct words_vars vars = {"1", "127.0.0.1", "x", "x", "x", dir, NULL, "x", "2"};
    char **argv = NULL, why[512];
    size_t argc, v, size, most = 0;

    memset(ex, 0, sizeof(*ex));
    ex->seed = seed;
    ex->wave = wave;
    snprintf(ex->log, sizeof(ex->log), "%s/seed.log", dir);
    if (cost_exact_find_lib(ex->lib, sizeof(ex->lib), why, sizeof(why)) < 0) {
        snprintf(ex->reason, sizeof(ex->reason), "%s", why);
        return 0;
    }
    vars.tree = r->tree_dirs && version < r->n_tree_dirs ? r->tree_dirs[version] : NULL;
    if (!vars.tree)
        vars.tree = ".";
    if (words_split(cmd, &vars, &argv, &argc, why, sizeof(why)) == 0) {
        cost_exact_check_program(argv[0], why, sizeof(why));
        ex->io_threads = io_threads_of(argv);
        if (ex->io_threads > 1)
            ex->wave = 0; /* its I/O threads read the requests: no wave to gather, not exact */
        words_free(argv);
        if (why[0]) {
            snprintf(ex->reason, sizeof(ex->reason), "%s", why);
            return 0;
        }
    }
    /* every version's environment the same size: the longest, the others padded */
    for (v = 0; v < r->sp->n_versions; v++) {
        char **e = env_build(ex, r->sp->versions[v].env, 0, &size);
        if (!e)
            goto oom;
        words_free(e);
        if (size > most)
            most = size;
    }
    if (!(ex->envp = env_build(ex, r->sp->versions[version].env, 0, &size)))
        goto oom;
    words_free(ex->envp);
    if (!(ex->envp = env_build(ex, r->sp->versions[version].env, most - size, &size)))
        goto oom;
    ex->applied = 1;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* The pids of dir's profiles (cg.PID.N) into pids (a JSON object used as a set). */
static void profile_pids(const char *dir, json_t *pids)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    if (!d)
        return;
    while ((e = readdir(d))) {
        char *end, key[32];
        long pid;
        if (strncmp(e->d_name, "cg.", 3) != 0)
            continue;
        pid = strtol(e->d_name + 3, &end, 10);
        if (end == e->d_name + 3 || *end != '.')
            continue;
        snprintf(key, sizeof(key), "%ld", pid);
        json_object_set_new(pids, key, json_true());
    }
    closedir(d);
}

/* Reads the interposer's log (written while the server runs: its per-request lines) into
 * served ({source: {calls, bytes}}), loaded (pid set) and clocks ({pid: the virtual clock's
 * "C" line: quantum, read step, grace}). */
static void read_log(const char *path, json_t *served, json_t *loaded, json_t *clocks)
{
    FILE *f = fopen(path, "re");
    char line[512];

    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        long pid;
        char src[64], key[32];
        unsigned long long bytes;
        json_t *s;
        unsigned long long q, st, g;
        if (sscanf(line, "C %ld %llu %llu %llu", &pid, &q, &st, &g) == 4) {
            snprintf(key, sizeof(key), "%ld", pid);
            json_object_set_new(clocks, key,
                                json_pack("{s:s,s:I,s:I,s:I}", "kind", "virtual", "quantum_ns",
                                          (json_int_t)q, "read_step_ns", (json_int_t)st, "grace_ms",
                                          (json_int_t)g));
            continue;
        }
        if (sscanf(line, "J %ld %63s", &pid, src) == 2) { /* time-driven work kept off */
            json_object_set_new(clocks, "jemalloc", json_string(src));
            continue;
        }
        if (sscanf(line, "L %ld", &pid) == 1) {
            snprintf(key, sizeof(key), "%ld", pid);
            json_object_set_new(loaded, key, json_true());
            continue;
        }
        if (sscanf(line, "S %ld %63s %llu", &pid, src, &bytes) != 3)
            continue;
        if (!(s = json_object_get(served, src))) {
            s = json_pack("{s:I,s:I}", "calls", (json_int_t)0, "bytes", (json_int_t)0);
            json_object_set_new(served, src, s);
        }
        json_object_set_new(s, "calls",
                            json_integer(json_integer_value(json_object_get(s, "calls")) + 1));
        json_object_set_new(
            s, "bytes",
            json_integer(json_integer_value(json_object_get(s, "bytes")) + (json_int_t)bytes));
    }
    fclose(f);
}

/* The seccomp state of process pid ("self" for compare): the filters installed
 * ("Seccomp_filters:", Linux 5.9+), else the mode ("Seccomp:"), from /proc/PID/status; -1
 * when unknown. */
static long seccomp_of(const char *pid, long *mode)
{
    char path[64], line[256];
    long filters = -1;
    FILE *f;

    *mode = -1;
    snprintf(path, sizeof(path), "/proc/%s/status", pid);
    if (!(f = fopen(path, "re")))
        return -1;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "Seccomp:", 8) == 0)
            *mode = strtol(line + 8, NULL, 10);
        else if (strncmp(line, "Seccomp_filters:", 16) == 0)
            filters = strtol(line + 16, NULL, 10);
    }
    fclose(f);
    return filters;
}

/* A counted process (pids) under a seccomp filter compare itself is not under: the filter may
 * refuse the calls the interposer makes (or answer them itself), so nothing is claimed exact.
 * Read while the server still runs. Returns 1 (why set) or 0. */
static int seccomp_check(json_t *pids, char *why, size_t whylen)
{
    long own_mode, own = seccomp_of("self", &own_mode);
    const char *k;
    json_t *v;

    json_object_foreach(pids, k, v)
    {
        long mode, filters = seccomp_of(k, &mode);
        if ((filters >= 0 && own >= 0 && filters > own) ||
            (filters < 0 && mode > 0 && mode != own_mode)) {
            snprintf(why, whylen,
                     "process %s runs under a seccomp filter (/proc/%s/status: Seccomp %ld, "
                     "filters %ld; compare's %ld): the interposer's calls may be refused, "
                     "counted as without it",
                     k, k, mode, filters, own);
            return 1;
        }
    }
    return 0;
}

/* The record's clock: the virtual clock's settings when every counted process (pids) had it,
 * else {"kind": "real"} (new reference). */
static json_t *clock_record(json_t *clocks, json_t *pids)
{
    json_t *v, *c = NULL, *out;
    const char *k;

    json_object_foreach(pids, k, v)
    {
        if (!(c = json_object_get(clocks, k)))
            break;
    }
    out = c ? json_deep_copy(c) : json_pack("{s:s}", "kind", "real");
    if (out && c && json_object_get(clocks, "jemalloc")) /* "off": ["jemalloc background_thread"] */
        json_object_set_new(
            out, "off",
            json_pack("[s+]", "jemalloc ", json_string_value(json_object_get(clocks, "jemalloc"))));
    return out;
}

/* The evidence of cost_verify.h: ex->unverified set when it fails; unserved gets the routes. */
static void verify(struct cost_exact *ex, const char *dir, json_t *unserved)
{
    json_t *window = cost_verify_window(dir);

    if (!window)
        snprintf(ex->unverified, sizeof(ex->unverified), "out of memory");
    else if (cost_verify_run(dir, ex->log, window, unserved, ex->unverified,
                             sizeof(ex->unverified)) == 0)
        ex->unverified[0] = '\0';
    json_decref(window);
}

json_t *cost_exact_record(struct cost_exact *ex, const char *dir)
{
    json_t *served = json_object(), *loaded = json_object(), *pids = json_object(), *v;
    json_t *clocks = json_object(), *clock, *rec, *unserved = json_object();
    const char *k;
    size_t missing = 0, processes;

    if (ex->applied) {
        read_log(ex->log, served, loaded, clocks);
        profile_pids(dir, pids);
        json_object_foreach(pids, k, v)
        {
            if (!json_object_get(loaded, k))
                missing++;
        }
        if (missing) {
            snprintf(ex->reason, sizeof(ex->reason),
                     "%zu of %zu counted processes ran without the interposer (a setuid "
                     "program, a static binary or a cleared environment)",
                     missing, json_object_size(pids));
            ex->applied = 0;
        } else if (seccomp_check(pids, ex->reason, sizeof(ex->reason))) {
            ex->applied = 0;
        } else {
            verify(ex, dir, unserved);
        }
    }
    processes = json_object_size(pids);
    clock = ex->applied ? clock_record(clocks, pids) : json_pack("{s:s}", "kind", "real");
    json_decref(loaded);
    json_decref(pids);
    json_decref(clocks);
    rec = json_pack("{s:I,s:b,s:o,s:s,s:o,s:o,s:I}", "seed", (json_int_t)ex->seed, "exact",
                    ex->applied && !ex->order[0] && !ex->unverified[0], "reason",
                    !ex->applied        ? json_string(ex->reason)
                    : ex->unverified[0] ? json_string(ex->unverified)
                    : ex->order[0]      ? json_string(ex->order)
                                        : json_null(),
                    "layout", ex->applied ? "fixed" : "random", "served", served, "unserved",
                    unserved, "processes", (json_int_t)processes);
    if (rec)
        json_object_set_new(rec, "clock", clock);
    else
        json_decref(clock);
    return rec;
}

void cost_exact_release(struct cost_exact *ex)
{
    words_free(ex->envp);
    ex->envp = NULL;
}
