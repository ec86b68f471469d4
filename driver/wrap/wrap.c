/* wrap: run another load generator and report what it measured (see wrap.h). The tool is a
 * child of this process: its stdout is collected for the parser, its stderr is passed on
 * (its first line kept as the first error), it dies with us (PR_SET_PDEATHSIG), SIGINT and
 * SIGTERM are passed on to it, and it is killed past --timeout. */
#include "wrap/wrap.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "result.h"
#include "engine/winmark.h"
#include "wrap/wrap_args.h"

#define OUT_MAX (64u << 20)

struct child {
    pid_t pid;
    int status;
    struct rusage ru;
    double wall_s;
    char *out; /* the tool's stdout, NUL-terminated */
    size_t out_len;
    char first_err[RESULT_ERRTEXT_MAX + 1]; /* first non-empty stderr line */
    int timed_out;
};

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

/* In the child: stdout and stderr to the pipes, die with the parent, exec. On failure the
 * errno goes to the status pipe. */
static void child_exec(char **argv, int out_w, int err_w, int status_w)
{
    int e;

    if (!argv || !argv[0])
        _exit(127);
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGPIPE, SIG_DFL);
    if (dup2(out_w, STDOUT_FILENO) < 0 || dup2(err_w, STDERR_FILENO) < 0)
        _exit(127);
    execvp(argv[0], argv);
    e = errno;
    if (write(status_w, &e, sizeof(e)) < 0)
        _exit(127);
    _exit(127);
}

/* Keeps the first non-empty line of the tool's stderr (across reads), or of its stdout. */
static void note_err_line(struct child *c, const char *p, size_t n, int *line_done)
{
    size_t have = strlen(c->first_err), i;

    for (i = 0; i < n && !*line_done; i++) {
        if (p[i] == '\n' || p[i] == '\r') {
            *line_done = have > 0;
            continue;
        }
        if (have < RESULT_ERRTEXT_MAX)
            c->first_err[have++] = p[i];
        c->first_err[have] = '\0';
    }
}

/* Reads the tool's pipes until both close, passing stderr on; kills the tool past the
 * deadline or on our own SIGINT/SIGTERM. 0, or -1 (out of memory or output past OUT_MAX). */
static int child_collect(struct child *c, int out_r, int err_r, uint64_t deadline)
{
    struct pollfd pf[2] = {{out_r, POLLIN, 0}, {err_r, POLLIN, 0}};
    size_t cap = 64 * 1024;
    char buf[16384];
    int open = 2, line_done = 0, i, forwarded = 0;

    c->out = malloc(cap);
    if (!c->out)
        return -1;
    while (open > 0) {
        uint64_t now = clock_now_ns();
        int ms = now >= deadline ? 0 : (int)((deadline - now) / 1000000 + 1);

        if (got_signal && !forwarded) {
            kill(c->pid, got_signal);
            forwarded = 1;
        }
        if (now >= deadline && !c->timed_out) {
            c->timed_out = 1;
            kill(c->pid, SIGKILL);
        }
        if (poll(pf, 2, c->timed_out ? 1000 : ms) < 0 && errno != EINTR)
            return -1;
        for (i = 0; i < 2; i++) {
            ssize_t n;
            if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            n = read(pf[i].fd, buf, sizeof(buf));
            if (n < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (n <= 0) {
                close(pf[i].fd);
                pf[i].fd = -1;
                open--;
                continue;
            }
            if (i == 1) {
                (void)fwrite(buf, 1, (size_t)n, stderr);
                note_err_line(c, buf, (size_t)n, &line_done);
                continue;
            }
            if (c->out_len + (size_t)n + 1 > cap) {
                char *t;
                if (cap >= OUT_MAX)
                    return -1;
                cap *= 2;
                t = realloc(c->out, cap);
                if (!t)
                    return -1;
                c->out = t;
            }
            memcpy(c->out + c->out_len, buf, (size_t)n);
            c->out_len += (size_t)n;
        }
    }
    c->out[c->out_len] = '\0';
    return 0;
}

/* Runs argv to completion. 0, or -1 with err set (cannot start, output too large). */
static int child_run(char **argv, double timeout_s, struct child *c, char *err, size_t errlen)
{
    int po[2] = {-1, -1}, pe[2] = {-1, -1}, ps[2] = {-1, -1}, e = 0, rc = -1;
    uint64_t t0;
    ssize_t n;

    if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0 || pipe2(ps, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "wrap: pipe: %s", strerror(errno));
        goto out;
    }
    t0 = clock_now_ns();
    winmark_start(t0);
    c->pid = fork();
    if (c->pid < 0) {
        snprintf(err, errlen, "wrap: fork: %s", strerror(errno));
        goto out;
    }
    if (c->pid == 0)
        child_exec(argv, po[1], pe[1], ps[1]);
    close(po[1]), close(pe[1]), close(ps[1]);
    po[1] = pe[1] = ps[1] = -1;
    n = read(ps[0], &e, sizeof(e));
    if (child_collect(c, po[0], pe[0], t0 + (uint64_t)(timeout_s * 1e9)) < 0) {
        kill(c->pid, SIGKILL);
        snprintf(err, errlen, "wrap: %s: output past %u MiB or out of memory", argv[0],
                 OUT_MAX >> 20);
    }
    po[0] = pe[0] = -1; /* closed by child_collect */
    while (wait4(c->pid, &c->status, 0, &c->ru) < 0 && errno == EINTR)
        ;
    c->wall_s = (double)(clock_now_ns() - t0) / 1e9;
    winmark_end();
    if (err[0])
        goto out;
    if (n == (ssize_t)sizeof(e)) {
        snprintf(err, errlen, "wrap: cannot run '%s': %s (is %s installed and on PATH?)", argv[0],
                 strerror(e), argv[0]);
        goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < 2; i++) {
        if (po[i] >= 0)
            close(po[i]);
        if (pe[i] >= 0)
            close(pe[i]);
        if (ps[i] >= 0)
            close(ps[i]);
    }
    return rc;
}

