/* sysknobs: the host settings that move timed and counted figures on this kind of machine
 * (docs/ci.md, "A quiet machine"): guest halt polling and the cpuidle governor, the CPU
 * frequency governor and boost, address-space randomisation (counted runs) and
 * net.core.busy_poll. Each knob is one file under /sys or /proc/sys, read as a line; a knob
 * whose file does not exist on this host is absent (not an error). `compare system` shows,
 * tunes and resets them; meta.json records their state during every run (envinfo.h). */
#ifndef PAIRBENCH_SYSKNOBS_H
#define PAIRBENCH_SYSKNOBS_H

#include <stddef.h>

#include <jansson.h>

#define SYSKNOBS_MAX 80

/* What a knob's file accepts. */
enum sysknob_kind {
    SYSKNOB_WORD, /* a governor's name, one of the words its "available" file lists */
    SYSKNOB_UINT, /* an unsigned decimal integer up to max */
    SYSKNOB_YN,   /* Y or N */
};

struct sysknob {
    char name[64];   /* "haltpoll.guest_halt_poll_ns", "cpufreq.governor.cpu0", ... */
    char path[160];  /* the file under /sys or /proc/sys */
    char value[128]; /* the current value (first line); "" when absent */
    char quiet[32];  /* the quiet value; "" when this host offers none (left as it is) */
    const char *why; /* what the quiet value does */
    int present;     /* 1 when the file exists and was read */
    enum sysknob_kind kind;
    unsigned long max; /* SYSKNOB_UINT: the largest value */
    char offered[160]; /* SYSKNOB_WORD: the file listing the words it takes, or "" */
};

/* Fills k[0..max) with every knob of this host (per-CPU governors expanded; a knob family
 * absent here appears once, absent) and reads their values. Returns the count. */
size_t sysknobs_read(struct sysknob *k, size_t max);

/* Whether value is one k's file takes (the kind, the range, a word its list offers). 1, or
 * 0 with why ("expected an integer from 0 to 2"). */
int sysknobs_value_ok(const struct sysknob *k, const char *value, char *why, size_t whylen);

/* Writes value (and a newline) to path. 0, or -1 with err naming the path and the error. */
int sysknobs_write(const char *path, const char *value, char *err, size_t errlen);

/* Reads path's first line into buf. 0, or -1 (errno set) when it cannot be read. */
int sysknobs_read_line(const char *path, char *buf, size_t len);

/* New reference: {"<name>": "<value>" or null when absent, ...}, for meta.json. NULL only
 * when out of memory. */
json_t *sysknobs_json(void);

/* New reference: k[0..n) as [{"name", "path", "value" (null when absent), "quiet" (null when
 * none is offered), "is_quiet", "why"}]: `compare system show --json`'s list, and the agent's
 * reply to "knobs" on a server host. */
json_t *sysknobs_list_json(const struct sysknob *k, size_t n);

/* The knobs of such a list (another host's) into k[0..max): its "why" points into list, which
 * must outlive k; kind and limits are not carried (for showing, not writing). Returns the
 * count. */
size_t sysknobs_from_json(const json_t *list, struct sysknob *k, size_t max);

#endif
