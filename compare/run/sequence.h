/* sequence (seq_*): a spec's "sequence": true (docs/architecture.md#schedule). Each version's
 * server lives through every configuration of a round: started at the round's first step,
 * each configuration measured in its own driver window against that same process, in grid
 * order, and stopped after the last step. The runner (runner.c) asks the hold for the server
 * of a step; the hold starts nothing itself. What a sequence cannot work with (counted runs,
 * a server host, shards, confirmation rounds) is refused before anything runs. */
#ifndef PAIRBENCH_SEQUENCE_H
#define PAIRBENCH_SEQUENCE_H

#include <stddef.h>

#include <jansson.h>

#include "run/proc.h"
#include "run/run.h"
#include "run/schedule.h"
#include "run/spec.h"

/* The live server of one version's round. */
struct seq_hold {
    struct proc server; /* pid -1 when none is held */
    size_t version;     /* whose server and which round it serves */
    unsigned round;
    unsigned port;
    char host[256];
    char dir[4096], log[4096]; /* its {dir} and its stderr file (removed when it stops) */
    char started[40];          /* UTC time of its start */
    json_t *conf;              /* the rendered configuration's record (runner.h), or NULL */
    unsigned ended_step;       /* the step in which it ended or failed to start; 0 = alive */
    char ended[1024];          /* and why */
};

void seq_hold_init(struct seq_hold *h);

/* Checks that a sequence can run: every configuration on one server (one protocol, transport
 * and host), every version with its own server for that protocol, and none of what needs a
 * fresh process per run or splits the rounds: counted (1 when --instructions, --syscalls or
 * --cache-sim are on), a server host, --shard, confirmation rounds. Returns 0 (also without
 * "sequence"), or -1 with err naming the key, the value and what was expected. */
int seq_check(const struct spec *sp, const struct run_request *rq, int counted, char *err,
              size_t errlen);

/* Before step sr: 1 when the hold has the live server of sr's version and round (eff's "host"
 * and "port" point at it, the reference server's keys are dropped, *server, dir and log are
 * its), 0 when none is held yet (start one and seq_hold_take it; a server of another version
 * or round is stopped first), -1 when the round's server is gone (reason says since which
 * step and why: the step fails). */
int seq_hold_use(struct seq_hold *h, const struct sched_run *sr, json_t *eff, struct proc *server,
                 char *dir, size_t dirlen, char *log, size_t loglen, char *reason,
                 size_t reasonlen);

/* After the start of step sr's server: server (NULL when it did not start; why says why)
 * is held for the round's later steps, its port from eff. */
void seq_hold_take(struct seq_hold *h, const struct sched_run *sr, const struct proc *server,
                   const json_t *eff, const char *dir, const char *log, const char *started,
                   const json_t *conf, const char *why);

/* At the end of step sr: the runner's copy of the held server back into the hold (*server's
 * pid becomes -1: the runner does not stop it); a server that ended during the step is noted.
 * After the round's last step the server is stopped. */
void seq_hold_back(struct seq_hold *h, const struct sched_run *sr, struct proc *server);

/* What the held server holds now, after a step's driver has gone (the state the next step
 * starts from, recorded so the versions' can be compared): {"rss_kib", "sockets"} of its
 * process tree and, for redis (eff's protocol, host and port, AUTH with env's or compare's
 * credentials), "keys" (DBSIZE) and "used_memory" (INFO memory). NULL when no server is held.
 * New reference. */
json_t *seq_state(const struct seq_hold *h, const json_t *eff, const json_t *env);

/* The run line's "sequence": {"step", "steps", "server_pid", "server_started"} and "state"
 * when state (stolen, may be NULL) is given. New reference. */
json_t *seq_line(const struct seq_hold *h, const struct sched_run *sr, json_t *state);

/* Stops and reaps the held server, removes its directory and log. */
void seq_hold_stop(struct seq_hold *h);

#endif
