/* sysknobs_state: the state file of `compare system tune`, checked before `reset` (or a second
 * `tune`) trusts it. The file is {"schema": SYSKNOBS_STATE_SCHEMA, "tuned_at": "...", "knobs":
 * [{"name", "path", "before", "after"}...]}; a knob's entry is accepted only when its name is
 * one of this host's knobs (run/sysknobs.h), its path is that knob's own file and its values
 * are ones that file takes, so a state file cannot make reset, which runs as root, write
 * anywhere else or anything else. */
#ifndef PAIRBENCH_SYSKNOBS_STATE_H
#define PAIRBENCH_SYSKNOBS_STATE_H

#include <stddef.h>

#include <jansson.h>

#include "sysknobs.h"

#define SYSKNOBS_STATE_SCHEMA "pairbench.system-tune/1"

/* The knob of k[0..n) named name, present on this host, or NULL. */
const struct sysknob *sysknobs_find(const struct sysknob *k, size_t n, const char *name);

/* Checks st, a state document, against this host's knobs k[0..n): the schema, no unknown
 * key, every entry a known present knob at its own path with values its file takes, no knob
 * twice. Returns 0, or -1 with err naming the JSON path, the value and what was expected. */
int sysknobs_state_check(const json_t *st, const struct sysknob *k, size_t n, char *err,
                         size_t errlen);

#endif
