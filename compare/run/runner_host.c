/* runner_host: the runner's part of a server host (docs/remote.md): what is checked before
 * the runs, the round trip at each run's end and after the runs (see runner.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "run/proc.h"
#include "run/remote.h"
#include "run/runner.h"
#include "run/window.h"

/* --pin-server with a server host names the host's CPUs: each below the count its agent
 * said (hello's machine.cpus). 0, or -1 with err. */
static int check_host_cpus(const struct runner *r, char *err, size_t errlen)
{
    json_int_t n =
        json_integer_value(json_object_get(json_object_get(r->host_meta, "machine"), "cpus"));
    cpu_set_t set;
    int c;

    if (!r->pin_server)
        return 0;
    if (num_parse_cpus(r->pin_server, &set) < 0) {
        snprintf(err, errlen, "--pin-server '%s': expected a CPU list such as 0,2-3",
                 r->pin_server);
        return -1;
    }
    for (c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set) && n > 0 && c >= n) {
            snprintf(err, errlen,
                     "--pin-server '%s': CPU %d is not on the server host '%s', which has %lld "
                     "(expected CPUs 0-%lld there: the server runs there)",
                     r->pin_server, c, r->host->host, (long long)n, (long long)n - 1);
            return -1;
        }
    return 0;
}

int runner_check_host(struct runner *r, char *err, size_t errlen)
{
    const char *tmp = getenv("TMPDIR");
    size_t v;

    if (!r->host) { /* the server here: its CPUs are this machine's */
        cpu_set_t set;
        char why[320] = "expected a CPU list such as 0,2-3";

        if (r->pin_server && (num_parse_cpus(r->pin_server, &set) < 0 ||
                              proc_check_cpus(&set, why, sizeof(why)) < 0)) {
            snprintf(err, errlen, "--pin-server '%s': %s", r->pin_server, why);
            return -1;
        }
        return 0;
    }

    if (r->n_tree_dirs) {
        snprintf(err, errlen,
                 "%s: $.server_host: compare commits' worktrees are not supported with a server "
                 "host yet (the servers run on '%s')",
                 r->sp->path, r->host->host);
        return -1;
    }
    for (v = 0; v < r->sp->n_versions; v++) {
        const struct spec_version *ver = &r->sp->versions[v];
        const char *proto;
        json_t *cmd;
        json_object_foreach(ver->server, proto, cmd)
        {
            if (strstr(json_string_value(cmd), "{port2}")) {
                snprintf(err, errlen,
                         "%s: $.versions[%zu].server.%s: {port2} is not supported with a server "
                         "host yet (the second port would be this machine's)",
                         r->sp->path, v, proto);
                return -1;
            }
        }
        if (!ver->server || ver->config_text) {
            snprintf(err, errlen,
                     "%s: $.versions[%zu]: %s (expected a \"server\" command for every "
                     "version when \"server_host\" is set, and no \"config\" template)",
                     r->sp->path, v, ver->server ? "has a \"config\" template" : "has no server");
            return -1;
        }
    }
    if (remote_preflight(r->host, tmp && *tmp ? tmp : "/tmp", &r->host_meta, err, errlen) < 0)
        return -1;
    return check_host_cpus(r, err, errlen);
}

void runner_host_finish(struct runner *r, json_t *meta)
{
    char why[512], w[700];
    json_t *after;
    double before_us, after_us;

    if (!r->host || !r->host_meta)
        return;
    after = sshhost_rtt(r->host, 21, why, sizeof(why));
    before_us = json_number_value(
        json_object_get(json_object_get(r->host_meta, "rtt_before"), "median_us"));
    after_us = json_number_value(json_object_get(after, "median_us"));
    json_object_set_new(r->host_meta, "rtt_after", after ? after : json_string(why));
    if (after && before_us > 0) {
        int moved = after_us > before_us * (1 + r->host->rtt_limit) ||
                    after_us < before_us / (1 + r->host->rtt_limit);
        json_object_set_new(r->host_meta, "rtt_moved", json_boolean(moved));
        snprintf(w, sizeof(w),
                 "the round trip to the server host moved from %.0f µs to %.0f µs over the "
                 "runs, past the stated share %.2f: the network was disturbed",
                 before_us, after_us, r->host->rtt_limit);
        if (moved && json_is_array(json_object_get(meta, "warnings")))
            json_array_append_new(json_object_get(meta, "warnings"), json_string(w));
    }
    json_object_set(meta, "server_host", r->host_meta);
}

void runner_host_rtt(const struct runner *r, json_t *interf)
{
    char why[512];
    json_t *rtt;
    double before, now, lim = r->host->rtt_limit;

    if (!json_is_object(interf) || !r->host_meta)
        return;
    before = json_number_value(
        json_object_get(json_object_get(r->host_meta, "rtt_before"), "median_us"));
    if (!(rtt = sshhost_rtt(r->host, 5, why, sizeof(why))))
        return;
    now = json_number_value(json_object_get(rtt, "median_us"));
    json_object_set_new(interf, "rtt_us", json_real(now));
    if (before > 0 && (now > before * (1 + lim) || now < before / (1 + lim))) {
        json_object_set_new(interf, "disturbed", json_true());
        json_object_set_new(interf, "rtt_moved", json_true());
    }
    json_decref(rtt);
}

/* b - a, or null when it went backwards (a thread ended inside the window). */
static json_t *delta(unsigned long long a, unsigned long long b)
{
    return b >= a ? json_integer((json_int_t)(b - a)) : json_null();
}

json_t *runner_host_perf(const struct window_watch *w)
{
    const struct tree_sample *a = &w->mark[0].server, *b = &w->mark[1].server;
    json_t *p;

    if (w->marks != 2 || !w->mark[0].have_server || !w->mark[1].have_server)
        return NULL;
    p = json_pack("{s:o,s:o,s:I,s:s}", "context_switches",
                  delta(a->vcsw + a->nivcsw, b->vcsw + b->nivcsw), "page_faults",
                  delta(a->faults, b->faults), "threads", (json_int_t)b->n_sched, "source", "proc");
    if (p && a->n_migr && b->n_migr)
        json_object_set_new(p, "cpu_migrations", delta(a->migrations, b->migrations));
    return p;
}
