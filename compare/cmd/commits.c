/* compare commits --repo DIR --baseline REF --candidate REF|WORKTREE --build CMD --spec FILE:
 * resolves both refs to commits, checks each out as a git worktree under a cache directory
 * keyed by SHA (reused when a marker says it was built with the same command), builds it with
 * the user's shell command (the one place a shell is right: the command is the user's), logs
 * the build into the run directory, and runs the spec with {tree} in the version commands
 * pointing into each tree (versions[0] = baseline, versions[1] = candidate). WORKTREE is the
 * repository's working tree as it is, uncommitted changes included, recorded as such. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "atomic.h"
#include "cmds.h"
#include "flags.h"
#include "gate.h"
#include "jobs_util.h"
#include "proc.h"
#include "run.h"
#include "run_cli.h"
#include "sha256.h"

#define COMMITS_MARKER ".pairbench-built"
#define GIT_TIMEOUT_S 120.0
#define BUILD_TIMEOUT_S 3600.0

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

static const char usage[] =
    "usage: compare commits --repo DIR --baseline REF --candidate REF|WORKTREE\n"
    "                       --build CMD --spec FILE [--cache DIR] [--gate] [run flags]\n"
    "  builds both commits in git worktrees under the cache (default\n"
    "  $XDG_CACHE_HOME/pairbench/trees or ~/.cache/pairbench/trees), reused when already\n"
    "  built with the same command; CMD runs with `sh -c` inside each tree; {tree} in the\n"
    "  spec's version commands is that tree (versions[0] baseline, versions[1] candidate)\n"
    "  --candidate WORKTREE  the repository's working tree as it is (uncommitted changes)\n"
    "  --gate  exit 1 when a row regressed (default thresholds); without it a regression\n"
    "          is reported and the exit is 0 (commits is a comparison, not a gate)\n"
    "exit: 0 ok, 1 regression (--gate), 2 bad input, 3 build or runs failed\n";

/* Runs argv (no shell), stdout captured into *out (malloc'd, may be NULL), stderr to
 * err_path. Returns the exit status (0..255), or -1 with err when it could not run. */
