/* cgfold: call paths from callgrind's call graph, as folded stacks ("a;b;c count", the format
 * flamegraph.pl and speedscope read). Pure: the caller reads the files.
 *
 * Method: callgrind keeps one cost per caller-callee arc ("cfn=" + "calls=" and the inclusive
 * cost line after it), not one per call path. A path's cost is split among a function's
 * callees and its self cost in the proportions that function shows over all its callers
 * (the gprof assumption): exact for a function with one caller, an estimate for one called
 * from several places whose cost differs by caller. A function already on the path (recursion)
 * ends the path there; paths deeper than CGFOLD_DEPTH are cut at that depth. */
#ifndef PAIRBENCH_CGFOLD_H
#define PAIRBENCH_CGFOLD_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <jansson.h>

#define CGFOLD_DEPTH 48

struct cgfold; /* opaque: self costs and arcs per function */

struct cgfold *cgfold_new(void);
void cgfold_free(struct cgfold *f);

/* Adds one callgrind file's text to f. 0, or -1 with err naming the line. */
int cgfold_parse(struct cgfold *f, const char *text, size_t len, const char *name, char *err,
                 size_t errlen);

/* Instructions (self costs) summed over every file parsed so far. */
uint64_t cgfold_total(const struct cgfold *f);

/* The folded stacks as a JSON object {"root;...;leaf": self cost along that path × scale};
 * paths below min_cost (after scaling) are summed into their caller. New reference, NULL
 * when out of memory. */
json_t *cgfold_stacks(const struct cgfold *f, double scale, double min_cost);

/* Writes stacks (as cgfold_stacks returns) one "path count" a line, counts rounded to whole
 * numbers, zero lines left out. 0, or -1 on a write error. */
int cgfold_write(const json_t *stacks, FILE *out);

#endif
