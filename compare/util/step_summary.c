/* step_summary: append Markdown to $GITHUB_STEP_SUMMARY (see step_summary.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/step_summary.h"
#include "util/atomic.h"

int step_summary_append(const char *md, char *err, size_t errlen)
{
    const char *path = getenv("GITHUB_STEP_SUMMARY");
    int fd, ok;

    if (!path || !*path)
        return 0;
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "GITHUB_STEP_SUMMARY '%s': %s", path, strerror(errno));
        return -1;
    }
    ok = fd_write_all(fd, md, strlen(md)) == 0 && fd_write_all(fd, "\n", 1) == 0;
    if (!ok)
        snprintf(err, errlen, "GITHUB_STEP_SUMMARY '%s': %s", path, strerror(errno));
    if (close(fd) < 0 && ok) {
        snprintf(err, errlen, "GITHUB_STEP_SUMMARY '%s': %s", path, strerror(errno));
        ok = 0;
    }
    return ok ? 1 : -1;
}
