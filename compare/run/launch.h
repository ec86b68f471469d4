#ifndef PAIRBENCH_LAUNCH_H
#define PAIRBENCH_LAUNCH_H

/* The one way a version's server is started, for timed runs (runner.c) and counted runs
 * (cost.c): place it on a free loopback port, start it, probe it until it answers, note its
 * version, and stop it with proc_stop(). What differs between the runs are hooks: wrap (the
 * words in front of the server command, valgrind for the instruction count), the runner's
 * server_envp and server_no_aslr (the interposer's environment of exact counts), and the probe
 * timeout. */

#include <jansson.h>
#include <stddef.h>

struct runner;
struct proc;
struct remote;

struct launch {
    size_t version;         /* index in the spec's versions */
    const json_t *params;   /* the effective configuration (protocol, TLS, AUTH settings) */
    const char *cmd;        /* the server command, placeholders not yet expanded */
    const char *host;       /* where it listens */
    unsigned port;          /* and on which port (launch_start_placed may change it) */
    const char *srv_dir;    /* {dir}: the server's own directory */
    const char *log;        /* its stderr */
    char *const *wrap;      /* NULL-ended words in front of the command, or NULL */
    double probe_timeout_s; /* how long it may take to answer a real probe */
    /* how long it may hold a probe's reply once it accepts connections (0: up to
     * probe_timeout_s): a counted server whose replies wait on timers answers once per
     * grace period of the virtual clock (preload/clock.c) and never in time */
    double hold_limit_s;
};

/* Picks a free loopback port (ports_free()) and points eff's "host" and "port" at host and it.
 * Returns the port, or 0 with why saying what went wrong (eff untouched). */
unsigned launch_place(json_t *eff, const char *host, char *why, size_t whylen);

/* Removes from eff the keys of the driver's reference server ("serve", "serve_workers",
 * "delay_us"): the version's own server takes its place. */
void launch_take_over(json_t *eff);

struct probe_target;

/* What the readiness probe talks to at host:port: the configuration's protocol, TLS and AUTH
 * settings; credentials from env (the version's environment), else compare's own. The strings
 * stay params', env's and the environment's. */
void launch_probe_target(struct probe_target *pt, const json_t *params, const char *host,
                         unsigned port, const json_t *env);

/* Starts the server l describes with r's environment hooks and waits until it answers a real
 * probe. Returns 0 ready, 1 failed (reason set), 2 interrupted by *r->stop; p is set once
 * started (stop it with proc_stop()). */
int launch_start(struct runner *r, const struct launch *l, struct proc *p, char *reason,
                 size_t reasonlen);

/* launch_start, trying two more free ports when another process took the first one between
 * the check and the server's bind (l->port and eff's "port" follow). Same codes. */
int launch_start_placed(struct runner *r, struct launch *l, json_t *eff, struct proc *p,
                        char *reason, size_t reasonlen);

/* launch_start_placed on the server host (r->host, docs/remote.md): an ssh session with the
 * agent opened into rm (close it with remote_close()), a free port and a directory placed there,
 * eff's "host" and "port" pointed at the host's address and that port, the server started
 * there and probed from here; a port taken meanwhile is placed again (twice at most); with
 * r->trace_syscalls the agent's tracer seizes it once ready (remote_trace_begin). Same codes. */
int launch_start_remote(struct runner *r, struct launch *l, json_t *eff, struct remote *rm,
                        char *reason, size_t reasonlen);

#endif
