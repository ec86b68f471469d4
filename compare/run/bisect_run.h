/* bisect_run: the engine of compare bisect (run/bisect_run.c, run/bisect_search.c; argv in
 * cmd/bisect.c): the search's state and the steps the files share. */
#ifndef PAIRBENCH_BISECT_RUN_H
#define PAIRBENCH_BISECT_RUN_H

#include <jansson.h>

#include "analysis/gate.h"
#include "analysis/metrics.h"
#include "report/bisect_report.h"
#include "run/run.h"
#include "run/trees.h"

struct bisect_cli {
    struct run_request rq;
    const char *repo, *build, *cache, *good, *bad, *row, *metric;
    double threshold, budget_s, build_timeout_s;
    int all_parents, runs_given;
    struct gate_config gc;
};

/* The search's state: the command line, the trees, the record the reports are written from. */
struct bisect {
    struct bisect_cli cli;
    struct bisect_result r;
    struct tree good;
    const struct metric_def *md;
    char cache[1024], tmpdir[64], out[1024];
    char name0[128], name1[128]; /* the spec's version names */
    json_t *prior;               /* --resume: the earlier bisect.json */
    char resume_hint[1200];      /* how to go on after an interruption */
    char parent[64];             /* the culprit's parent when outside the range */
    int gc_init;                 /* cli.gc to release */
};

/* After the command line (parse_args in cmd/bisect.c): the cache and --out, the range, the
 * ends checked, the search; bisect.json saved and the answer printed. Returns the exit code. */
int bisect_execute(struct bisect *b);
/* Removes the temporary directory and frees b. */
void bisect_release(struct bisect *b);
/* "compare: bisect: " and the message on stderr; returns code. */
int bisect_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* SIGINT/SIGTERM (what: where): bisect.json saved, the resume hint printed; exit 3. */
int bisect_interrupted(struct bisect *b, const char *what);
/* Measures commit c against good (bisect.c). Returns 0, else the exit code. */
int bisect_measure(struct bisect *b, struct bisect_commit *c);
/* bisect_search.c */
int bisect_save(struct bisect *b);
int bisect_search(struct bisect *b);
int bisect_load_prior(struct bisect *b);
int bisect_check_ends(struct bisect *b);

#endif
