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

#include "util/atomic.h"
#include "cmd/cmds.h"
#include "cmd/flags.h"
#include "analysis/gate.h"
#include "util/jobs_util.h"
#include "run/run.h"
#include "cmd/run_cli.h"
#include "run/trees.h"
#include "run/speccheck.h"

static const char usage[] =
    "usage: compare commits --repo DIR --baseline REF --candidate REF|WORKTREE\n"
    "                       --build CMD --spec FILE [--cache DIR] [--build-timeout S]\n"
    "                       [--gate] [run flags]\n"
    "  builds both commits in git worktrees under the cache (default\n"
    "  $XDG_CACHE_HOME/pairbench/trees or ~/.cache/pairbench/trees), reused when already\n"
    "  built with the same command; CMD runs with `sh -c` inside each tree; {tree} in the\n"
    "  spec's version commands is that tree (versions[0] baseline, versions[1] candidate)\n"
    "  --candidate WORKTREE  the repository's working tree as it is (uncommitted changes)\n"
    "  --build-timeout S  a build still running after S seconds (default 3600) fails, its\n"
    "  process group stopped; SIGINT/SIGTERM during a build stop it the same way (exit 3)\n"
    "  --gate  also exit 4 when a gated row is undecided, as `compare gate` does\n"
    "exit: 0 no regression, 1 a row regressed (default thresholds), 2 bad input,\n"
    "      3 build or runs failed, 4 undecided (--gate)\n";

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
    double build_timeout_s;
};

enum { CF_REPO, CF_BASELINE, CF_CANDIDATE, CF_BUILD, CF_CACHE, CF_GATE, CF_BUILD_TIMEOUT };

static int commits_flag(void *ctx, struct flags *f, int id)
{
    struct commits_cli *cli = ctx;
    const char **dst[] = {&cli->repo, &cli->t[0].ref, &cli->t[1].ref, &cli->build, &cli->cache};

    if (id == CF_GATE) {
        cli->gate = 1;
        return 0;
    }
    if (id == CF_BUILD_TIMEOUT)
        return trees_timeout_parse(f->value, &cli->build_timeout_s) < 0
                   ? flags_fail(f, "%s '%s': expected seconds above 0, at most 604800 (a week)",
                                f->flag, f->value)
                   : 0;
    if (id >= CF_REPO && id <= CF_CACHE) {
        if (!*f->value)
            return flags_fail(f, "%s: missing value", f->flag);
        *dst[id] = f->value;
        return 0;
    }
    return run_flag_apply(&cli->rq, f, id);
}

static const struct flag_def commits_flags[] = {
    {"--repo", 1, CF_REPO},
    {"--baseline", 1, CF_BASELINE},
    {"--candidate", 1, CF_CANDIDATE},
    {"--build", 1, CF_BUILD},
    {"--cache", 1, CF_CACHE},
    {"--gate", 0, CF_GATE},
    {"--build-timeout", 1, CF_BUILD_TIMEOUT},
};
static const struct flags_cmd commits_cmd = {
    "compare commits", usage, {FLAGS_TABLE(commits_flags)}, 0, commits_flag};

/* Fills cli from argv. Returns -1 to go on, else the exit code (help: 0; bad usage: 2). */
static int parse_args(struct commits_cli *cli, int argc, char **argv)
{
    int rc;

    memset(cli, 0, sizeof(*cli));
    cli->build_timeout_s = TREES_BUILD_TIMEOUT_S;
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

    if (trees_cache_root(cli->cache, cache, sizeof(cache), err, sizeof(err)) < 0) {
        fprintf(stderr, "compare: commits: %s\n", err);
        return EXIT_HARNESS;
    }
    for (k = 0; k < 2; k++) {
        r = trees_prepare(&cli->t[k], cli->repo, cache, tmpdir, err, sizeof(err));
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
        int r = trees_build(&cli->t[k], cli->build, log, "commits", cli->build_timeout_s, err,
                            sizeof(err));

        if (r == 2) {
            fprintf(stderr,
                    "compare: commits: exit 3: %s; the same command again goes on (the trees "
                    "built are reused)\n",
                    err);
            return EXIT_HARNESS;
        }
        if (r != 0) {
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
        if (gr.regressed || gr.code == EXIT_INCONCLUSIVE)
            fprintf(stderr, "compare: commits: %s\n", gr.reason);
        else
            fprintf(stderr, "compare: commits: no regressed row\n");
        /* a decided regression is exit 1, as gate and drift say it; undecided rows are the
         * gate's exit 4 only when asked (--gate): commits compares, it does not gate */
        if (rc == EXIT_OK && (gr.regressed || (cli->gate && gr.code != EXIT_OK)))
            rc = gr.code;
        gate_config_release(&gc);
    }
    printf("%s\n", o.dir[0] ? o.dir : dir);
out:
    json_decref(extra);
    run_outcome_release(&o);
    return rc;
}

/* What `gate` would refuse in the spec's gate section is refused before the trees are built:
 * a build can take minutes. The rest of the spec is checked by the run, after the builds,
 * because it may name the trees' own programs. Returns 0, or -1 (message printed). */
static int check_gate_early(const char *spec_path)
{
    char err[4096] = "";
    json_t *spec = ju_load_json(spec_path, err, sizeof(err));
    int rc = spec ? speccheck_gate(json_object_get(spec, "gate"), spec_path, err, sizeof(err)) : -1;

    if (rc < 0)
        fprintf(stderr, "compare: commits: %s\n", err);
    json_decref(spec);
    return rc;
}

int cmd_commits(int argc, char **argv)
{
    struct commits_cli cli;
    char dir[1024], tmpdir[64] = "", spec2[1100];
    int rc = parse_args(&cli, argc, argv);

    if (rc >= 0)
        return rc;
    if (check_gate_early(cli.rq.spec_path) < 0)
        return EXIT_USAGE;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/pairbench-commits.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "compare: commits: mkdtemp: %s\n", strerror(errno));
        return EXIT_HARNESS;
    }
    trees_signals(1); /* a build interrupted stops cleanly (trees.h) */
    rc = prepare_trees(&cli, tmpdir);
    if (rc < 0)
        rc = build_both(&cli, dir, sizeof(dir), spec2, sizeof(spec2));
    if (rc < 0 && trees_stop()) {
        fprintf(stderr, "compare: commits: exit 3: interrupted before the run\n");
        rc = EXIT_HARNESS;
    }
    if (rc < 0)
        rc = run_and_judge(&cli, spec2, dir);
    {
        char p[128];

        snprintf(p, sizeof(p), "%s/git.err", tmpdir);
        unlink(p);
        rmdir(tmpdir);
    }
    trees_signals(0);
    return rc;
}
