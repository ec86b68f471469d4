/* The one launch primitive: a version's server placed, started, probed, noted, stopped. */
#include "run/launch.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "run/ports.h"
#include "run/probe.h"
#include "run/remote.h"
#include "run/proc.h"
#include "run/runner.h"
#include "run/spec.h"
#include "util/atomic.h"
#include "util/jobs_util.h"
#include "util/sha256.h"
#include "util/words.h"

/* How long a server may take to stop before it is killed (as the runner's). */
#define KILL_AFTER_S 2.0

unsigned launch_place(json_t *eff, const char *host, char *why, size_t whylen)
{
    unsigned port = ports_free(why, whylen);

    if (port) {
        json_object_set_new(eff, "host", json_string(host));
        json_object_set_new(eff, "port", json_integer(port));
    }
    return port;
}

void launch_take_over(json_t *eff)
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
    if (!server_argv) /* on the server host: its program is not here to ask */
        return;
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

void launch_probe_target(struct probe_target *pt, const json_t *params, const char *host,
                         unsigned port, const json_t *env)
{
    pt->protocol = ju_str(params, "protocol", NULL);
    pt->host = host;
    pt->port = port;
    pt->tls =
        ju_str(params, "transport", NULL) && strcmp(ju_str(params, "transport", NULL), "tls") == 0;
    pt->cacert = ju_str(params, "cacert", NULL);
    pt->sni = ju_str(params, "sni", NULL);
    pt->insecure = json_is_true(json_object_get(params, "insecure"));
    pt->path = ju_str(params, "path", NULL);
    pt->auth = json_is_true(json_object_get(params, "auth"));
    if (env && ju_str(env, "PAIRBENCH_REDIS_PASSWORD", NULL))
        pt->password = ju_str(env, "PAIRBENCH_REDIS_PASSWORD", NULL);
    else
        pt->password = getenv("PAIRBENCH_REDIS_PASSWORD");
    if (env && ju_str(env, "PAIRBENCH_REDIS_USER", NULL))
        pt->user = ju_str(env, "PAIRBENCH_REDIS_USER", NULL);
    else
        pt->user = getenv("PAIRBENCH_REDIS_USER");
}

/* The version's configuration template (spec "config") rendered with vars into {dir}/NAME,
 * whose path becomes vars->conf (conf holds it), and kept in the output directory as
 * server-configs/SEQ-VERSION-NAME; r->server_conf records that path and the rendered file's
 * SHA-256 for the run's line. 0 (also when the version has none), or -1 with reason set. */
static int launch_render_conf(struct runner *r, const struct launch *l, struct words_vars *vars,
                              char *conf, size_t conflen, char *reason, size_t reasonlen)
{
    const struct spec_version *ver = &r->sp->versions[l->version];
    char why[512], kept[4200], rel[600], sha[65];
    char *text;
    int rc = -1;

    if (!ver->config_text)
        return 0;
    snprintf(conf, conflen, "%s/%s", l->srv_dir, ver->config_name);
    vars->conf = conf; /* {conf} in the template is its own path */
    text = words_render(ver->config_text, vars, why, sizeof(why));
    if (!text) {
        snprintf(reason, reasonlen, "server not ready: config template '%s': %s", ver->config_file,
                 why);
        return -1;
    }
    snprintf(rel, sizeof(rel), "server-configs/%u-%s-%s", r->seq, ver->name, ver->config_name);
    snprintf(kept, sizeof(kept), "%s/server-configs", r->out_dir ? r->out_dir : r->work_dir);
    if (atomic_write(conf, text, strlen(text), why, sizeof(why)) < 0 ||
        ju_mkdir_p(kept, why, sizeof(why)) < 0) {
        snprintf(reason, reasonlen, "server not ready: config template '%s': %s", ver->config_file,
                 why);
        goto out;
    }
    snprintf(kept, sizeof(kept), "%s/%s", r->out_dir ? r->out_dir : r->work_dir, rel);
    if (atomic_write(kept, text, strlen(text), why, sizeof(why)) < 0) {
        snprintf(reason, reasonlen, "server not ready: keeping the rendered config: %s", why);
        goto out;
    }
    sha256_mem(text, strlen(text), sha);
    json_decref(r->server_conf);
    r->server_conf =
        json_pack("{s:s,s:s,s:s}", "template", ver->config_file, "file", rel, "sha256", sha);
    rc = 0;
out:
    free(text);
    return rc;
}

