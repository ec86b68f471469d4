/* compare bisect's search (after run/bisect_run.c has loaded the range and checked the spec):
 * saving the record after each step, halving the range around skipped commits, taking up
 * a --resume and checking that good is good and bad is bad. */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/bisect_run.h"
#include "util/exit_codes.h"
#include "util/jobs_util.h"
#include "util/fmt.h"

int bisect_save(struct bisect *b)
{
    char path[1100], err[1024] = "";

    snprintf(path, sizeof(path), "%s/bisect.json", b->out);
    if (bisect_write_json(&b->r, path, err, sizeof(err)) < 0)
        return bisect_fail(EXIT_HARNESS, "%s", err);
    snprintf(path, sizeof(path), "%s/bisect.md", b->out);
    if (bisect_write_md(&b->r, path, err, sizeof(err)) < 0)
        return bisect_fail(EXIT_HARNESS, "%s", err);
    return 0;
}

static unsigned steps_left(size_t lo1, size_t hi)
{
    unsigned k = 0;
    size_t n = hi > lo1 ? hi - lo1 : 0; /* commits still in question */

    while (n > 0) {
        n /= 2;
        k++;
    }
    return k;
}

static void progress(const struct bisect *b, const struct bisect_commit *c, unsigned left)
{
    char ch[32];

    if (c->verdict == BV_SKIPPED)
        return;
    fprintf(stderr,
            "compare: bisect: step %d: %.12s %s: %s %.6g (%s against good): %s; about %u "
            "step%s left\n",
            c->measured, c->sha, c->subject, b->r.metric, c->value,
            fmt_change(c->change, ch, sizeof(ch)), bisect_verdict_name(c->verdict), left,
            left == 1 ? "" : "s");
}

/* The next commit to measure in (lo1 - 1, hi): the middle, else its nearest unskipped
 * neighbour. lo1 is the index after the last good one (0 = good itself). -1 when none. */
static long next_probe(const struct bisect *b, size_t lo1, size_t hi)
{
    long mid = (long)lo1 + ((long)hi - (long)lo1 - 1) / 2, d;

    if (hi <= lo1)
        return -1;
    for (d = 0; d < (long)(hi - lo1) * 2; d++) {
        long k = d % 2 ? mid - (d + 1) / 2 : mid + d / 2;

        if (k >= (long)lo1 && k < (long)hi && b->r.c[k].verdict != BV_SKIPPED)
            return k;
    }
    return -1;
}

static int culprit_parent(struct bisect *b, size_t hi);

/* The search proper, once bad is known bad. Returns the exit code. */
int bisect_search(struct bisect *b)
{
    size_t lo1 = 0, hi = b->r.n - 1; /* c[lo1 - 1] good (or good itself), c[hi] bad */
    long k;
    int rc;

    while ((k = next_probe(b, lo1, hi)) >= 0) {
        struct bisect_commit *c = &b->r.c[k];

        if (trees_commit_info(b->cli.repo, b->tmpdir, c->sha, c->subject, sizeof(c->subject),
                              c->date, sizeof(c->date), b->r.reason, sizeof(b->r.reason)) < 0)
            return bisect_fail(EXIT_HARNESS, "%s", b->r.reason);
        if ((rc = bisect_measure(b, c)) != 0)
            return rc;
        if (c->verdict == BV_BAD)
            hi = (size_t)k;
        else if (c->verdict == BV_GOOD)
            lo1 = (size_t)k + 1;
        progress(b, c, steps_left(lo1, hi));
        if ((rc = bisect_save(b)) != 0)
            return rc;
        if (c->verdict == BV_INCONCLUSIVE) {
            snprintf(b->r.reason, sizeof(b->r.reason),
                     "step %.12s was inconclusive on %s (the gate's rules could not decide "
                     "within its runs and budget); the first bad commit lies in %.12s..%.12s",
                     c->sha, b->r.metric, lo1 ? b->r.c[lo1 - 1].sha : b->good.sha, b->r.c[hi].sha);
            return EXIT_INCONCLUSIVE;
        }
    }
    if (hi > lo1) {
        snprintf(b->r.reason, sizeof(b->r.reason),
                 "only skipped commits are left: the first bad commit is one of %zu commits "
                 "%.12s..%.12s (the skipped ones did not build)",
                 hi - lo1 + 1, b->r.c[lo1].sha, b->r.c[hi].sha);
        return EXIT_INCONCLUSIVE;
    }
    return culprit_parent(b, hi);
}

/* The index of sha in the range, or -1. */
static long range_index(const struct bisect *b, const char *sha)
{
    size_t i;

    for (i = 0; i < b->r.n; i++)
        if (strcmp(b->r.c[i].sha, sha) == 0)
            return (long)i;
    return -1;
}

/* The culprit c[hi] against its parent on the path searched: one of its own parents (git
 * rev-parse SHA^@, the first parent first) that is good, or was measured good, not the
 * commit before it in the range (with --all-parents that may be on another branch). A parent
 * in the range not measured yet is measured now: bad, and it is the culprit in turn. A parent
 * outside the range is an ancestor of good: the change is then against good. Returns
 * EXIT_OK (found), or an exit code. */
