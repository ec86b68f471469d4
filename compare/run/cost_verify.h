/* cost_verify: the evidence behind an exact count (docs/statistics.md "Exact counts"). A
 * counted run is exact only when, read while the server still runs, (1) every process counted
 * in the window runs the image the interposer started in (its log's last "L" line for the
 * process names an executable mapped in /proc/PID/maps, and the interposer is mapped there),
 * (2) no random bytes reached it by a route the interposer did not serve (valgrind's trace of
 * the process's system calls, --trace-syscalls: a getrandom, or more opens of /dev/urandom or
 * /dev/random in any spelling than the interposer saw), and (3) one process did the window's
 * work (several sharing it: which of them serves a connection follows scheduling). The repeat
 * of one seed (cost.c) is the fourth check. */
#ifndef PAIRBENCH_COST_VERIFY_H
#define PAIRBENCH_COST_VERIFY_H

#include <stddef.h>

#include <jansson.h>

/* A process doing at least this share of the window's instructions takes part in serving it. */
#define COST_VERIFY_WORK_SHARE 0.01

/* The window's instructions per process: the last dump (cg.PID.N, highest N) of each process
 * in dir. New reference ({pid: instructions}); NULL when out of memory. */
json_t *cost_verify_window(const char *dir);

/* Checks (1) to (3) for the processes of `window` (cost_verify_window) against the
 * interposer's log `log` and valgrind's traces dir/vg.PID.log. 0 when they hold, 1 with why
 * when not. `routes` gets what the trace saw that was not served ({route: calls}). */
int cost_verify_run(const char *dir, const char *log, const json_t *window, json_t *routes,
                    char *why, size_t whylen);

/* Adds to the valgrind command wrap (NULL-ended, room for two more) the trace of every
 * process's system calls into dir/vg.PID.log (log: the option's storage, kept by the caller
 * while wrap is used). */
void cost_verify_wrap(char **wrap, const char *dir, char *log, size_t loglen);

/* Two counts of one seed count the same when they differ by at most this share: half the
 * seed-pair rule's threshold at the default 1% (summary_cost.h), so that a repeat's spread
 * alone can never move a pair past it. */
#define COST_VERIFY_REPEAT_VIRTUAL 0.00025
#define COST_VERIFY_REPEAT_REAL 0.00075

/* The repeat rep (a counted line, or one that failed) of an exact line's seed: line's record
 * gets "repeat" {"per_op", "change", "tolerance"}, and is made not exact, with why, when the
 * repeat failed, was not exact or differs by more than the tolerance. */
void cost_verify_repeat(json_t *line, const json_t *rep);

#endif
