/* metacmp: whether two run directories' meta.json describe the same measurement — the same
 * spec, versions, grids (by name and SHA-256) and settings (runs, warm-up, duration, grace,
 * probe timeout, noise limit) — so their runs may sit in one dataset. `compare merge` asks it
 * of shards, `compare run --resume` of the directory it continues. Where the machine may
 * differ (the driver's path, the shard, CPU pinning) nothing is compared. Pure, no I/O. */
#ifndef PAIRBENCH_METACMP_H
#define PAIRBENCH_METACMP_H

#include <stddef.h>

#include <jansson.h>

/* Compares meta documents a and b. Returns 0 when they describe the same measurement, 1 when
 * not, with what naming the first difference, e.g. "settings (duration: 2 then 1)", "grids
 * ('grid.json': SHA-256 c0ffee.. then 0ddba1..)", "spec ($.runs: 5 then 3)". */
int metacmp_diff(const json_t *a, const json_t *b, char *what, size_t whatlen);

#endif
