/* cost_help: what the counted runs' programs say of themselves: what a version's driver takes,
 * by its --help (see cost_help.h), and valgrind's version (cost.h). */
#include "run/cost_help.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "run/cost.h"
#include "run/cost_exact.h"
#include "run/proc.h"
#include "util/jobs_util.h"
#include "util/words.h"

/* The --help texts of the drivers this process has asked, by their argv and the program's file
 * identity (a commit rebuilt in place is asked again): each counted run checks its driver's
 * --seed and every version's --lockstep, one spawn per driver is enough. */
#define HELP_CACHE 16
static struct help_seen {
    char *key, *text; /* a driver that could not answer is not kept */
} help_cache[HELP_CACHE];
static size_t help_n;

/* The cache key of argv: its program's inode, size and mtime, then its words (each after a
 * unit separator); NULL out of memory. */
static char *help_key(char **argv, size_t argc)
{
    char path[4200], id[96] = "";
    struct stat st;
    size_t len, used, i;
    char *key;

    if (cost_exact_resolve(argv[0], path, sizeof(path)) == 0 && stat(path, &st) == 0)
        snprintf(id, sizeof(id), "%lu:%lld:%lld.%09ld", (unsigned long)st.st_ino,
                 (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    len = strlen(id) + 1;
    for (i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    if (!(key = malloc(len)))
        return NULL;
    used = (size_t)snprintf(key, len, "%s", id);
    for (i = 0; i < argc; i++)
        used += (size_t)snprintf(key + used, len - used, "\x1f%s", argv[i]);
    return key;
}

/* The --help output of argv (cached; "" when it cannot say), or NULL out of memory. */
static const char *help_text(char **argv, size_t argc)
{
    char **full = NULL, perr[256], *key = help_key(argv, argc), *text = NULL;
    struct proc p = {.pid = -1, .out_fd = -1};
    struct proc_spec ps = {.capture_stdout = 1};
    struct proc_result res;
    size_t i;
    int ok = 1;

    if (!key)
        return NULL;
    for (i = 0; i < help_n; i++)
        if (strcmp(help_cache[i].key, key) == 0) {
            free(key);
            return help_cache[i].text;
        }
    if (!(full = calloc(argc + 2, sizeof(*full))))
        goto out; /* text NULL: out of memory */
    for (i = 0; i < argc; i++)
        full[i] = argv[i];
    full[argc] = "--help";
    ps.argv = full;
    if (proc_start(&p, &ps, perr, sizeof(perr)) == 0 &&
        proc_wait(&p, 10.0, 1.0, NULL, &res, perr, sizeof(perr)) == 0) {
        text = strdup(res.out ? res.out : "");
        proc_result_release(&res);
    } else {
        ok = 0; /* it cannot say: not kept, the next run asks again */
    }
out:
    if (p.pid > 0)
        proc_stop(&p, 0.5);
    free(full);
    if (!ok || !text) {
        free(key);
        return ok ? NULL : "";
    }
    if (help_n == HELP_CACHE) { /* full: the oldest goes */
        free(help_cache[0].key);
        free(help_cache[0].text);
        memmove(help_cache, help_cache + 1, (HELP_CACHE - 1) * sizeof(*help_cache));
        help_n--;
    }
    help_cache[help_n].key = key;
    help_cache[help_n].text = text;
    return help_cache[help_n++].text;
}

/* 1 when the version's driver names flag in its --help, 0 when not (or it cannot say), -1
 * out of memory (err). */
static int driver_help_has(const struct runner *r, size_t version, const char *flag, char *err,
                           size_t errlen)
{
    char **argv = NULL;
    size_t argc = 0;
    const char *text;
    int rc;

    if (runner_driver_argv(r, version, &argv, &argc, err, errlen) < 0)
        return -1;
    text = help_text(argv, argc);
    if (!text)
        snprintf(err, errlen, "out of memory");
    rc = text ? strstr(text, flag) != NULL : -1;
    words_free(argv);
    return rc;
}

int cost_help_driver_seeds(const struct runner *r, size_t version, char *why, size_t whylen,
                           char *err, size_t errlen)
{
    char **argv = NULL;
    size_t argc = 0;
    int rc = driver_help_has(r, version, "--seed", err, errlen);

    if (rc == 0 && runner_driver_argv(r, version, &argv, &argc, err, errlen) == 0) {
        snprintf(why, whylen,
                 "the driver of version '%s' (%.200s) does not take a seed (its --help names no "
                 "--seed: built before it): counted without the fixed start",
                 r->sp->versions[version].name, argv[0]);
        words_free(argv);
    } else if (rc > 0) {
        why[0] = '\0';
    }
    return rc;
}

int cost_help_drivers_lockstep(const struct runner *r, char *err, size_t errlen)
{
    size_t v;
    int rc = 1;

    for (v = 0; v < r->sp->n_versions && rc > 0; v++)
        rc = driver_help_has(r, v, "--lockstep", err, errlen);
    return rc;
}

int cost_help_driver_no_prefill(const struct runner *r, size_t version, char *err, size_t errlen)
{
    return driver_help_has(r, version, "--no-prefill", err, errlen);
}

void cost_valgrind_version(char *out, size_t outlen)
{
    char *argv[] = {"valgrind", "--version", NULL}, err[256];
    struct proc_spec ps = {.argv = argv, .capture_stdout = 1};
    struct proc p;
    struct proc_result res;

    out[0] = '\0';
    if (proc_start(&p, &ps, err, sizeof(err)) < 0)
        return;
    if (proc_wait(&p, 10.0, 1.0, NULL, &res, err, sizeof(err)) == 0) {
        if (WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0)
            snprintf(out, outlen, "%.*s", (int)strcspn(res.out, "\r\n"), res.out);
        proc_result_release(&res);
    }
    proc_stop(&p, 0.5);
}

/* Whether the window's idle correction is not smaller than its own count: then no count is
 * left to report (the figure would be zero or below). Threads that poll for work (valkey's
 * --io-threads) can do it: their idle rate follows timing. 1 with the reason set. */
int cost_correction_exceeds(const json_t *inst, char *reason, size_t reasonlen)
{
    double corr = ju_num(inst, "idle_correction", 0);
    long long win = ju_int(inst, "window_instructions", 0);

    if (corr < (double)win)
        return 0;
    snprintf(reason, reasonlen,
             "the idle correction (%.0f instructions) is not smaller than the window's count "
             "(%lld): " COST_POLLING_REASON,
             corr, win);
    return 1;
}

int cost_not_countable(const json_t *line, int *whole)
{
    const char *why = ju_str(line, "reason", "");

    /* a server that never answers under the counting setup (replies held on timers, which
     * the virtual clock serves at most once per grace period: preload/clock.c) will not
     * answer in the next run either, whichever row it serves: the whole plan stops */
    *whole = strstr(why, "server not ready") != NULL;
    /* threads that poll for work: the next run of this row polls as long as timing says */
    return *whole || strstr(why, COST_POLLING_REASON) != NULL;
}
