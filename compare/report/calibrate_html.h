/* calibrate_html: calibration.html, the page `compare calibrate` writes next to
 * calibration.md — one self-contained file (inline CSS and SVG, no script, no URL) with the
 * false-alarm count, a bar chart of the smallest detectable change per configuration
 * (throughput and batch P99) and the full table of noise, spread, detectable change and gate
 * floor per configuration and metric. English or Chinese. Pure: writes to the FILE given. */
#ifndef PAIRBENCH_CALIBRATE_HTML_H
#define PAIRBENCH_CALIBRATE_HTML_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Write the page for `cal` (a pairbench.calibration/1 object, as in calibration.json) to f.
 * lang is "en" or "zh" (NULL = "en"). Returns 0, or -1 with a message in err (bad shape,
 * out of memory, write error). */
int calibrate_html_write(FILE *f, const json_t *cal, const char *lang, char *err, size_t errlen);
/* Write calibration.md for `cal` to f: the method, one table line per configuration and
 * measured gateable metric (optional ones such as instructions included), the false-alarm
 * count. Same lang, return and errors as calibrate_html_write. */
int calibrate_md_write(FILE *f, const json_t *cal, const char *lang, char *err, size_t errlen);

#endif
