/* calibrate: what an A/A run (the baseline against itself) says about a row's noise, and the
 * per-row floors the gate can use (cmd_calibrate writes calibration.json). Pure helpers. */
#ifndef PAIRBENCH_CALIBRATE_H
#define PAIRBENCH_CALIBRATE_H

#include <jansson.h>

struct calibrate_metric {
    double noise_pct;      /* largest |paired ratio - 1|, percent */
    double spread_pct;     /* largest (max-min)/median of the two sides, percent */
    double detectable_pct; /* smallest change whose paired ratios would all fall on one side */
    unsigned n_pairs;
    int false_alarm; /* the A/A verdict was regressed or improved */
};

/* From one metric object of an A/A summary row (docs/architecture.md#summary shape) with versions
 * base and again. Returns 0, or -1 when the metric has no paired ratios. */
int calibrate_metric_from_summary(const json_t *metric, const char *base, const char *again,
                                  struct calibrate_metric *cm);

/* The gate floor for a row: max(threshold, margin x detectable). -1 without pairs. */
int calibrate_floor(const struct calibrate_metric *cm, double threshold_pct, double *floor_pct);

#endif
