/* cost_exact: the fixed start of a counted server (counted cost, docs/statistics.md "Exact
 * counts"). Both versions of a round start with one seed: the interposer
 * (bin/libpairbench-seed.so, preload/seed.c) serves every random byte from it, the address
 * layout is fixed (personality ADDR_NO_RANDOMIZE) and the environment is the same variables
 * in the same order and of the same total size. Where that cannot hold (a static binary, a
 * setuid program, no interposer, a process that ran without it or under a seccomp filter of
 * its own) the run is counted as before
 * and the record says why. Only counted runs; never timed runs. */
#ifndef PAIRBENCH_COST_EXACT_H
#define PAIRBENCH_COST_EXACT_H

#include <stddef.h>

#include <jansson.h>

#include "analysis/cgprof.h"
#include "run/runner.h"

/* The interposer's marker of a time-driven wake-up (preload/wake.c): one instruction per
 * wake-up, so its count in a profile is their number. */
#define COST_WAKE_FN "pairbench_time_wakeup"
/* Its marker of every wait that may have slept: the event loop's iterations. */
#define COST_WAIT_FN "pairbench_loop_wait"
/* The interposer's wave gathering (preload/wake.c): how many polls it takes follows timing,
 * so it is left out of every count (callgrind --toggle-collect). */
#define COST_GATHER_FN "pairbench_wave_gather"

/* How a counted window's idle work is estimated from the idle phase: the idle phase's count
 * times `scale`. With the interposer, by wake-ups ("wakeups": the window's time-driven
 * wake-ups / the idle phase's, each wake-up of an idle server the same instructions), so the
 * window's wall-clock time does not enter; where the idle server waited but time never woke
 * it ("phase": 1, the idle count is what a phase's zero and dump cost), unless the idle phase
 * counted more than a tenth of the window ("none": 0, threads that poll, whose idle rate says
 * nothing of the window's: the window counted whole); without the interposer, by time
 * ("time": window seconds / idle seconds). */
struct cost_idle {
    double scale;
    const char *method; /* "wakeups", "phase", "none" or "time" */
    unsigned long long idle_wakeups, window_wakeups;
    unsigned long long window_waits; /* the window's event-loop iterations (0: not marked) */
};
void cost_exact_idle(const struct cgprof *idle, const struct cgprof *win, double idle_s,
                     double win_s, struct cost_idle *out);

struct cost_exact {
    unsigned long long seed;
    int applied;          /* 1: the interposer, the seed and the fixed layout are used */
    char reason[600];     /* why not, when !applied */
    char order[700];      /* when applied but still not exact (more than one connection), why */
    char unverified[900]; /* when applied but the run's evidence fails (cost_verify.h), why */
    long io_threads; /* the server command's --io-threads N (redis, valkey), 0 when not given */
    unsigned wave;   /* the driver sends in lockstep waves over this many connections; the
                        interposer gathers each wave (PAIRBENCH_WAVE); 0: one connection or
                        a driver without --lockstep */
    char lib[4200];  /* the interposer's path */
    char log[4300];  /* what it served (PAIRBENCH_SEED_LOG) */
    char **envp;     /* the server's environment (NULL-ended, owned), when applied */
};

/* The interposer beside this program (dir of /proc/self/exe, then ../lib/pairbench), or
 * $PAIRBENCH_SEED_LIB. Returns 0 (path set), or -1 with why. */
int cost_exact_find_lib(char *path, size_t pathlen, char *why, size_t whylen);

/* "" when prog (argv[0] of a server command, searched in PATH without '/') can run with the
 * interposer, else why not ("statically linked (no PT_INTERP)", "setuid", ...). */
void cost_exact_check_program(const char *prog, char *why, size_t whylen);

/* 1 (why set) when the program of the server command cmd is setuid or setgid: valgrind will
 * not execute it, so the version cannot be counted; else 0. */
int cost_exact_setid(const struct runner *r, size_t version, const char *cmd, const char *dir,
                     char *why, size_t whylen);

/* Settles ex for the version's counted run: seed, the check of the server command cmd, the
 * environment (the inherited one less PROC_SECRET_VARS, the version's, the interposer's, a
 * pad making every version's the same size, sorted), the log at dir/seed.log. ex->applied 0
 * with a reason where it cannot apply. Returns 0, or -1 with err (out of memory). */
int cost_exact_prepare(struct cost_exact *ex, const struct runner *r, size_t version,
                       const char *cmd, const char *dir, unsigned long long seed, unsigned wave,
                       char *err, size_t errlen);

/* The configuration of a counted window after a warm-up: eff without its "setup" (the data
 * sent before the warm-up went with it; the window holds only the operations it counts, as a
 * timed run's window, and the setup's pipelined reads no longer vary its count with timing).
 * With no_prefill (the driver takes the key: cost_help_driver_no_prefill) a built-in
 * LRANGE_N also gets "no_prefill": the warm-up's handshakes filled the list, as a setup
 * would, so the window counts LRANGE alone, as it does for the same command written as a
 * template. *out: a new reference, or NULL when nothing changes (use eff). Returns 0, or -1
 * when out of memory. */
int cost_exact_window_config(const json_t *eff, int no_prefill, json_t **out);

/* Applied, but not exact when the configuration (eff) has more than one connection and the
 * drivers cannot send in waves (ex->wave 0): the order in which the server sees their
 * requests depends on timing (ex->order says so); nor with --io-threads N > 1 in the server
 * command, whose I/O threads poll for work, counted with the rest. */
void cost_exact_connections(struct cost_exact *ex, const json_t *eff);

/* prog as run: itself when it has a '/', else the first executable of that name in PATH.
 * Returns 0 (out set), or -1. */
int cost_exact_resolve(const char *prog, char *out, size_t outlen);

/* The record of a counted run (new reference): {"seed", "exact", "reason", "layout",
 * "served": {source: {"calls", "bytes"}}, "unserved": {route: calls} (what valgrind's trace
 * saw that the interposer did not serve), "processes", "clock": {"kind": "virtual",
 * "quantum_ns", "read_step_ns", "grace_ms"} when every counted process had the virtual clock
 * (preload/clock.c), else {"kind": "real"}}. Checks that every process of the
 * window (dir's cg.PID.* profiles) started with the interposer; one that did not makes the
 * run not exact; then the evidence of cost_verify.h (read while the server still runs). */
json_t *cost_exact_record(struct cost_exact *ex, const char *dir);

void cost_exact_release(struct cost_exact *ex);

#endif
