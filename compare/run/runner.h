/* runner: one run of the schedule (docs/architecture.md#schedule): a fresh server for the version
 * when it has one (free loopback port, placeholders expanded, readiness probe bounded by
 * probe_timeout), a fresh driver with the effective configuration in a file, a timeout of warm-up +
 * duration + grace (SIGTERM, then SIGKILL 2 s later), client CPU and peak RSS from wait4(), server
 * CPU from /proc over the driver's lifetime; the server stopped and reaped. The result is the
 * runs.jsonl line, status "ok" or "failed" with the reason. */
#ifndef PAIRBENCH_RUNNER_H
#define PAIRBENCH_RUNNER_H

#include <signal.h>
#include <stddef.h>

#include <jansson.h>

#include "run/interference.h"
#include "run/schedule.h"
#include "run/spec.h"
#include "run/sshhost.h"

struct runner {
    const struct spec *sp;
    const char *work_dir;        /* scratch directory: config files, logs, server dirs */
    const char *out_dir;         /* the output directory (counted runs' folded stacks) */
    const char *default_driver;  /* this install's bin/driver */
    double warmup_s, duration_s; /* command-line overrides, or < 0 */
    const char *pin_driver, *pin_server;
    const char *const *tree_dirs; /* {tree} per version index, or NULL */
    size_t n_tree_dirs;
    volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM */
    unsigned seq;                /* runs done so far (names scratch files) */
    json_t *server_versions;     /* {version name: "redis 7.0.15"}, filled on first start */
    const struct interference_limits *limits; /* disturbed-run limits; NULL = defaults */
    /* the counted-cost channel's counter source (counters.h): when set, runner_run counts the
     * server tree's events between the window marks and leaves a counted line (kind
     * "instructions", the timed run's round) for runner_take_counted(); NULL = off */
    const struct counters_event *count_event;
    json_t *counted; /* that line, until taken */
    /* a counted run of system calls (syscount.h): runner_run traces the server's tree and
     * leaves its counts in the line's server.window.syscalls (syscount_schedule) */
    int trace_syscalls;
    /* set by a counted run (cost.c, from cost_exact.c's preparation) around its launch_start
     * (launch.h): the server's whole environment (NULL = the inherited one with the
     * version's) and a fixed address layout */
    pid_t counted_server; /* set by cost.c while it counts: its drivers stop when it ends */
    char *const *server_envp;
    int server_no_aslr;
    /* saturation.c: {base id: {"rate", "closed_loop", ...}} of the sweep's configurations
     * (rate "N%" resolves to N% of "rate"), and the closed-loop configuration a saturation
     * run uses instead of the grid's (NULL = the grid's) */
    json_t *saturation;
    const json_t *params_override;
    /* launch.c: the last server start's rendered configuration file (spec "config"):
     * {"template", "file" (under out_dir), "sha256"}, for the run's line; NULL = none */
    json_t *server_conf;
    /* the server host (sshhost.h): every version's server runs there, started by launch.h's
     * launch_start_remote; NULL = here */
    const struct server_host *host;
    json_t *host_meta; /* meta.json's "server_host" (remote_preflight), or NULL */
    /* a sequence's server (sequence.h): a run with sr->step > 0 runs against the server it
     * holds for the step's version and round; NULL = a fresh server per run */
    struct seq_hold *hold;
    /* cost.c: {"CONFIG/VERSION": whether round 1's count was exact and repeated}, or NULL */
    json_t *cost_fates;
};

/* The configuration a run uses: the grid's, with warm-up and duration settled (command line,
 * then the configuration, then the spec, then 1 s / 5 s). New reference. */
json_t *runner_effective_config(const struct runner *r, size_t config);

/* The driver command's words for a version (its "driver", else the default). Free with
 * words_free(). Returns 0, or -1 with err. */
int runner_driver_argv(const struct runner *r, size_t version, char ***argv, size_t *argc,
                       char *err, size_t errlen);

/* Checks, before anything runs, that every version's driver and server programs exist; with a
 * server host (r->host), that every version has a server command and nothing the host cannot
 * do yet is asked (a "config" template, --pin-server, worktrees), and that the host answers
 * with this build's driver (remote_preflight, whose record goes to r->host_meta). Returns 0,
 * or -1 with err naming the spec path, the command and what is missing. */
int runner_check_programs(struct runner *r, char *err, size_t errlen);

/* runner_check_programs' part that depends on where the server runs (runner_host.c): with a
 * server host, the host checked and --pin-server's CPUs there; without one, --pin-server's
 * CPUs here. */
int runner_check_host(struct runner *r, char *err, size_t errlen);

/* With a server host, the idle round trip at a run's end into its interference ("rtt_us"): a
 * run whose round trip moved past the host's stated share from the one measured before the
 * runs is disturbed ("disturbed", "rtt_moved"). */
void runner_host_rtt(const struct runner *r, json_t *interf);

struct window_watch;

/* With a server host, the software counts of the server's tree over w's marked window from the
 * agent's samples, in server.window.perf's form: {"context_switches", "page_faults",
 * "cpu_migrations" (when the host's kernel shows them), "threads", "source": "proc"} (the
 * server's ended threads' switches and migrations are not in them, which perf_event_open's
 * inherited counters here would keep); NULL without both marks. New reference. */
json_t *runner_host_perf(const struct window_watch *w);

/* With a server host, the idle round trip after the runs into r->host_meta ("rtt_after") and
 * whether it moved past the stated share ("rtt_moved"; a warning in meta's "warnings" then).
 * meta: meta.json's object, whose "server_host" becomes r->host_meta. */
void runner_host_finish(struct runner *r, json_t *meta);

/* Performs one run. Returns the runs.jsonl line (new reference), or NULL when the run was
 * interrupted by *stop (nothing to record; children are stopped and reaped) or on an
 * internal error (err set). */
json_t *runner_run(struct runner *r, const struct sched_run *sr, char *err, size_t errlen);

/* Appends the counted line the last runner_run left (r->counted, if any) to the dataset fd,
 * after the run's own line. Returns 0, or -1 with err. */
int runner_append_counted(struct runner *r, int fd, char *err, size_t errlen);

/* Removes path and everything below it, best effort (errors are ignored). */
void runner_remove_tree(const char *path);

/* UTC time "2026-11-29T20:07:57.123Z". */
void runner_utc_now(char *out, size_t outlen);

#endif
