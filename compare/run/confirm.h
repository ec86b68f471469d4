/* confirm: adaptive confirmation with a cap fixed in advance (see confirm.c). */
#ifndef PAIRBENCH_CONFIRM_H
#define PAIRBENCH_CONFIRM_H

#include <jansson.h>

#include "stats.h"

struct runner;

/* The rule, in words, as meta.json and the report state it. */
extern const char *const confirm_rule;

/* Whether a summary row (docs/architecture.md#summary shape) is borderline under rules: status ok
 * and, for a gated metric and some candidate, verdict "~" or "unstable" with |change| at or past
 * the threshold (with extra rounds: the paired change, and for throughput also when its interval
 * paired_ratio lo..hi reaches past the threshold), or "unstable" while no side has more than the
 * planned rounds. Pure. */
int confirm_row_borderline(const json_t *row, const struct verdict_rules *rules, size_t planned);

/* What a confirmed row's throughput verdict used, for the reports: "-3.1% [-7.2%, +0.4%], p
 * 0.012" from a vs_baseline entry (the interval left out when summary.json has none), or
 * "—" when there is no paired change. Writes at most len bytes (NUL included). */
void confirm_paired_text(const json_t *vs, char *buf, size_t len);

struct confirm_ctx {
    struct runner *r;
    const unsigned char *selected; /* configurations of this shard */
    unsigned cap;    /* extra rounds at most per row; even (rounds come in pairs, an odd cap is
                      * rounded down by the caller) */
    int fd;          /* runs.jsonl, open for appending */
    const char *dir; /* the run directory */
    json_t *meta;    /* gets "confirmation": {max_extra_rounds, rule, rows} */
    const struct verdict_rules *rules;
};

/* Runs extra rounds for borderline rows until none is left or the cap is reached (or a stop
 * signal). Returns 0, or -1 with err set (a run could not be started or recorded). */
int confirm_run(struct confirm_ctx *cx, char *err, size_t errlen);

#endif
