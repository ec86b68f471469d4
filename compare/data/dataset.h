/* dataset: runs.jsonl, the raw measurements of a run directory: one JSON object per line,
 * appended and fsync'd per run so that a crash or an interrupt never loses a completed run.
 * The one reader of the file (the run, confirmation, the gate, the reports, merge and the
 * check in data/verify.c all read it here) and its one rule for a cut line: a line is whole
 * only with its newline; a last line without one is a run cut short while being written,
 * reported and left out (never silently); any other line that is not a JSON object is an
 * error naming the file and the line. Blank lines are not runs. */
#ifndef PAIRBENCH_DATASET_H
#define PAIRBENCH_DATASET_H

#include <stddef.h>

#include <jansson.h>

/* Opens (creating) path for appending. A truncated last line left by a crash is cut off
 * first so that the next line starts clean. Returns an fd, or -1 with err set. */
int dataset_open(const char *path, char *err, size_t errlen);

/* Appends one compact JSON line and fsyncs it, every secret value (util/redact.h) in its
 * strings written "***" (but in its identities: version, config, label, kind, status, started,
 * ended). Returns 0, or -1 with err set (the file keeps
 * only whole lines: a failed write is cut off again). */
int dataset_append(int fd, const json_t *line, char *err, size_t errlen);

/* One line of runs.jsonl text. */
struct dataset_line {
    const char *p; /* its bytes, without the newline */
    size_t len;
    unsigned no; /* 1-based */
    int cut;     /* the last line, without its newline: a run cut short while being written */
    int blank;   /* nothing but spaces, tabs and CRs: not a run */
};

/* The next line of text (len bytes) from *off into l (zeroed before the first call: l->no
 * counts), *off moved past it. Returns 1, or 0 at the end of text. */
int dataset_next_line(const char *text, size_t len, size_t *off, struct dataset_line *l);

/* The bytes of text's whole lines (through its last newline): what is left once a cut last
 * line is left out. */
size_t dataset_whole_len(const char *text, size_t len);

/* The number of text's cut last line (no newline at its end), 0 when it ends whole. */
unsigned dataset_cut_line(const char *text, size_t len);

/* The sentence that reports a cut last line: "'DIR/runs.jsonl': line 7 has no newline at its
 * end (a run cut short while being written); it was left out". */
void dataset_cut_text(char *buf, size_t n, const char *name, unsigned line);

/* Writes that sentence to stderr as a warning. */
void dataset_warn_cut(const char *name, unsigned line);

/* Parses runs.jsonl text (named name in messages) by the rule above into a new array of the
 * line objects. A cut last line is left out: its number goes to *cut_line (0 when none) for
 * the caller to report, or, when cut_line is NULL, dataset_warn_cut() reports it. NULL on a
 * bad line, with err naming name, the line and the problem. */
json_t *dataset_parse(const char *text, size_t len, const char *name, unsigned *cut_line, char *err,
                      size_t errlen);

/* dataset_parse() of the file at path into *runs_out (free with json_decref()); a missing
 * file reads as empty. Returns 0, or -1 with err set. */
int dataset_read(const char *path, json_t **runs_out, unsigned *cut_line, char *err, size_t errlen);

/* Whether lines (an array of runs.jsonl lines) holds an ok line of kind (a counted kind:
 * "instructions", "syscalls") for configuration id config, version and round: a counted
 * round already done, which a resumed run does not repeat. */
int dataset_has_ok_line(const json_t *lines, const char *kind, const char *config,
                        const char *version, unsigned round);

#endif
