/* term: the answer first, on a terminal. The label values every row shares, once ("all rows:
 * redis · 64 B · …"); then one line per row (per candidate, named first, when several): the
 * values that vary between rows, the change of each gated metric, the verdict; a header line
 * and a closing line with the counts of summary.json's "outcome". At most `width` columns
 * (labels are cut between two values with "…", inside a value only when the first alone is
 * too wide), widths counted in terminal cells (UTF-8 aware: combining marks 0, East Asian wide
 * characters 2). */
#ifndef PAIRBENCH_TERM_H
#define PAIRBENCH_TERM_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/stats.h"

/* Terminal cells the UTF-8 string s takes (invalid bytes count 1 each). */
size_t term_width(const char *s);

/* Copies s into out (outlen bytes) cut to at most `cells` terminal cells — whole characters,
 * the middle replaced by "…" when it does not fit — then pads with spaces to exactly `cells` when
 * pad is set. Returns the cells written. */
size_t term_fit(const char *s, size_t cells, int pad, char *out, size_t outlen);

/* Writes the table of summary to f. gated: the metrics shown and judged (NULL = the
 * headline set of outcome.h); width: the line budget in cells (e.g. 100). Returns 0, or -1
 * on a write error. */
int term_table(FILE *f, const json_t *summary, const unsigned char *gated, size_t width);

#endif
