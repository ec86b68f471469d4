/* runner: one measured run, servers and drivers in fresh processes (see runner.h). */
#include "run/runner.h"
#include "run/window.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/cost.h"
#include "run/counters.h"
#include "run/swcount.h"
#include "data/dataset.h"
#include "run/launch.h"
#include "run/proc.h"
#include "run/remote.h"
#include "run/saturation.h"
#include "run/sequence.h"
#include "run/validate.h"
#include "util/jobs_util.h"
#include "util/words.h"

#define KILL_AFTER_S 2.0

void runner_utc_now(char *out, size_t outlen)
{
    struct timespec ts;
    struct tm tm;
    char base[32];

    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out, outlen, "%s.%03ldZ", base, ts.tv_nsec / 1000000);
}

static double setting(double cli, const json_t *params, const char *key, double spec, double dflt)
{
    json_t *v = json_object_get(params, key);

    if (cli >= 0)
        return cli;
    if (json_is_number(v))
        return json_number_value(v);
    if (spec >= 0)
        return spec;
    return dflt;
}

json_t *runner_effective_config(const struct runner *r, size_t config)
{
    const json_t *params = r->params_override ? r->params_override : r->sp->configs[config].params;
    json_t *eff = saturation_resolve(r, json_deep_copy(params));

    if (!eff)
        return NULL;
    json_object_set_new(eff, "warmup",
                        json_real(setting(r->warmup_s, params, "warmup", r->sp->warmup, 1)));
    json_object_set_new(eff, "duration",
                        json_real(setting(r->duration_s, params, "duration", r->sp->duration, 5)));
    return eff;
}

static const char *tree_of(const struct runner *r, size_t version)
{
    return r->tree_dirs && version < r->n_tree_dirs ? r->tree_dirs[version] : NULL;
}

int runner_driver_argv(const struct runner *r, size_t version, char ***argv, size_t *argc,
                       char *err, size_t errlen)
{
    const struct spec_version *v = &r->sp->versions[version];
    struct words_vars vars = {.host = "127.0.0.1", .tree = tree_of(r, version)};
    char why[512];

    if (!v->driver) {
        char **a = calloc(2, sizeof(*a));
        if (!a || !(a[0] = strdup(r->default_driver))) {
            free(a);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        *argv = a;
        *argc = 1;
        return 0;
    }
    if (words_split(v->driver, &vars, argv, argc, why, sizeof(why)) < 0) {
        snprintf(err, errlen, "%s: $.versions[%zu].driver: %s", r->sp->path, version, why);
        return -1;
    }
    return 0;
}

/* Whether argv0 names an executable (a path, or a name found in PATH). */
static int program_exists(const char *argv0)
{
    const char *path, *p;
    char buf[4096];

    if (strchr(argv0, '/'))
        return access(argv0, X_OK) == 0;
    path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (p = path;;) {
        size_t n = strcspn(p, ":");
        if ((size_t)snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? p : ".", argv0) <
                sizeof(buf) &&
            access(buf, X_OK) == 0)
            return 1;
        if (!p[n])
            break;
        p += n + 1;
    }
    return 0;
}

int runner_check_programs(struct runner *r, char *err, size_t errlen)
{
    size_t v;
    char **argv = NULL;
    size_t argc;

    r->host = r->sp->has_server_host ? &r->sp->server_host : NULL;
    if (runner_check_host(r, err, errlen) < 0)
        return -1;
    if (grid_check_rate_windows(r->sp->configs, r->sp->n_configs, r->duration_s, r->sp->duration,
                                err, errlen) < 0) /* a rate the driver would refuse, before runs */
        return -1;
    for (v = 0; v < r->sp->n_versions; v++) {
        const struct spec_version *ver = &r->sp->versions[v];
        const char *proto;
        json_t *cmd;
        struct words_vars vars = {.port = "1",
                                  .host = "127.0.0.1",
                                  .cert = "cert",
                                  .key = "key",
                                  .cacert = "cacert",
                                  .dir = "dir",
                                  .tree = tree_of(r, v),
                                  .conf = ver->config_text ? "conf" : NULL,
                                  .port2 = "2"};
        char why[512];

        if (runner_driver_argv(r, v, &argv, &argc, err, errlen) < 0)
            return -1;
        if (!program_exists(argv[0])) {
            if (ver->driver)
                snprintf(err, errlen,
                         "%s: $.versions[%zu].driver: cannot find program '%s' "
                         "(expected an executable path or a program in PATH)",
                         r->sp->path, v, argv[0]);
            else
                snprintf(err, errlen,
                         "driver program '%s' not found (build it with make, or "
                         "set \"driver\" in version \"%s\")",
                         argv[0], ver->name);
            words_free(argv);
            return -1;
        }
        words_free(argv);
        argv = NULL;
        if (!ver->server || r->host) /* a server host's programs are there, not here */
            continue;
        json_object_foreach(ver->server, proto, cmd)
        {
            if (words_split(json_string_value(cmd), &vars, &argv, &argc, why, sizeof(why)) < 0) {
                snprintf(err, errlen, "%s: $.versions[%zu].server.%s: %s", r->sp->path, v, proto,
                         why);
                return -1;
            }
            if (!program_exists(argv[0])) {
                snprintf(err, errlen,
                         "%s: $.versions[%zu].server.%s: cannot find program '%s' "
                         "(expected an executable path or a program in PATH)",
                         r->sp->path, v, proto, argv[0]);
                words_free(argv);
                return -1;
            }
            words_free(argv);
            argv = NULL;
        }
    }
    return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    (void)remove(path);
    return 0;
}

