/* report_md: the Markdown report (docs/architecture.md#summary, the seed comparison report) from a
 * summary (pairbench.summary/1, as built by summary_build() and completed by render_dir()) and
 * meta.json: two versions, N versions (one column per version, best in bold) or one version
 * (the "Detailed results" page); English or Chinese. Pure: writes only to the FILE given;
 * the same input gives the same bytes (no render time). */
#ifndef PAIRBENCH_REPORT_MD_H
#define PAIRBENCH_REPORT_MD_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* lang "en" or "zh" (NULL = "en"); meta may be NULL (everything it would give is
 * "unknown"). Returns 0, or -1 with err set (a summary without rows/versions, a write
 * error). */
int report_md_write(FILE *f, const json_t *summary, const json_t *meta, const char *lang, char *err,
                    size_t errlen);

#endif
