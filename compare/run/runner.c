/* runner: one measured run, servers and drivers in fresh processes (see runner.h). */
#include "runner.h"
#include "window.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "ports.h"
#include "probe.h"
#include "proc.h"
#include "validate.h"
#include "words.h"

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
    const json_t *params = r->sp->configs[config].params;
    json_t *eff = json_deep_copy(params);

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

int runner_check_programs(const struct runner *r, char *err, size_t errlen)
{
    size_t v;
    char **argv = NULL;
    size_t argc;

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
                                  .tree = tree_of(r, v)};
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
        if (!ver->server)
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
    (void)st;
    (void)flag;
    (void)ftw;
    (void)remove(path);
    return 0;
}

void runner_remove_tree(const char *path)
{
    (void)nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

unsigned runner_use_free_port(json_t *eff, const char *host, char *why, size_t whylen)
{
    unsigned port = ports_free(why, whylen);

    if (port) {
        json_object_set_new(eff, "host", json_string(host));
        json_object_set_new(eff, "port", json_integer(port));
    }
    return port;
}

void runner_drop_reference_server(json_t *eff)
{
    json_object_del(eff, "serve");
    json_object_del(eff, "serve_workers");
    json_object_del(eff, "delay_us");
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

static const char *jstr(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* The server's version, asked once per version. */
static void note_server_version(struct runner *r, size_t version, const char *proto,
                                const struct probe_target *pt, char *const *server_argv)
{
    const char *name = r->sp->versions[version].name;
    char ver[256] = "", err[256];
    struct proc p;
    struct proc_result res;
    char *argv[3];
    struct proc_spec ps = {0};

    if (!r->server_versions || json_object_get(r->server_versions, name))
        return;
    if (strcmp(proto, "redis") == 0 && probe_redis_version(pt, 2.0, ver, sizeof(ver)) == 0) {
        json_object_set_new(r->server_versions, name, json_string(ver));
        return;
    }
    argv[0] = server_argv[0];
    argv[1] = "--version";
    argv[2] = NULL;
    ps.argv = argv;
    ps.env = r->sp->versions[version].env;
    ps.no_secrets = 1;
    ps.capture_stdout = 1;
    if (proc_start(&p, &ps, err, sizeof(err)) == 0) {
        if (proc_wait(&p, 5.0, 1.0, r->stop, &res, err, sizeof(err)) == 0) {
            size_t n = strcspn(res.out, "\r\n");
            if (n > 0 && n < sizeof(ver)) {
                memcpy(ver, res.out, n);
                ver[n] = '\0';
            }
            proc_result_release(&res);
        }
        proc_stop(&p, 0.5);
    }
    json_object_set_new(r->server_versions, name, ver[0] ? json_string(ver) : json_null());
}

/* The longest one readiness probe may wait for its answer (the deadline may cut the last
 * one shorter). */
#define PROBE_ATTEMPT_S 1.0

/* What the readiness probe talks to: the configuration's protocol, TLS and AUTH settings;
 * credentials from the version's environment, else compare's own. */
static void probe_target_fill(struct probe_target *pt, const json_t *params, const char *host,
                              unsigned port, const json_t *env)
{
    pt->protocol = jstr(params, "protocol");
    pt->host = host;
    pt->port = port;
    pt->tls = jstr(params, "transport") && strcmp(jstr(params, "transport"), "tls") == 0;
    pt->cacert = jstr(params, "cacert");
    pt->sni = jstr(params, "sni");
    pt->insecure = json_is_true(json_object_get(params, "insecure"));
    pt->path = jstr(params, "path");
    pt->auth = json_is_true(json_object_get(params, "auth"));
    if (env && jstr(env, "PAIRBENCH_REDIS_PASSWORD"))
        pt->password = jstr(env, "PAIRBENCH_REDIS_PASSWORD");
    else
        pt->password = getenv("PAIRBENCH_REDIS_PASSWORD");
    if (env && jstr(env, "PAIRBENCH_REDIS_USER"))
        pt->user = jstr(env, "PAIRBENCH_REDIS_USER");
    else
        pt->user = getenv("PAIRBENCH_REDIS_USER");
}

int runner_start_server(struct runner *r, size_t version, const json_t *params, const char *cmd,
                        const char *host, unsigned port, const char *srv_dir, const char *log,
                        char *const *wrap, double probe_timeout_s, struct proc *p, char *reason,
                        size_t reasonlen)
{
    const char *proto = jstr(params, "protocol");
    char portstr[16], why[512], probe_err[512] = "no probe yet", attempt_err[512], tail[512];
    char shown[1024];
    struct words_vars vars;
    char **argv = NULL, **wrapped = NULL;
    size_t argc, i, o = 0, nwrap = 0;
    struct proc_spec ps = {0};
    struct probe_target pt = {0};
    uint64_t deadline;
    int rc = 1, tried = 0;

    snprintf(portstr, sizeof(portstr), "%u", port);
    memset(&vars, 0, sizeof(vars));
    vars.port = portstr;
    vars.host = host;
    vars.cert = jstr(params, "cert");
    vars.key = jstr(params, "key");
    vars.cacert = jstr(params, "cacert");
    vars.dir = srv_dir;
    vars.tree = tree_of(r, version);
    if (words_split(cmd, &vars, &argv, &argc, why, sizeof(why)) < 0) {
        snprintf(reason, reasonlen, "server not ready: server command '%s': %s", cmd, why);
        return 1;
    }
    for (i = 0; i < argc && o < sizeof(shown); i++) {
        char q[512];
        o += (size_t)snprintf(shown + o, sizeof(shown) - o, "%s%s", i ? " " : "",
                              words_quote(argv[i], q, sizeof(q)));
    }
    while (wrap && wrap[nwrap])
        nwrap++;
    /* a wrapper (valgrind for the instruction count) runs the server command as its own */
    wrapped = calloc(nwrap + argc + 1, sizeof(*wrapped));
    if (!wrapped) {
        snprintf(reason, reasonlen, "server not ready: out of memory");
        goto out;
    }
    for (i = 0; i < nwrap; i++)
        wrapped[i] = wrap[i];
    for (i = 0; i < argc; i++)
        wrapped[nwrap + i] = argv[i];
    ps.argv = wrapped;
    ps.env = r->sp->versions[version].env;
    ps.cpus = r->pin_server;
    ps.no_secrets = 1; /* credentials go to the driver and the probe only */
    ps.stderr_path = log;
    ps.capture_stdout = 0;
    if (proc_start(p, &ps, why, sizeof(why)) < 0) {
        snprintf(reason, reasonlen, "server not ready: %s", why);
        goto out;
    }
    probe_target_fill(&pt, params, host, port, ps.env);
    deadline = clock_now_ns() + (uint64_t)(probe_timeout_s * 1e9);
    for (;;) {
        uint64_t now = clock_now_ns();
        double left = now >= deadline ? 0 : (double)(deadline - now) / 1e9;
        if (*r->stop) {
            rc = 2;
            goto out;
        }
        if (!proc_running(p)) {
            char st[64];
            proc_describe_status(p->status, st, sizeof(st));
            proc_file_tail(log, 400, tail, sizeof(tail));
            snprintf(reason, reasonlen, "server not ready: '%s' ended with %s%s%s", shown, st,
                     tail[0] ? "; stderr: " : "", tail);
            goto out;
        }
        if (left <= 0) {
            proc_file_tail(log, 400, tail, sizeof(tail));
            snprintf(reason, reasonlen, "server not ready after %.1f s: '%s': %s%s%s",
                     probe_timeout_s, shown, probe_err, tail[0] ? "; stderr: " : "", tail);
            goto out;
        }
        {
            double attempt = left < PROBE_ATTEMPT_S ? left : PROBE_ATTEMPT_S;
            int prc = probe_once(&pt, attempt, attempt_err, sizeof(attempt_err));

            if (prc == 0)
                break;
            if (prc == -3) { /* a refused password or certificate: final, no retry */
                snprintf(reason, reasonlen, "server not ready: '%s': %s", shown, attempt_err);
                goto out;
            }
            /* the last attempt, cut short by the deadline, that only ran out of time says
             * less than the answer the attempts before it got (a certificate refused, a
             * wrong reply): the reason keeps theirs */
            if (prc != -2 || attempt >= PROBE_ATTEMPT_S || !tried)
                snprintf(probe_err, sizeof(probe_err), "%s", attempt_err);
            tried = 1;
        }
        sleep_ms(5);
    }
    note_server_version(r, version, proto, &pt, argv);
    rc = 0;
out:
    free(wrapped);
    words_free(argv);
    return rc;
}

static int start_server(struct runner *r, size_t version, const json_t *params, const char *cmd,
                        const char *host, unsigned port, const char *srv_dir, const char *log,
                        struct proc *p, char *reason, size_t reasonlen)
{
    return runner_start_server(r, version, params, cmd, host, port, srv_dir, log, NULL,
                               r->sp->probe_timeout, p, reason, reasonlen);
}

/* The window's server accounting and interference (window.c) for the runs.jsonl line. */
static void runner_window(const struct runner *r, const struct window_watch *w,
                          const struct proc_result *res, json_t **swin, json_t **interf)
{
    struct interference_limits def;
    double cpu = (double)res->ru.ru_utime.tv_sec + res->ru.ru_utime.tv_usec / 1e6 +
                 (double)res->ru.ru_stime.tv_sec + res->ru.ru_stime.tv_usec / 1e6;

    interference_limits_default(&def);
    json_decref(*interf);
    window_json(w, cpu, res->ru.ru_nivcsw, r->limits ? r->limits : &def, swin, interf);
}

json_t *runner_run(struct runner *r, const struct sched_run *sr, char *err, size_t errlen)
{
    const struct spec *sp = r->sp;
    const struct grid_config *cfg = &sp->configs[sr->config];
    const struct spec_version *ver = &sp->versions[sr->version];
    json_t *eff = NULL, *line = NULL, *result = NULL, *server_obj = json_null();
    const char *proto = jstr(cfg->params, "protocol"), *server_cmd = NULL;
    const char *host = jstr(cfg->params, "host") ? jstr(cfg->params, "host") : "127.0.0.1";
    char cfg_path[4096], srv_dir[4096], srv_log[4096], drv_log[4096], started[40], ended[40];
    char reason[2048] = "", why[1024], tail[600];
    char **dargv = NULL, **full = NULL;
    size_t dargc = 0, i;
    unsigned port = 0;
    struct proc server = {.pid = -1, .out_fd = -1}, driver = {.pid = -1, .out_fd = -1};
    struct proc_result res = {0};
    struct proc_spec ps = {0};
    double timeout, cpu0 = -1, cpu1 = -1;
    int have_res = 0, interrupted = 0, srv_started = 0, attempt;
    struct window_watch win = {.rd = -1, .wr = -1};
    json_t *denv = NULL, *interf = json_null(), *swin = NULL;

    r->seq++;
    runner_utc_now(started, sizeof(started));
    snprintf(cfg_path, sizeof(cfg_path), "%s/config-%u.json", r->work_dir, r->seq);
    snprintf(srv_dir, sizeof(srv_dir), "%s/server-%u", r->work_dir, r->seq);
    snprintf(srv_log, sizeof(srv_log), "%s/server-%u.log", r->work_dir, r->seq);
    snprintf(drv_log, sizeof(drv_log), "%s/driver-%u.log", r->work_dir, r->seq);
    eff = runner_effective_config(r, sr->config);
    if (!eff) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (ver->server)
        server_cmd = jstr(ver->server, proto);
    if (server_cmd || json_is_true(json_object_get(cfg->params, "serve"))) {
        port = runner_use_free_port(eff, host, why, sizeof(why));
        if (!port) {
            snprintf(reason, sizeof(reason), "server not ready: %s", why);
            goto record;
        }
    }
    if (server_cmd) {
        int s;
        /* the version's own server replaces the driver's reference server */
        runner_drop_reference_server(eff);
        if (mkdir(srv_dir, 0755) < 0 && errno != EEXIST) {
            snprintf(err, errlen, "cannot create '%s': %s", srv_dir, strerror(errno));
            goto out;
        }
        s = start_server(r, sr->version, eff, server_cmd, host, port, srv_dir, srv_log, &server,
                         reason, sizeof(reason));
        /* another process took the free port between our check and the server's bind: try
         * two more ports before calling it a failure */
        for (attempt = 1; s == 1 && attempt < 3 && strstr(reason, "in use"); attempt++) {
            proc_stop(&server, KILL_AFTER_S);
            port = ports_free(why, sizeof(why));
            if (!port)
                break;
            json_object_set_new(eff, "port", json_integer(port));
            reason[0] = '\0';
            s = start_server(r, sr->version, eff, server_cmd, host, port, srv_dir, srv_log, &server,
                             reason, sizeof(reason));
        }
        srv_started = server.pid > 0;
        if (s == 2) {
            interrupted = 1;
            goto out;
        }
        if (s != 0)
            goto record;
    }
    if (json_dump_file(eff, cfg_path, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0) {
        snprintf(err, errlen, "cannot write '%s'", cfg_path);
        goto out;
    }
    if (runner_driver_argv(r, sr->version, &dargv, &dargc, err, errlen) < 0)
        goto out;
    full = calloc(dargc + 3, sizeof(*full));
    if (!full) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (i = 0; i < dargc; i++)
        full[i] = dargv[i];
    /* docs/architecture.md#driver-result: "<driver command> --config FILE.json" */
    full[dargc] = "--config";
    full[dargc + 1] = cfg_path;
    if (window_open(&win, srv_started ? server.pid : 0, err, errlen) < 0 ||
        !(denv = window_env(ver->env, &win)))
        goto out;
    ps.argv = full;
    ps.env = denv;
    ps.cpus = r->pin_driver;
    ps.stderr_path = drv_log;
    ps.capture_stdout = 1;
    window_before_exec(&win);
    if (proc_start(&driver, &ps, why, sizeof(why)) < 0) {
        snprintf(reason, sizeof(reason), "%s", why);
        goto record;
    }
    window_after_exec(&win, driver.pid);
    if (srv_started)
        cpu0 = proc_cpu_s(server.pid);
    timeout = json_number_value(json_object_get(eff, "warmup")) +
              json_number_value(json_object_get(eff, "duration")) + validate_grace(eff, sp->grace);
    if (json_is_integer(json_object_get(eff, "requests")))
        timeout += 60; /* a count, not a time: give it a minute beyond the usual */
    if (proc_wait(&driver, timeout, KILL_AFTER_S, r->stop, &res, err, errlen) < 0)
        goto out;
    have_res = 1;
    window_finish(&win);
    if (srv_started && proc_running(&server))
        cpu1 = proc_cpu_s(server.pid);
    if (res.interrupted) {
        interrupted = 1;
        goto out;
    }
    proc_file_tail(drv_log, 300, tail, sizeof(tail));
    result = validate_run(res.status, res.timed_out, timeout, res.out, tail, eff, reason,
                          sizeof(reason));
record:
    if (have_res)
        runner_window(r, &win, &res, &swin, &interf);
    if (srv_started) {
        if (cpu1 < 0 && !proc_running(&server) && !reason[0]) {
            char st[64];
            proc_describe_status(server.status, st, sizeof(st));
            snprintf(reason, sizeof(reason), "server ended during the run with %s", st);
            json_decref(result);
            result = NULL;
        }
        server_obj = json_pack("{s:I,s:o}", "pid", (json_int_t)server.pid, "cpu_s",
                               cpu0 >= 0 && cpu1 >= 0 ? json_real(cpu1 - cpu0) : json_null());
        if (swin && json_is_object(server_obj))
            json_object_set(server_obj, "window", swin);
        proc_stop(&server, KILL_AFTER_S);
    }
    runner_utc_now(ended, sizeof(ended));
    {
        double cpu_s = have_res ? (double)res.ru.ru_utime.tv_sec + res.ru.ru_utime.tv_usec / 1e6 +
                                      (double)res.ru.ru_stime.tv_sec + res.ru.ru_stime.tv_usec / 1e6
                                : 0;
        json_t *client = have_res ? json_pack("{s:f,s:I}", "cpu_s", cpu_s, "rss_peak_kib",
                                              (json_int_t)res.ru.ru_maxrss)
                                  : json_null();
        int ok = result != NULL && !reason[0];
        line = json_pack("{s:s,s:s,s:s,s:I,s:I,s:o,s:s,s:s,s:s,s:o,s:o,s:o,s:o}", "version",
                         ver->name, "config", cfg->id, "label", cfg->label, "round",
                         (json_int_t)sr->round, "position", (json_int_t)sr->position, "pid",
                         driver.pid > 0 ? json_integer(driver.pid) : json_null(), "started",
                         started, "ended", ended, "status", ok ? "ok" : "failed", "reason",
                         ok ? json_null() : json_string(reason), "result",
                         result ? json_incref(result) : json_null(), "client", client, "server",
                         json_incref(server_obj));
        if (!line)
            snprintf(err, errlen, "out of memory");
        else if (have_res)
            json_object_set(line, "interference", interf);
    }
out:
    if (driver.pid > 0)
        proc_stop(&driver, 0.1);
    if (server.pid > 0)
        proc_stop(&server, KILL_AFTER_S);
    if (have_res)
        proc_result_release(&res);
    if (interrupted) {
        json_decref(line);
        line = NULL;
        err[0] = '\0';
    }
    (void)unlink(cfg_path);
    (void)unlink(srv_log);
    (void)unlink(drv_log);
    runner_remove_tree(srv_dir);
    free(full);
    words_free(dargv);
    json_decref(result);
    json_decref(server_obj);
    json_decref(eff);
    window_close(&win);
    json_decref(denv);
    json_decref(swin);
    json_decref(interf);
    return line;
}
