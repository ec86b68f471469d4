/* history: the nightly history of `compare drift` as a store (see history.h). */
#include "run/history.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "data/dataset.h"
#include "data/verify.h"
#include "util/jobs_util.h"

#define HISTORY_MAX_INDEX (64u << 20)

static const char *const env_keys[] = HISTORY_ENV_KEYS;
#define ENV_KEYS (sizeof(env_keys) / sizeof(env_keys[0]))

/* The environment a night keeps in the index: env_keys ("unknown" when absent), and cpu_id
 * when recorded. New reference, NULL when out of memory. */
static json_t *env_index(const json_t *env)
{
    json_t *o = json_object();
    size_t k;

    for (k = 0; o && k < ENV_KEYS; k++)
        if (json_object_set_new(o, env_keys[k], json_string(ju_str(env, env_keys[k], "unknown"))) <
            0) {
            json_decref(o);
            return NULL;
        }
    if (o && json_is_string(json_object_get(env, "cpu_id")) &&
        json_object_set(o, "cpu_id", json_object_get(env, "cpu_id")) < 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* "2026-11-29T20:00:00Z" + sha -> "20261129T200000Z-1a2b3c4d" */
static void night_id(const json_t *meta, const char *sha, char *out, size_t len)
{
    const char *started = json_string_value(json_object_get(meta, "started"));
    char t[40] = "";
    size_t i, k = 0;

    if (!started)
        started = "unknown";
    for (i = 0; started[i] && k + 1 < sizeof(t); i++)
        if ((started[i] >= '0' && started[i] <= '9') || started[i] == 'T' || started[i] == 'Z')
            t[k++] = started[i];
    t[k] = '\0';
    snprintf(out, len, "%s-%.8s", *t ? t : "unknown", sha);
}

/* One line of the index (n bytes at p, line number ln): appended to h->index when it is a
 * night not seen before; else named on stderr and left out. */
static int read_line(struct history *h, const char *path, const char *p, size_t n, unsigned ln,
                     int torn)
{
    json_error_t je;
    json_t *o = json_loadb(p, n, 0, &je);
    const char *id = json_string_value(json_object_get(o, "id"));
    const char *dir = json_string_value(json_object_get(o, "dir"));
    int rc = 0;
    size_t used = strlen(h->bad_lines);

    if (!json_is_object(o) || !id || !dir || strncmp(dir, "runs/", 5) != 0 || strstr(dir, "..")) {
        h->bad++;
        if (used + 40 < sizeof(h->bad_lines))
            snprintf(h->bad_lines + used, sizeof(h->bad_lines) - used, "%sindex.jsonl:%u (%s)",
                     used ? "; " : "", ln, torn ? "a torn last line" : "not a night");
        fprintf(stderr, "compare: drift: warning: '%s:%u': %s (%s): left out, kept in the file\n",
                path, ln, torn ? "a torn last line" : "not a night",
                !o ? je.text : "expected {\"id\", \"dir\": \"runs/ID\", ...}");
    } else if (ju_find_by(h->index, "id", id)) {
        h->bad++;
        if (used + 40 < sizeof(h->bad_lines))
            snprintf(h->bad_lines + used, sizeof(h->bad_lines) - used,
                     "%sindex.jsonl:%u (night `%s` again)", used ? "; " : "", ln, id);
        fprintf(stderr, "compare: drift: warning: '%s:%u': night '%s' again: counted once\n", path,
                ln, id);
    } else {
        rc = json_array_append(h->index, o);
    }
    json_decref(o);
    return rc;
}

/* Reads DIR/index.jsonl (missing: empty) into h->index. */
static int read_index(struct history *h, char *err, size_t errlen)
{
    char path[4200], *text;
    size_t len = 0, off = 0;

    snprintf(path, sizeof(path), "%s/index.jsonl", h->dir);
    h->index = json_array();
    if (!h->index) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (access(path, F_OK) != 0)
        return 0;
    text = ju_read_file(path, HISTORY_MAX_INDEX, &len, err, errlen);
    if (!text)
        return -1;
    while (off < len) {
        const char *nl = memchr(text + off, '\n', len - off);
        size_t end = nl ? (size_t)(nl - text) : len;

        h->lines++;
        if (end > off && read_line(h, path, text + off, end - off, h->lines, !nl) < 0) {
            free(text);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        off = end + 1;
    }
    free(text);
    return 0;
}

int history_open(struct history *h, const char *dir, char *err, size_t errlen)
{
    char path[4200];

    memset(h, 0, sizeof(*h));
    h->dir = dir;
    h->lock_fd = -1;
    snprintf(path, sizeof(path), "%s/runs", dir);
    if (ju_mkdir_p(path, err, errlen) < 0)
        return -1;
    /* the directory itself is locked: no lock file joins the data (a history kept in git) */
    snprintf(path, sizeof(path), "%s", dir);
    h->lock_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (h->lock_fd < 0) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    if (flock(h->lock_fd, LOCK_EX | LOCK_NB) < 0) {
        fprintf(stderr, "compare: drift: waiting for '%s' (another compare drift holds it)\n",
                path);
        while (flock(h->lock_fd, LOCK_EX) < 0)
            if (errno != EINTR) {
                snprintf(err, errlen, "cannot lock '%s': %s", path, strerror(errno));
                return -1;
            }
    }
    return read_index(h, err, errlen);
}

void history_close(struct history *h)
{
    json_decref(h->index);
    h->index = NULL;
    if (h->lock_fd >= 0)
        close(h->lock_fd); /* releases the lock */
    h->lock_fd = -1;
}

/* Only what the run recorded goes into the history (or, accepted, re-rendered saying so).
 * Returns 0 (vr filled), or -1 with err. */
static int night_verified(const char *rundir, const struct render_opts *ro,
                          struct verify_result *vr, char *err, size_t errlen)
{
    if (verify_dir(rundir, vr, err, errlen) < 0)
        return -1;
    if (vr->modified && !ro->accept_modified && !ro->unverified) {
        snprintf(err, errlen,
                 "--add '%s': %s: not what the run recorded in meta.json; adding it needs "
                 "--accept-modified",
                 rundir, vr->problem);
        return -1;
    }
    if (vr->unverified && !ro->unverified) {
        snprintf(err, errlen,
                 "--add '%s': %s: runs.jsonl cannot be checked against what the run recorded; "
                 "adding it needs --unverified",
                 rundir, vr->why);
        return -1;
    }
    return 0;
}

/* The run directory's files copied to dest (those it has), its reports re-rendered when
 * they must say something or are missing. */
static int copy_night(const char *rundir, const char *dest, const struct verify_result *vr,
                      const struct render_opts *ro, char *err, size_t errlen)
{
    static const char *const files[] = {"meta.json", "runs.jsonl",  "summary.json",
                                        "report.md", "report.html", "summary.csv"};
    char path[4400], to[4400];
    struct stat st;
    size_t i;

    if (ju_mkdir_p(dest, err, errlen) < 0)
        return -1;
    for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        snprintf(path, sizeof(path), "%.4096s/%s", rundir, files[i]);
        if (stat(path, &st) < 0)
            continue;
        snprintf(to, sizeof(to), "%.4096s/%s", dest, files[i]);
        if (ju_copy_file(path, to, err, errlen) < 0)
            return -1;
    }
    snprintf(path, sizeof(path), "%.4096s/summary.json", dest);
    if ((vr->modified || vr->unverified || stat(path, &st) < 0) &&
        render_dir(dest, ro, NULL, err, errlen) < 0)
        return -1;
    return 0;
}

/* Appends line to DIR/index.jsonl: after a newline when the file ends in a torn line, so that
 * line stays as it is, its own line, and the new one is whole. */
static int append_line(const struct history *h, const json_t *line, char *err, size_t errlen)
{
    char path[4200], last = '\n';
    struct stat st;
    int fd, rc = -1;

    snprintf(path, sizeof(path), "%s/index.jsonl", h->dir);
    fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) == 0 && st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) != 1)
        last = '\n';
    if (last != '\n' && write(fd, "\n", 1) != 1)
        snprintf(err, errlen, "'%s': write: %s", path, strerror(errno));
    else if (dataset_append(fd, line, err, errlen) == 0)
        rc = 0;
    close(fd);
    return rc;
}