/* The server's argv (placeholders expanded) behind the words of l->wrap, and its words quoted
 * for messages. Returns 0, or -1 with reason set. */
static int launch_argv(struct runner *r, const struct launch *l, char ***argv, char ***wrapped,
                       char *shown, size_t shownlen, char *reason, size_t reasonlen)
{
    char portstr[16], port2[16], why[512], conf[4400];
    const struct spec_version *ver = &r->sp->versions[l->version];
    struct words_vars vars;
    size_t argc, i, o = 0, nwrap = 0;

    snprintf(portstr, sizeof(portstr), "%u", l->port);
    memset(&vars, 0, sizeof(vars));
    vars.port = portstr;
    if (strstr(l->cmd, "{port2}") || (ver->config_text && strstr(ver->config_text, "{port2}"))) {
        /* a second free port, picked anew for each start like {port} (ports_free never
         * gives the same port twice in a row) */
        unsigned p2 = ports_free(why, sizeof(why));

        if (!p2 || p2 == l->port) {
            snprintf(reason, reasonlen, "server not ready: no second free port for {port2}: %s",
                     p2 ? "the same as {port}" : why);
            return -1;
        }
        snprintf(port2, sizeof(port2), "%u", p2);
        vars.port2 = port2;
    }
    vars.host = l->host;
    vars.cert = ju_str(l->params, "cert", NULL);
    vars.key = ju_str(l->params, "key", NULL);
    vars.cacert = ju_str(l->params, "cacert", NULL);
    vars.dir = l->srv_dir;
    vars.tree = r->tree_dirs && l->version < r->n_tree_dirs ? r->tree_dirs[l->version] : NULL;
    if (launch_render_conf(r, l, &vars, conf, sizeof(conf), reason, reasonlen) < 0)
        return -1;
    if (words_split(l->cmd, &vars, argv, &argc, why, sizeof(why)) < 0) {
        snprintf(reason, reasonlen, "server not ready: server command '%s': %s", l->cmd, why);
        return -1;
    }
    shown[0] = '\0';
    for (i = 0; i < argc && o < shownlen; i++) {
        char q[512];
        o += (size_t)snprintf(shown + o, shownlen - o, "%s%s", i ? " " : "",
                              words_quote((*argv)[i], q, sizeof(q)));
    }
    while (l->wrap && l->wrap[nwrap])
        nwrap++;
    /* a wrapper (valgrind for the instruction count) runs the server command as its own */
    *wrapped = calloc(nwrap + argc + 1, sizeof(**wrapped));
    if (!*wrapped) {
        snprintf(reason, reasonlen, "server not ready: out of memory");
        return -1;
    }
    if (nwrap) /* wrap may be NULL (no wrapper): no memcpy from it */
        memcpy(*wrapped, l->wrap, nwrap * sizeof(**wrapped));
    memcpy(*wrapped + nwrap, *argv, argc * sizeof(**wrapped));
    return 0;
}

/* Probes the started server p until it answers, ends, or l->probe_timeout_s passes. Returns 0
 * ready, 1 failed (reason set), 2 interrupted by *r->stop. With rm (a server on the server
 * host) the agent says whether the server still runs, and p is not looked at. */
