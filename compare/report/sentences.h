/* sentences: what a report says about the facts of the model (model.h), in the report's
 * language from the one string table (i18n_strings.h), as plain text in which `x` marks
 * code. report.md writes the sentences as they are; report.html escapes them and turns `x`
 * into <code>x</code> (html_text()). So both state the same facts in the same words. Every
 * function returns a new string (free()), or NULL when out of memory. */
#ifndef PAIRBENCH_SENTENCES_H
#define PAIRBENCH_SENTENCES_H

#include <stddef.h>

#include <jansson.h>

#include "report/model.h"
#include "report/steps.h"

/* A sentence names at most SENT_LIST_MAX rows, then "and N more". */
#define SENT_LIST_MAX 6

/* The labels of rows idx[0..n): "a, b and c" (localized). */
char *sent_rows(const struct report_model *m, const size_t *idx, size_t n, const char *lang);
/* The labels of the rows whose mask[] is set. */
char *sent_rows_mask(const struct report_model *m, const unsigned char *mask, const char *lang);
/* One weakness; "Nothing known weakens ..." for w NULL. */
char *sent_weakness(const struct report_model *m, const struct weakness *w, const char *lang);
/* "{candidate} against {baseline}: N of M configurations stand out: " (cand index >= 1). */
char *sent_notable_intro(const struct report_model *m, size_t cand, const char *lang);
/* "N of M configurations complete; ... runs ok, ... failed." */
char *sent_completeness(const struct report_model *m, const char *lang);
/* "Driver errors over the successful runs: connect ..." */
char *sent_driver_errors(const struct report_model *m, const char *lang);
/* Where connections the server closed on purpose were reopened (rows with reopened_per_1k)
 * and each version's largest median per 1000 operations; NULL when no row has any. */
char *sent_reopened(const struct report_model *m, const char *lang);
/* "Over time: the throughput series of N of M configurations ... are drawn in report.html";
 * NULL when no row has a series. */
char *sent_series(const struct report_model *m, const char *lang);
/* "With N runs a side, disjoint ranges are ... p = 2/C ≈ P ..." (NULL too when the run count
 * is outside [2, 30]: then there is no such sentence). alpha: the summary's chance.alpha. */
char *sent_evidence(const struct report_model *m, double alpha, const char *lang);
/* The evidence floor for chance (summary.json "chance": level, runs_per_side, alpha,
 * reachable): "Evidence floor: ... With N runs a side, the chance of a false flag ... is at
 * most A." or, when the runs cannot reach it, "... no verdict can be reached ...". NULL when
 * chance has no "reachable" (an older summary). */
char *sent_floor(const json_t *chance, const char *lang);
/* The row's family bound (summary.json "chance"."family": metrics, level, chance): "A row as
 * a family: Holm ... at most C per row." or, when chance is 0, "... no timed metric is
 * decided ...". NULL when there is no "family" (no gated timed metric, an older summary). */
char *sent_family(const json_t *chance, const char *lang);
/* "N of M configurations cannot be fully judged ...: rows." (NULL when none). */
char *sent_unjudged(const struct report_model *m, const char *lang);
/* "Inconclusive: N of M configurations could not be decided ...", or NULL when none. */
char *sent_undecided(const struct report_model *m, const char *lang);
/* One version: "Highest throughput: row, X ops/s. Lowest batch P99: row, Y µs." (NULL when
 * no row has both). */
char *sent_one_best(const struct report_model *m, const char *lang);

/* A sequence run (steps.h): "`cand` against `base`: throughput is first regressed at step K
 * of N, LABEL (CHANGE)." or "... no step's throughput is regressed." */
/* A verdict in the report's words (regressed, improved, undecided, failed localized; "~" and
 * anything else as it is). Static. */
const char *sent_verdict_word(const char *lang, const char *v);

/* With a fresh-server run beside the steps (summary rows' "fresh_server", steps.h's
 * steps_beside): at cand's first regressed step, whether it is regressed with a fresh server per
 * run too, or not (the change builds up over the server's life); NULL when no step is
 * regressed or that step has no fresh figures. malloc'd. */
char *sent_steps_fresh(const json_t *rows, const struct steps *st, const char *base,
                       const char *cand, const char *lang);

/* Whether base and cand left the server the same keys after each step of a sequence
 * (summary row "state_after"): the first step where they differ (by more than 1% and 1 key),
 * or that none does; NULL when the steps record no keys (not a Redis server). malloc'd. */
char *sent_steps_state(const json_t *rows, const struct steps *st, const char *base,
                       const char *cand, const char *lang);

char *sent_steps_first(const json_t *rows, const struct steps *st, const char *base,
                       const char *cand, const char *lang);

/* With the servers on a server host (meta.json "server_host"): "client and server apart: the
 * driver ran here, every server on ADDRESS (HOST, N CPUs, kernel K) over ssh; the idle round
 * trip was B µs before the runs and A µs after"; NULL without one. */
char *sent_server_host(const json_t *meta, const char *lang);

#endif