/* The index line of a night. New reference, NULL when out of memory. */
static json_t *night_line(const json_t *meta, const char *id)
{
    time_t now = time(NULL);
    struct tm tm;
    char added[32];
    const json_t *v = json_array_get(json_object_get(meta, "versions"), 0);
    json_t *line;

    gmtime_r(&now, &tm);
    strftime(added, sizeof(added), "%Y-%m-%dT%H:%M:%SZ", &tm);
    line = json_pack("{s:s, s:s+, s:O?, s:s, s:O?, s:O?, s:o?}", "id", id, "dir", "runs/", id,
                     "started", json_object_get(meta, "started"), "added", added, "baseline",
                     json_object_get(v, "name"), "commit", json_object_get(v, "commit"),
                     "environment", env_index(json_object_get(meta, "environment")));
    if (line && !json_is_object(json_object_get(line, "environment"))) {
        json_decref(line);
        line = NULL;
    }
    return line;
}

int history_add(struct history *h, const char *rundir, const struct render_opts *accept, char *err,
                size_t errlen)
{
    struct render_opts ro = {NULL, NULL, accept->accept_modified, accept->unverified, NULL};
    struct verify_result vr;
    char path[4200], dest[4200], id[96], sha[65] = "00000000";
    json_t *meta, *line = NULL;
    const char *s;
    struct stat st;
    int rc = -1;

    snprintf(path, sizeof(path), "%s/meta.json", rundir);
    meta = ju_load_json(path, err, errlen);
    if (!meta)
        return -1;
    s = json_string_value(json_object_get(json_object_get(meta, "dataset"), "sha256"));
    if (s)
        snprintf(sha, sizeof(sha), "%s", s);
    night_id(meta, sha, id, sizeof(id));
    if (ju_find_by(h->index, "id", id)) {
        fprintf(stderr, "compare: drift: '%s' is already in the history as '%s': nothing added\n",
                rundir, id);
        json_decref(meta);
        return 0;
    }
    snprintf(path, sizeof(path), "%s/runs.jsonl", rundir);
    if (stat(path, &st) < 0) {
        snprintf(err, errlen, "--add '%s': no runs.jsonl (%s): not a run directory", rundir,
                 strerror(errno));
        goto out;
    }
    snprintf(dest, sizeof(dest), "%s/runs/%s", h->dir, id);
    if (night_verified(rundir, &ro, &vr, err, errlen) < 0 ||
        copy_night(rundir, dest, &vr, &ro, err, errlen) < 0)
        goto out;
    line = night_line(meta, id);
    if (!line) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (append_line(h, line, err, errlen) < 0 || json_array_append(h->index, line) < 0)
        goto out;
    h->lines++;
    fprintf(stderr, "compare: drift: added '%s' as night '%s'\n", rundir, id);
    rc = 1;
out:
    json_decref(line);
    json_decref(meta);
    return rc;
}