static double tv_s(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void set_lat(json_t *lat, const char *k, double us)
{
    if (us >= 0)
        json_object_set_new(lat, k, json_real(round(us * 10) / 10));
}

/* The pairbench.result/1 object for what the tool reported (new reference). */
static json_t *wrap_result_json(const struct wrap_args *a, char **argv, json_t *cfg,
                                const struct wrap_stats *s, const struct child *c,
                                struct drv_result *r)
{
    json_t *j = json_object(), *lat = json_object(), *w = json_object(), *av = json_array();
    double cpu = tv_s(&c->ru.ru_utime) + tv_s(&c->ru.ru_stime);
    int tls = 0, i;

    for (i = 0; argv[i]; i++) {
        json_array_append_new(av, json_string(argv[i]));
        tls |= strncmp(argv[i], "https://", 8) == 0;
    }
    json_object_set_new(j, "schema", json_string("pairbench.result/1"));
    json_object_set_new(j, "protocol",
                        json_string(a->tool == WRAP_REDIS_BENCHMARK ? "redis" : "http"));
    json_object_set_new(j, "transport", json_string(tls ? "tls" : "tcp"));
    json_object_set_new(j, "config", cfg ? json_incref(cfg) : json_object());
    json_object_set_new(j, "status", json_string(r->failed ? "failed" : "ok"));
    json_object_set_new(j, "reason", r->failed ? json_string(r->reason) : json_null());
    json_object_set_new(j, "ops", json_integer((json_int_t)r->ops));
    json_object_set_new(j, "batches", json_integer((json_int_t)r->ops));
    json_object_set_new(j, "elapsed_s", json_real(r->elapsed_ns / 1e9));
    json_object_set_new(j, "throughput", json_real(round(s->throughput * 10) / 10));
    json_object_set_new(j, "unit", json_string(s->unit));
    set_lat(lat, "p50", s->p50_us);
    set_lat(lat, "p90", s->p90_us);
    set_lat(lat, "p99", s->p99_us);
    set_lat(lat, "p999", s->p999_us);
    set_lat(lat, "max", s->max_us);
    set_lat(lat, "mean", s->mean_us);
    json_object_set_new(j, "latency_us", lat);
    json_object_set_new(j, "errors",
                        json_pack("{s:I,s:I,s:I,s:I,s:I}", "connect", (json_int_t)r->err_connect,
                                  "io", (json_int_t)r->err_io, "protocol",
                                  (json_int_t)r->err_protocol, "verify", (json_int_t)0, "timeout",
                                  (json_int_t)r->err_timeout));
    json_object_set_new(j, "connections", json_null()); /* the tools do not say */
    json_object_set_new(j, "first_error",
                        r->first_error[0] ? json_string(r->first_error) : json_null());
    json_object_set_new(j, "cpu",
                        json_pack("{s:f,s:f,s:f,s:I}", "user_s", tv_s(&c->ru.ru_utime), "sys_s",
                                  tv_s(&c->ru.ru_stime), "percent",
                                  c->wall_s > 0 ? round(cpu / c->wall_s * 1000) / 10 : 0.0,
                                  "nivcsw", (json_int_t)c->ru.ru_nivcsw));
    json_object_set_new(j, "rss_peak_kib", json_integer(c->ru.ru_maxrss));
    json_object_set_new(j, "build", result_build_json());
    json_object_set_new(w, "tool", json_string(wrap_tool_name(a->tool)));
    json_object_set_new(w, "argv", av);
    if (s->test)
        json_object_set_new(w, "test", json_string(s->test));
    json_object_set_new(w, "wall_s", json_real(c->wall_s));
    json_object_set_new(w, "ops_estimated", json_boolean(!s->have_ops));
    json_object_set_new(j, "wrap", w);
    return j;
}

/* The tool's figures as a drv_result, judged like the driver's own runs. */
static void wrap_judge(const struct wrap_args *a, const struct wrap_stats *s, const struct child *c,
                       struct drv_result *r)
{
    double el = s->elapsed_s > 0 ? s->elapsed_s : c->wall_s;

    memset(r, 0, sizeof(*r));
    /* redis-benchmark -q prints a rate only: the count is rate x time */
    r->ops = s->have_ops ? s->ops : (uint64_t)llround(s->throughput * el);
    r->elapsed_ns = (uint64_t)(el * 1e9);
    r->err_connect = s->err_connect;
    r->err_io = s->err_io;
    r->err_protocol = s->err_protocol;
    r->err_timeout = s->err_timeout;
    if (r->err_connect + r->err_io + r->err_protocol + r->err_timeout > 0 || r->ops == 0)
        result_note_error(r, c->first_err[0] ? c->first_err : "the tool counted errors");
    result_judge(r, a->error_limit);
}

/* Loads the --config file (compare's effective configuration) and applies its error_limit
 * and timeout keys. NULL config: *cfg stays NULL. 0 or -1 with err set. */
static int load_config(struct wrap_args *a, json_t **cfg, char *err, size_t errlen)
{
    json_error_t je;
    json_t *v;

    *cfg = NULL;
    if (!a->config)
        return 0;
    *cfg = json_load_file(a->config, 0, &je);
    if (!*cfg || !json_is_object(*cfg)) {
        snprintf(err, errlen, "wrap: --config '%s': %s", a->config,
                 *cfg ? "expected a JSON object" : je.text);
        json_decref(*cfg);
        *cfg = NULL;
        return -1;
    }
    if (json_is_number(v = json_object_get(*cfg, "error_limit")))
        a->error_limit = json_number_value(v);
    return 0;
}

static char **expand_all(const struct wrap_args *a, const json_t *cfg, char *err, size_t errlen)
{
    char **argv = calloc((size_t)a->tool_argc + 1, sizeof(char *));
    int i;

    if (!argv) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (i = 0; i < a->tool_argc; i++) {
        argv[i] = wrap_expand(a->tool_argv[i], cfg, err, errlen);
        if (!argv[i]) {
            while (i-- > 0)
                free(argv[i]);
            free(argv);
            return NULL;
        }
    }
    return argv;
}

/* The child's end as words: "exited with status 1", "was killed by signal 9". */
static void describe_status(const struct child *c, char *out, size_t n)
{
    if (c->timed_out)
        snprintf(out, n, "did not finish within --timeout and was killed");
    else if (WIFEXITED(c->status))
        snprintf(out, n, "exited with status %d", WEXITSTATUS(c->status));
    else
        snprintf(out, n, "was killed by signal %d", WTERMSIG(c->status));
}

int wrap_main(int argc, char **argv)
{
    struct wrap_args a;
    struct child c;
    struct wrap_stats s;
    struct drv_result r;
    json_t *cfg = NULL, *j = NULL;
    char **targv = NULL, err[1024] = "", st[96];
    int code = 2, i;

    memset(&c, 0, sizeof(c));
    memset(&a, 0, sizeof(a));
    if (wrap_args_parse(&a, argc, argv, err, sizeof(err)) < 0 ||
        load_config(&a, &cfg, err, sizeof(err)) < 0 ||
        !(targv = expand_all(&a, cfg, err, sizeof(err))))
        goto out;
    code = 3;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    if (child_run(targv, a.timeout_s, &c, err, sizeof(err)) < 0)
        goto out;
    if (c.timed_out || !WIFEXITED(c.status) || WEXITSTATUS(c.status) != 0) {
        int done = 0;

        /* a tool that says why on stdout only (wrk's usage): its first line is the why */
        if (!c.first_err[0] && c.out)
            note_err_line(&c, c.out, c.out_len, &done);
        describe_status(&c, st, sizeof(st));
        snprintf(err, sizeof(err), "wrap: %s %s%s%s", targv[0], st, c.first_err[0] ? ": " : "",
                 c.first_err);
        goto out;
    }
    if (wrap_parse(a.tool, c.out, &s, err, sizeof(err)) < 0) {
        fprintf(stderr, "driver: %s; it printed:\n%.2000s\n", err, c.out);
        err[0] = '\0';
        goto out;
    }
    wrap_judge(&a, &s, &c, &r);
    j = wrap_result_json(&a, targv, cfg, &s, &c, &r);
    if (!j || json_dumpf(j, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10)) < 0 ||
        fputc('\n', stdout) == EOF || fflush(stdout) != 0) {
        snprintf(err, sizeof(err), "wrap: writing the result failed");
        goto out;
    }
    if (r.failed)
        fprintf(stderr, "driver: the run failed: %s%s%s\n", r.reason,
                r.first_error[0] ? "; first error: " : "", r.first_error);
    code = r.failed ? 3 : 0;
out:
    if (err[0])
        fprintf(stderr, "driver: %s\n", err);
    json_decref(j);
    json_decref(cfg);
    for (i = 0; targv && targv[i]; i++)
        free(targv[i]);
    free(targv);
    free(a.tool_argv);
    free(c.out);
    return code;
}