static int launch_wait_ready(struct runner *r, const struct launch *l, struct proc *p,
                             struct remote *rm, const struct probe_target *pt, const char *shown,
                             char *reason, size_t reasonlen)
{
    char probe_err[512] = "no probe yet", attempt_err[512], tail[512];
    uint64_t deadline = clock_now_ns() + (uint64_t)(l->probe_timeout_s * 1e9), held_since = 0;
    int tried = 0;

    for (;;) {
        uint64_t now = clock_now_ns();
        double left = now >= deadline ? 0 : (double)(deadline - now) / 1e9;
        if (*r->stop)
            return 2;
        if (rm && !remote_running(rm, tail, sizeof(tail))) {
            snprintf(reason, reasonlen, "server not ready: '%s' %s", shown, tail);
            return 1;
        }
        if (!rm && !proc_running(p)) {
            char st[64];
            proc_describe_status(p->status, st, sizeof(st));
            proc_file_tail(l->log, 400, tail, sizeof(tail));
            snprintf(reason, reasonlen, "server not ready: '%s' ended with %s%s%s", shown, st,
                     tail[0] ? "; stderr: " : "", tail);
            return 1;
        }
        if (left <= 0) {
            proc_file_tail(l->log, 400, tail, sizeof(tail));
            snprintf(reason, reasonlen, "server not ready after %.1f s: '%s': %s%s%s",
                     l->probe_timeout_s, shown, probe_err, tail[0] ? "; stderr: " : "", tail);
            return 1;
        }
        {
            double attempt = left < PROBE_ATTEMPT_S ? left : PROBE_ATTEMPT_S;
            int prc = probe_once(pt, attempt, attempt_err, sizeof(attempt_err));

            if (prc == 0)
                return 0;
            if (prc == -3) { /* a refused password or certificate: final, no retry */
                snprintf(reason, reasonlen, "server not ready: '%s': %s", shown, attempt_err);
                return 1;
            }
            /* connected, and the reply held past the limit since the first such attempt */
            held_since = prc == -2 && strncmp(attempt_err, "read ", 5) == 0
                             ? (held_since ? held_since : clock_now_ns())
                             : 0;
            if (held_since && l->hold_limit_s > 0 &&
                clock_now_ns() - held_since >= (uint64_t)(l->hold_limit_s * 1e9)) {
                snprintf(reason, reasonlen,
                         "server not ready: '%s' accepts connections but held the probe's reply "
                         "for %.0f s (replies that wait on timers: %s)",
                         shown, l->hold_limit_s, attempt_err);
                return 1;
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
}

int launch_start(struct runner *r, const struct launch *l, struct proc *p, char *reason,
                 size_t reasonlen)
{
    char why[512], shown[1024];
    char **argv = NULL, **wrapped = NULL;
    struct proc_spec ps = {0};
    struct probe_target pt = {0};
    int rc = 1;

    if (launch_argv(r, l, &argv, &wrapped, shown, sizeof(shown), reason, reasonlen) < 0)
        goto out;
    ps.argv = wrapped;
    ps.env = r->sp->versions[l->version].env;
    ps.cpus = r->pin_server;
    ps.no_secrets = 1; /* credentials go to the driver and the probe only */
    ps.envp = r->server_envp;
    ps.no_aslr = r->server_no_aslr;
    ps.valgrind = l->wrap != NULL;
    ps.stderr_path = l->log;
    ps.capture_stdout = 0;
    if (proc_start(p, &ps, why, sizeof(why)) < 0) {
        snprintf(reason, reasonlen, "server not ready: %s", why);
        goto out;
    }
    launch_probe_target(&pt, l->params, l->host, l->port, ps.env);
    rc = launch_wait_ready(r, l, p, NULL, &pt, shown, reason, reasonlen);
    if (rc == 0)
        note_server_version(r, l->version, ju_str(l->params, "protocol", NULL), &pt, argv);
out:
    free(wrapped);
    words_free(argv);
    return rc;
}

int launch_start_placed(struct runner *r, struct launch *l, json_t *eff, struct proc *p,
                        char *reason, size_t reasonlen)
{
    char why[512];
    int s = launch_start(r, l, p, reason, reasonlen);
    int attempt;

    for (attempt = 1; s == 1 && attempt < 3 && strstr(reason, "in use"); attempt++) {
        proc_stop(p, KILL_AFTER_S);
        if (!(l->port = ports_free(why, sizeof(why))))
            break;
        json_object_set_new(eff, "port", json_integer(l->port));
        reason[0] = '\0';
        s = launch_start(r, l, p, reason, reasonlen);
    }
    return s;
}

/* The version's environment for a server on the host: its "env" less the credentials meant for
 * the driver (PROC_SECRET_VARS), as a local server gets it. New reference. */
static json_t *remote_env(const json_t *env)
{
    static const char *const secrets[] = PROC_SECRET_VARS;
    json_t *e = env ? json_copy((json_t *)env) : json_object();
    size_t i;

    for (i = 0; e && i < sizeof(secrets) / sizeof(secrets[0]); i++)
        json_object_del(e, secrets[i]);
    return e;
}

static size_t words_count(char *const *w)
{
    size_t n = 0;

    while (w[n])
        n++;
    return n;
}

/* word with its first "{dir}" replaced by dir. New reference. */
static json_t *remote_word(const char *word, const char *dir)
{
    const char *at = strstr(word, "{dir}");
    char buf[8400];

    if (!at)
        return json_string(word);
    snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - word), word, dir, at + 5);
    return json_string(buf);
}

/* One start on the host: a port and directory placed there, the command expanded with them,
 * the server started and probed from here. Same codes as launch_start. */
static int remote_start_once(struct runner *r, struct launch *l, json_t *eff, struct remote *rm,
                             char *reason, size_t reasonlen)
{
    char why[1024], shown[1024], dir[4096];
    char **argv = NULL, **wrapped = NULL;
    struct probe_target pt = {0};
    struct launch lr = *l;
    json_t *rep, *jargv = json_array();
    size_t i;
    int rc = 1;

    rep = remote_call(rm, json_pack("{s:s,s:s}", "op", "place", "host", r->host->host), 30.0, why,
                      sizeof(why));
    if (!rep) {
        snprintf(reason, reasonlen, "server not ready: %s", why);
        goto out;
    }
    l->port = (unsigned)json_integer_value(json_object_get(rep, "port"));
    snprintf(dir, sizeof(dir), "%s", json_string_value(json_object_get(rep, "dir")));
    json_decref(rep);
    json_object_set_new(eff, "host", json_string(r->host->host));
    json_object_set_new(eff, "port", json_integer(l->port));
    lr.port = l->port;
    lr.host = r->host->host;
    lr.srv_dir = dir;
    if (launch_argv(r, &lr, &argv, &wrapped, shown, sizeof(shown), reason, reasonlen) < 0)
        goto out;
    for (i = 0; wrapped[i]; i++) /* a wrapper's "{dir}" is the host's run directory */
        json_array_append_new(jargv, l->wrap && i < words_count(l->wrap)
                                         ? remote_word(wrapped[i], dir)
                                         : json_string(wrapped[i]));
    rep = json_pack("{s:s,s:O,s:o}", "op", "start", "argv", jargv, "env",
                    remote_env(r->sp->versions[l->version].env));
    if (rep && l->wrap) { /* the agent's environment (ssh's) names the user: proc.h */
        static const char *const names[] = PROC_VALGRIND_NAME_VARS;
        json_t *un = json_array();

        for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
            json_array_append_new(un, json_string(names[i]));
        json_object_set_new(rep, "unset", un);
    }
    if (rep && r->pin_server) /* --pin-server: the host's CPUs, set there before the exec */
        json_object_set_new(rep, "cpus", json_string(r->pin_server));
    rep = remote_call(rm, rep, 30.0, why, sizeof(why));
    if (!rep) {
        snprintf(reason, reasonlen, "server not ready: %s", why);
        goto out;
    }
    rm->server_pid = (long)json_integer_value(json_object_get(rep, "pid"));
    json_decref(rep);
    launch_probe_target(&pt, l->params, lr.host, lr.port, r->sp->versions[l->version].env);
    rc = launch_wait_ready(r, &lr, &rm->ssh, rm, &pt, shown, reason, reasonlen);
    if (rc == 0)
        note_server_version(r, l->version, ju_str(l->params, "protocol", NULL), &pt, NULL);
out:
    json_decref(jargv);
    free(wrapped);
    words_free(argv);
    return rc;
}

int launch_start_remote(struct runner *r, struct launch *l, json_t *eff, struct remote *rm,
                        char *reason, size_t reasonlen)
{
    char why[1024];
    int s, attempt;

    if (remote_open(rm, r->host, l->log, why, sizeof(why)) < 0) {
        snprintf(reason, reasonlen, "server not ready: %s", why);
        return 1;
    }
    s = remote_start_once(r, l, eff, rm, reason, reasonlen);
    for (attempt = 1; s == 1 && attempt < 3 && strstr(reason, "in use") && !rm->ended[0];
         attempt++) {
        reason[0] = '\0';
        s = remote_start_once(r, l, eff, rm, reason, reasonlen);
    }
    if (s == 0 && r->trace_syscalls) /* --syscalls: the agent's tracer seizes the ready server */
        remote_trace_begin(rm);
    return s;
}
