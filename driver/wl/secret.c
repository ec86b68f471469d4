/* Loads Redis AUTH credentials from a file or the environment (see secret.h). The password
 * is checked for characters that cannot be sent (none: it travels as a bulk string), and
 * for size, and is wiped from memory on request. */
#include "wl/secret.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void strip_newline(char *p, size_t *len)
{
    if (*len > 0 && p[*len - 1] == '\n') {
        (*len)--;
        if (*len > 0 && p[*len - 1] == '\r')
            (*len)--;
    }
    p[*len] = '\0';
}

/* A password others on the machine can read is no longer a secret: say so (as ssh does for
 * its keys), but go on, since the run itself is not harmed. */
static void warn_if_readable(int fd, const char *path)
{
    struct stat st;

    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & (S_IRGRP | S_IROTH)))
        fprintf(stderr,
                "driver: warning: --password-file '%s' is readable by %s (mode %03o): "
                "chmod 600 it\n",
                path, (st.st_mode & S_IROTH) ? "everyone" : "its group",
                (unsigned)(st.st_mode & 0777));
}

static int load_file(struct secret *s, const char *path, char *err, size_t errlen)
{
    int fd = -1, rc = -1;
    size_t len = 0;

    do {
        fd = open(path, O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        snprintf(err, errlen, "redis: --password-file '%s': %s", path, strerror(errno));
        goto out;
    }
    warn_if_readable(fd, path);
    for (;;) {
        ssize_t r;

        if (len == sizeof(s->password) - 1) {
            char extra;

            do {
                r = read(fd, &extra, 1);
            } while (r < 0 && errno == EINTR);
            if (r > 0) {
                snprintf(err, errlen,
                         "redis: --password-file '%s': too long (expected at most %zu bytes)", path,
                         sizeof(s->password) - 1);
                goto out;
            }
        } else {
            r = read(fd, s->password + len, sizeof(s->password) - 1 - len);
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(err, errlen, "redis: --password-file '%s': %s", path, strerror(errno));
            goto out;
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    strip_newline(s->password, &len);
    if (len == 0) {
        snprintf(err, errlen, "redis: --password-file '%s': empty (expected the password)", path);
        goto out;
    }
    s->password_len = len;
    rc = 0;
out:
    if (fd >= 0)
        close(fd);
    return rc;
}

int secret_load(struct secret *s, const char *password_file, char *err, size_t errlen)
{
    const char *user = getenv(SECRET_ENV_USER);

    secret_wipe(s);
    if (user != NULL && *user != '\0') {
        if (strlen(user) >= sizeof(s->user)) {
            snprintf(err, errlen, "redis: %s: too long (expected at most %zu bytes)",
                     SECRET_ENV_USER, sizeof(s->user) - 1);
            return -1;
        }
        snprintf(s->user, sizeof(s->user), "%s", user);
    }
    if (password_file != NULL && *password_file != '\0') {
        if (load_file(s, password_file, err, errlen) < 0) {
            secret_wipe(s);
            return -1;
        }
        return 0;
    }
    const char *pw = getenv(SECRET_ENV_PASSWORD);
    if (pw == NULL || *pw == '\0') {
        snprintf(err, errlen, "redis: --auth needs a password: set %s or pass --password-file FILE",
                 SECRET_ENV_PASSWORD);
        secret_wipe(s);
        return -1;
    }
    size_t len = strlen(pw);
    if (len >= sizeof(s->password)) {
        snprintf(err, errlen, "redis: %s: too long (expected at most %zu bytes)",
                 SECRET_ENV_PASSWORD, sizeof(s->password) - 1);
        secret_wipe(s);
        return -1;
    }
    memcpy(s->password, pw, len + 1);
    s->password_len = len;
    return 0;
}

void secret_wipe(struct secret *s)
{
    explicit_bzero(s, sizeof(*s));
}
