/* remote: the ssh side of a server launcher (docs/remote.md). One run's server on the server
 * host is one ssh session running `driver agent` there (driver/agent.h): compare writes JSON
 * requests to the session's stdin and reads one reply a line. The session is a process compare
 * started (struct proc, its own group); closing its stdin ends the agent, which stops and reaps
 * the server. When the connection dies, the agent sees its stdin end and does the same, and
 * compare sees the replies end: the run fails with ssh's own words as the cause.
 *
 * Before the runs, remote_preflight checks the host once: `driver --version` there must print
 * this build's version, the agent says what machine it is, and the idle round trip is measured
 * (sshhost_rtt). */
#ifndef PAIRBENCH_REMOTE_H
#define PAIRBENCH_REMOTE_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "ptree.h"
#include "run/interference.h"
#include "run/proc.h"
#include "run/sshhost.h"

struct remote {
    const struct server_host *h; /* not owned; must outlive the session */
    struct proc ssh;             /* the ssh process; pid -1 when none */
    int in_fd;                   /* the write end of its stdin; -1 closed */
    char buf[16384];             /* reply bytes read and not yet used */
    size_t used;
    char log[4200];     /* ssh's stderr (capped) */
    long server_pid;    /* the server's pid on the host; 0 none */
    char ended[1024];   /* why the session ended; "" while it runs */
    json_t *stopped;    /* the agent's reply to "stop" (status, rss_peak_kib, cpu_s), or NULL */
    pthread_mutex_t mu; /* one request at a time: the window thread samples at the marks */
    int tracing;        /* the agent's tracer counts the server's system calls (--syscalls) */
    /* the host's CLOCK_MONOTONIC less this one's, from the reply with the shortest round trip
     * (less the agent's own time): its error is at most half that trip. 0 and exact when a
     * reply's boot_id is this kernel's (the host is a network namespace here) */
    int64_t clock_offset_ns;
    uint64_t clock_trip_ns; /* that trip; 0 = no reply told the host's time yet */
    char trace_why[600];    /* why it does not, when asked to */
};

/* Starts ssh with `DRIVER agent` on h, its stderr into log. Returns 0, or -1 with err. */
int remote_open(struct remote *rm, const struct server_host *h, const char *log, char *err,
                size_t errlen);

/* Sends req (stolen) and waits (safe from two threads: one request at a time) up to timeout_s for
 * the reply. Returns it (new reference) when "ok" is true; NULL with err holding the agent's error,
 * or why the session ended (also kept in rm->ended), or that no reply came in time. */
json_t *remote_call(struct remote *rm, json_t *req, double timeout_s, char *err, size_t errlen);

/* The server tree's figures now (a window_watch hook: arg is the remote) and, when host is not
 * NULL, the host's /proc/stat CPU line and its clock ticks per second (*host_hz 0 when the
 * agent did not say, or when the host runs this machine's kernel: a network namespace, whose
 * CPU is this machine's, already checked here). Returns 0, or -1 when the server or the
 * session has ended. */
int remote_sample(void *arg, struct tree_sample *out, struct sys_sample *host, long *host_hz);

/* Whether the server runs; when it does not, why says how it ended (its status and log tail,
 * or the session's end). */
int remote_running(struct remote *rm, char *why, size_t whylen);

/* --syscalls on the host: the agent's tracer seizes the server's tree (rm->tracing, else
 * rm->trace_why says why). */
void remote_trace_begin(struct remote *rm);

/* A window_watch mark hook (arg: the remote): 0 opens the tracer's window, 1 closes it, at
 * at_ns (this machine's clock) put in the host's (clock_offset_ns): the tracer counts from
 * that time, not from when the request arrives an ssh hop later. */
void remote_on_mark(void *arg, int which, uint64_t at_ns);

/* The tracer's counts into swin "syscalls" (or "syscalls_error"), as swcount_attach does
 * for a server here; nothing when no trace was asked for. */
void remote_trace_attach(struct remote *rm, json_t *swin, int marks_seen);

/* Stops the server (SIGTERM, SIGKILL after grace_s), keeps the agent's reply in rm->stopped,
 * and ends the session: stdin closed, ssh waited for briefly, then stopped. Safe to call twice
 * and on a session that never opened. */
void remote_close(struct remote *rm, double grace_s);

/* The check before any run: the remote driver's version is this build's, the machine it is on,
 * and the idle round trip. Fills *meta with {"url", "address", "port", "driver", "version",
 * "machine", "rtt_before"} (new reference). work_dir holds ssh's log meanwhile. Returns 0, or
 * -1 with err naming the URL and what failed. */
int remote_preflight(const struct server_host *h, const char *work_dir, json_t **meta, char *err,
                     size_t errlen);

#endif