static int culprit_parent(struct bisect *b, size_t hi)
{
    char line[1024], *tok, *save = NULL;
    long k;
    int rc;

    for (;;) {
        const struct bisect_commit *c = &b->r.c[hi];
        long unmeasured = -1;

        if (trees_parents(b->cli.repo, b->tmpdir, c->sha, line, sizeof(line), b->r.reason,
                          sizeof(b->r.reason)) < 0)
            return bisect_fail(EXIT_HARNESS, "%s", b->r.reason);
        b->r.found = 1;
        b->r.culprit = hi;
        for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
            k = range_index(b, tok);
            if (strcmp(tok, b->good.sha) == 0 || k < 0) {
                snprintf(b->parent, sizeof(b->parent), "%s", tok);
                b->r.parent_sha = b->parent;
                b->r.parent_value = c->good_value;
                b->r.culprit_change = c->change;
                return EXIT_OK;
            }
            if (b->r.c[k].verdict == BV_GOOD) {
                b->r.parent_sha = b->r.c[k].sha;
                b->r.parent_value = b->r.c[k].value;
                b->r.culprit_change = (1.0 + c->change) / (1.0 + b->r.c[k].change) - 1.0;
                return EXIT_OK;
            }
            if (unmeasured < 0 && b->r.c[k].verdict == BV_NONE)
                unmeasured = k;
        }
        b->r.found = 0;
        if (unmeasured < 0) {
            snprintf(b->r.reason, sizeof(b->r.reason),
                     "%.12s is bad but none of its parents was measured good (they did not "
                     "build or were inconclusive)",
                     c->sha);
            return EXIT_INCONCLUSIVE;
        }
        if (trees_commit_info(b->cli.repo, b->tmpdir, b->r.c[unmeasured].sha,
                              b->r.c[unmeasured].subject, sizeof(b->r.c[0].subject),
                              b->r.c[unmeasured].date, sizeof(b->r.c[0].date), b->r.reason,
                              sizeof(b->r.reason)) < 0)
            return bisect_fail(EXIT_HARNESS, "%s", b->r.reason);
        if ((rc = bisect_measure(b, &b->r.c[unmeasured])) != 0 || (rc = bisect_save(b)) != 0)
            return rc;
        if (b->r.c[unmeasured].verdict == BV_BAD)
            hi = (size_t)unmeasured; /* the parent is bad too: the first bad is further back */
    }
}

/* --resume: the earlier bisect.json, which must be the same question. Returns -1 to go on,
 * else the exit code. */
int bisect_load_prior(struct bisect *b)
{
    char path[1100], err[1024] = "";
    const char *g, *bad, *m;

    snprintf(path, sizeof(path), "%s/bisect.json", b->out);
    if (access(path, F_OK) != 0)
        return -1; /* interrupted before the first step was written: start over */
    b->prior = ju_load_json(path, err, sizeof(err));
    if (!b->prior)
        return bisect_fail(EXIT_USAGE, "--resume: %s", err);
    g = json_string_value(json_object_get(json_object_get(b->prior, "good"), "ref"));
    bad = json_string_value(json_object_get(json_object_get(b->prior, "bad"), "ref"));
    m = json_string_value(json_object_get(b->prior, "metric"));
    if (!g || !bad || !m || strcmp(g, b->cli.good) != 0 || strcmp(bad, b->cli.bad) != 0 ||
        strcmp(m, b->r.metric) != 0)
        return bisect_fail(
            EXIT_USAGE,
            "--resume: '%s' is a bisect of another range or metric (%s); use a new --out", path,
            "good, bad and --metric must be the same");
    if (!b->cli.row) {
        const char *cfg =
            json_string_value(json_object_get(json_object_get(b->prior, "row"), "config"));
        const char *lab =
            json_string_value(json_object_get(json_object_get(b->prior, "row"), "label"));

        if (cfg && *cfg) {
            snprintf(b->r.row_config, sizeof(b->r.row_config), "%s", cfg);
            snprintf(b->r.row_label, sizeof(b->r.row_label), "%s", lab ? lab : "");
        }
    }
    return -1;
}

/* Good against bad first: the search only makes sense when they differ. */
int bisect_check_ends(struct bisect *b)
{
    struct bisect_commit *c = &b->r.c[b->r.n - 1];
    char ch[32];
    int rc;

    if (trees_commit_info(b->cli.repo, b->tmpdir, c->sha, c->subject, sizeof(c->subject), c->date,
                          sizeof(c->date), b->r.reason, sizeof(b->r.reason)) < 0)
        return bisect_fail(EXIT_HARNESS, "%s", b->r.reason);
    fprintf(stderr, "compare: bisect: %zu commit%s in %.12s..%.12s; measuring good against bad\n",
            b->r.n, b->r.n == 1 ? "" : "s", b->good.sha, c->sha);
    if ((rc = bisect_measure(b, c)) != 0)
        return rc;
    progress(b, c, steps_left(0, b->r.n - 1));
    if (c->verdict == BV_SKIPPED)
        snprintf(b->r.reason, sizeof(b->r.reason), "bad (%.12s) does not build (log in '%.900s')",
                 c->sha, c->dir);
    else if (c->verdict == BV_INCONCLUSIVE)
        snprintf(b->r.reason, sizeof(b->r.reason),
                 "good against bad was inconclusive on %s: nothing to bisect until it is decided",
                 b->r.metric);
    else if (c->verdict == BV_GOOD)
        snprintf(b->r.reason, sizeof(b->r.reason),
                 "good and bad do not differ past the threshold on %s: %s (threshold %.2f%% "
                 "in the bad direction); nothing to bisect",
                 b->r.metric, fmt_change(c->change, ch, sizeof(ch)), b->r.threshold_pct);
    else
        return -1;
    return EXIT_INCONCLUSIVE;
}
