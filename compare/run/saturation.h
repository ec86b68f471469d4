/* saturation: the rate a sweep's percentages are of. A configuration whose "rate" is "N%" keeps
 * the percentage in its parameters (so its id does not move with the host), and before the
 * schedule one short closed-loop run of each version measures the configuration's saturation
 * rate (its parameters without rate and arrival: one measurement serves every percentage); the
 * rate offered to both versions is N% of the slower version's throughput, rounded to whole
 * operations per second. meta.json keeps the measurements under "saturation". */
#ifndef PAIRBENCH_SATURATION_H
#define PAIRBENCH_SATURATION_H

#include <stddef.h>

#include <jansson.h>

#include "run/runner.h"

/* The key a configuration's saturation is kept under: the id of its parameters without
 * "rate" and "arrival". Returns 0, or -1. */
int saturation_key(const json_t *params, char id[9]);

/* Measures the saturation rate of every selected configuration with a percentage rate that
 * r->saturation does not hold yet, taking it from known (an earlier meta.json's "saturation",
 * on --resume) when it holds it. Returns 0, 1 when interrupted, or -1 with err (a failed
 * closed-loop run names the configuration, the version and the reason). */
int saturation_measure(struct runner *r, const unsigned char *selected, const json_t *known,
                       char *err, size_t errlen);

/* In an effective configuration eff, a percentage rate replaced by the absolute rate it
 * stands for (when r->saturation holds its configuration); anything else left as it is.
 * Returns eff (NULL for NULL). */
json_t *saturation_resolve(const struct runner *r, json_t *eff);

#endif
