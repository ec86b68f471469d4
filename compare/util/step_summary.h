/* step_summary: GitHub Actions' job summary. When the environment variable
 * GITHUB_STEP_SUMMARY names a file, Markdown appended to it is shown on the run's page. */
#ifndef PAIRBENCH_STEP_SUMMARY_H
#define PAIRBENCH_STEP_SUMMARY_H

#include <stddef.h>

/* Appends md (and a newline) to the file $GITHUB_STEP_SUMMARY names. Returns 1 when written,
 * 0 when the variable is unset or empty, -1 with err naming the file on a write error. */
int step_summary_append(const char *md, char *err, size_t errlen);

#endif
