/* trees: git worktrees under a build cache (trees.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "util/atomic.h"
#include "util/jobs_util.h"
#include "run/proc.h"
#include "util/sha256.h"
#include "run/trees.h"

#define TREES_MARKER ".pairbench-built"
#define GIT_TIMEOUT_S 120.0

/* Runs argv (no shell), stdout captured into *out (malloc'd, may be NULL), stderr to
 * err_path. Returns the exit status (0..255), or -1 with err when it could not run. */
int trees_run_capture(char *const *argv, const char *err_path, double timeout_s, char **out,
                      char *err, size_t errlen)
{
    struct proc p;
    struct proc_spec ps = {.argv = argv, .stderr_path = err_path, .capture_stdout = out != NULL};
    struct proc_result res;
    int rc;

    if (out)
        *out = NULL;
    memset(&res, 0, sizeof(res));
    if (proc_start(&p, &ps, err, errlen) < 0)
        return -1;
    if (proc_wait(&p, timeout_s, 2.0, NULL, &res, err, errlen) < 0)
        return -1;
    if (res.timed_out) {
        snprintf(err, errlen, "'%s' timed out after %.0f s", argv[0], timeout_s);
        proc_result_release(&res);
        return -1;
    }
    rc = WIFEXITED(res.status) ? WEXITSTATUS(res.status) : 128 + WTERMSIG(res.status);
    if (out) {
        *out = res.out;
        res.out = NULL;
    }
    proc_result_release(&res);
    return rc;
}

static void chomp(char *s)
{
    size_t n = strlen(s);

    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
        s[--n] = '\0';
}

/* git -C repo ARGS..., stdout into out (trimmed). Returns 0, or -1 with err carrying git's
 * stderr tail. */
int trees_git(const char *repo, const char *tmpdir, char *out, size_t outlen, char *err,
              size_t errlen, const char *a1, const char *a2, const char *a3, const char *a4,
              const char *a5, const char *a6)
{
    char *argv[10] = {"git",      "-C",       (char *)repo, (char *)a1, (char *)a2,
                      (char *)a3, (char *)a4, (char *)a5,   (char *)a6, NULL};
    char errp[4200], tail[512], *o = NULL;
    int rc;

    snprintf(errp, sizeof(errp), "%s/git.err", tmpdir);
    rc = trees_run_capture(argv, errp, GIT_TIMEOUT_S, &o, err, errlen);
    if (rc < 0)
        return -1;
    if (rc != 0) {
        proc_file_tail(errp, 400, tail, sizeof(tail));
        snprintf(err, errlen, "git %s %s%s%s: %s", a1, a2 ? a2 : "", a3 ? " " : "", a3 ? a3 : "",
                 *tail ? tail : "failed");
        free(o);
        return -1;
    }
    if (out) {
        snprintf(out, outlen, "%s", o ? o : "");
        chomp(out);
    }
    free(o);
    return 0;
}

int trees_rev_list(const char *repo, const char *tmpdir, const char *range, int all_parents,
                   char **out, char *err, size_t errlen)
{
    char *argv[] = {"git",         "-C",        (char *)repo,
                    "rev-list",    "--reverse", all_parents ? "--topo-order" : "--first-parent",
                    (char *)range, NULL};
    char errp[4200], tail[512];
    int rc;

    snprintf(errp, sizeof(errp), "%s/git.err", tmpdir);
    rc = trees_run_capture(argv, errp, GIT_TIMEOUT_S, out, err, errlen);
    if (rc == 0)
        return 0;
    if (rc > 0) {
        proc_file_tail(errp, 400, tail, sizeof(tail));
        snprintf(err, errlen, "git rev-list %s: %s", range, *tail ? tail : "failed");
    }
    free(*out);
    *out = NULL;
    return -1;
}

int trees_parents(const char *repo, const char *tmpdir, const char *sha, char *out, size_t outlen,
                  char *err, size_t errlen)
{
    char spec[128];

    snprintf(spec, sizeof(spec), "%s^@", sha);
    return trees_git(repo, tmpdir, out, outlen, err, errlen, "rev-parse", spec, NULL, NULL, NULL,
                     NULL);
}

int trees_commit_info(const char *repo, const char *tmpdir, const char *sha, char *subject,
                      size_t slen, char *date, size_t dlen, char *err, size_t errlen)
{
    if (trees_git(repo, tmpdir, subject, slen, err, errlen, "log", "-1", "--format=%s", sha, NULL,
                  NULL) < 0 ||
        (date && trees_git(repo, tmpdir, date, dlen, err, errlen, "log", "-1", "--format=%aI", sha,
                           NULL, NULL) < 0))
        return -1;
    return 0;
}