void runner_remove_tree(const char *path)
{
    (void)nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The window's server accounting and interference (window.c) for the runs.jsonl line. The
 * driver's involuntary context switches: its result's cpu.nivcsw (over its window) when it
 * gives one, else wait4's (its whole life). */
static void runner_window(const struct runner *r, const struct window_watch *w,
                          const struct proc_result *res, const json_t *result, json_t **swin,
                          json_t **interf)
{
    struct interference_limits def;
    double cpu = (double)res->ru.ru_utime.tv_sec + res->ru.ru_utime.tv_usec / 1e6 +
                 (double)res->ru.ru_stime.tv_sec + res->ru.ru_stime.tv_usec / 1e6;
    json_t *n = json_object_get(json_object_get(result, "cpu"), "nivcsw");
    long nivcsw = json_is_integer(n) && json_integer_value(n) >= 0 ? (long)json_integer_value(n)
                                                                   : res->ru.ru_nivcsw;

    interference_limits_default(&def);
    json_decref(*interf);
    window_json(w, cpu, nivcsw, r->limits ? r->limits : &def, swin, interf);
}

int runner_append_counted(struct runner *r, int fd, char *err, size_t errlen)
{
    json_t *l = r->counted;
    int rc;

    r->counted = NULL;
    if (!l)
        return 0;
    rc = dataset_append(fd, l, err, errlen);
    json_decref(l);
    return rc;
}

/* Opens the counters on the ready server's tree (r->count_event set). NULL with why when they
 * cannot be opened. */
static struct counters *counted_open(const struct runner *r, pid_t server_pid, char *why,
                                     size_t whylen)
{
    struct counters *c = malloc(sizeof(*c));

    if (!c) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    if (counters_open_tree(c, r->count_event, "/proc", server_pid, why, whylen) < 0) {
        free(c);
        return NULL;
    }
    return c;
}

/* The counted line of a timed run (r->counted): ok with the window's count per successful
 * operation, or failed with why (the counters' reason) when there is no count. Nothing when
 * the channel is off, the version has no server, or the timed run itself failed (its line
 * says why) while the counters opened. */
static void counted_record(struct runner *r, const struct sched_run *sr, const char *started,
                           const json_t *server_obj, const struct window_watch *w,
                           const json_t *result, const char *why)
{
    const char *ver = r->sp->versions[sr->version].name;
    pid_t server_pid = (pid_t)json_integer_value(json_object_get(server_obj, "pid"));
    char reason[1200];
    json_t *inst = NULL;

    if (!r->count_event || !json_is_object(server_obj) || (!result && !why[0]))
        return;
    if (!why[0]) {
        double ops = json_number_value(json_object_get(result, "ops"));
        double win_s = w->marks == 2 ? w->mark[1].t_s - w->mark[0].t_s : 0;
        inst = w->ctr ? counters_json(w->ctr, ops, win_s, reason, sizeof(reason)) : NULL;
        if (!inst)
            why = reason;
    }
    if (!inst) {
        char full[1400];
        snprintf(full, sizeof(full), "instructions: version '%s': %s", ver, why);
        r->counted = cost_line(r, sr, started, server_pid, NULL, full);
    } else {
        r->counted = cost_line(r, sr, started, server_pid, inst, "");
    }
}

static void counted_close(struct counters *c)
{
    if (c) {
        counters_close(c);
        free(c);
    }
}

/* One run in the making: what runner_run()'s steps share. */
struct run_ctx {
    struct runner *r;
    const struct sched_run *sr;
    const struct grid_config *cfg;
    const struct spec_version *ver;
    const char *proto, *server_cmd, *host;
    char cfg_path[4096], srv_dir[4096], srv_log[4096], drv_log[4096], started[40];
    char reason[2048]; /* why the run failed; "" while it has not */
    json_t *eff, *result, *server_obj, *denv, *interf, *swin, *line;
    char **dargv, **full;
    struct proc server, driver;
    struct remote rm; /* the server on the server host (r->host): its agent's session */
    struct proc_result res;
    struct window_watch win;
    struct counters *ctr; /* the counted-cost channel's counters on the server's tree */
    char ctr_why[1024];   /* why they could not be opened */
    struct swcount *sw;   /* wake-ups and faults of the server's tree; NULL = none */
    double cpu0, cpu1;    /* the server's CPU seconds around the driver's life; -1 unknown */
    int have_res, interrupted, srv_started;
    int held; /* the server is the sequence's (r->hold): neither stopped nor removed here */
    char *err;
    size_t errlen;
};

/* What a step leaves to do: the next step, recording the run as it stands (reason set when
 * it failed), or nothing but the cleanup (err set, or interrupted). */
enum run_step { STEP_NEXT, STEP_RECORD, STEP_OUT };

/* The run's identity, its files' paths, its start time and its effective configuration. */
static enum run_step run_prepare(struct run_ctx *c)
{
    struct runner *r = c->r;

    json_decref(r->counted);
    r->counted = NULL;
    json_decref(r->server_conf);
    r->server_conf = NULL;
    r->seq++;
    runner_utc_now(c->started, sizeof(c->started));
    snprintf(c->cfg_path, sizeof(c->cfg_path), "%s/config-%u.json", r->work_dir, r->seq);
    snprintf(c->srv_dir, sizeof(c->srv_dir), "%s/server-%u", r->work_dir, r->seq);
    snprintf(c->srv_log, sizeof(c->srv_log), "%s/server-%u.log", r->work_dir, r->seq);
    snprintf(c->drv_log, sizeof(c->drv_log), "%s/driver-%u.log", r->work_dir, r->seq);
    c->eff = runner_effective_config(r, c->sr->config);
    if (!c->eff) {
        snprintf(c->err, c->errlen, "out of memory");
        return STEP_OUT;
    }
    return STEP_NEXT;
}

/* The version's server started on the server host and answering from here (launch.h). */
static enum run_step run_server_remote(struct run_ctx *c)
{
    struct launch l = {.version = c->sr->version,
                       .params = c->eff,
                       .cmd = c->server_cmd,
                       .log = c->srv_log,
                       .probe_timeout_s = c->r->sp->probe_timeout};
    int s;

    launch_take_over(c->eff);
    s = launch_start_remote(c->r, &l, c->eff, &c->rm, c->reason, sizeof(c->reason));
    if (s == 2) {
        c->interrupted = 1;
        return STEP_OUT;
    }
    if (s != 0)
        return STEP_RECORD;
    c->srv_started = 1;
    return STEP_NEXT;
}

/* The server's CPU seconds so far, here or on the server host; -1 when it is gone. */
static double run_server_cpu(struct run_ctx *c)
{
    struct tree_sample t;

    if (!c->r->host)
        return proc_running(&c->server) ? proc_cpu_s(c->server.pid) : -1;
    return remote_sample(&c->rm, &t, NULL, NULL) == 0 ? t.cpu_s : -1;
}

/* A port for the version's server or the driver's reference server, and the version's server
 * started and answering (on another port when the first was taken meanwhile). */
static enum run_step run_server(struct run_ctx *c)
{
    char why[1024];
    unsigned port = 0;
    int s;

    if (c->ver->server)
        c->server_cmd = ju_str(c->ver->server, c->proto, NULL);
    if (c->r->hold && c->sr->step) {
        s = seq_hold_use(c->r->hold, c->sr, c->eff, &c->server, c->srv_dir, sizeof(c->srv_dir),
                         c->srv_log, sizeof(c->srv_log), c->reason, sizeof(c->reason));
        if (s < 0)
            return STEP_RECORD;
        if (s > 0) {
            c->held = c->srv_started = 1;
            c->r->server_conf = json_incref(c->r->hold->conf);
            return STEP_NEXT;
        }
    }
    if (c->r->host && c->server_cmd)
        return run_server_remote(c);
    if (c->server_cmd || json_is_true(json_object_get(c->cfg->params, "serve"))) {
        port = launch_place(c->eff, c->host, why, sizeof(why));
        if (!port) {
            snprintf(c->reason, sizeof(c->reason), "server not ready: %s", why);
            return STEP_RECORD;
        }
    }
    if (!c->server_cmd)
        return STEP_NEXT;
    /* the version's own server replaces the driver's reference server */
    launch_take_over(c->eff);
    if (ju_mkdir_p(c->srv_dir, c->err, c->errlen) < 0)
        return STEP_OUT;
    {
        struct launch l = {.version = c->sr->version,
                           .params = c->eff,
                           .cmd = c->server_cmd,
                           .host = c->host,
                           .port = port,
                           .srv_dir = c->srv_dir,
                           .log = c->srv_log,
                           .probe_timeout_s = c->r->sp->probe_timeout};
        s = launch_start_placed(c->r, &l, c->eff, &c->server, c->reason, sizeof(c->reason));
    }
    c->srv_started = c->server.pid > 0;
    if (c->r->hold && c->sr->step && s != 2) { /* the first step's server, for the rest */
        seq_hold_take(c->r->hold, c->sr, s == 0 ? &c->server : NULL, c->eff, c->srv_dir, c->srv_log,
                      c->started, c->r->server_conf, c->reason);
        c->held = s == 0;
    }
    if (s == 2) {
        c->interrupted = 1;
        return STEP_OUT;
    }
    if (s != 0)
        return STEP_RECORD;
    if (c->r->count_event) /* on failure ctr_why says why */
        c->ctr = counted_open(c->r, c->server.pid, c->ctr_why, sizeof(c->ctr_why));
    return STEP_NEXT;
}

/* The configuration file written and the driver started on it, the window watch open. */
static enum run_step run_driver_start(struct run_ctx *c)
{
    struct proc_spec ps = {0};
    char why[1024];
    size_t dargc = 0, i;

    errno = 0;
    if (json_dump_file(c->eff, c->cfg_path, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0) {
        snprintf(c->err, c->errlen, "cannot write '%s': %s", c->cfg_path,
                 errno ? strerror(errno) : "write failed");
        return STEP_OUT;
    }
    if (runner_driver_argv(c->r, c->sr->version, &c->dargv, &dargc, c->err, c->errlen) < 0)
        return STEP_OUT;
    c->full = calloc(dargc + 3, sizeof(*c->full));
    if (!c->full) {
        snprintf(c->err, c->errlen, "out of memory");
        return STEP_OUT;
    }
    for (i = 0; i < dargc; i++)
        c->full[i] = c->dargv[i];
    /* docs/architecture.md#driver-result: "<driver command> --config FILE.json" */
    c->full[dargc] = "--config";
    c->full[dargc + 1] = c->cfg_path;
    if (window_open(&c->win, c->srv_started && !c->r->host ? c->server.pid : 0, c->err, c->errlen) <
            0 ||
        !(c->denv = window_env(c->ver->env, &c->win)))
        return STEP_OUT;
    c->win.ctr = c->ctr;
    if (c->srv_started && c->r->host) {
        c->win.sample_server = remote_sample;
        c->win.server_arg = &c->rm;
    } else if (c->srv_started) /* after the pipe: a driver in sh writes to fds 0-9 only */
        c->sw = swcount_open_server(c->server.pid, c->r->trace_syscalls);
    c->win.on_mark[0] = c->r->host ? remote_on_mark : swcount_on_mark;
    c->win.mark_arg[0] = c->r->host ? (void *)&c->rm : (void *)c->sw;
    ps.argv = c->full;
    ps.env = c->denv;
    ps.cpus = c->r->pin_driver;
    ps.stderr_path = c->drv_log;
    ps.capture_stdout = 1;
    window_before_exec(&c->win);
    if (proc_start(&c->driver, &ps, why, sizeof(why)) < 0) {
        snprintf(c->reason, sizeof(c->reason), "%s", why);
        return STEP_RECORD;
    }
    if (c->srv_started && c->r->host)
        c->driver.watch = c->rm.ssh.pid; /* the connection died: the driver stops too */
    window_after_exec(&c->win, c->driver.pid);
    return STEP_NEXT;
}

/* The driver waited for (within its deadline), the server's CPU read around it, and the
 * driver's output judged. */
static enum run_step run_driver_wait(struct run_ctx *c)
{
    char tail[1000];
    double timeout;

    if (c->srv_started)
        c->cpu0 = run_server_cpu(c);
    timeout = json_number_value(json_object_get(c->eff, "warmup")) +
              json_number_value(json_object_get(c->eff, "duration")) +
              validate_grace(c->eff, c->r->sp->grace);
    if (json_is_integer(json_object_get(c->eff, "requests")))
        timeout += 60; /* a count, not a time: give it a minute beyond the usual */
    if (proc_wait(&c->driver, timeout, KILL_AFTER_S, c->r->stop, &c->res, c->err, c->errlen) < 0)
        return STEP_OUT;
    c->have_res = 1;
    window_finish(&c->win);
    if (c->srv_started)
        c->cpu1 = run_server_cpu(c);
    if (c->res.interrupted) {
        c->interrupted = 1;
        return STEP_OUT;
    }
    proc_file_tail_line(c->drv_log, 300, 900, tail, sizeof(tail));
    c->result = validate_run(c->res.status, c->res.timed_out, timeout, c->res.out, tail, c->eff,
                             c->reason, sizeof(c->reason));
    return STEP_NEXT;
}

/* run_record_server for a server on the server host: stopped first (the agent's reply has
 * its peak RSS); a server or a session that ended during the run fails it with that cause. */
static void run_record_remote(struct run_ctx *c)
{
    char why[1200] = "", full[sizeof(c->reason) + 1300];
    const json_t *st;

    if (c->cpu1 < 0) {
        if (c->rm.ended[0] || remote_running(&c->rm, why, sizeof(why)))
            snprintf(why, sizeof(why), "%s", c->rm.ended[0] ? c->rm.ended : "no figures");
        snprintf(full, sizeof(full), "the server on the server host: %s%s%s", why,
                 c->reason[0] ? "; then " : "", c->reason);
        snprintf(c->reason, sizeof(c->reason), "%.2040s", full);
        json_decref(c->result);
        c->result = NULL;
    }
    if (c->have_res)
        runner_host_rtt(c->r, c->interf);
    remote_trace_attach(&c->rm, c->swin, c->win.marks == 2);
    remote_close(&c->rm, KILL_AFTER_S);
    st = c->rm.stopped;
    c->server_obj =
        json_pack("{s:I,s:o,s:s,s:o}", "pid", (json_int_t)c->rm.server_pid, "cpu_s",
                  c->cpu0 >= 0 && c->cpu1 >= 0 ? json_real(c->cpu1 - c->cpu0) : json_null(), "host",
                  c->r->host->host, "rss_peak_kib",
                  json_is_integer(json_object_get(st, "rss_peak_kib"))
                      ? json_integer(json_integer_value(json_object_get(st, "rss_peak_kib")))
                      : json_null());
    if (c->swin && json_is_object(c->server_obj)) {
        json_t *perf = runner_host_perf(&c->win);
        if (perf)
            json_object_set_new(c->swin, "perf", perf);
        json_object_set(c->server_obj, "window", c->swin);
    }
}

/* The window's accounting, and the server's part of the line (a server that ended during the
 * run fails it); the server is stopped. */
static void run_record_server(struct run_ctx *c)
{
    if (c->have_res)
        runner_window(c->r, &c->win, &c->res, c->result, &c->swin, &c->interf);
    if (!c->srv_started)
        return;
    if (c->r->host) {
        run_record_remote(c);
        return;
    }
    if (c->cpu1 < 0 && proc_ended_within(&c->server, 5.0)) {
        /* the server's end is the first cause: what the driver saw follows from it */
        proc_ended_reason(&c->server, "the server", c->srv_log, c->reason, sizeof(c->reason));
        json_decref(c->result);
        c->result = NULL;
    }
    c->server_obj =
        json_pack("{s:I,s:o}", "pid", (json_int_t)c->server.pid, "cpu_s",
                  c->cpu0 >= 0 && c->cpu1 >= 0 ? json_real(c->cpu1 - c->cpu0) : json_null());
    swcount_attach(c->sw, c->swin, c->win.marks == 2);
    if (c->swin && json_is_object(c->server_obj))
        json_object_set(c->server_obj, "window", c->swin);
    if (c->r->server_conf && json_is_object(c->server_obj))
        json_object_set(c->server_obj, "config", c->r->server_conf);
    if (!c->held)
        proc_stop(&c->server, KILL_AFTER_S);
}

/* The runs.jsonl line: ok with the result, or failed with the reason. */
static void run_record_line(struct run_ctx *c)
{
    const struct proc_result *res = &c->res;
    char ended[40];
    double cpu_s;
    json_t *client;
    int ok = c->result != NULL && !c->reason[0];

    runner_utc_now(ended, sizeof(ended));
    cpu_s = c->have_res ? (double)res->ru.ru_utime.tv_sec + res->ru.ru_utime.tv_usec / 1e6 +
                              (double)res->ru.ru_stime.tv_sec + res->ru.ru_stime.tv_usec / 1e6
                        : 0;
    client = c->have_res ? json_pack("{s:f,s:I}", "cpu_s", cpu_s, "rss_peak_kib",
                                     (json_int_t)res->ru.ru_maxrss)
                         : json_null();
    c->line = json_pack("{s:s,s:s,s:s,s:I,s:I,s:o,s:s,s:s,s:s,s:o,s:o,s:o,s:o}", "version",
                        c->ver->name, "config", c->cfg->id, "label", c->cfg->label, "round",
                        (json_int_t)c->sr->round, "position", (json_int_t)c->sr->position, "pid",
                        c->driver.pid > 0 ? json_integer(c->driver.pid) : json_null(), "started",
                        c->started, "ended", ended, "status", ok ? "ok" : "failed", "reason",
                        ok ? json_null() : json_string(c->reason), "result",
                        c->result ? json_incref(c->result) : json_null(), "client", client,
                        "server", json_incref(c->server_obj));
    if (!c->line) {
        snprintf(c->err, c->errlen, "out of memory");
        return;
    }
    if (c->have_res)
        json_object_set(c->line, "interference", c->interf);
    if (c->r->hold && c->sr->step)
        json_object_set_new(
            c->line, "sequence",
            seq_line(c->r->hold, c->sr, seq_state(c->r->hold, c->eff, c->ver->env)));
    counted_record(c->r, c->sr, c->started, c->server_obj, &c->win, ok ? c->result : NULL,
                   c->ctr_why);
}

/* Stops and reaps what still runs, removes the run's files, releases the rest. */
static void run_release(struct run_ctx *c)
{
    if (c->held)
        seq_hold_back(c->r->hold, c->sr, &c->server);
    if (c->driver.pid > 0)
        proc_stop(&c->driver, 0.1);
    if (c->server.pid > 0)
        proc_stop(&c->server, KILL_AFTER_S);
    remote_close(&c->rm, KILL_AFTER_S);
    json_decref(c->rm.stopped);
    if (c->have_res)
        proc_result_release(&c->res);
    if (c->interrupted || !c->line) {
        json_decref(c->line);
        c->line = NULL;
        json_decref(c->r->counted); /* no run line, no counted line */
        c->r->counted = NULL;
    }
    if (c->interrupted)
        c->err[0] = '\0';
    (void)unlink(c->cfg_path);
    (void)unlink(c->drv_log);
    if (!c->held) {
        (void)unlink(c->srv_log);
        runner_remove_tree(c->srv_dir);
    }
    free(c->full);
    words_free(c->dargv);
    json_decref(c->result);
    json_decref(c->server_obj);
    json_decref(c->eff);
    window_close(&c->win);
    counted_close(c->ctr);
    swcount_close(c->sw);
    json_decref(c->denv);
    json_decref(c->swin);
    json_decref(c->interf);
}

json_t *runner_run(struct runner *r, const struct sched_run *sr, char *err, size_t errlen)
{
    struct run_ctx c = {.r = r,
                        .sr = sr,
                        .cfg = &r->sp->configs[sr->config],
                        .ver = &r->sp->versions[sr->version],
                        .server_obj = json_null(),
                        .interf = json_null(),
                        .server = {.pid = -1, .out_fd = -1},
                        .driver = {.pid = -1, .out_fd = -1},
                        .win = {.rd = -1, .wr = -1},
                        .cpu0 = -1,
                        .cpu1 = -1,
                        .err = err,
                        .errlen = errlen};
    enum run_step step;

    c.proto = ju_str(c.cfg->params, "protocol", NULL);
    c.host = ju_str(c.cfg->params, "host", "127.0.0.1");
    step = run_prepare(&c);
    if (step == STEP_NEXT)
        step = run_server(&c);
    if (step == STEP_NEXT)
        step = run_driver_start(&c);
    if (step == STEP_NEXT)
        step = run_driver_wait(&c);
    if (step != STEP_OUT) {
        run_record_server(&c);
        run_record_line(&c);
    }
    run_release(&c);
    return c.line;
}