static int run_capture(char *const *argv, const char *err_path, double timeout_s, char **out,
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
static int git(const char *repo, const char *tmpdir, char *out, size_t outlen, char *err,
               size_t errlen, const char *a1, const char *a2, const char *a3, const char *a4,
               const char *a5, const char *a6)
{
    char *argv[10] = {"git",      "-C",       (char *)repo, (char *)a1, (char *)a2,
                      (char *)a3, (char *)a4, (char *)a5,   (char *)a6, NULL};
    char errp[4200], tail[512], *o = NULL;
    int rc;

    snprintf(errp, sizeof(errp), "%s/git.err", tmpdir);
    rc = run_capture(argv, errp, GIT_TIMEOUT_S, &o, err, errlen);
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

static int cache_root(const char *flag, char *out, size_t len, char *err, size_t errlen)
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

    snprintf(path, sizeof(path), "%s/%s", dir, COMMITS_MARKER);
    m = ju_read_file(path, 1u << 20, NULL, err, sizeof(err));
    if (!m)
        return 0;
    same = strcmp(m, build) == 0;
    free(m);
    return same;
}

static int prepare_tree(struct tree *t, const char *repo, const char *cache, const char *tmpdir,
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

        if (git(repo, tmpdir, t->dir, sizeof(t->dir), err, errlen, "rev-parse", "--show-toplevel",
                NULL, NULL, NULL, NULL) < 0 ||
            git(repo, tmpdir, t->sha, sizeof(t->sha), err, errlen, "rev-parse", "--verify",
                "HEAD^{commit}", NULL, NULL, NULL) < 0)
            return -1;
        snprintf(errp, sizeof(errp), "%s/git.err", tmpdir);
        if (run_capture(argv, errp, GIT_TIMEOUT_S, &diff, err, errlen) != 0 ||
            run_capture(sargv, errp, GIT_TIMEOUT_S, &porcelain, err, errlen) != 0) {
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
    if (git(repo, tmpdir, t->sha, sizeof(t->sha), err, errlen, "rev-parse", "--verify", "--quiet",
            spec, NULL, NULL) < 0) {
        snprintf(err, errlen, "--%s '%s': not a commit in '%s'", t->name, t->ref, repo);
        return -2;
    }
    if (snprintf(t->dir, sizeof(t->dir), "%s/%s", cache, t->sha) >= (int)sizeof(t->dir)) {
        snprintf(err, errlen, "cache path too long");
        return -1;
    }
    if (stat(t->dir, &st) == 0) {
        /* an earlier checkout: it must still be this commit */
        if (git(t->dir, tmpdir, head, sizeof(head), err, errlen, "rev-parse", "HEAD", NULL, NULL,
                NULL, NULL) < 0 ||
            strcmp(head, t->sha) != 0) {
            snprintf(err, errlen,
                     "cached tree '%s' is not a checkout of %s (remove it and try again)", t->dir,
                     t->sha);
            return -1;
        }
        return 0;
    }
    /* a cache emptied by hand leaves stale worktree entries behind */
    git(repo, tmpdir, NULL, 0, err, errlen, "worktree", "prune", NULL, NULL, NULL, NULL);
    if (git(repo, tmpdir, NULL, 0, err, errlen, "worktree", "add", "--detach", "--force", t->dir,
            t->sha) < 0)
        return -1;
    return 0;
}

/* Builds t with `sh -c build` inside the tree; the log goes to log_path. Returns 0, or -1
 * with err holding the log's tail. */
static int build_tree(struct tree *t, const char *build, const char *log_path, char *err,
                      size_t errlen)
{
    char *argv[] = {"sh",          "-c", "cd \"$1\" || exit 125; eval \"$2\"", "sh", t->dir,
                    (char *)build, NULL};
    char tail[1500], path[1300];
    int rc;

    if (!t->worktree && marker_matches(t->dir, build)) {
        t->reused = 1;
        fprintf(stderr, "compare: commits: %s %.12s: reusing the tree built in '%s'\n", t->name,
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
    fprintf(stderr, "compare: commits: building %s %.12s in '%s'\n", t->name, t->sha, t->dir);
    rc = run_capture(argv, log_path, BUILD_TIMEOUT_S, NULL, err, errlen);
    if (rc != 0) {
        proc_file_tail(log_path, 1200, tail, sizeof(tail));
        if (rc > 0)
            snprintf(err, errlen, "build of %s (%.12s) failed with exit %d; log '%s': %s", t->name,
                     t->sha, rc, log_path, *tail ? tail : "(empty)");
        return -1;
    }
    if (!t->worktree) {
        snprintf(path, sizeof(path), "%s/%s", t->dir, COMMITS_MARKER);
        if (atomic_write(path, build, strlen(build), err, errlen) < 0)
            return -1;
    }
    return 0;
}

static void default_dir(const char *sha, char *out, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    char ts[32];

    gmtime_r(&now, &tm);
    strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
    snprintf(out, len, "reports/%s-%.6s", ts, sha);
}

/* The spec with each version's "ref" set to what was built, written into the run dir. */
static int derived_spec(const char *spec_path, struct tree *t, const char *dir, char *out,
                        size_t outlen, char *err, size_t errlen)
{
    json_t *spec = ju_load_json(spec_path, err, errlen), *versions;
    size_t i;
    int rc = -1;

    if (!spec)
        return -1;
    versions = json_object_get(spec, "versions");
    if (json_array_size(versions) < 2) {
        snprintf(err, errlen,
                 "%s: $.versions: commits needs two versions (baseline and candidate, using "
                 "{tree} in their commands)",
                 spec_path);
        goto out;
    }
    for (i = 0; i < 2; i++) {
        char ref[700];

        const char *nm = json_string_value(json_object_get(json_array_get(versions, i), "name"));

        snprintf(t[i].name_buf, sizeof(t[i].name_buf), "%s",
                 nm  ? nm
                 : i ? "candidate"
                     : "baseline");
        t[i].name = t[i].name_buf;
        if (t[i].worktree)
            snprintf(ref, sizeof(ref), "WORKTREE on %.12s (%s)", t[i].sha, t[i].status);
        else
            snprintf(ref, sizeof(ref), "%s = %s", t[i].ref, t[i].sha);
        json_object_set_new(json_array_get(versions, i), "ref", json_string(ref));
    }
    snprintf(out, outlen, "%s/spec.commits.json", dir);
    rc = atomic_write_json(out, spec, err, errlen);
out:
    json_decref(spec);
    return rc;
}

/* What the command line asked for. */
struct commits_cli {
    struct run_request rq;
    const char *repo, *build, *cache;
    struct tree t[2];
    int gate;
};

enum { CF_REPO, CF_BASELINE, CF_CANDIDATE, CF_BUILD, CF_CACHE, CF_GATE };

static int commits_flag(void *ctx, struct flags *f, int id)
{
    struct commits_cli *cli = ctx;
    const char **dst[] = {&cli->repo, &cli->t[0].ref, &cli->t[1].ref, &cli->build, &cli->cache};

    if (id == CF_GATE) {
        cli->gate = 1;
        return 0;
    }
    if (id >= CF_REPO && id <= CF_CACHE) {
        if (!*f->value)
            return flags_fail(f, "%s: missing value", f->flag);
        *dst[id] = f->value;
        return 0;
    }
    return run_flag_apply(&cli->rq, f, id);
}

static const struct flag_def commits_flags[] = {
    {"--repo", 1, CF_REPO},   {"--baseline", 1, CF_BASELINE}, {"--candidate", 1, CF_CANDIDATE},
    {"--build", 1, CF_BUILD}, {"--cache", 1, CF_CACHE},       {"--gate", 0, CF_GATE},
};
static const struct flags_cmd commits_cmd = {
    "compare commits", usage, {FLAGS_TABLE(commits_flags)}, 0, commits_flag};

/* Fills cli from argv. Returns -1 to go on, else the exit code (help: 0; bad usage: 2). */
static int parse_args(struct commits_cli *cli, int argc, char **argv)
{
    int rc;

    memset(cli, 0, sizeof(*cli));
    rc = run_cli_parse(&cli->rq, &commits_cmd, cli, argc, argv);
    if (rc >= 0)
        return rc;
    if (!cli->repo || !cli->t[0].ref || !cli->t[1].ref || !cli->build || !cli->rq.spec_path) {
        fprintf(stderr,
                "compare: commits: --repo, --baseline, --candidate, --build and --spec "
                "are required\n%s",
                usage);
        return EXIT_USAGE;
    }
    if (strcmp(cli->t[0].ref, "WORKTREE") == 0) {
        fprintf(stderr, "compare: commits: --baseline 'WORKTREE': only the candidate may be the "
                        "working tree\n");
        return EXIT_USAGE;
    }
    cli->t[0].name = "baseline";
    cli->t[1].name = "candidate";
    cli->t[1].worktree = strcmp(cli->t[1].ref, "WORKTREE") == 0;
    return -1;
}

/* Checks out (or reuses) both trees under the cache. Returns -1 to go on, else the exit
 * code. */
static int prepare_trees(struct commits_cli *cli, const char *tmpdir)
{
    char err[4096] = "", cache[1024];
    int k, r;

    if (cache_root(cli->cache, cache, sizeof(cache), err, sizeof(err)) < 0) {
        fprintf(stderr, "compare: commits: %s\n", err);
        return EXIT_HARNESS;
    }
    for (k = 0; k < 2; k++) {
        r = prepare_tree(&cli->t[k], cli->repo, cache, tmpdir, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "compare: commits: %s\n", err);
            return r == -2 || k == 0 ? EXIT_USAGE : EXIT_HARNESS;
        }
    }
    return -1;
}

/* The run directory, the derived spec and both builds. Returns -1 to go on, else the exit
 * code. */
static int build_both(struct commits_cli *cli, char *dir, size_t dirlen, char *spec2,
                      size_t spec2len)
{
    char err[4096] = "", log[1100];
    int k;

    if (cli->rq.out_dir)
        snprintf(dir, dirlen, "%s", cli->rq.out_dir);
    else
        default_dir(cli->t[1].sha, dir, dirlen);
    cli->rq.out_dir = dir;
    if (ju_mkdir_p(dir, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare: commits: %s\n", err);
        return EXIT_HARNESS;
    }
    if (derived_spec(cli->rq.spec_path, cli->t, dir, spec2, spec2len, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare: commits: %s\n", err);
        return EXIT_USAGE;
    }
    for (k = 0; k < 2; k++) {
        snprintf(log, sizeof(log), "%s/build-%s.log", dir, cli->t[k].name);
        if (build_tree(&cli->t[k], cli->build, log, err, sizeof(err)) < 0) {
            fprintf(stderr, "compare: commits: exit 3: %s\n", err);
            return EXIT_HARNESS;
        }
    }
    return -1;
}

/* meta.json's "commits" object: the repository, the build command and both trees. */
static json_t *commits_meta(const struct commits_cli *cli)
{
    const struct tree *t = cli->t;

    return json_pack("{s:{s:s, s:s, s:[{s:s, s:s, s:s, s:s, s:b}, {s:s, s:s, s:s, s:s, s:b, "
                     "s:b, s:s?, s:s?}]}}",
                     "commits", "repo", cli->repo, "build", cli->build, "trees", "version",
                     t[0].name, "ref", t[0].ref, "commit", t[0].sha, "tree", t[0].dir, "reused",
                     t[0].reused, "version", t[1].name, "ref", t[1].ref, "commit", t[1].sha, "tree",
                     t[1].dir, "reused", t[1].reused, "worktree", t[1].worktree, "worktree_status",
                     t[1].worktree ? t[1].status : NULL, "diff_sha256",
                     t[1].worktree ? t[1].diff_sha : NULL);
}

/* Runs the comparison of the two builds and judges it with the gate's defaults. */
static int run_and_judge(struct commits_cli *cli, const char *spec2, const char *dir)
{
    struct run_outcome o;
    char err[4096] = "";
    json_t *extra = commits_meta(cli);
    int rc;

    memset(&o, 0, sizeof(o));
    cli->rq.extra_meta = extra;
    cli->rq.spec_path = spec2;
    cli->rq.tree_dirs[0] = cli->t[0].dir;
    cli->rq.tree_dirs[1] = cli->t[1].dir;
    cli->rq.n_tree_dirs = 2;
    rc = run_execute(&cli->rq, &o, err, sizeof(err));
    if (rc == EXIT_USAGE) {
        fprintf(stderr, "compare: commits: %s\n", err);
        goto out;
    }
    if (rc != EXIT_OK && *err)
        fprintf(stderr, "compare: commits: %s\n", err);
    if (o.summary) {
        struct gate_config gc;
        struct gate_result gr;

        gate_config_init(&gc);
        gate_decide(o.summary, &gc, &gr);
        if (gr.regressed)
            fprintf(stderr, "compare: commits: %s\n", gr.reason);
        else
            fprintf(stderr, "compare: commits: no regressed row\n");
        if (cli->gate && rc == EXIT_OK && gr.code != EXIT_OK)
            rc = gr.code;
        gate_config_release(&gc);
    }
    printf("%s\n", o.dir[0] ? o.dir : dir);
out:
    json_decref(extra);
    run_outcome_release(&o);
    return rc;
}

int cmd_commits(int argc, char **argv)
{
    struct commits_cli cli;
    char dir[1024], tmpdir[64] = "", spec2[1100];
    int rc = parse_args(&cli, argc, argv);

    if (rc >= 0)
        return rc;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/pairbench-commits.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "compare: commits: mkdtemp: %s\n", strerror(errno));
        return EXIT_HARNESS;
    }
    rc = prepare_trees(&cli, tmpdir);
    if (rc < 0)
        rc = build_both(&cli, dir, sizeof(dir), spec2, sizeof(spec2));
    if (rc < 0)
        rc = run_and_judge(&cli, spec2, dir);
    {
        char p[128];

        snprintf(p, sizeof(p), "%s/git.err", tmpdir);
        unlink(p);
        rmdir(tmpdir);
    }
    return rc;
}
