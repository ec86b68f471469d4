/* atomic: temp file + fsync + rename (see atomic.h). */
#include "util/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fd_write_all(int fd, const void *data, size_t n)
{
    const char *p = data;

    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void fsync_dir_of(const char *path)
{
    char copy[PATH_MAX];
    int fd;

    snprintf(copy, sizeof(copy), "%s", path);
    fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    (void)fsync(fd); /* best effort: some file systems refuse fsync on directories */
    close(fd);
}

int atomic_write(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    char tmp[PATH_MAX];
    int fd = -1, rc = -1;

    if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= sizeof(tmp)) {
        snprintf(err, errlen, "path too long: '%s'", path);
        return -1;
    }
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create '%s': %s", tmp, strerror(errno));
        goto out;
    }
    if (fd_write_all(fd, data, len) < 0 || fsync(fd) < 0) {
        snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
        goto out;
    }
    if (close(fd) < 0) {
        fd = -1;
        snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
        goto out;
    }
    fd = -1;
    if (rename(tmp, path) < 0) {
        snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
        goto out;
    }
    fsync_dir_of(path);
    rc = 0;
out:
    if (fd >= 0)
        close(fd);
    if (rc < 0)
        (void)unlink(tmp);
    return rc;
}

int atomic_write_json(const char *path, const json_t *doc, char *err, size_t errlen)
{
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    size_t n;
    int rc;

    if (!text) {
        snprintf(err, errlen, "cannot encode '%s': out of memory", path);
        return -1;
    }
    n = strlen(text);
    {
        char *t2 = realloc(text, n + 2);
        if (!t2) {
            free(text);
            snprintf(err, errlen, "cannot encode '%s': out of memory", path);
            return -1;
        }
        text = t2;
    }
    text[n] = '\n';
    text[n + 1] = '\0';
    rc = atomic_write(path, text, n + 1, err, errlen);
    free(text);
    return rc;
}
