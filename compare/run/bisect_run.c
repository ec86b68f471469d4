/* bisect_run: the engine of `compare bisect` (see bisect_run.h; cmd/bisect.c parses its
 * argv). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "util/atomic.h"
#include "report/bisect_report.h"
#include "clock.h"
#include "util/exit_codes.h"
#include "run/bisect_run.h"
#include "analysis/gate.h"
#include "util/jobs_util.h"
#include "analysis/metrics.h"
#include "run/run.h"
#include "run/trees.h"
#include "util/fmt.h"

int bisect_interrupted(struct bisect *b, const char *what)
{
    if (b->r.n)
        (void)bisect_save(b); /* the steps so far (bisect.json is written from the start) */
    return bisect_fail(EXIT_HARNESS, "exit 3: %s; %s", what, b->resume_hint);
}

int bisect_fail(int code, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "compare: bisect: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

/* good and the range good..bad (oldest first). Returns -1 to go on, else the exit code. */
static int load_range(struct bisect *b)
{
    char err[4096] = "", range[256], bad_sha[64];
    char *o = NULL, *line, *save = NULL;
    int rc;
    size_t cap = 0;

    b->good.name = "good";
    b->good.ref = b->cli.good;
    rc = trees_prepare(&b->good, b->cli.repo, b->cache, b->tmpdir, err, sizeof(err));
    if (rc < 0)
        return bisect_fail(rc == -2 ? EXIT_USAGE : EXIT_HARNESS, "%s", err);
    snprintf(b->r.good_sha, sizeof(b->r.good_sha), "%s", b->good.sha);
    snprintf(range, sizeof(range), "%s^{commit}", b->cli.bad);
    if (trees_git(b->cli.repo, b->tmpdir, bad_sha, sizeof(bad_sha), err, sizeof(err), "rev-parse",
                  "--verify", "--quiet", range, NULL, NULL) < 0)
        return bisect_fail(EXIT_USAGE, "--bad '%s': not a commit in '%s'", b->cli.bad, b->cli.repo);
    if (trees_commit_info(b->cli.repo, b->tmpdir, b->good.sha, b->r.good_subject,
                          sizeof(b->r.good_subject), NULL, 0, err, sizeof(err)) < 0)
        return bisect_fail(EXIT_HARNESS, "%s", err);
    snprintf(range, sizeof(range), "%s..%s", b->good.sha, bad_sha);
    if (trees_rev_list(b->cli.repo, b->tmpdir, range, b->cli.all_parents, &o, err, sizeof(err)) < 0)
        return bisect_fail(EXIT_HARNESS, "%s", err);
    for (line = strtok_r(o ? o : (char *)"", "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (b->r.n == cap) {
            struct bisect_commit *nc;

            cap = cap ? cap * 2 : 32;
            nc = realloc(b->r.c, cap * sizeof(*nc));
            if (!nc) {
                free(o);
                return bisect_fail(EXIT_HARNESS, "out of memory");
            }
            b->r.c = nc;
        }
        memset(&b->r.c[b->r.n], 0, sizeof(b->r.c[0]));
        snprintf(b->r.c[b->r.n].sha, sizeof(b->r.c[0].sha), "%s", line);
        b->r.n++;
    }
    free(o);
    if (b->r.n == 0 || strcmp(b->r.c[b->r.n - 1].sha, bad_sha) != 0)
        return bisect_fail(EXIT_USAGE,
                           "--bad '%s' is not a descendant of --good '%s' (nothing to bisect)",
                           b->cli.bad, b->cli.good);
    return -1;
}

/* Builds good once bisect.json holds the range, so that an interruption here leaves it. */
static int build_good(struct bisect *b)
{
    char err[4096] = "", log[1024];
    int rc;

    snprintf(log, sizeof(log), "%.900s/build-good.log", b->out);
    rc = trees_build(&b->good, b->cli.build, log, "bisect", b->cli.build_timeout_s, err,
                     sizeof(err));
    if (rc == 2 && b->prior) /* the earlier bisect.json stays as it was */
        return bisect_fail(EXIT_HARNESS, "exit 3: %s; %s", err, b->resume_hint);
    if (rc == 2)
        return bisect_interrupted(b, err);
    if (rc != 0)
        return bisect_fail(EXIT_HARNESS, "good does not build: %s", err);
    return -1;
}

/* The spec with versions[0] = good and versions[1] = c, written into dir. */
static int step_spec(struct bisect *b, const struct bisect_commit *c, const char *dir, char *out,
                     size_t outlen, char *err, size_t errlen)
{
    json_t *spec = ju_load_json(b->cli.rq.spec_path, err, errlen), *versions;
    int rc = -1, i;

    if (!spec)
        return -1;
    versions = json_object_get(spec, "versions");
    if (json_array_size(versions) < 2) {
        snprintf(err, errlen,
                 "%s: $.versions: bisect needs two versions (good and the commit under test, "
                 "using {tree} in their commands)",
                 b->cli.rq.spec_path);
        goto out;
    }
    while (json_array_size(versions) > 2)
        json_array_remove(versions, 2);
    for (i = 0; i < 2; i++) {
        json_t *v = json_array_get(versions, i);
        const char *nm = json_string_value(json_object_get(v, "name"));
        char ref[200];

        snprintf(i ? b->name1 : b->name0, sizeof(b->name0), "%s",
                 nm  ? nm
                 : i ? "candidate"
                     : "baseline");
        snprintf(ref, sizeof(ref), "%s = %s", i ? "commit" : b->cli.good, i ? c->sha : b->good.sha);
        json_object_set_new(v, "ref", json_string(ref));
    }
    snprintf(out, outlen, "%s/spec.bisect.json", dir);
    rc = atomic_write_json(out, spec, err, errlen);
out:
    json_decref(spec);
    return rc;
}

/* The chosen row of a summary: --row by config id or label, else the one whose metric moved
 * most in the bad direction. NULL when none has the metric. */
static json_t *pick_row(struct bisect *b, json_t *summary)
{
    json_t *rows = json_object_get(summary, "rows"), *row, *best = NULL;
    double best_bad = -INFINITY;
    size_t i;

    json_array_foreach(rows, i, row)
    {
        const char *cfg = json_string_value(json_object_get(row, "config"));
        const char *lab = json_string_value(json_object_get(row, "label"));
        json_t *m = json_object_get(json_object_get(row, "metrics"), b->r.metric);
        json_t *vs = json_object_get(json_object_get(m, "vs_baseline"), b->name1);
        double ch = json_real_value(json_object_get(vs, "change")), bad;

        if (!m)
            continue;
        if (*b->r.row_config || b->cli.row) {
            const char *want = *b->r.row_config ? b->r.row_config : b->cli.row;

            if ((cfg && strcmp(cfg, want) == 0) ||
                (!*b->r.row_config && lab && strcmp(lab, want) == 0))
                return row;
            continue;
        }
        bad = b->r.higher_better ? -ch : ch;
        if (!best || bad > best_bad) {
            best = row;
            best_bad = bad;
        }
    }
    return best;
}

/* A timed step whose commit had rounds set aside as outliers (a throughput far from its
 * median) on the other side of the verdict (a round as fast as good's beside a bad verdict,
 * or one past the threshold beside a good one) rests on rounds that disagree: the kept ones
 * could have been either kind, so the step is inconclusive rather than a guess that would
 * steer every later step. An outlier on the verdict's side (a slow commit slower still in
 * one round) changes nothing. */
static void outliers_hold(const struct bisect *b, struct bisect_commit *c, json_t *row)
{
    json_t *tp = json_object_get(json_object_get(row, "metrics"), "throughput"), *o;
    double good_tp = json_number_value(
        json_object_get(json_object_get(json_object_get(tp, "values"), b->name0), "median"));
    size_t i, n = 0;

    json_array_foreach(json_object_get(json_object_get(row, "interference"), "outliers"), i, o)
    {
        const char *v = json_string_value(json_object_get(o, "version"));
        double t = json_number_value(json_object_get(o, "throughput"));
        int bad = good_tp > 0 && (1.0 - t / good_tp) * 100.0 > b->r.threshold_pct;

        if (v && strcmp(v, b->name1) == 0 && bad != (c->verdict == BV_BAD))
            n++;
    }
    if (!n)
        return;
    fprintf(stderr,
            "compare: bisect: %.12s: %zu of its rounds were set aside as outliers whose "
            "throughput says %s: its rounds disagree, the step is inconclusive\n",
            c->sha, n, c->verdict == BV_BAD ? "good" : "bad");
    c->verdict = BV_INCONCLUSIVE;
}

/* Reads c's value, change and verdict from the step's summary. Returns 0, or an exit code. */
static int judge_step(struct bisect *b, struct bisect_commit *c, json_t *summary)
{
    json_t *row = pick_row(b, summary), *m, *vs, *fn;
    const char *verdict, *reason;
    double bad_change;

    if (!row)
        return bisect_fail(b->cli.row ? EXIT_USAGE : EXIT_HARNESS,
                           "no row %s%s has the metric (see the step's summary.json)",
                           b->cli.row ? b->cli.row : "", b->cli.row ? "" : "of the spec");
    if (!*b->r.row_config) {
        snprintf(b->r.row_config, sizeof(b->r.row_config), "%s",
                 json_string_value(json_object_get(row, "config")));
        snprintf(b->r.row_label, sizeof(b->r.row_label), "%s",
                 json_string_value(json_object_get(row, "label")));
    }
    m = json_object_get(json_object_get(row, "metrics"), b->r.metric);
    vs = json_object_get(json_object_get(m, "vs_baseline"), b->name1);
    c->good_value = json_number_value(
        json_object_get(json_object_get(json_object_get(m, "values"), b->name0), "median"));
    c->value = json_number_value(
        json_object_get(json_object_get(json_object_get(m, "values"), b->name1), "median"));
    c->change = json_number_value(json_object_get(vs, "change"));
    verdict = json_string_value(json_object_get(vs, "verdict"));
    reason = json_string_value(json_object_get(vs, "reason"));
    fn = json_object_get(vs, "functions");
    json_decref(c->functions);
    c->functions = fn ? json_deep_copy(fn) : NULL;
    bad_change = (b->r.higher_better ? -c->change : c->change) * 100.0;
    if (!vs || !verdict || strcmp(verdict, "failed") == 0)
        c->verdict = BV_INCONCLUSIVE;
    else if (strcmp(b->r.metric, "instructions") == 0)
        c->verdict = bad_change > b->r.threshold_pct ? BV_BAD : BV_GOOD;
    else if (strcmp(verdict, "regressed") == 0)
        c->verdict = bad_change > b->r.threshold_pct ? BV_BAD : BV_GOOD;
    else if (strcmp(verdict, "~") == 0 && !reason && !(bad_change > b->r.threshold_pct))
        c->verdict =
            BV_GOOD; /* "~" past the threshold: the rules could not decide, not "no change" */
    else if (strcmp(verdict, "improved") == 0)
        c->verdict = BV_GOOD;
    else
        c->verdict = BV_INCONCLUSIVE;
    if (c->verdict != BV_INCONCLUSIVE && strcmp(b->r.metric, "instructions") != 0)
        outliers_hold(b, c, row);
    return 0;
}

/* --resume: c's step from the earlier bisect.json, when it has one. */
static int resume_step(struct bisect *b, struct bisect_commit *c)
{
    json_t *s;
    size_t i;

    json_array_foreach(json_object_get(b->prior, "steps"), i, s)
    {
        const char *sha = json_string_value(json_object_get(s, "commit"));
        enum bisect_verdict v =
            bisect_verdict_parse(json_string_value(json_object_get(s, "verdict")));

        if (!sha || strcmp(sha, c->sha) != 0 || v == BV_NONE || v == BV_INCONCLUSIVE)
            continue;
        c->verdict = v;
        c->value = json_number_value(json_object_get(s, "value"));
        c->good_value = json_number_value(json_object_get(s, "good_value"));
        c->change = json_number_value(json_object_get(s, "change"));
        c->functions = json_incref(json_object_get(s, "functions"));
        snprintf(c->dir, sizeof(c->dir), "%s",
                 json_string_value(json_object_get(s, "dir"))
                     ? json_string_value(json_object_get(s, "dir"))
                     : "");
        return 1;
    }
    return 0;
}

/* Builds and measures c against good. Returns 0 (c->verdict set), or an exit code. */
int bisect_measure(struct bisect *b, struct bisect_commit *c)
{
    struct tree t;
    struct run_request rq = b->cli.rq;
    struct run_outcome o;
    char err[4096] = "", log[1200], spec2[1300], runs[1300];
    struct stat st;
    int rc;

    if (trees_stop())
        return bisect_interrupted(b, "interrupted between steps");
    if (b->prior && resume_step(b, c)) {
        if (c->verdict != BV_SKIPPED)
            c->measured = (int)++b->r.n_steps;
        fprintf(stderr, "compare: bisect: %.12s: %s (from the earlier bisect.json)\n", c->sha,
                bisect_verdict_name(c->verdict));
        return 0;
    }
    memset(&t, 0, sizeof(t));
    t.name = "commit";
    t.ref = c->sha;
    snprintf(c->dir, sizeof(c->dir), "%s/steps/%.12s", b->out, c->sha);
    if (ju_mkdir_p(c->dir, err, sizeof(err)) < 0)
        return bisect_fail(EXIT_HARNESS, "%s", err);
    if (trees_prepare(&t, b->cli.repo, b->cache, b->tmpdir, err, sizeof(err)) < 0)
        return bisect_fail(EXIT_HARNESS, "%s", err);
    snprintf(log, sizeof(log), "%s/build.log", c->dir);
    rc = trees_build(&t, b->cli.build, log, "bisect", b->cli.build_timeout_s, err, sizeof(err));
    if (rc == 2)
        return bisect_interrupted(b, err);
    if (rc < 0)
        return bisect_fail(EXIT_HARNESS, "%s", err);
    if (rc > 0) {
        c->verdict = BV_SKIPPED;
        fprintf(stderr, "compare: bisect: %.12s %s: does not build, skipped: %s\n", c->sha,
                c->subject, err);
        return 0;
    }
    if (step_spec(b, c, c->dir, spec2, sizeof(spec2), err, sizeof(err)) < 0)
        return bisect_fail(EXIT_USAGE, "%s", err);
    snprintf(runs, sizeof(runs), "%s/runs.jsonl", c->dir);
    rq.resume = b->cli.rq.resume && stat(runs, &st) == 0;
    rq.out_dir = c->dir;
    rq.spec_path = spec2;
    rq.resume_hint = b->resume_hint;
    rq.tree_dirs[0] = b->good.dir;
    rq.tree_dirs[1] = t.dir;
    rq.n_tree_dirs = 2;
    if (b->cli.budget_s > 0)
        rq.deadline_ns = clock_now_ns() + (uint64_t)(b->cli.budget_s * 1e9);
    memset(&o, 0, sizeof(o));
    rc = run_execute(&rq, &o, err, sizeof(err));
    if (o.interrupted) {
        run_outcome_release(&o);
        return bisect_interrupted(b, "interrupted during a measured step");
    }
    if (rc == EXIT_OK && o.summary)
        rc = judge_step(b, c, o.summary);
    else if (rc == EXIT_OK || rc == EXIT_HARNESS)
        rc = bisect_fail(EXIT_HARNESS, "step %s: the runs failed: %s", c->sha,
                         *err ? err : "no summary");
    else
        fprintf(stderr, "compare: bisect: %s\n", err);
    if (rc == EXIT_OK)
        c->measured = (int)++b->r.n_steps;
    run_outcome_release(&o);
    return rc;
}

static int setup(struct bisect *b)
{
    char err[1024] = "";
    time_t now = time(NULL);
    struct tm tm;
    char ts[32];

    snprintf(b->tmpdir, sizeof(b->tmpdir), "/tmp/pairbench-bisect.XXXXXX");
    if (!mkdtemp(b->tmpdir)) {
        *b->tmpdir = '\0';
        return bisect_fail(EXIT_HARNESS, "mkdtemp: %s", strerror(errno));
    }
    if (trees_cache_root(b->cli.cache, b->cache, sizeof(b->cache), err, sizeof(err)) < 0)
        return bisect_fail(EXIT_HARNESS, "%s", err);
    gmtime_r(&now, &tm);
    strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
    if (b->cli.rq.out_dir)
        snprintf(b->out, sizeof(b->out), "%s", b->cli.rq.out_dir);
    else
        snprintf(b->out, sizeof(b->out), "reports/%s-bisect", ts);
    if (ju_mkdir_p(b->out, err, sizeof(err)) < 0)
        return bisect_fail(EXIT_HARNESS, "%s", err);
    snprintf(b->resume_hint, sizeof(b->resume_hint),
             "go on with the same command and --resume --out %.1000s", b->out);
    if (b->cli.rq.resume)
        return bisect_load_prior(b);
    return -1;
}

static void print_answer(const struct bisect *b, int rc)
{
    if (rc == EXIT_OK && b->r.found) {
        const struct bisect_commit *c = &b->r.c[b->r.culprit];
        char ch[32];

        printf("%s %s (%s): %s %s against its parent %.12s\n", c->sha, c->subject, c->date,
               b->r.metric, fmt_change(b->r.culprit_change, ch, sizeof(ch)), b->r.parent_sha);
    } else if (rc == EXIT_INCONCLUSIVE) {
        fprintf(stderr, "compare: bisect: exit 4: %s\n", b->r.reason);
    }
    printf("%s\n", b->out);
}

int bisect_execute(struct bisect *b)
{
    int rc = setup(b);

    if (rc < 0)
        rc = load_range(b);
    if (rc < 0 && !b->prior) /* bisect.json from the start: the range, nothing measured */
        rc = bisect_save(b) ? EXIT_HARNESS : -1;
    if (rc < 0)
        rc = build_good(b);
    if (rc < 0)
        rc = bisect_check_ends(b);
    if (rc < 0)
        rc = bisect_search(b);
    if (b->r.n && (rc == EXIT_OK || rc == EXIT_INCONCLUSIVE)) {
        int s = bisect_save(b);

        if (s)
            rc = s;
        print_answer(b, rc);
    }
    return rc;
}

void bisect_release(struct bisect *b)
{
    size_t i;

    if (*b->tmpdir) {
        char p[128];

        snprintf(p, sizeof(p), "%s/git.err", b->tmpdir);
        unlink(p);
        rmdir(b->tmpdir);
    }
    for (i = 0; i < b->r.n; i++)
        json_decref(b->r.c[i].functions);
    free(b->r.c);
    json_decref(b->prior);
    if (b->gc_init)
        gate_config_release(&b->cli.gc);
    free(b);
}
