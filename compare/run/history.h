/* history: the nightly history of `compare drift` as a store. DIR/index.jsonl holds one line per
 * night ({"id", "dir", "started", "added", "baseline", "commit", "environment"}), DIR/runs/ID a
 * copy of the night's run directory. One invocation at a time holds a lock on DIR itself
 * (flock on the directory: no lock file joins the data), from reading the index to its last
 * write, so concurrent adds are serialized and each sees the
 * other's night. A night is added once: its id (its start time and the first 8 hex digits of
 * its dataset's SHA-256) already in the index, --add says so and adds nothing. A line of the
 * index that is not a night (torn by a crash, edited) is named in a warning and left out,
 * never cut or overwritten: the next add starts a new line after it. */
#ifndef PAIRBENCH_HISTORY_H
#define PAIRBENCH_HISTORY_H

#include <stddef.h>

#include <jansson.h>

#include "report/render.h"

/* What a night's environment is judged by, in the index and in drift.md. */
#define HISTORY_ENV_KEYS                                                                           \
    {                                                                                              \
        "machine", "cpu_model", "kernel", "compiler"                                               \
    }

struct history {
    const char *dir;     /* not owned */
    int lock_fd;         /* DIR itself, locked; -1 when closed */
    json_t *index;       /* the nights the index holds (good lines, each id once), in file order */
    unsigned lines;      /* the index's lines */
    unsigned bad;        /* lines left out (named on stderr) */
    char bad_lines[512]; /* which: "index.jsonl:3 (a torn last line); ..." */
};

/* Creates DIR and DIR/runs when missing, locks DIR (waiting for another invocation, said on
 * stderr) and reads the index. Returns 0, or -1 with err. Release with
 * history_close() either way. */
int history_open(struct history *h, const char *dir, char *err, size_t errlen);

/* Copies run directory rundir into the history and appends its night to the index, after
 * checking its dataset against its meta.json (verify.h): a modified one needs
 * accept->accept_modified, one without a record accept->unverified, and is re-rendered
 * saying so. Returns 1 when added, 0 when the night was already there (said on stderr), or
 * -1 with err. */
int history_add(struct history *h, const char *rundir, const struct render_opts *accept, char *err,
                size_t errlen);

/* Releases the index and the lock. */
void history_close(struct history *h);

#endif
