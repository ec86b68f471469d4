/* The driver's effective configuration: parsed from flags and from --config FILE.json
 * (same keys as the flags, '-' written '_'), validated, and rendered back to JSON for the
 * result's "config" object. Pure: no I/O except reading the config file. */
#ifndef PAIRBENCH_OPTS_H
#define PAIRBENCH_OPTS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* The default error limit: errors past 1% of the successful operations fail a run. */
#define OPTS_ERROR_LIMIT_DEFAULT 1.0

enum drv_proto { PROTO_REDIS, PROTO_TCP, PROTO_HTTP, PROTO_WS };
enum drv_transport { TRANSPORT_TCP, TRANSPORT_TLS };
enum drv_mode { MODE_CLIENT, MODE_SERVE }; /* "driver redis ..." vs "driver serve tcp ..." */

struct drv_opts {
    enum drv_mode mode;
    enum drv_proto protocol;
    enum drv_transport transport;
    char host[256];       /* default 127.0.0.1 */
    int port;             /* default per protocol: redis 6379, others 8080 (0 = any, serve) */
    unsigned connections; /* default 1 */
    unsigned workers;     /* threads; default 1; never more than connections (client) */
    unsigned pipeline;    /* ops per batch, default 1 */
    unsigned window;      /* batches in flight per connection, default 1 */
    size_t payload;       /* bytes, default 64 */
    double warmup_s;      /* default 1 */
    double duration_s;    /* default 5 */
    uint64_t requests;    /* exact measured op count; 0 = use duration */
    /* redis */
    /* default ECHO: a built-in name (stored upper case) or any command line, a template
     * (common/rcmd.h); a JSON array of arguments is stored shell-quoted */
    char command[4096];
    char key_pattern[32]; /* __key__: uniform (default), sequential, gaussian, zipf:EXP */
    char commands[16384]; /* a mix, as JSON text ("" = none): [{"command", "weight"}] */
    char setup[65536];    /* setup, as JSON text ("" = none): an array or a file name */
    uint64_t keyspace;    /* random keys 0..keyspace-1; 0 = one fixed key */
    int auth;             /* send AUTH / HELLO AUTH with credentials from env or file */
    int resp;             /* 2 or 3, default 2 */
    char password_file[PATH_MAX];
    int no_prefill; /* LRANGE_N: no LPUSH/LTRIM prefill in each connection's handshake (the
                     * list must hold N elements already: a setup or an earlier run's) */
    /* http, ws */
    char path[1024];          /* default "/" */
    char http_version[8];     /* "1.1" (default) or "2" */
    char method[8];           /* http: "GET" (default), "POST" (body of payload bytes), ... */
    char headers[16384];      /* http: extra headers, as JSON text ("" = none): {"Name": "v"} */
    char body[4096];          /* http: an inline request body ("" = none) */
    char body_file[PATH_MAX]; /* http: a file whose bytes are the request body */
    char paths[8192];         /* http: JSON text ("" = --path): [{"path", "weight"}] */
    /* tls */
    char cacert[PATH_MAX];
    char cert[PATH_MAX];
    char key[PATH_MAX];
    char sni[256];
    int insecure; /* skip chain and identity verification; recorded in the result */
    /* colocated reference server */
    int serve;              /* client mode: host the reference server in this process */
    unsigned serve_workers; /* default 1 */
    /* reference server (serve mode, or --serve) */
    unsigned delay_us; /* delay before each reply */
    unsigned work;     /* rounds of CPU work per request (a reproducible slowdown) */
    /* detection knobs (srv_extra.h): per reply / request */
    unsigned extra_syscalls, extra_allocs, extra_wakeups;
    double timeout_s; /* connect/handshake and drain bound; default 5 */
    /* client: the base of the connections' random streams (keys, mixes): connection i draws
     * from splitmix(0x5eed + i + seed * 2^32); 0 (the default) keeps the unseeded streams */
    uint64_t seed;
    /* client: poll up to this long before a wait (loop.h's struct loop_poll); 0 = off */
    unsigned busy_poll_us;
    /* client: waves (counted runs): a worker sends one batch on each of its connections, in
     * connection order, and the next wave only when every reply of this one is in, so the
     * server sees the same requests together every time (docs/driver.md, "Lockstep") */
    int lockstep;
    /* client: connect + io + protocol + verify errors past this percentage of the
     * successful operations fail the run (result.h, result_judge); default 1 */
    double error_limit;
    /* client: open-loop load (docs/driver.md, "Fixed rate"): operations per second over all
     * connections, each request due at its scheduled time; 0 = closed loop (default) */
    double rate;
    char arrival[16]; /* "uniform" (default) or "poisson": the schedule's gaps */
    /* reference server: "MS/PERIOD_MS", stop answering MS ms in every PERIOD_MS ms ("" off) */
    char stall[32];
    /* client: the time series' interval (driver/engine/series.h); 0 = no series and no
     * reply-gap tracking; default 100 */
    unsigned interval_ms;
    /* reference server (srv_extra.h): a cost that builds up, N ns more per request for every
     * 1000 requests served; and one stall of stall_ms after stall_after requests */
    unsigned grow_ns;
    uint64_t stall_after;
    unsigned stall_ms;
};

/* Sets every field to its default for the protocol. */
void opts_defaults(struct drv_opts *o, enum drv_mode mode, enum drv_proto proto);

/* Parses argv after the protocol word (and after "serve <proto>" in serve mode). Applies
 * --config FILE first wherever it appears, then the other flags in order. Returns 0, or -1
 * with a message in err naming the flag or key, the bad value and what was expected. */
int opts_parse(struct drv_opts *o, int argc, char **argv, char *err, size_t errlen);

/* Applies one JSON object of configuration keys (the --config file's content). src names the
 * file for error messages. Unknown keys are errors. Returns 0 or -1 with err set. */
int opts_apply_json(struct drv_opts *o, const json_t *obj, const char *src, char *err,
                    size_t errlen);

/* Cross-field checks (window/pipeline/payload bounds, TLS files, http_version). 0 or -1. */
int opts_validate(const struct drv_opts *o, char *err, size_t errlen);

/* The effective configuration as a new JSON object (no secrets). Caller json_decref()s. */
json_t *opts_to_json(const struct drv_opts *o);

/* Parses a --stall value "MS/PERIOD_MS" (integers, 0 < MS < PERIOD_MS <= 3600000). 0, or -1.
 * In srv/srv_stall.c, beside the stall itself. */
int opts_stall_parse(const char *s, unsigned *stall_ms, unsigned *period_ms);

/* The build-up knobs (--grow-ns, --stall-after with --stall-ms): --stall-after and
 * --stall-ms together or not at all, and in client mode only with --serve. 0, or -1 with err.
 * In srv/srv_extra.c, beside what they do. */
int opts_buildup_check(const struct drv_opts *o, char *err, size_t errlen);

const char *opts_proto_name(enum drv_proto p);
int opts_proto_parse(const char *s, enum drv_proto *p);

#endif
