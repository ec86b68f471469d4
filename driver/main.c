/* bin/driver: one process = one measurement (docs/architecture.md#driver-result). "driver
 * <protocol> [flags]" runs the client engine and prints one JSON result; "driver serve <protocol>
 * [flags]" runs the reference server until SIGINT/SIGTERM and prints what it served. Exit codes: 0
 * result printed, 2 bad flags or configuration, 3 could not connect or the run failed. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "agent.h"
#include "engine/client.h"
#include "opts.h"
#include "result.h"
#include "srv/srvproto.h"
#include "engine/winmark.h"
#include "wrap/wrap.h"

enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_FAIL = 3 };

static void usage(FILE *f)
{
    fprintf(f,
            "usage: driver redis|tcp|http|ws [flags]      run one measurement, print JSON\n"
            "       driver serve tcp|http|ws [flags]      run the reference server\n"
            "       driver --config FILE.json             the file's \"protocol\" key picks it\n"
            "       driver wrap redis-benchmark|wrk|h2load [--timeout S] [--error-limit PCT]\n"
            "              -- ARGS... [--config FILE.json]   run that tool, report its figures\n"
            "              ({host} {port} {duration} ... in ARGS: the config file's keys)\n"
            "       driver agent                          a run's server on a server host\n"
            "              (compare starts it over ssh; JSON requests on stdin)\n"
            "       driver --version | --help\n"
            "\n"
            "client flags (defaults in brackets):\n"
            "  --host H [127.0.0.1]  --port P [redis 6379, else 8080]  --transport tcp|tls\n"
            "  --connections N [1]   --workers N [1] (threads, <= connections)\n"
            "  --pipeline N [1] (ops per batch)   --window N [1] (batches in flight per conn)\n"
            "  --payload BYTES [64] (k/M suffix)  --warmup S [1]  --duration S [5]\n"
            "  --requests N (exactly N measured ops instead of a duration)  --timeout S [5]\n"
            "  --busy-poll-us N [0] (poll up to N us before sleeping; the window adapts)\n"
            "  --rate R [0: closed loop] (open loop: R ops/s over all connections, each\n"
            "           request due on a schedule, latency from its due time)\n"
            "  --arrival uniform|poisson [uniform] (the schedule's gaps, with --rate)\n"
            "  --seed N [0] (the connections' random streams: keys, mixes; 0 = unseeded)\n"
            "  --interval-ms N [100] (the result's time series and longest reply gap; 0 = off)\n"
            "  --lockstep (waves: one batch on every connection, the next wave when all are\n"
            "           back; compare's counted runs at more than one connection)\n"
            "  redis:   --command ECHO|PING|SET|GET|INCR|LPUSH|RPUSH|LPOP|RPOP|SADD|HSET|SPOP|\n"
            "                     ZADD|ZPOPMIN|MSET|LRANGE_100|LRANGE_300|LRANGE_500|LRANGE_600\n"
            "                     [ECHO], or any command line: a template with __rand_int__,\n"
            "                     __key__, __data__ ('HDEL h f1 f2')\n"
            "           --commands JSON (a mix)\n"
            "           --key-pattern uniform|sequential|gaussian|zipf:EXP\n"
            "           --setup FILE|JSON (sent before the warm-up)\n"
            "           --keyspace N  --resp 2|3  --auth  --password-file F\n"
            "           --no-prefill (LRANGE_N: the list is there already; no LPUSH/LTRIM\n"
            "           in each connection's handshake)\n"
            "           (credentials: PAIRBENCH_REDIS_USER / PAIRBENCH_REDIS_PASSWORD)\n"
            "  http/ws: --path PATH [/]  --http-version 1.1|2  --method GET|POST\n"
            "  tls:     --cacert F  --cert F  --key F  --sni NAME  --insecure\n"
            "  --serve [--serve-workers N] [--delay-us N] [--work N] [--stall MS/PERIOD_MS]\n"
            "           host the reference server in-process\n"
            "  --config FILE.json   the same keys as the flags, '-' written '_'\n"
            "\n"
            "serve flags: --host H  --port P  --workers N  --payload BYTES (tcp: message size\n"
            "  for request counting and --delay-us; 0 = each chunk)  --delay-us N (hold each\n"
            "  reply)  --work N (N rounds of CPU work per request, a few ns each)\n"
            "  --stall MS/PERIOD_MS (answer nothing for MS ms in every PERIOD_MS ms)\n"
            "  --grow-ns N (a request costs N ns more for every 1000 served)\n"
            "  --stall-after N --stall-ms M (once: answer nothing for M ms after N requests)\n"
            "  --extra-syscalls N (N getppid calls per reply)  --extra-allocs N (N malloc/free\n"
            "  per request)  --extra-wakeups N (N hand-offs to a sleeping thread per request)\n"
            "  --transport tls --cert F --key F [--cacert F]\n"
            "  on SIGINT/SIGTERM prints {\"requests\": N, \"per_worker\": [connections of each\n"
            "  worker thread], \"connections\": M (their sum)} and exits 0\n"
            "\n"
            "  --error-limit PCT [1]  connect/io/protocol/verify errors past PCT%% of the\n"
            "           successful operations fail the run\n"
            "\n"
            "exit codes: 0 result printed, status ok; 2 bad flags or configuration;\n"
            "            3 could not connect, or the run failed (the result is still printed,\n"
            "            with \"status\": \"failed\" and the reason)\n");
}

static int has_help(int argc, char **argv)
{
    int i;

    for (i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

static int run_serve(const struct drv_opts *o)
{
    struct server *s;
    sigset_t set;
    char err[512];
    int port = 0, sig = 0;

    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL); /* the server threads inherit the mask */
    s = server_start(o, o->workers, &port, err, sizeof(err));
    if (!s) {
        fprintf(stderr, "driver: serve: %s\n", err);
        return EXIT_FAIL;
    }
    fprintf(stderr, "driver: serving %s on %s:%d (%u workers, delay %u us, work %u%s%s)\n",
            opts_proto_name(o->protocol), o->host, port, o->workers, o->delay_us, o->work,
            o->stall[0] ? ", stall " : "", o->stall);
    while (sigwait(&set, &sig) != 0)
        ;
    fflush(stderr);
    {
        /* each worker's count read once, and "connections" is their sum, so the two
         * agree even if a connection is accepted while this prints */
        unsigned long long reqs = server_requests(s), conns = 0, c;
        unsigned i, nw = server_workers(s);

        printf("{\"requests\": %llu, \"per_worker\": [", reqs);
        for (i = 0; i < nw; i++) {
            c = server_worker_connections(s, i);
            conns += c;
            printf("%s%llu", i ? ", " : "", c);
        }
        printf("], \"connections\": %llu}\n", conns);
        server_stop(s);
    }
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

