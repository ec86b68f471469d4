/* bisect_report: what `compare bisect` found, as bisect.json and bisect.md (English or
 * Chinese, every sentence from the string table i18n_strings.h). The search itself is in
 * run/bisect_run.c; this file holds the record both share and the writers. */
#ifndef PAIRBENCH_BISECT_REPORT_H
#define PAIRBENCH_BISECT_REPORT_H

#include <stddef.h>

#include <jansson.h>

enum bisect_verdict {
    BV_NONE = 0,     /* not measured yet */
    BV_GOOD,         /* within the threshold of good */
    BV_BAD,          /* past the threshold in the bad direction */
    BV_SKIPPED,      /* did not build (as `git bisect skip`) */
    BV_INCONCLUSIVE, /* a timed step that could not decide within its rules and budget */
};

/* One commit of the range and what its step found. */
struct bisect_commit {
    char sha[64];
    char subject[256];
    char date[40]; /* author date, ISO 8601 */
    enum bisect_verdict verdict;
    int measured;      /* order of its step (1..), 0 = never measured */
    double value;      /* the metric's median for this commit in its step */
    double good_value; /* the same for good, measured beside it */
    double change;     /* value against good_value (relative) */
    json_t *functions; /* counted runs: where the change went (owned), or NULL */
    char dir[1100];    /* the step's run directory */
};

struct bisect_result {
    const char *lang;
    const char *repo, *good_ref, *bad_ref, *build, *spec;
    char good_sha[64], good_subject[256];
    const char *metric; /* summary key */
    const char *unit;
    int higher_better;
    double threshold_pct;
    char row_config[64], row_label[512];
    struct bisect_commit *c; /* the range good..bad, oldest first: c[n - 1] is bad */
    size_t n;
    size_t n_steps; /* measured steps */
    int found;      /* culprit names c[culprit] */
    size_t culprit;
    double culprit_change; /* against its parent */
    double parent_value;   /* the parent's value (good_value when the parent is good) */
    const char *parent_sha;
    char reason[1024]; /* when not found: why */
};

/* bisect.json (atomically). Returns 0, or -1 with err. */
int bisect_write_json(const struct bisect_result *r, const char *path, char *err, size_t errlen);
/* bisect.md in r->lang. Returns 0, or -1 with err. */
int bisect_write_md(const struct bisect_result *r, const char *path, char *err, size_t errlen);
/* "good", "bad", "skipped", "inconclusive", "" (BV_NONE). */
const char *bisect_verdict_name(enum bisect_verdict v);
/* The inverse; BV_NONE when unknown. */
enum bisect_verdict bisect_verdict_parse(const char *s);

#endif
