/* model: every fact a comparison report states, computed once from summary.json and
 * meta.json, so that report.md and report.html (and any later renderer) state the same facts:
 * which rows stand out per candidate, which throughput ranges are disjoint, which rows cannot
 * be judged, the completeness counts, what weakens the measurement (as structured facts, not
 * sentences), the evidence note's chance for the actual run count, and the one-version
 * highlights. Renderers choose words and markup; they do not recount. Pure: no I/O. */
#ifndef PAIRBENCH_MODEL_H
#define PAIRBENCH_MODEL_H

#include <stddef.h>

#include <jansson.h>

#include "analysis/envinfo_warn.h"

#define MODEL_MAX_VERSIONS 16
/* Rows a sentence of any report names before "and N more": the rest are in the tables just
 * below the summary, which must start on the first screen. */
#define MODEL_LIST_MAX 6
#define MODEL_N_ERRORS 5 /* connect, io, protocol, verify, timeout */

/* One candidate against the baseline. Row lists hold row indexes into summary.rows. */
struct model_candidate {
    const char *version;
    size_t *notable, n_notable;   /* a gateable metric regressed or improved */
    size_t *by_change, n_changed; /* rows with a throughput change, largest |change| first */
    size_t *disjoint, n_disjoint; /* throughput ranges do not overlap */
    size_t n_overlap_known;       /* rows whose overlap is known */
};

enum weak_kind {
    WEAK_STOPPED,       /* the run stopped before its plan was done (text: meta.json's "stopped") */
    WEAK_NO_META,       /* meta.json is missing */
    WEAK_HASH,          /* runs.jsonl changed since it was recorded (sha_recorded, sha_now) */
    WEAK_MACHINE,       /* a fact about the machine (machine) */
    WEAK_TEXT,          /* a harness warning with no structure (text, English as recorded) */
    WEAK_FAILED,        /* count runs failed */
    WEAK_UNSTABLE,      /* the rows in unstable[]; noise_limit_pct */
    WEAK_INSECURE,      /* the rows in insecure[] used TLS without verification */
    WEAK_NOT_COUNTABLE, /* the rows in not_countable[]: no count stands (text: the first why) */
};

struct weakness {
    enum weak_kind kind;
    const char *text, *sha_recorded, *sha_now;
    struct env_warning machine;
    long long count;
    double noise_limit_pct;
};

#define MODEL_N_LIBS 4 /* hiredis, openssl, libcurl, jansson */

/* The measurement environment both reports state, from meta.json (NULL where absent). Where
 * the driver reported its own build (driver_build) it wins over what the harness recorded
 * (environment): a string there is taken, anything else falls back. */
struct model_env {
    const json_t *env, *build, *settings, *libs; /* the objects of meta.json */
    const json_t *load_start, *load_end;         /* loadavg_start (older runs: loadavg), _end */
    const json_t *cc, *cflags;                   /* driver_build's, else environment's */
    const json_t *lib[MODEL_N_LIBS];             /* driver_build's, else environment.libraries' */
};

/* A counted server binary that cannot name its functions (summary instructions.binaries,
 * run/symbols.h): the name the version's command gave it, its file, and the Debian package
 * whose -dbgsym would name them (NULL: a build of the user's own). */
struct model_unnamed {
    const char *name, *path, *package;
};
#define MODEL_MAX_UNNAMED 8

struct report_model {
    const json_t *summary, *meta, *rows;
    size_t nrows, nv;
    const char *versions[MODEL_MAX_VERSIONS]; /* [0] is the baseline */
    struct model_candidate cand[MODEL_MAX_VERSIONS];

    /* completeness */
    size_t complete_rows;
    long long runs_ok, runs_total, runs_failed, runs_replaced, errors[MODEL_N_ERRORS];
    /* rows with the metric reopened_per_1k (a run reopened a connection the server closed on
     * purpose), and per version the largest of those rows' medians */
    size_t n_reopened_rows;
    double reopened_max[MODEL_MAX_VERSIONS];
    /* rows with a series to draw (analysis/overtime.h: decay or stall decided or notable) */
    size_t n_series_rows;
    /* the driver's peak RSS is `~` for every candidate in every row: the range of every
     * run's value (rss_lo..rss_hi MiB), stated in one sentence instead of a table */
    int rss_all_same;
    double rss_lo, rss_hi;
    /* per row: noisy; TLS without verification; failed or missing runs (unjudged) */
    unsigned char *unstable, *insecure, *unjudged;
    size_t n_unstable, n_insecure, n_unjudged;
    /* per row: its server was not countable here (summary "not_countable"): judged on its
     * timed metrics alone; the first row's reason */
    unsigned char *not_countable;
    size_t n_not_countable;
    const char *not_countable_why;
    /* per row: a candidate's gated metrics could not be decided (outcome.h "inconclusive":
     * too few runs to reach the evidence level), so the outcome is inconclusive */
    unsigned char *undecided;
    size_t n_undecided;
    struct weakness *weak;
    size_t n_weak;

    /* evidence for the planned runs a side: with n runs, disjoint ranges have the exact
     * two-sided Mann-Whitney p = 2 / C(2n, n); 0 when n is outside [2, 30]. */
    long long rounds;
    double rank_combinations, p_disjoint;

    /* one version: the row of the highest median throughput, the lowest median batch P99
     * (-1 when none) */
    long best_throughput_row, lowest_p99_row;
    double best_throughput, lowest_p99;

    struct model_env env;

    /* the distinct counted binaries without symbols: said once, in place of their unknowns */
    struct model_unnamed unnamed[MODEL_MAX_UNNAMED];
    size_t n_unnamed;
};

/* The names of the error counters, in errors[] order. */
extern const char *const model_error_keys[MODEL_N_ERRORS];

/* The library keys of model_env.lib[], in order. */
extern const char *const model_lib_keys[MODEL_N_LIBS];

/* Builds m from summary (and meta, which may be NULL). Returns 0, or -1 when out of memory
 * (m is then released). */
int report_model_build(struct report_model *m, const json_t *summary, const json_t *meta);
void report_model_release(struct report_model *m);

/* The verdict of row's metric for version (NULL when absent). */
const char *model_verdict(const json_t *row, const char *metric, const char *version);
/* Whether a "functions" item named fn is the code of one of m's binaries without symbols
 * ("unknown (NAME)"): the reports name the binary once instead of listing it. */
int model_fn_unnamed(const struct report_model *m, const char *fn);
/* How many items of a "functions" list the reports name (not model_fn_unnamed). */
size_t model_fns_listed(const struct report_model *m, const json_t *fns);
/* A row's label (its config id when it has none). */
const char *model_row_label(const json_t *row);

#endif
