/* overtime: the figures a run's time series gives (the driver result's series and stall_ms,
 * docs/driver.md "Over time"), read from its result. Pure: no I/O.
 *   decay:          the operations of the window's last fifth over those of its first fifth
 *                   (1 = steady, 0.5 = half the throughput by the end); an interval that
 *                   straddles a fifth's edge counts in proportion;
 *   reply interval: the run's mean time between batch completions (elapsed / batches), the
 *                   pace a reply gap is measured against. */
#ifndef PAIRBENCH_OVERTIME_H
#define PAIRBENCH_OVERTIME_H

#include <stddef.h>

#include <jansson.h>

/* Points of a run's series kept in summary.json (neighbours averaged past it). */
#define OVERTIME_POINTS_MAX 60

/* The decay of result's series: 0 with *decay set, or -1 when there is none (no series,
 * fewer than 5 intervals, or no operation in the first fifth). */
int overtime_decay(const json_t *result, double *decay);

/* The run's longest reply gap (stall_ms) and mean reply interval, in ms: 0, or -1 when the
 * result has no stall_ms or no batches. */
int overtime_stall(const json_t *result, double *stall_ms, double *interval_ms);

/* A stall's change shorter than this is `~`, however many reply intervals long: one
 * descheduling of the driver or the server on a shared host (docs/statistics.md, "Over
 * time"). */
#define OVERTIME_STALL_FLOOR_MS 50.0

/* The series' throughput per interval: up to max values into out, *interval_ms set; returns
 * how many (0: no series). */
size_t overtime_throughput(const json_t *result, double *out, size_t max, double *interval_ms);

/* After the row's metrics: when the row's stall or decay is decided (regressed or improved)
 * for a candidate, or notable in a version (its median decay outside 0.8..1.25, or its
 * median stall at least 2 of its series' intervals), adds row.series: {"why": "decay",
 * "stall" or "both", "versions": {version: [{"round", "interval_ms", "throughput": [...]}]}}
 * with each ok run's throughput series (at most OVERTIME_POINTS_MAX points) from the runs in
 * latest (summary_run_key). Nothing otherwise. */
void overtime_row_series(json_t *row, const char *cfg, const json_t *latest, const json_t *versions,
                         size_t nr);

#endif
