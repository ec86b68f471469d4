/* cost_remote: a counted run's server on the server host (see cost_remote.h). */
#include "run/cost_remote.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

/* A dump of every process waits on each one's gdbserver (the agent tries each 3 × 10 s). */
#define REMOTE_VGDB_TIMEOUT_S 120.0
#define REMOTE_FETCH_TIMEOUT_S 30.0

int cost_remote_start(struct runner *r, struct launch *l, json_t *eff, struct remote *rm, char *vg,
                      size_t vglen, char *reason, size_t reasonlen)
{
    char why[512];
    json_t *rep;
    int rc = launch_start_remote(r, l, eff, rm, reason, reasonlen);

    if (rc != 0)
        return rc;
    rep = remote_call(rm, json_pack("{s:s}", "op", "tools"), 20.0, why, sizeof(why));
    if (rep && json_string_length(json_object_get(rep, "valgrind")))
        snprintf(vg, vglen, "%s", json_string_value(json_object_get(rep, "valgrind")));
    json_decref(rep);
    if (!rep) {
        snprintf(reason, reasonlen, "%s", why);
        return 1;
    }
    return 0;
}

int cost_remote_vgdb(struct remote *rm, const char *cmd, char *why, size_t whylen)
{
    json_t *rep = remote_call(rm, json_pack("{s:s,s:s}", "op", "vgdb", "cmd", cmd),
                              REMOTE_VGDB_TIMEOUT_S, why, whylen);

    json_decref(rep);
    return rep ? 0 : -1;
}

/* One profile fetched in pieces into path. 0, or -1 with why. */
static int pull_one(struct remote *rm, const char *name, const char *path, char *why, size_t whylen)
{
    unsigned char raw[12288];
    json_int_t off = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600), done = 0, rc = -1;

    if (fd < 0) {
        snprintf(why, whylen, "cannot write '%.300s': %s", path, strerror(errno));
        return -1;
    }
    while (!done) {
        json_t *rep =
            remote_call(rm, json_pack("{s:s,s:s,s:I}", "op", "fetch", "name", name, "offset", off),
                        REMOTE_FETCH_TIMEOUT_S, why, whylen);
        const char *b64 = json_string_value(json_object_get(rep, "data"));
        size_t len = b64 ? strlen(b64) : 0;
        int n = len && len % 4 == 0 && len / 4 * 3 <= sizeof(raw)
                    ? EVP_DecodeBlock(raw, (const unsigned char *)b64, (int)len)
                    : 0;

        if (!rep || (len && n <= 0)) {
            if (rep)
                snprintf(why, whylen, "the agent on %s sent a profile piece that is not base64",
                         rm->h->url);
            json_decref(rep);
            goto out;
        }
        /* EVP_DecodeBlock counts the padding's zero bytes too */
        n -= len >= 1 && b64[len - 1] == '=' ? (len >= 2 && b64[len - 2] == '=' ? 2 : 1) : 0;
        done = json_is_true(json_object_get(rep, "eof")) || n == 0;
        json_decref(rep);
        if (n > 0 && write(fd, raw, (size_t)n) != n) {
            snprintf(why, whylen, "cannot write '%.300s': %s", path, strerror(errno));
            goto out;
        }
        off += n;
    }
    rc = 0;
out:
    if (close(fd) != 0 && rc == 0) {
        snprintf(why, whylen, "cannot write '%.300s': %s", path, strerror(errno));
        rc = -1;
    }
    if (rc < 0)
        (void)unlink(path);
    return rc;
}

int cost_remote_pull(struct remote *rm, const char *dir, char *why, size_t whylen)
{
    json_t *rep =
        remote_call(rm, json_pack("{s:s}", "op", "files"), REMOTE_FETCH_TIMEOUT_S, why, whylen);
    const char *name;
    json_t *v;
    int rc = rep ? 0 : -1;

    json_object_foreach(json_object_get(rep, "files"), name, v)
    {
        char path[4400];
        struct stat st;

        /* each dump is a new file (cg.PID.N): one copied before is complete */
        snprintf(path, sizeof(path), "%s/%s", dir, name);
        if (strchr(name, '/') || lstat(path, &st) == 0)
            continue;
        if ((rc = pull_one(rm, name, path, why, whylen)) < 0)
            break;
    }
    json_decref(rep);
    return rc;
}

int cost_remote_ended(struct remote *rm, char *why, size_t whylen)
{
    char tail[1200];

    if (rm->ended[0]) {
        snprintf(why, whylen, "the counted server on the server host: %s", rm->ended);
        return 1;
    }
    if (remote_running(rm, tail, sizeof(tail)))
        return 0;
    if (rm->ended[0]) /* the session ended while it was asked */
        snprintf(why, whylen, "the counted server on the server host: %s", rm->ended);
    else
        snprintf(why, whylen, "the counted server %s", tail);
    return 1;
}
