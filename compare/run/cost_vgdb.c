/* cost_vgdb: reaching the counted server's valgrind through vgdb (see cost_int.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "ptree.h"
#include "run/cost_int.h"
#include "run/proc.h"
#include "run/runner.h"
#include "util/jobs_util.h"

#define VGDB_TIMEOUT_S 30.0
#define VGDB_TRIES 3
#define MAX_PIDS 64

/* The last line of file path (at most len - 1 bytes of it) into out; "" when none. */
static void last_line(const char *path, char *out, size_t len)
{
    char err[64];
    size_t n = 0;
    char *text = ju_read_file(path, 1 << 20, &n, err, sizeof(err)), *nl;

    out[0] = '\0';
    if (!text)
        return;
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        text[--n] = '\0';
    nl = strrchr(text, '\n');
    nl = nl ? nl + 1 : text;
    n = strlen(nl) < len - 1 ? strlen(nl) : len - 1;
    memcpy(out, nl, n);
    out[n] = '\0';
    free(text);
}

/* One try of vgdb --vgdb-prefix=PREFIX --pid=PID CMD for at most timeout_s, watching PID while
 * it waits (its stderr to errpath). Returns 0; -1 with why; -2 when it timed out (worth
 * another try). */
static int vgdb_try(struct runner *r, const char *prefix, pid_t pid, const char *cmd,
                    const char *errpath, double timeout_s, char *why, size_t whylen)
{
    char pfx[4200], pidarg[32], err[256];
    char *argv[] = {"vgdb", pfx, pidarg, (char *)cmd, NULL};
    /* without LOGNAME and USER, as the counted server was started (proc.h) */
    struct proc_spec ps = {.argv = argv, .stderr_path = errpath, .valgrind = 1};
    uint64_t until = clock_now_ns() + (uint64_t)(timeout_s * 1e9);
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
        if (ptree_ended(pid)) {
            snprintf(why, whylen, "process %ld ended while its valgrind was asked to '%s'",
                     (long)pid, cmd);
            goto out;
        }
        if (clock_now_ns() >= until) {
            rc = -2;
            goto out;
        }
        nanosleep(&ts, NULL);
    }
    if (!WIFEXITED(p.status) || WEXITSTATUS(p.status) != 0) {
        last_line(errpath, err, sizeof(err));
        snprintf(why, whylen, "vgdb --pid=%ld %s failed%s%s", (long)pid, cmd, *err ? ": " : "",
                 err);
    } else {
        rc = 0;
    }
out:
    proc_stop(&p, 0.5);
    return rc;
}

/* vgdb CMD to PID: VGDB_TRIES tries of VGDB_TIMEOUT_S / VGDB_TRIES each. A try that times
 * out is made again with a fresh vgdb: on a loaded machine (load 3 on 2 CPUs, beside other
 * counted runs) one vgdb once waited out a whole single 20 s try while every other call of
 * that run answered at once; the cause is not known, and vgdb's last line of stderr is quoted
 * if it happens again. A 'dump' asked twice writes a second dump of what came after the
 * first, which the parse adds. Returns 0, or -1 with why. */
static int vgdb(struct runner *r, const char *prefix, pid_t pid, const char *cmd, char *why,
                size_t whylen)
{
    char errpath[4200], last[256];
    int k, rc = -2;

    snprintf(errpath, sizeof(errpath), "%s.%ld.err", prefix, (long)pid);
    for (k = 0; k < VGDB_TRIES && rc == -2; k++)
        rc = vgdb_try(r, prefix, pid, cmd, errpath, VGDB_TIMEOUT_S / VGDB_TRIES, why, whylen);
    if (rc != -2)
        return rc;
    last_line(errpath, last, sizeof(last));
    snprintf(why, whylen,
             "valgrind's gdbserver in process %ld did not answer '%s' in %d tries over %.0f s (a "
             "process that changes its user after fork cannot be reached: run the server as one "
             "user, e.g. nginx's 'user' directive set to the user running compare)%s%s",
             (long)pid, cmd, VGDB_TRIES, VGDB_TIMEOUT_S, *last ? "; vgdb said: " : "", last);
    return -1;
}

int cost_vgdb_all(struct runner *r, const char *prefix, pid_t pgid, const char *cmd, char *why,
                  size_t whylen)
{
    pid_t pids[MAX_PIDS];
    size_t n = ptree_group_live(pgid, pids, MAX_PIDS), i;

    if (n == 0) {
        snprintf(why, whylen, "the server's processes are gone");
        return -1;
    }
    for (i = 0; i < n; i++)
        if (vgdb(r, prefix, pids[i], cmd, why, whylen) < 0)
            return -1;
    return 0;
}