static int run_client(struct drv_opts *o)
{
    struct drv_result r;
    struct server *s = NULL;
    struct drv_opts so;
    char err[768] = "";
    int rc, port = 0, code = EXIT_FAIL;

    if (result_init(&r, "ops/s") < 0) {
        fprintf(stderr, "driver: out of memory\n");
        return EXIT_FAIL;
    }
    if (o->serve) {
        so = *o;
        so.mode = MODE_SERVE;
        so.port = 0;
        so.workers = o->serve_workers;
        s = server_start(&so, o->serve_workers, &port, err, sizeof(err));
        if (!s) {
            fprintf(stderr, "driver: serve: %s\n", err);
            goto out;
        }
        o->port = port;
    }
    rc = client_run(o, &r, err, sizeof(err));
    if (s) {
        server_stop(s);
        s = NULL;
    }
    if (rc == CLIENT_EUSAGE) {
        fprintf(stderr, "driver: %s\n", err);
        code = EXIT_USAGE;
        goto out;
    }
    if (rc != CLIENT_OK) {
        fprintf(stderr, "driver: %s\n", err[0] ? err : "the run failed");
        goto out;
    }
    if (result_judge(&r, o->error_limit))
        fprintf(stderr, "driver: the run failed: %s%s%s\n", r.reason,
                r.first_error[0] ? "; first error: " : "", r.first_error);
    if (result_print(stdout, o, &r) < 0) {
        fprintf(stderr, "driver: writing the result: failed\n");
        goto out;
    }
    code = r.failed ? EXIT_FAIL : EXIT_OK;
out:
    if (s)
        server_stop(s);
    result_release(&r);
    return code;
}

