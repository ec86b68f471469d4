/* sequence: one server per version and round through every configuration (see sequence.h). */
#include "run/sequence.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptree.h"
#include "run/launch.h"
#include "run/probe.h"
#include "run/runner.h"
#include "util/jobs_util.h"

#define KILL_AFTER_S 2.0
#define STATE_PROBE_S 2.0 /* for the server to answer what it holds after a step */
#define STATE_PIDS_MAX 256

void seq_hold_init(struct seq_hold *h)
{
    memset(h, 0, sizeof(*h));
    h->server.pid = -1;
    h->server.out_fd = -1;
}

/* The configuration key k of every configuration equals the first's. */
static int same_key(const struct spec *sp, const char *k, const char *dflt, size_t *bad)
{
    const char *first = ju_str(sp->configs[0].params, k, dflt);
    size_t i;

    for (i = 1; i < sp->n_configs; i++) {
        const char *v = ju_str(sp->configs[i].params, k, dflt);
        if (strcmp(v, first) != 0) {
            *bad = i;
            return 0;
        }
    }
    return 1;
}

/* Every configuration on one server, every version with its own. */
static int seq_check_server(const struct spec *sp, char *err, size_t errlen)
{
    static const char *const keys[] = {"protocol", "transport", "host"};
    static const char *const dflts[] = {"", "tcp", "127.0.0.1"};
    const char *proto = ju_str(sp->configs[0].params, "protocol", "");
    size_t i, bad = 0;

    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (!same_key(sp, keys[i], dflts[i], &bad)) {
            snprintf(err, errlen,
                     "%s: $.sequence: true needs one server for every configuration, but "
                     "configuration '%s' has %s \"%s\" and '%s' \"%s\" (expected one protocol, "
                     "transport and host in the grids of a sequence)",
                     sp->path, sp->configs[bad].label, keys[i],
                     ju_str(sp->configs[bad].params, keys[i], dflts[i]), sp->configs[0].label,
                     ju_str(sp->configs[0].params, keys[i], dflts[i]));
            return -1;
        }
    for (i = 0; i < sp->n_versions; i++)
        if (!ju_str(sp->versions[i].server, proto, NULL)) {
            snprintf(err, errlen,
                     "%s: $.versions[%zu].server.%s: missing, and $.sequence is true (expected "
                     "each version's own %s server: the driver's reference server lives for "
                     "one run only)",
                     sp->path, i, proto, proto);
            return -1;
        }
    return 0;
}

int seq_check(const struct spec *sp, const struct run_request *rq, int counted, char *err,
              size_t errlen)
{
    const char *with = NULL;

    if (!sp->sequence)
        return 0;
    if (counted)
        with = "--instructions, --syscalls or --cache-sim (counted runs start a fresh server "
               "for every run)";
    else if (sp->has_server_host)
        with = "$.server_host (a server host starts its server for every run)";
    else if (rq->shard_n)
        with = "--shard (a shard would cut the sequence of configurations)";
    else if (rq->confirm_rounds > 0 || (rq->confirm_rounds < 0 && sp->confirm_rounds > 0))
        with = "confirmation rounds (--confirm or $.confirm_rounds: an extra round of one "
               "configuration would start a fresh server)";
    if (with) {
        snprintf(err, errlen,
                 "%s: $.sequence: true cannot run with %s; expected \"sequence\": false or "
                 "none of them",
                 sp->path, with);
        return -1;
    }
    return seq_check_server(sp, err, errlen);
}

int seq_hold_use(struct seq_hold *h, const struct sched_run *sr, json_t *eff, struct proc *server,
                 char *dir, size_t dirlen, char *log, size_t loglen, char *reason, size_t reasonlen)
{
    if (h->version != sr->version || h->round != sr->round || sr->step == 1) {
        seq_hold_stop(h);
        h->version = sr->version;
        h->round = sr->round;
        h->ended_step = 0;
        h->ended[0] = '\0';
    }
    if (h->ended_step) {
        snprintf(reason, reasonlen, "the sequence's server is gone since step %u of %u: %s",
                 h->ended_step, sr->steps, h->ended);
        return -1;
    }
    if (h->server.pid <= 0)
        return 0;
    launch_take_over(eff);
    json_object_set_new(eff, "host", json_string(h->host));
    json_object_set_new(eff, "port", json_integer(h->port));
    *server = h->server;
    snprintf(dir, dirlen, "%s", h->dir);
    snprintf(log, loglen, "%s", h->log);
    return 1;
}

