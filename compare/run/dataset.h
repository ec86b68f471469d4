/* dataset: runs.jsonl, the raw measurements of a run directory: one JSON object per line,
 * appended and fsync'd per run so that a crash or an interrupt never loses a completed run.
 * Reading tolerates a truncated last line (a run cut short while being written). */
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

/* Reads every line into a new JSON array (*runs_out; free with json_decref()). A last line
 * without its newline that does not parse is skipped and counted in *truncated (may be
 * NULL). A missing file reads as empty. A bad line elsewhere is an error naming the file and
 * line. Returns 0, or -1 with err set. */
int dataset_read(const char *path, json_t **runs_out, unsigned *truncated, char *err,
                 size_t errlen);

/* Whether lines (an array of runs.jsonl lines) holds an ok line of kind (a counted kind:
 * "instructions", "syscalls") for configuration id config, version and round: a counted
 * round already done, which a resumed run does not repeat. */
int dataset_has_ok_line(const json_t *lines, const char *kind, const char *config,
                        const char *version, unsigned round);

#endif
