/* disturb: which rounds of a row the verdict may rest on. A run is "disturbed" when the rest
 * of the machine used more CPU (or steal) during its window than the limit (runs.jsonl
 * interference.disturbed, interference.c); a run whose throughput is an order of magnitude
 * from its version's median in the row is an outlier (interference_is_outlier). Outlier
 * rounds are always left out; disturbed rounds are left out when at least DISTURB_MIN_CLEAN (3)
 * clean rounds remain (else they are kept, and the report says so). Pure: no I/O. */
#ifndef PAIRBENCH_DISTURB_H
#define PAIRBENCH_DISTURB_H

#include <stddef.h>

#include <jansson.h>

/* The clean rounds a row must keep for its disturbed ones to be left out. */
#define DISTURB_MIN_CLEAN 3

/* cells[vi * nr + r]: the ok run of version vi in round r + 1, or NULL. Sets exclude[r] (nr
 * entries) and the row's "interference" object: {"disturbed": [{version, round,
 * other_cpu_cores, steal_pct, nivcsw, excluded}], "outliers": [{version, round, throughput,
 * median, excluded}] (runs an order of magnitude from their version's median, left out while
 * at most one in three of that version's runs is), "clean_rounds", "excluded_rounds": [round...]},
 * and "server_window": {"source": "marks" | "process" | "mixed"} when some run has server.window.
 */
void disturb_row(json_t *row, const json_t *const *cells, const json_t *versions, size_t nr,
                 unsigned char *exclude);

#endif