void seq_hold_take(struct seq_hold *h, const struct sched_run *sr, const struct proc *server,
                   const json_t *eff, const char *dir, const char *log, const char *started,
                   const json_t *conf, const char *why)
{
    if (!server || server->pid <= 0) {
        h->ended_step = sr->step;
        snprintf(h->ended, sizeof(h->ended), "it did not start: %s", why);
        return;
    }
    h->server = *server;
    h->port = (unsigned)json_integer_value(json_object_get(eff, "port"));
    snprintf(h->host, sizeof(h->host), "%s", ju_str(eff, "host", "127.0.0.1"));
    snprintf(h->dir, sizeof(h->dir), "%s", dir);
    snprintf(h->log, sizeof(h->log), "%s", log);
    snprintf(h->started, sizeof(h->started), "%s", started);
    json_decref(h->conf);
    h->conf = conf ? json_deep_copy(conf) : NULL;
}

void seq_hold_back(struct seq_hold *h, const struct sched_run *sr, struct proc *server)
{
    char st[64];

    h->server = *server;
    server->pid = -1;
    server->out_fd = -1;
    server->log_pid = 0;
    if (!h->ended_step && !proc_running(&h->server)) {
        proc_describe_status(h->server.status, st, sizeof(st));
        h->ended_step = sr->step;
        snprintf(h->ended, sizeof(h->ended), "it ended with %s", st);
    }
    if (sr->step >= sr->steps)
        seq_hold_stop(h);
}

/* The resident memory (kB) and open sockets of the server's process tree, from /proc. */
static void tree_state(pid_t root, long long *rss_kib, long long *sockets)
{
    pid_t pids[STATE_PIDS_MAX];
    size_t n = ptree_pids("/proc", root, pids, STATE_PIDS_MAX), i;

    *rss_kib = *sockets = 0;
    for (i = 0; i < n; i++) {
        char path[64], buf[4096], link[64];
        const char *vm;
        struct dirent *e;
        DIR *d;

        snprintf(path, sizeof(path), "/proc/%ld/status", (long)pids[i]);
        if (ptree_read_small(path, buf, sizeof(buf)) > 0 && (vm = strstr(buf, "VmRSS:")))
            *rss_kib += strtoll(vm + 6, NULL, 10);
        snprintf(path, sizeof(path), "/proc/%ld/fd", (long)pids[i]);
        if (!(d = opendir(path)))
            continue;
        while ((e = readdir(d)) != NULL) {
            char fd[400];
            ssize_t k;

            snprintf(fd, sizeof(fd), "%s/%s", path, e->d_name);
            k = readlink(fd, link, sizeof(link) - 1);
            *sockets += k > 7 && strncmp(link, "socket:", 7) == 0;
        }
        closedir(d);
    }
}

json_t *seq_state(const struct seq_hold *h, const json_t *eff, const json_t *env)
{
    struct probe_target pt = {0};
    long long rss, sockets, keys, used;
    json_t *o;

    if (h->server.pid <= 0 || ptree_ended(h->server.pid)) /* not reaped here: seq_hold_back's */
        return NULL;
    tree_state(h->server.pid, &rss, &sockets);
    o = json_pack("{s:I,s:I}", "rss_kib", (json_int_t)rss, "sockets", (json_int_t)sockets);
    if (o && strcmp(ju_str(eff, "protocol", ""), "redis") == 0) {
        launch_probe_target(&pt, eff, h->host, h->port, env);
        if (probe_redis_state(&pt, STATE_PROBE_S, &keys, &used) == 0) {
            json_object_set_new(o, "keys", json_integer((json_int_t)keys));
            if (used >= 0)
                json_object_set_new(o, "used_memory", json_integer((json_int_t)used));
        }
    }
    return o;
}

json_t *seq_line(const struct seq_hold *h, const struct sched_run *sr, json_t *state)
{
    int live = h->server.pid > 0 && h->version == sr->version && h->round == sr->round;
    json_t *o =
        json_pack("{s:I,s:I,s:o,s:o}", "step", (json_int_t)sr->step, "steps", (json_int_t)sr->steps,
                  "server_pid", live ? json_integer(h->server.pid) : json_null(), "server_started",
                  live ? json_string(h->started) : json_null());

    if (o && state)
        json_object_set(o, "state", state);
    json_decref(state);
    return o;
}

void seq_hold_stop(struct seq_hold *h)
{
    if (h->server.pid > 0 || h->server.log_pid > 0)
        proc_stop(&h->server, KILL_AFTER_S);
    if (h->log[0])
        (void)unlink(h->log);
    if (h->dir[0])
        runner_remove_tree(h->dir);
    json_decref(h->conf);
    seq_hold_init(h);
}
