/* Re-rendering a run directory from its dataset alone: reads DIR/runs.jsonl and
 * DIR/meta.json, checks the dataset's SHA-256 against meta.json, and writes summary.json,
 * summary.csv, report.md and report.html (each via a temporary file and rename). Called after
 * every `compare run` and by `compare report DIR`. */
#ifndef PAIRBENCH_RENDER_H
#define PAIRBENCH_RENDER_H

#include <stddef.h>

#include <jansson.h>

struct verdict_rules; /* stats.h */

struct render_opts {
    const char *lang;                  /* "en" or "zh"; NULL = meta.json's "lang", else "en" */
    const struct verdict_rules *rules; /* NULL = verdict_rules_default() */
    int accept_modified;               /* judge a dataset that is not what the run recorded */
    int unverified; /* judge a dataset with no record to check it against (or a modified one) */
    /* a run directory of the same configurations with a fresh server per run, set beside a
     * sequence run's steps (steps.h's steps_beside); NULL = none */
    const char *fresh_dir;
};

/* render_dir()'s return when the dataset is not what meta.json recorded (verify.h) and
 * accept_modified is not set, or meta.json holds no record and unverified is not, or fresh_dir
 * cannot be set beside the run: bad input, exit 2. */
#define RENDER_MODIFIED (-2)

/* ro NULL = defaults. On success returns 0 and, when summary_out is non-NULL, stores a new
 * reference to the summary object there (caller json_decref()s). On failure returns -1 with
 * err naming the file and the problem; nothing half-written is left behind. A dataset that is
 * not what meta.json recorded (verify.h) returns RENDER_MODIFIED with err naming the first
 * offending line, unless ro->accept_modified: then it is rendered, and a warning leads stderr,
 * summary.json's "warnings" (and dataset.modified) and both reports. A directory whose
 * meta.json has no dataset record (or no meta.json) is refused the same way, naming the
 * missing key, unless ro->unverified: then VERIFY_UNVERIFIED_LEAD leads them. */
int render_dir(const char *dir, const struct render_opts *ro, json_t **summary_out, char *err,
               size_t errlen);

#endif
