/* cost_vgdb: reaching the counted server's valgrind through vgdb (see cost_int.h). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "run/cost_int.h"
#include "run/proc.h"
#include "run/runner.h"

#define VGDB_TIMEOUT_S 20.0
#define MAX_PIDS 64

/* The live pids whose process group is pgid (the server and what it forked). A process that
 * ended (a zombie) has no gdbserver to answer: asking it would only wait for the timeout. */
static size_t group_pids(pid_t pgid, pid_t *out, size_t max)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    size_t n = 0;

    if (!d)
        return 0;
    while ((e = readdir(d)) && n < max) {
        char *end;
        long pid, pg = -1;
        char st;

        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        pid = strtol(e->d_name, &end, 10);
        if (*end)
            continue;
        st = proc_state((pid_t)pid, &pg);
        if (st && st != 'Z' && st != 'X' && pg == (long)pgid)
            out[n++] = (pid_t)pid;
    }
    closedir(d);
    return n;
}

/* vgdb --vgdb-prefix=PREFIX --pid=PID CMD, watching PID while it waits. Returns 0, or -1 with
 * why. */
static int vgdb(struct runner *r, const char *prefix, pid_t pid, const char *cmd, char *why,
                size_t whylen)
{
    char pfx[4200], pidarg[32], err[256];
    char *argv[] = {"vgdb", pfx, pidarg, (char *)cmd, NULL};
    struct proc_spec ps = {.argv = argv};
    uint64_t until = clock_now_ns() + (uint64_t)(VGDB_TIMEOUT_S * 1e9);
    struct proc p;
    int rc = -1;

    snprintf(pfx, sizeof(pfx), "--vgdb-prefix=%s", prefix);
    snprintf(pidarg, sizeof(pidarg), "--pid=%ld", (long)pid);
    if (proc_start(&p, &ps, err, sizeof(err)) < 0) {
        snprintf(why, whylen, "vgdb: %s", err);
        return -1;
    }
    while (proc_running(&p)) {
        struct timespec ts = {0, 10 * 1000 * 1000};

        if (r->stop && *r->stop) {
            snprintf(why, whylen, "interrupted while valgrind was asked to '%s'", cmd);
            goto out;
        }
        if (proc_pid_ended(pid)) {
            snprintf(why, whylen, "process %ld ended while its valgrind was asked to '%s'",
                     (long)pid, cmd);
            goto out;
        }
        if (clock_now_ns() >= until) {
            snprintf(why, whylen,
                     "valgrind's gdbserver in process %ld did not answer '%s' within %.0f s (a "
                     "process that changes its user after fork cannot be reached: run the server "
                     "as one user, e.g. nginx's 'user' directive set to the user running compare)",
                     (long)pid, cmd, VGDB_TIMEOUT_S);
            goto out;
        }
        nanosleep(&ts, NULL);
    }
    if (!WIFEXITED(p.status) || WEXITSTATUS(p.status) != 0)
        snprintf(why, whylen, "vgdb --pid=%ld %s failed", (long)pid, cmd);
    else
        rc = 0;
out:
    proc_stop(&p, 0.5);
    return rc;
}

int cost_vgdb_all(struct runner *r, const char *prefix, pid_t pgid, const char *cmd, char *why,
                  size_t whylen)
{
    pid_t pids[MAX_PIDS];
    size_t n = group_pids(pgid, pids, MAX_PIDS), i;

    if (n == 0) {
        snprintf(why, whylen, "the server's processes are gone");
        return -1;
    }
    for (i = 0; i < n; i++)
        if (vgdb(r, prefix, pids[i], cmd, why, whylen) < 0)
            return -1;
    return 0;
}
