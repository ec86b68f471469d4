/* ptree: a process tree read from /proc (see ptree.h). */
#include "ptree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t ptree_read_small(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n, got = 0;

    if (fd < 0)
        return -1;
    while ((size_t)got < len - 1) {
        n = read(fd, buf + got, len - 1 - (size_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += n;
    }
    close(fd);
    buf[got] = '\0';
    return got;
}

char ptree_state(pid_t pid, long *pgrp)
{
    char path[64], buf[512], *s, state = 0;
    long pg = -1;

    snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
    if (ptree_read_small(path, buf, sizeof(buf)) <= 0)
        return 0;
    s = strrchr(buf, ')'); /* the command name may hold spaces */
    /* after ')': state, ppid, pgrp */
    if (!s || sscanf(s + 1, " %c %*d %ld", &state, &pg) != 2)
        return 0;
    if (pgrp)
        *pgrp = pg;
    return state;
}

int ptree_ended(pid_t pid)
{
    char st = ptree_state(pid, NULL);

    return st == 0 || st == 'Z' || st == 'X';
}

size_t ptree_group_live(pid_t pgid, pid_t *out, size_t max)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    size_t n = 0;

    if (!d)
        return 0;
    while ((e = readdir(d)) && n < max) {
        char *end, st;
        long pid = strtol(e->d_name, &end, 10), pg = -1;

        if (*end || pid <= 0)
            continue;
        st = ptree_state((pid_t)pid, &pg);
        if (st && st != 'Z' && st != 'X' && pg == (long)pgid)
            out[n++] = (pid_t)pid;
    }
    closedir(d);
    return n;
}

/* ppid, utime + stime (ticks) and minflt + majflt from a /proc/PID/stat line. Returns 0, or
 * -1. */
static int parse_pid_stat(const char *buf, long *ppid, unsigned long long *ticks,
                          unsigned long long *faults)
{
    const char *s = strrchr(buf, ')'); /* the command name may hold spaces and ')' */
    unsigned long long ut, st, minflt, majflt;

    /* after ')': state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
     * utime stime */
    if (!s || sscanf(s + 1, " %*c %ld %*d %*d %*d %*d %*u %llu %*u %llu %*u %llu %llu", ppid,
                     &minflt, &majflt, &ut, &st) != 5)
        return -1;
    *ticks = ut + st;
    *faults = minflt + majflt;
    return 0;
}

/* The value of "key" in a "key: value" file text (0 when absent). */
static unsigned long long keyed(const char *text, const char *key)
{
    size_t kl = strlen(key);
    const char *p = text;

    while (p && *p) {
        if (strncmp(p, key, kl) == 0 && p[kl] == ':')
            return strtoull(p + kl + 1, NULL, 10);
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return 0;
}

/* Adds one process's figures (its stat ticks already known) to out. */
static void add_process(const char *proc_root, const struct pinfo *pi, long hz,
                        struct tree_sample *out)
{
    char path[4200], buf[4096], *m;
    DIR *d;
    struct dirent *e;
    long pid = pi->pid;

    out->cpu_s += (double)pi->ticks / (double)hz;
    out->faults += pi->faults;
    out->n_procs++;
    snprintf(path, sizeof(path), "%s/%ld/io", proc_root, pid);
    if (ptree_read_small(path, buf, sizeof(buf)) > 0) {
        out->syscr += keyed(buf, "syscr");
        out->syscw += keyed(buf, "syscw");
    }
    snprintf(path, sizeof(path), "%s/%ld/task", proc_root, pid);
    d = opendir(path);
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof(path), "%s/%ld/task/%s/status", proc_root, pid, e->d_name);
        if (ptree_read_small(path, buf, sizeof(buf)) > 0) {
            out->vcsw += keyed(buf, "voluntary_ctxt_switches");
            out->nivcsw += keyed(buf, "nonvoluntary_ctxt_switches");
        }
        snprintf(path, sizeof(path), "%s/%ld/task/%s/schedstat", proc_root, pid, e->d_name);
        if (ptree_read_small(path, buf, sizeof(buf)) > 0) {
            out->sched_s += strtod(buf, NULL) / 1e9;
            out->n_sched++;
        }
        snprintf(path, sizeof(path), "%s/%ld/task/%s/sched", proc_root, pid, e->d_name);
        if (ptree_read_small(path, buf, sizeof(buf)) > 0 && (m = strstr(buf, "se.nr_migrations")) &&
            (m = strchr(m, ':'))) { /* CONFIG_SCHED_DEBUG kernels only */
            out->migrations += strtoull(m + 1, NULL, 10);
            out->n_migr++;
        }
    }
    closedir(d);
}

