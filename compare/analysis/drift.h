/* drift: the nightly drift report. A history directory holds one run directory per night
 * (DIR/runs/<started>-<id>/) and an index (DIR/index.jsonl). Per configuration and metric,
 * the baseline version's median over the nights of the newest night's environment forms a
 * series; the newest night is compared with the median of the previous K nights, and
 * E-divisive change-point detection (changepoint.h) finds steps and slow drifts. This header
 * is the pure analysis (run/drift_run.c: the nights and series; run/history.c: the history;
 * drift_report.c: drift.md/.html). */
#ifndef PAIRBENCH_DRIFT_H
#define PAIRBENCH_DRIFT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/changepoint.h"
#include "analysis/stats.h"

#define DRIFT_MAX_NIGHTS 400 /* newest nights analysed; older ones stay in the index */
#define DRIFT_DEFAULT_WINDOW 7
#define DRIFT_STEP_WINDOW 10 /* points each side given to cp_is_step */
/* Fewest previous nights the newest is judged against: their spread is the test's noise, and
 * two nights give it one degree of freedom, a variance that one lucky pair of nights makes
 * tiny (an unchanged night was called regressed on the third night of a history) */
#define DRIFT_MIN_PREVIOUS 3

/* Why a change point is reported (or not) */
enum drift_kind {
    DRIFT_KIND_SMALL = 0, /* significant but below the metric's threshold: not reported */
    DRIFT_KIND_STEP,      /* an abrupt level change */
    DRIFT_KIND_DRIFT,     /* part of a slow drift */
};

struct drift_series {
    char config[32];
    char label[256];
    enum metric metric;
    int gated;                       /* the row's rules gate this metric (a fixed-rate row
                                        gates server CPU and latency, not throughput) */
    int fixed_rate;                  /* the row ran at a fixed rate (params.rate) */
    size_t n;                        /* points (same-environment nights holding this row) */
    double values[DRIFT_MAX_NIGHTS]; /* baseline median per night, oldest first */
    size_t night[DRIFT_MAX_NIGHTS];  /* index of each point's night in the history */
    double newest_min, newest_max;   /* the newest night's own runs, min and max (NAN: unknown) */
    /* the most other CPU (cores) a disturbed run of the newest night's row saw beside it; 0:
     * none was disturbed */
    double newest_disturb_cores;
    /* filled by drift_analyse: */
    double newest, prev_median, change; /* change = newest / prev_median - 1 (NAN: no prev) */
    int newest_dir;                     /* -1 worse beyond threshold, +1 better, 0 neither */
    /* The newest night against the previous K by the verdict rule of stats_judge_timed(): the
     * log of the newest value against the mean log of the K before, their spread the noise
     * (a t-test of one new value, df K − 1); a night whose own runs reach back within the
     * threshold of the previous median is noisy, and stays undecided (unstable). VERDICT_*
     * word; its reason when undecided. */
    const char *newest_verdict, *newest_reason;
    double newest_p;     /* two-sided p of the newest night's test (1: no test ran) */
    double trend_change; /* median of the last K nights / median of the K before - 1 (NAN) */
    int trend_dir;       /* like newest_dir: catches a slow drift no single night shows */
    struct cp_result cp;
    enum drift_kind kind[CP_MAX_CHANGES];
    double step_change[CP_MAX_CHANGES]; /* after / before - 1 per change point */
    int regression_step;                /* the newest night sits after a recent bad step */
    int flagged;                        /* worth a chart: newest_dir or a reported change */
};

/* Analyses s->values[0..n) with the metric's threshold from rules and window K (previous
 * nights compared with the newest): newest_verdict decides the newest night on the night it
 * happens (fewer than DRIFT_MIN_PREVIOUS previous nights: undecided, too few runs). A regression
 * step: the last reported change point is a step in the bad direction by at least the threshold, it
 * happened within the last K nights, and the newest night is still worse than the K nights before
 * it by at least the threshold. Returns 0, or -1 (out of memory / too long). */
int drift_analyse(struct drift_series *s, const struct verdict_rules *rules, size_t window,
                  uint64_t seed);

/* The newest night's decided verdicts of one row's gated timed metrics, series[0..n) (all of
 * one config), held as a family as a run's row is (family.h): Holm at FAMILY_LEVEL across
 * them, and a verdict that fails it becomes undecided (too few runs). A night is one claim
 * on the whole row: without it, a row of six gated metrics would flag an unchanged night far
 * more often than one in twenty. */
void drift_family(struct drift_series **series, size_t n);

/* A night of the history as the reports need it. */
struct drift_night {
    char id[96];
    char started[40];
    char commit[48];
    /* where the commit came from (meta.json: commits.repo and .build of `compare commits`,
     * the --spec of its command line), "" when not recorded: the `compare bisect` hint */
    char repo[512], build[512], spec[512];
    char env[512]; /* "machine · cpu · kernel · compiler[ · cpu identity]" */
    int other_env; /* environment differs from the newest night: marked, not in series */
};

struct drift_report {
    const char *history;
    const struct drift_night *nights;
    size_t n_nights;
    struct drift_series **series;
    size_t n_series;
    size_t window;
    const struct verdict_rules *rules;
    const unsigned char *gated; /* METRIC_ALL: metrics whose regression step fails the job */
    int code; /* EXIT_OK, EXIT_REGRESSION, or EXIT_HARNESS (reason: the newest night left out) */
    const char *reason;
    const char *lang;     /* "en" or "zh" (NULL = "en"): the language of every sentence */
    unsigned index_lines; /* the lines of the history's index */
    const char *left_out; /* what was left out (torn or corrupt lines, unreadable summaries),
                           * "" when nothing */
};

/* drift_report.c: write the Markdown / self-contained HTML report, their sentences from the
 * string table (i18n.h) in r->lang. Return 0, or -1 on a write error. */
int drift_write_md(FILE *f, const struct drift_report *r);
int drift_write_html(FILE *f, const struct drift_report *r);

#endif
