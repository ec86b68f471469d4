/* report_html: render a run's summary (summary.json object) and meta (meta.json object) as one
 * self-contained HTML page: inline CSS, inline SVG bar charts (bar = median, whisker = min–max,
 * one chart per metric, grouped by protocol/transport/payload), the tables, environment,
 * provenance and the reproduce command. No external URL, no script, no render time: the same
 * input gives the same bytes. Pure: writes to the FILE it is given, nothing else. */
#ifndef PAIRBENCH_REPORT_HTML_H
#define PAIRBENCH_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Write the page for `summary` (pairbench.summary/1) and `meta` (pairbench.meta/1, may be
 * NULL) to `f`. `lang` is "en" or "zh" (NULL = "en"). Returns 0, or -1 with a message in
 * err (bad summary shape, write error). */
int report_html_write(FILE *f, const json_t *summary, const json_t *meta, const char *lang,
                      char *err, size_t errlen);

/* The same, with the counted runs' folded stacks (flame_read_dir()'s object, may be NULL):
 * a differential flame graph per row and candidate where both versions have them. */
int report_html_write_flame(FILE *f, const json_t *summary, const json_t *meta, const json_t *flame,
                            const char *lang, char *err, size_t errlen);

/* The page's style sheet (charts included), for other self-contained pages such as
 * calibration.html. */
extern const char report_html_css[];

/* A protocol's name as the pages print it ("redis" -> "Redis", "tcp" -> "TCP echo", "http",
 * "ws" -> "WebSocket"); any other p as it is, NULL for NULL. */
const char *report_html_protocol_name(const char *p);

#endif