int trees_cache_root(const char *flag, char *out, size_t len, char *err, size_t errlen)
{
    int n;

    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

    if (flag)
        n = snprintf(out, len, "%s", flag);
    else if (xdg && *xdg == '/')
        n = snprintf(out, len, "%s/pairbench/trees", xdg);
    else if (home && *home)
        n = snprintf(out, len, "%s/.cache/pairbench/trees", home);
    else {
        snprintf(err, errlen, "no cache directory: set --cache DIR, XDG_CACHE_HOME or HOME");
        return -1;
    }
    if (n < 0 || (size_t)n >= len - 80) {
        snprintf(err, errlen, "cache directory path too long: '%s'", out);
        return -1;
    }
    return ju_mkdir_p(out, err, errlen);
}

/* Marker content = the build command: a tree built with another command is rebuilt. */
static int marker_matches(const char *dir, const char *build)
{
    char path[4200], err[256];
    char *m;
    int same;

    snprintf(path, sizeof(path), "%s/%s", dir, TREES_MARKER);
    m = ju_read_file(path, 1u << 20, NULL, err, sizeof(err));
    if (!m)
        return 0;
    same = strcmp(m, build) == 0;
    free(m);
    return same;
}

int trees_prepare(struct tree *t, const char *repo, const char *cache, const char *tmpdir,
                  char *err, size_t errlen)
{
    char spec[512], head[64];
    struct stat st;

    if (t->worktree) {
        char *argv[] = {"git", "-C", (char *)repo, "diff", "HEAD", NULL}, *diff = NULL;
        char errp[4200], *porcelain = NULL;
        char *sargv[] = {"git", "-C", (char *)repo, "status", "--porcelain", NULL};
        size_t lines = 0;
        const char *p;

        if (trees_git(repo, tmpdir, t->dir, sizeof(t->dir), err, errlen, "rev-parse",
                      "--show-toplevel", NULL, NULL, NULL, NULL) < 0 ||
            trees_git(repo, tmpdir, t->sha, sizeof(t->sha), err, errlen, "rev-parse", "--verify",
                      "HEAD^{commit}", NULL, NULL, NULL) < 0)
            return -1;
        snprintf(errp, sizeof(errp), "%s/git.err", tmpdir);
        if (trees_run_capture(argv, errp, GIT_TIMEOUT_S, &diff, err, errlen) != 0 ||
            trees_run_capture(sargv, errp, GIT_TIMEOUT_S, &porcelain, err, errlen) != 0) {
            free(diff);
            free(porcelain);
            if (!*err)
                snprintf(err, errlen, "git diff/status in '%s' failed", repo);
            return -1;
        }
        sha256_mem(diff ? diff : "", diff ? strlen(diff) : 0, t->diff_sha);
        for (p = porcelain; p && *p; p++)
            lines += *p == '\n';
        snprintf(t->status, sizeof(t->status), "%zu changed or untracked path%s%s", lines,
                 lines == 1 ? "" : "s", lines ? "" : " (clean)");
        free(diff);
        free(porcelain);
        return 0;
    }
    snprintf(spec, sizeof(spec), "%s^{commit}", t->ref);
    if (trees_git(repo, tmpdir, t->sha, sizeof(t->sha), err, errlen, "rev-parse", "--verify",
                  "--quiet", spec, NULL, NULL) < 0) {
        if (trees_git(repo, tmpdir, head, sizeof(head), err, errlen, "rev-parse", "--git-dir", NULL,
                      NULL, NULL, NULL) < 0)
            snprintf(err, errlen,
                     "--repo '%s': not a git repository (git rev-parse --git-dir "
                     "fails there; expected a clone or a worktree)",
                     repo);
        else
            snprintf(err, errlen, "--%s '%s': not a commit in '%s'", t->name, t->ref, repo);
        return -2;
    }
    if (snprintf(t->dir, sizeof(t->dir), "%s/%s", cache, t->sha) >= (int)sizeof(t->dir)) {
        snprintf(err, errlen, "cache path too long");
        return -1;
    }
    if (stat(t->dir, &st) == 0) {
        /* an earlier checkout: it must still be this commit */
        if (trees_git(t->dir, tmpdir, head, sizeof(head), err, errlen, "rev-parse", "HEAD", NULL,
                      NULL, NULL, NULL) < 0 ||
            strcmp(head, t->sha) != 0) {
            snprintf(err, errlen,
                     "cached tree '%s' is not a checkout of %s (remove it and try again)", t->dir,
                     t->sha);
            return -1;
        }
        return 0;
    }
    /* a cache emptied by hand leaves stale worktree entries behind */
    trees_git(repo, tmpdir, NULL, 0, err, errlen, "worktree", "prune", NULL, NULL, NULL, NULL);
    if (trees_git(repo, tmpdir, NULL, 0, err, errlen, "worktree", "add", "--detach", "--force",
                  t->dir, t->sha) < 0)
        return -1;
    return 0;
}

