/* trees: git worktrees under a build cache, shared by `compare commits` and `compare bisect`.
 * A commit is checked out once as a worktree under the cache, keyed by its SHA, and built with
 * the user's shell command (the one place a shell is right: the command is the user's); a
 * marker holding the command says it was built, so a commit built once with one command is
 * never built again, across commits and bisect runs. */
#ifndef PAIRBENCH_TREES_H
#define PAIRBENCH_TREES_H

#include <stddef.h>

struct tree {
    const char *name; /* version name: "baseline" / "candidate" or the spec's (name_buf) */
    char name_buf[128];
    const char *ref;
    char sha[64];
    char dir[1200];
    int worktree;     /* the repository's working tree as it is */
    int reused;       /* built earlier with the same command */
    char status[512]; /* WORKTREE: `git status --porcelain` summary */
    char diff_sha[65];
};

/* Runs argv (no shell), stdout captured into *out (malloc'd, may be NULL), stderr to
 * err_path. Returns the exit status (0..255), or -1 with err when it could not run. */
int trees_run_capture(char *const *argv, const char *err_path, double timeout_s, char **out,
                      char *err, size_t errlen);

/* git -C repo ARGS... (up to six, NULL-ended), stdout into out (trimmed; out may be NULL).
 * tmpdir holds git's stderr. Returns 0, or -1 with err carrying git's stderr tail. */
int trees_git(const char *repo, const char *tmpdir, char *out, size_t outlen, char *err,
              size_t errlen, const char *a1, const char *a2, const char *a3, const char *a4,
              const char *a5, const char *a6);

/* The commits of range ("A..B"), oldest first, one SHA a line, into *out (malloc'd): the
 * first-parent chain, or with all_parents every commit in topological order. Returns 0, or
 * -1 with err. */
int trees_rev_list(const char *repo, const char *tmpdir, const char *range, int all_parents,
                   char **out, char *err, size_t errlen);

/* The parents of sha, first parent first, space-separated, into out. Returns 0, or -1 with
 * err. */
int trees_parents(const char *repo, const char *tmpdir, const char *sha, char *out, size_t outlen,
                  char *err, size_t errlen);

/* sha's subject line and (date not NULL) author date, ISO 8601. Returns 0, or -1 with err. */
int trees_commit_info(const char *repo, const char *tmpdir, const char *sha, char *subject,
                      size_t slen, char *date, size_t dlen, char *err, size_t errlen);

/* The cache directory: flag, else $XDG_CACHE_HOME/pairbench/trees, else
 * ~/.cache/pairbench/trees; created. Returns 0, or -1 with err. */
int trees_cache_root(const char *flag, char *out, size_t len, char *err, size_t errlen);

/* Resolves t->ref to a commit (t->sha) and checks it out under cache (t->dir), or reuses the
 * checkout there; a t->worktree is the repository's working tree, its status recorded.
 * Returns 0, -2 when t->ref is not a commit (err says so: bad usage), -1 otherwise. */
int trees_prepare(struct tree *t, const char *repo, const char *cache, const char *tmpdir,
                  char *err, size_t errlen);

/* The default of --build-timeout: a build still running after it fails its commit. */
#define TREES_BUILD_TIMEOUT_S 3600.0

/* Builds t with `sh -c build` inside the tree (in a process group of its own) unless its
 * marker says it was built with build (t->reused); the log goes to log_path. who prefixes the
 * progress lines ("commits"). A build still running after timeout_s seconds, or when
 * trees_stop() is set (SIGINT/SIGTERM with trees_signals() on), has its whole process group
 * stopped (SIGTERM, SIGKILL 2 s later) and leaves no marker, so the next run builds the tree
 * again. Returns 0, 1 when the build failed or timed out (err says which, with the log's
 * tail), 2 when interrupted (err says so), -1 when it could not be run or recorded. */
int trees_build(struct tree *t, const char *build, const char *log_path, const char *who,
                double timeout_s, char *err, size_t errlen);

/* --build-timeout's value: seconds above 0, at most a week. Returns 0 (out set), or -1. */
int trees_timeout_parse(const char *v, double *out);

/* SIGINT and SIGTERM set trees_stop() while on (1) instead of ending compare, so a build (or
 * the step around it) stops cleanly and the state so far is written; 0 restores what was
 * there. The run engine installs its own while it runs. */
void trees_signals(int on);

/* The signal that stopped the command (SIGINT, SIGTERM), or 0. */
int trees_stop(void);

#endif