struct pinfo *ptree_list(const char *proc_root, size_t *n)
{
    struct pinfo *v = calloc(PTREE_MAX_PROCS, sizeof(*v));
    char path[4200], buf[1024];
    DIR *d = opendir(proc_root);
    struct dirent *e;

    *n = 0;
    if (!v || !d) {
        free(v);
        if (d)
            closedir(d);
        return NULL;
    }
    while ((e = readdir(d)) != NULL && *n < PTREE_MAX_PROCS) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);

        if (*end || pid <= 0)
            continue;
        snprintf(path, sizeof(path), "%s/%ld/stat", proc_root, pid);
        if (ptree_read_small(path, buf, sizeof(buf)) <= 0 ||
            parse_pid_stat(buf, &v[*n].ppid, &v[*n].ticks, &v[*n].faults) < 0)
            continue;
        v[*n].pid = pid;
        (*n)++;
    }
    closedir(d);
    return v;
}

/* The indices into v of pid and its descendants, breadth first from pid (each process is a
 * child of exactly one, so no repeats), in idx (room for n). Returns how many, 0 when pid is
 * not in v. */
static size_t tree_order(const struct pinfo *v, size_t n, long pid, size_t *idx)
{
    size_t head = 0, tail = 0, i, k;

    for (i = 0; i < n && v[i].pid != pid; i++)
        ;
    if (i == n)
        return 0;
    idx[tail++] = i;
    while (head < tail) {
        long p = v[idx[head++]].pid;
        for (k = 0; k < n && tail < n; k++)
            if (v[k].ppid == p && v[k].pid != p)
                idx[tail++] = k;
    }
    return tail;
}

int ptree_sample_in(const char *proc_root, const struct pinfo *v, size_t n, pid_t pid, long hz,
                    struct tree_sample *out)
{
    size_t i, m = 0, *idx = NULL;
    int rc = -1;

    memset(out, 0, sizeof(*out));
    if (pid <= 0 || hz <= 0)
        return -1;
    if (!(idx = malloc((n + 1) * sizeof(*idx))) || !(m = tree_order(v, n, (long)pid, idx)))
        goto out;
    for (i = 0; i < m; i++)
        add_process(proc_root, &v[idx[i]], hz, out);
    rc = 0;
out:
    free(idx);
    return rc;
}

int ptree_sample(const char *proc_root, pid_t pid, long hz, struct tree_sample *out)
{
    struct pinfo *v;
    size_t n = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    if (pid <= 0 || hz <= 0 || !(v = ptree_list(proc_root, &n)))
        return -1;
    rc = ptree_sample_in(proc_root, v, n, pid, hz, out);
    free(v);
    return rc;
}

size_t ptree_pids(const char *proc_root, pid_t pid, pid_t *out, size_t max)
{
    struct pinfo *v;
    size_t n = 0, i, m = 0, *idx = NULL;

    if (pid <= 0 || !(v = ptree_list(proc_root, &n)))
        return 0;
    if ((idx = malloc((n + 1) * sizeof(*idx))))
        m = tree_order(v, n, (long)pid, idx);
    for (i = 0; i < m && i < max; i++)
        out[i] = (pid_t)v[idx[i]].pid;
    free(idx);
    free(v);
    return i;
}

size_t ptree_tids(const char *proc_root, pid_t pid, pid_t *tids, size_t max, size_t *n_procs)
{
    pid_t pids[PTREE_MAX_TREE];
    size_t np = ptree_pids(proc_root, pid, pids, PTREE_MAX_TREE), i, n = 0;

    if (n_procs)
        *n_procs = np;
    for (i = 0; i < np; i++) {
        char path[4200];
        DIR *d;
        struct dirent *e;

        snprintf(path, sizeof(path), "%s/%ld/task", proc_root, (long)pids[i]);
        if (!(d = opendir(path)))
            continue; /* ended since the walk */
        while ((e = readdir(d)) && n < max) {
            char *end;
            long t = strtol(e->d_name, &end, 10);
            if (!*end && t > 0)
                tids[n++] = (pid_t)t;
        }
        closedir(d);
    }
    return n;
}
