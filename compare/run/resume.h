/* resume: what `compare run --resume` checks and keeps of the run directory it continues.
 * The directory's meta.json must describe the same measurement as the resumed invocation
 * (metacmp.h: spec, versions, grids, settings), else runs of two measurements would mix in
 * one dataset: refused, naming the first difference, with meta.json left as it was. */
#ifndef PAIRBENCH_RESUME_H
#define PAIRBENCH_RESUME_H

#include <stddef.h>

#include <jansson.h>

/* Reads DIR/meta.json and compares it with meta (the resumed invocation's). Returns 0 with
 * *old set (new reference, or NULL when the directory has no readable meta.json: nothing to
 * compare, nothing to keep), or -1 with err naming the directory and what differs. */
int resume_check(const char *dir, const json_t *meta, json_t **old, char *err, size_t errlen);

/* Keeps the original start time and command line in meta and appends this invocation's
 * start to "resumed". */
void resume_carry(json_t *meta, const json_t *old);

struct spec;

/* Adds a warning to meta's "warnings" when the dataset (existing runs.jsonl lines) holds runs
 * of configurations (among the selected ones) or versions this spec does not have. Linear in
 * the lines and configurations (hash sets). */
void resume_warn_stray(json_t *meta, const json_t *existing, const struct spec *sp,
                       const unsigned char *selected);

#endif