static volatile sig_atomic_t stop_sig;
static struct sigaction old_int, old_term;
static int signals_on;

static void on_stop(int sig)
{
    stop_sig = sig;
}

void trees_signals(int on)
{
    struct sigaction sa;

    if (on && !signals_on) {
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_stop; /* no SA_RESTART: the build's wait returns early */
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &old_int);
        sigaction(SIGTERM, &sa, &old_term);
        signals_on = 1;
    } else if (!on && signals_on) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        signals_on = 0;
    }
}

int trees_stop(void)
{
    return stop_sig;
}

int trees_timeout_parse(const char *v, double *out)
{
    char *end;

    errno = 0;
    *out = strtod(v, &end);
    return errno || end == v || *end || !(*out > 0) || *out > 604800 ? -1 : 0;
}

/* Runs the build command argv, its log to log_path, for at most timeout_s. Returns the exit
 * status (0..255, 128 + a signal), -2 timed out, -3 interrupted, -1 with err. */
static int build_run(char *const *argv, const char *log_path, double timeout_s, char *err,
                     size_t errlen)
{
    struct proc p;
    struct proc_spec ps = {.argv = argv, .stderr_path = log_path};
    struct proc_result res;
    int rc;

    memset(&res, 0, sizeof(res));
    if (stop_sig)
        return -3;
    if (proc_start(&p, &ps, err, errlen) < 0)
        return -1;
    if (proc_wait(&p, timeout_s, 2.0, &stop_sig, &res, err, errlen) < 0)
        return -1;
    rc = res.interrupted         ? -3
         : res.timed_out         ? -2
         : WIFEXITED(res.status) ? WEXITSTATUS(res.status)
                                 : 128 + WTERMSIG(res.status);
    proc_result_release(&res);
    return rc;
}

/* Builds t with `sh -c build` inside the tree (see trees.h). */
int trees_build(struct tree *t, const char *build, const char *log_path, const char *who,
                double timeout_s, char *err, size_t errlen)
{
    char *argv[] = {"sh",          "-c", "cd \"$1\" || exit 125; eval \"$2\"", "sh", t->dir,
                    (char *)build, NULL};
    char tail[1500], path[1300];
    int rc;

    if (!t->worktree && marker_matches(t->dir, build)) {
        t->reused = 1;
        fprintf(stderr, "compare: %s: %s %.12s: reusing the tree built in '%s'\n", who, t->name,
                t->sha, t->dir);
        {
            FILE *f = fopen(log_path, "w");

            if (f) {
                fprintf(f, "reused: '%s' was built earlier with this command\n", t->dir);
                fclose(f);
            }
        }
        return 0;
    }
    fprintf(stderr, "compare: %s: building %s %.12s in '%s'\n", who, t->name, t->sha, t->dir);
    rc = build_run(argv, log_path, timeout_s, err, errlen);
    if (rc == -3) {
        snprintf(err, errlen,
                 "interrupted (%s) while building %s (%.12s): its process group was stopped; "
                 "the tree is built again next time (log '%s')",
                 stop_sig == SIGTERM ? "SIGTERM" : "SIGINT", t->name, t->sha, log_path);
        return 2;
    }
    if (rc != 0) {
        proc_file_tail(log_path, 1200, tail, sizeof(tail));
        if (rc == -2)
            snprintf(err, errlen,
                     "build of %s (%.12s) did not finish within %.0f s (--build-timeout): its "
                     "process group was stopped; log '%s': %s",
                     t->name, t->sha, timeout_s, log_path, *tail ? tail : "(empty)");
        else if (rc > 0)
            snprintf(err, errlen, "build of %s (%.12s) failed with exit %d; log '%s': %s", t->name,
                     t->sha, rc, log_path, *tail ? tail : "(empty)");
        return rc == -1 ? -1 : 1;
    }
    if (!t->worktree) {
        snprintf(path, sizeof(path), "%s/%s", t->dir, TREES_MARKER);
        if (atomic_write(path, build, strlen(build), err, errlen) < 0)
            return -1;
    }
    return 0;
}