/* The "protocol" key of the --config file given as argv[1] (and argv[2]). */
static int proto_from_config(int argc, char **argv, enum drv_proto *proto, char *err, size_t errlen)
{
    const char *path = argv[1][8] == '=' ? argv[1] + 9 : argc > 2 ? argv[2] : NULL;
    json_error_t je;
    json_t *root, *p;
    int rc = -1;

    if (!path) {
        snprintf(err, errlen, "flag '--config' needs a value: a JSON file");
        return -1;
    }
    root = json_load_file(path, 0, &je);
    if (!root) {
        snprintf(err, errlen, "--config '%s': %s", path, je.text);
        return -1;
    }
    p = json_object_get(root, "protocol");
    if (!json_is_string(p) || opts_proto_parse(json_string_value(p), proto) < 0)
        snprintf(err, errlen,
                 "'%s': key 'protocol': expected \"redis\", \"tcp\", \"http\" or \"ws\" "
                 "when no protocol word precedes --config",
                 path);
    else
        rc = 0;
    json_decref(root);
    return rc;
}

/* Up to 10000 connections (and as many accepted by --serve) need descriptors: take the hard
 * limit as the soft one. Failure only means fewer connections can be opened. */
static void raise_nofile(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int main(int argc, char **argv)
{
    struct drv_opts o;
    enum drv_proto proto;
    enum drv_mode mode = MODE_CLIENT;
    char err[1024];
    int first = 2;

    signal(SIGPIPE, SIG_IGN);
    raise_nofile();
    if (winmark_init(err, sizeof(err)) < 0) {
        fprintf(stderr, "driver: %s\n", err);
        return EXIT_USAGE;
    }
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("pairbench %s (%s)\n", PAIRBENCH_RELEASE, PAIRBENCH_VERSION);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "agent") == 0)
        return agent_main(argc - 2, argv + 2);
    if (strcmp(argv[1], "wrap") == 0) {
        if (argc < 3 || has_help(1, argv + 2)) {
            usage(argc < 3 ? stderr : stdout);
            return argc < 3 ? EXIT_USAGE : EXIT_OK;
        }
        return wrap_main(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "serve") == 0) {
        mode = MODE_SERVE;
        if (argc < 3 || has_help(1, argv + 2)) {
            usage(argc < 3 ? stderr : stdout);
            return argc < 3 ? EXIT_USAGE : EXIT_OK;
        }
        if (opts_proto_parse(argv[2], &proto) < 0 || proto == PROTO_REDIS) {
            fprintf(stderr, "driver: serve: unknown protocol '%s' (expected tcp, http or ws)\n",
                    argv[2]);
            return EXIT_USAGE;
        }
        first = 3;
    } else if (strcmp(argv[1], "--config") == 0 || strncmp(argv[1], "--config=", 9) == 0) {
        /* "<driver> --config FILE.json" (docs/architecture.md#driver-result): the file names the
         * protocol */
        if (proto_from_config(argc, argv, &proto, err, sizeof(err)) < 0) {
            fprintf(stderr, "driver: %s\n", err);
            return EXIT_USAGE;
        }
        first = 1;
    } else if (opts_proto_parse(argv[1], &proto) < 0) {
        fprintf(stderr, "driver: unknown protocol '%s' (expected redis, tcp, http, ws or serve)\n",
                argv[1]);
        return EXIT_USAGE;
    }
    if (has_help(argc - first, argv + first)) {
        usage(stdout);
        return EXIT_OK;
    }
    opts_defaults(&o, mode, proto);
    if (opts_parse(&o, argc - first, argv + first, err, sizeof(err)) < 0 ||
        opts_validate(&o, err, sizeof(err)) < 0) {
        fprintf(stderr, "driver: %s\n", err);
        return EXIT_USAGE;
    }
    if (mode == MODE_SERVE)
        return run_serve(&o);
    return run_client(&o);
}
