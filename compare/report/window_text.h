/* window_text: the reports' "Interference and server accounting" section as plain sentences
 * (report.md and report.html print the same ones): which accounting the server figures use
 * (window marks or the whole process), server CPU µs, system calls and context switches per
 * operation per row, the disturbed runs and by how much, and the throughput outliers left
 * out. Pure: the callback writes. */
#ifndef PAIRBENCH_WINDOW_TEXT_H
#define PAIRBENCH_WINDOW_TEXT_H

#include <jansson.h>

/* put(ctx, item, text): item 0 = a paragraph, 1 = a list item, every sentence from the string
 * table in lang ("zh" or English). Nothing is written for a summary without per-run
 * interference or server-window figures. */
void window_text(const json_t *summary, const json_t *meta, const char *lang,
                 void (*put)(void *ctx, int item, const char *text), void *ctx);

/* The section's heading in lang. */
const char *window_text_heading(const char *lang);

#endif
