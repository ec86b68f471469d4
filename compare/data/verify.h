/* verify: whether a run directory's runs.jsonl is what its run recorded, checked against
 * meta.json before anything is judged (`report`, `gate --from`, `drift --add`, `merge`):
 * the file's SHA-256 and each line's own hash (dataset.sha256, dataset.line_sha256), and
 * that every line's version, configuration id, round and position are ones the schedule
 * allows, that no (configuration, version, round) is run twice without cause (a failed or
 * disturbed run may be run again), and that the last line is whole. A meta.json without a
 * dataset record (no "dataset", or no "dataset.sha256"), or no meta.json at all, leaves
 * nothing to check against: the data is unverified, and judged only when told (--unverified);
 * a record of the wrong shape is a modification. It protects against
 * accidents and stale artifacts; a writer that controls both files can make them agree.
 * Pure apart from hashing, no I/O but verify_dir(). Lines are split by data/dataset.h's
 * rule. */
#ifndef PAIRBENCH_VERIFY_H
#define PAIRBENCH_VERIFY_H

#include <stddef.h>

#include <jansson.h>

/* The per-line hashes meta.json keeps: the first VERIFY_LINE_HEX hex digits of each line's
 * SHA-256 (without its newline), for datasets of at most VERIFY_MAX_LINES lines. */
#define VERIFY_LINE_HEX 16
#define VERIFY_MAX_LINES 200000

struct verify_result {
    int modified;      /* 1 when something does not match (problem says what) */
    int torn_tail;     /* the number of an unfinished run's cut last line, which the readers
                        * (data/dataset.h) report and leave out; meta.json recorded no hash; 0
                        * when the file ends whole */
    unsigned line;     /* the first offending line, 1-based; 0 for the whole file */
    char problem[512]; /* "runs.jsonl:7: version 'zzz' is not one of meta.json's versions" */
    char sha[65];      /* the SHA-256 of the text as it is */
    int unverified;    /* 1 when there is no record to check against (why says which key) */
    char why[600];     /* "meta.json: key \"dataset\" is missing" */
};

/* Checks text (len bytes of runs.jsonl, named name in messages) against meta (may be NULL:
 * no meta.json, unverified). Returns 0 (vr filled), or -1 when out of memory. */
int verify_dataset(const char *text, size_t len, const json_t *meta, const char *name,
                   struct verify_result *vr);

/* The per-line hashes of text as meta.json's dataset.line_sha256 (a new array), or NULL when
 * the dataset has more than VERIFY_MAX_LINES lines or memory ran out. */
json_t *verify_line_hashes(const char *text, size_t len);

/* Reads DIR/meta.json and DIR/runs.jsonl and checks them. Returns 0 (vr filled), or -1 with
 * err (a file that cannot be read or parsed). */
int verify_dir(const char *dir, struct verify_result *vr, char *err, size_t errlen);

/* The sentence every output leads with when modified data is judged (--accept-modified). */
#define VERIFY_MODIFIED_LEAD "The data was modified after the run"
/* The sentence every output leads with when unverified data is judged (--unverified). */
#define VERIFY_UNVERIFIED_LEAD "The data is unverified"

#endif
