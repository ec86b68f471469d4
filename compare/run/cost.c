/* cost: counted runs under valgrind, instructions per operation (see cost.h). */
#include "run/cost.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/cgprof.h"
#include "run/cost_cache.h"
#include "run/cost_fold.h"
#include "clock.h"
#include "run/cost_exact.h"
#include "run/cost_help.h"
#include "run/cost_int.h"
#include "run/cost_remote.h"
#include "run/cost_verify.h"
#include "run/counters.h"
#include "data/dataset.h"
#include "run/launch.h"
#include "run/proc.h"
#include "run/symbols.h"
#include "util/jobs_util.h"
#include "util/words.h"
#include "util/redact.h"

/* A counted server holding a probe's reply this long answers on timers: not countable here */
#define COST_HOLD_LIMIT_S 10.0

#define TOP_FUNCTIONS 150

/* ---- what can count ---- */

int cost_perf_probe(char *why, size_t whylen)
{
    struct counters_event ev = {"instructions:u", "PERF_COUNT_HW_INSTRUCTIONS", PERF_TYPE_HARDWARE,
                                PERF_COUNT_HW_INSTRUCTIONS, 0};

    return counters_probe(&ev, why, whylen);
}

/* ---- one counted run ---- */

char **cost_valgrind_wrap(const struct cost_settings *cs, const char *dir, const char *out_name,
                          char ***owned)
{
    size_t n = 0, i;
    char **w = calloc(COST_MAX_EXCLUDE + 16, sizeof(*w)),
         **o = calloc(COST_MAX_EXCLUDE + 4, sizeof(char *));

    if (!w || !o) {
        free(w);
        free(o);
        return NULL;
    }
    w[n++] = "valgrind";
    w[n++] = "--tool=callgrind";
    w[n++] = "--trace-children=yes";
    w[n++] = "--child-silent-after-fork=yes";
    w[n++] = "--dump-line=no";
    if (cs->cache_sim)
        w[n++] = "--cache-sim=yes";
    for (i = 0; i < cs->n_exclude; i++) {
        size_t len = strlen(cs->exclude[i]) + 20;
        if ((o[i] = malloc(len)))
            snprintf(o[i], len, "--toggle-collect=%s", cs->exclude[i]);
        w[n++] = o[i] ? o[i] : "--dump-line=no";
    }
    w[n++] = "--toggle-collect=" COST_GATHER_FN;
    /* after --toggle-collect, which turns collection off at start */
    w[n++] = "--collect-atstart=yes";
    if ((o[i] = malloc(strlen(dir) + strlen(out_name) + 40)))
        snprintf(o[i], strlen(dir) + strlen(out_name) + 40, "--callgrind-out-file=%s/%s", dir,
                 out_name);
    w[n++] = o[i] ? o[i] : "--dump-line=no";
    i++;
    if ((o[i] = malloc(strlen(dir) + 40)))
        snprintf(o[i], strlen(dir) + 40, "--vgdb-prefix=%s/vgdb", dir);
    w[n++] = o[i] ? o[i] : "--dump-line=no";
    *owned = o;
    return w;
}

static double now_s(void)
{
    return (double)clock_now_ns() / 1e9;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* Counts one phase: zero every process, run `phase` (a driver run, or NULL: sleep idle_s),
 * dump, parse the new dumps into p. *secs gets the time from the zero to the dump (midpoints
 * of the vgdb calls). Returns drive()'s codes. */
struct phase {
    struct runner *r;
    const char *dir, *prefix;
    pid_t pgid;
    json_t *seen;
    struct remote *rm; /* the server on the server host (its agent zeroes and dumps), or NULL */
};

/* vgdb cmd to every process of the counted server, here or on the server host. */
static int phase_vgdb(struct phase *ph, const char *cmd, char *why, size_t whylen)
{
    return ph->rm ? cost_remote_vgdb(ph->rm, cmd, why, whylen)
                  : cost_vgdb_all(ph->r, ph->prefix, ph->pgid, cmd, why, whylen);
}

static int count_phase(struct phase *ph, struct cgprof *p, double idle_s, size_t version,
                       const json_t *eff, unsigned requests, const char *cfg_path, const char *log,
                       json_t **result, double *secs, char *reason, size_t reasonlen, char *err,
                       size_t errlen)
{
    double a0 = now_s(), a1, b0, b1;
    int rc = 0;

    if (phase_vgdb(ph, "zero", reason, reasonlen) < 0)
        return 1;
    a1 = now_s();
    if (requests && result)
        rc = cost_drive(ph->r, version, eff, requests, NULL, cfg_path, log, result, reason,
                        reasonlen, err, errlen);
    else
        sleep_s(idle_s);
    if (rc != 0)
        return rc;
    b0 = now_s();
    if (phase_vgdb(ph, "dump", reason, reasonlen) < 0)
        return 1;
    b1 = now_s();
    *secs = (b0 + b1) / 2 - (a0 + a1) / 2;
    if (ph->rm && cost_remote_pull(ph->rm, ph->dir, reason, reasonlen) < 0)
        return 1;
    if (cost_parse_dumps(ph->dir, ph->seen, p, reason, reasonlen) < 0)
        return 1;
    return 0;
}

/* Allocator calls per operation (cgprof_allocs, the idle phase's subtracted like the
 * instructions'), and the callers, into per["(allocations)"] for cost_run to lift out. */
static void cost_allocs_add(json_t *per, const struct cgprof *idle, const struct cgprof *win,
                            const struct cost_idle *ci, double ops)
{
    double corr = (double)cgprof_allocs(idle) * ci->scale;
    json_t *fns = cgprof_allocs_json(win, TOP_FUNCTIONS), *f = json_object(), *v;
    const char *k;

    json_object_foreach(fns, k, v)
        json_object_set_new(f, k, json_real((double)json_integer_value(v) / ops));
    json_decref(fns);
    json_object_set_new(per, "(allocations)",
                        json_pack("{s:f,s:I,s:f,s:s,s:o}", "per_op",
                                  ((double)cgprof_allocs(win) - corr) / ops, "window_calls",
                                  (json_int_t)cgprof_allocs(win), "idle_correction", corr, "source",
                                  "callgrind calls", "functions", f));
}

/* The figures of a counted window: the idle phase's count scaled to the window by its
 * time-driven wake-ups where the interposer marks them, else by time (cost_exact_idle). New
 * reference. */
static json_t *figures(const struct cgprof *idle, const struct cgprof *win, double idle_s,
                       double win_s, const json_t *result, const char *vg_version)
{
    double ops = (double)json_integer_value(json_object_get(result, "ops"));
    double rate = idle_s > 0 ? (double)cgprof_total(idle) / idle_s : 0;
    double total = (double)cgprof_total(win), corr;
    struct cost_idle ci;
    json_t *fns = cgprof_functions_json(win, TOP_FUNCTIONS), *per = json_object(), *v, *o;
    const char *k;

    cost_exact_idle(idle, win, idle_s, win_s, &ci);
    corr = (double)cgprof_total(idle) * ci.scale;
    json_object_foreach(fns, k, v)
        json_object_set_new(per, k, json_real((double)json_integer_value(v) / ops));
    json_decref(fns);
    cost_allocs_add(per, idle, win, &ci, ops);
    cost_cache_add(per, idle, win, ci.scale, ops, win_s);
    o = json_pack("{s:f,s:I,s:I,s:I,s:f,s:f,s:f,s:f,s:f,s:s,s:s,s:o}", "per_op",
                  (total - corr) / ops, "processes", (json_int_t)cgprof_files(win),
                  "window_instructions", (json_int_t)cgprof_total(win), "ops", (json_int_t)ops,
                  "window_s", win_s, "idle_rate_per_s", rate, "idle_correction", corr, "idle_s",
                  idle_s, "throughput_counted", win_s > 0 ? ops / win_s : 0, "source", vg_version,
                  "counted", "server", "functions", per);
    if (o)
        json_object_update_new(o, json_pack("{s:s,s:I,s:I,s:I,s:I}", "idle_method", ci.method,
                                            "idle_instructions", (json_int_t)cgprof_total(idle),
                                            "idle_wakeups", (json_int_t)ci.idle_wakeups,
                                            "window_wakeups", (json_int_t)ci.window_wakeups,
                                            "window_waits", (json_int_t)ci.window_waits));
    return o;
}

/* The counted part of a run, the server already started. 0 ok (*inst set), 1 failed, 2
 * interrupted, -1 internal error. */
static int count_run(struct runner *r, const struct sched_run *sr, const struct cost_settings *cs,
                     const json_t *eff, const char *dir, pid_t pgid, struct remote *rm,
                     const char *vg, json_t **inst, char *reason, size_t reasonlen, char *err,
                     size_t errlen)
{
    char cfg_path[4300], log[4300], prefix[4300];
    struct cgprof *idle = cgprof_new(), *win = cgprof_new();
    struct phase ph = {
        .r = r, .dir = dir, .prefix = prefix, .pgid = pgid, .seen = json_object(), .rm = rm};
    json_t *result = NULL, *weff = NULL, *before = NULL;
    double idle_s = 0, win_s = 0;
    int rc = -1;

    snprintf(cfg_path, sizeof(cfg_path), "%s/config.json", dir);
    snprintf(log, sizeof(log), "%s/driver.log", dir);
    snprintf(prefix, sizeof(prefix), "%s/vgdb", dir);
    if (!idle || !win || !ph.seen) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (cs->warmup_requests) {
        rc = cost_drive(r, sr->version, eff, cs->warmup_requests, NULL, cfg_path, log, &result,
                        reason, reasonlen, err, errlen);
        json_decref(result);
        result = NULL;
        if (rc != 0)
            goto out;
        /* let the server finish closing the warm-up's connections (slow under valgrind)
         * before the idle rate is measured: closes counted as idle work inflate the rate
         * and so its correction (docs/results/counted-cost.md, "The idle correction") */
        sleep_s(0.5);
    }
    if (cs->warmup_requests) {
        /* the warm-up prefilled any LRANGE list: a driver that can leave the prefill out of
         * the window's handshakes does (the list made before the window, as a setup's) */
        int no_prefill = cost_help_driver_no_prefill(r, sr->version, err, errlen);

        if (no_prefill < 0 || cost_exact_window_config(eff, no_prefill, &weff) < 0) {
            if (no_prefill >= 0)
                snprintf(err, errlen, "out of memory");
            rc = -1;
            goto out;
        }
    }
    rc = count_phase(&ph, idle, cs->idle_s, sr->version, eff, 0, cfg_path, log, NULL, &idle_s,
                     reason, reasonlen, err, errlen);
    if (rc == 0 && !(before = json_deep_copy(ph.seen)))
        rc = -1;
    if (rc == 0)
        rc = count_phase(&ph, win, 0, sr->version, weff ? weff : eff, cs->requests, cfg_path, log,
                         &result, &win_s, reason, reasonlen, err, errlen);
    if (rc == 0 && r->out_dir)
        rc = cost_fold_window(r, sr, dir, ph.seen, before, result, reason, reasonlen);
    if (rc == 0 && cgprof_total(win) == 0) {
        snprintf(reason, reasonlen, "valgrind counted no instructions in the window");
        rc = 1;
    }
    if (rc == 0)
        *inst = figures(idle, win, idle_s, win_s, result, vg);
    if (rc == 0 && *inst && cost_correction_exceeds(*inst, reason, reasonlen)) {
        json_decref(*inst);
        *inst = NULL;
        rc = 1;
    }
out:
    json_decref(weff);
    json_decref(result);
    json_decref(ph.seen);
    json_decref(before);
    cgprof_free(idle);
    cgprof_free(win);
    return rc;
}

json_t *cost_line(struct runner *r, const struct sched_run *sr, const char *started,
                  pid_t server_pid, json_t *inst, const char *reason)
{
    const struct grid_config *cfg = &r->sp->configs[sr->config];
    char ended[40];

    runner_utc_now(ended, sizeof(ended));
    /* which binary ran, and whether it can name its functions (run/symbols.h) */
    symbols_note(inst, json_string_value(json_object_get(r->sp->versions[sr->version].server,
                                                         ju_str(cfg->params, "protocol", ""))));
    return json_pack(
        "{s:s,s:s,s:s,s:s,s:I,s:I,s:o,s:s,s:s,s:s,s:o,s:o,s:o}", "version",
        r->sp->versions[sr->version].name, "config", cfg->id, "label", cfg->label, "kind",
        "instructions", "round", (json_int_t)sr->round, "position", (json_int_t)sr->position, "pid",
        server_pid > 0 ? json_integer(server_pid) : json_null(), "started", started, "ended", ended,
        "status", inst ? "ok" : "failed", "reason", inst ? json_null() : json_string(reason),
        "result", json_null(), "instructions", inst ? inst : json_null());
}

/* The allocations figures_() left among the functions go to the line's top level. */
static void cost_allocs_lift(json_t *line)
{
    json_t *fns = json_object_get(json_object_get(line, "instructions"), "functions");
    json_t *al = json_object_get(fns, "(allocations)");

    if (!al)
        return;
    json_object_set(line, "allocations", al);
    json_object_del(fns, "(allocations)");
}

/* Counted runs under valgrind take minutes: a driver timeout of at least this. */
#define COUNTED_TIMEOUT_S 120.0

/* The round's seed for the driver (its connections' choices) and the server's start (the
 * interposer, the fixed layout and environment, when they apply). -1 out of memory. */
static int exact_begin(struct runner *r, const struct sched_run *sr, const struct cost_settings *cs,
                       json_t *eff, const char *cmd, const char *dir, struct cost_exact *ex,
                       char *err, size_t errlen)
{
    unsigned long long seed = (unsigned long long)cs->seed + sr->round - 1;
    const json_t *t = json_object_get(eff, "timeout");
    json_int_t conns;
    unsigned wave = 0;
    char why[600];
    int seeds = cost_help_driver_seeds(r, sr->version, why, sizeof(why), err, errlen);

    if (seeds < 0)
        return -1;
    /* a count is per request and valgrind cannot keep a schedule: a fixed-rate row is
     * counted closed loop (in waves where exact), its rate a setting of the timed runs */
    json_object_del(eff, "rate");
    json_object_del(eff, "arrival");
    if (seeds)
        json_object_set_new(eff, "seed", json_integer((json_int_t)seed));
    if (!t || json_number_value(t) < COUNTED_TIMEOUT_S)
        json_object_set_new(eff, "timeout", json_real(COUNTED_TIMEOUT_S));
    if (!cs->exact || cs->count_driver || !seeds || r->host) {
        memset(ex, 0, sizeof(*ex));
        ex->seed = seed;
        snprintf(ex->reason, sizeof(ex->reason), "%s",
                 cs->count_driver ? "the driver is counted: the interposer serves servers only"
                 : !cs->exact     ? "turned off (\"exact\": false)"
                 : r->host ? "the server runs on the server host: the interposer is not used "
                             "there yet (docs/remote.md)"
                           : why);
        return 0;
    }
    if ((conns = json_integer_value(json_object_get(eff, "connections"))) > 1) {
        int lockstep = cost_help_drivers_lockstep(r, err, errlen);

        if (lockstep < 0)
            return -1;
        if (lockstep) { /* waves of every connection, from one worker: see cost_exact.h */
            json_object_set_new(eff, "lockstep", json_true());
            json_object_set_new(eff, "workers", json_integer(1));
            wave = (unsigned)conns;
        }
    }
    if (cost_exact_prepare(ex, r, sr->version, cmd, dir, seed, wave, err, errlen) < 0)
        return -1;
    if (wave && !ex->wave)
        json_object_del(eff, "lockstep");
    if (ex->applied) {
        r->server_envp = ex->envp;
        r->server_no_aslr = 1;
    }
    cost_exact_connections(ex, eff);
    return 0;
}

/* Starts the counted server l (here, or on the server host) and counts it: count_run's codes,
 * reason set on 1; *pid its pid (there, with a server host); vg the valgrind that counts. */
static int start_and_count(struct runner *r, const struct sched_run *sr,
                           const struct cost_settings *cs, json_t *eff, struct launch *l,
                           const char *dir, char *vg, size_t vglen, struct cost_exact *ex,
                           json_t **inst, long *pid, char *reason, size_t reasonlen, char *err,
                           size_t errlen)
{
    const char *name = r->sp->versions[sr->version].name;
    struct proc server = {.pid = -1, .out_fd = -1};
    struct remote rm = {.ssh = {.pid = -1, .out_fd = -1}, .in_fd = -1};
    char why[1024];
    int rc = r->host ? cost_remote_start(r, l, eff, &rm, vg, vglen, why, sizeof(why))
                     : launch_start(r, l, &server, why, sizeof(why));

    r->server_envp = NULL;
    r->server_no_aslr = 0;
    *pid = r->host ? rm.server_pid : server.pid;
    if (rc == 1)
        snprintf(reason, reasonlen, "instructions: version '%s'%s: %s", name,
                 l->wrap ? " under valgrind" : "", why);
    if (rc == 0) {
        /* a server that ends meanwhile ends the driver's wait: here its process, there the
         * ssh session, which the agent's end (and so the server's) ends */
        r->counted_server = r->host ? rm.ssh.pid : server.pid;
        rc = cs->count_driver
                 ? cost_count_driver(r, sr, cs, eff, dir, vg, inst, why, sizeof(why), err, errlen)
                 : count_run(r, sr, cs, eff, dir, server.pid, r->host ? &rm : NULL, vg, inst, why,
                             sizeof(why), err, errlen);
        r->counted_server = 0;
        if (rc == 1 && r->host) /* its end is the first cause */
            (void)cost_remote_ended(&rm, why, sizeof(why));
        else if (rc == 1 && proc_ended_within(&server, 5.0))
            proc_ended_reason(&server, "the counted server", l->log, why, sizeof(why));
        if (rc == 1)
            snprintf(reason, reasonlen, "instructions: version '%s': %s", name, why);
        if (rc == 0)
            json_object_set_new(*inst, "fixed", cost_exact_record(ex, dir));
    }
    if (r->host) {
        remote_close(&rm, 10.0);
        json_decref(rm.stopped); /* the server's end there: a counted run keeps no figure of it */
    } else if (server.pid > 0) {
        proc_stop(&server, 10.0); /* valgrind writes its exit dump first */
    }
    return rc;
}

static json_t *count_once(struct runner *r, const struct sched_run *sr,
                          const struct cost_settings *cs, char *err, size_t errlen)
{
    const struct spec_version *ver = &r->sp->versions[sr->version];
    const json_t *params = r->sp->configs[sr->config].params;
    const char *proto = ju_str(params, "protocol", NULL),
               *cmd = ver->server ? ju_str(ver->server, proto, NULL) : NULL;
    const char *host = ju_str(params, "host", "127.0.0.1");
    char dir[4200], srv_dir[4300], srv_log[4300], started[40], reason[2048] = "", why[1024];
    char vg[64], **wrap = NULL, **owned = NULL, vglog[4300];
    struct cost_exact ex = {0};
    json_t *eff = NULL, *inst = NULL, *line = NULL;
    unsigned port;
    long pid = -1;
    int rc = 1;

    r->seq++;
    runner_utc_now(started, sizeof(started));
    /* one length for every run: the server's arguments ({dir}) sit on its stack */
    snprintf(dir, sizeof(dir), "%s/cost-%06u", r->work_dir, r->seq);
    snprintf(srv_dir, sizeof(srv_dir), "%s/srv", dir);
    snprintf(srv_log, sizeof(srv_log), "%s/server.log", dir);
    cost_valgrind_version(vg, sizeof(vg));
    if (r->host) /* the host's valgrind counts: its version comes from the agent */
        snprintf(vg, sizeof(vg), "%s", "valgrind");
    if (!cmd) {
        snprintf(reason, sizeof(reason),
                 "instructions: version '%s' has no server command for protocol '%s' (the "
                 "counted channel measures a server the version starts)",
                 ver->name, proto ? proto : "?");
        goto record;
    }
    if (!vg[0]) {
        snprintf(reason, sizeof(reason),
                 "instructions: version '%s' not counted: valgrind cannot be run (install it: "
                 "apt-get install valgrind)",
                 ver->name);
        goto record;
    }
    if (ju_mkdir_p(srv_dir, err, errlen) < 0)
        goto out;
    if (!(eff = runner_effective_config(r, sr->config)) ||
        (!cs->count_driver &&
         !(wrap = cost_valgrind_wrap(cs, r->host ? "{dir}" : dir, "cg.%p", &owned)))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    port = launch_place(eff, host, why, sizeof(why));
    if (!port) {
        snprintf(reason, sizeof(reason), "instructions: %s", why);
        goto record;
    }
    launch_take_over(eff); /* launch_place pointed host and port at the free one */
    if (exact_begin(r, sr, cs, eff, cmd, dir, &ex, err, errlen) < 0)
        goto out;
    if (ex.applied && wrap)
        cost_verify_wrap(wrap, dir, vglog, sizeof(vglog));
    /* the driver counted (cost_driver.c): its server runs as in the timed runs */
    rc =
        start_and_count(r, sr, cs, eff,
                        &(struct launch){sr->version, eff, cmd, host, port, srv_dir, srv_log, wrap,
                                         r->sp->probe_timeout + (wrap ? 60 : 0), COST_HOLD_LIMIT_S},
                        dir, vg, sizeof(vg), &ex, &inst, &pid, reason, sizeof(reason), err, errlen);
    if (rc == 2 || rc < 0)
        goto out;
record:
    line = cost_line(r, sr, started, (pid_t)pid, inst, reason);
    inst = NULL;
    cost_allocs_lift(line);
    cost_cache_lift(line);
    if (!line)
        snprintf(err, errlen, "out of memory");
out:
    json_decref(inst);
    json_decref(eff);
    free(wrap);
    words_free(owned);
    cost_exact_release(&ex);
    cost_rm_dir_files(dir);
    (void)rmdir(dir);
    return line;
}

/* A setuid or setgid server, which valgrind will not execute: a line saying so, "countable":
 * false (judged on the timed metrics: summary_row.c), or NULL when the server is none. */
static json_t *setid_line(struct runner *r, const struct sched_run *sr,
                          const struct cost_settings *cs)
{
    const struct spec_version *ver = &r->sp->versions[sr->version];
    const char *proto = ju_str(r->sp->configs[sr->config].params, "protocol", NULL);
    const char *cmd = ver->server ? ju_str(ver->server, proto, NULL) : NULL;
    char dir[4200], why[1024], reason[1400], started[40];
    json_t *line;

    snprintf(dir, sizeof(dir), "%s/cost-%06u", r->work_dir, r->seq + 1);
    /* on a server host the program is the host's: a setuid one fails its start there */
    if (cs->count_driver || !cmd || r->host ||
        !cost_exact_setid(r, sr->version, cmd, dir, why, sizeof(why)))
        return NULL;
    runner_utc_now(started, sizeof(started));
    snprintf(reason, sizeof(reason), "instructions: version '%s' not countable: %s", ver->name,
             why);
    if ((line = cost_line(r, sr, started, -1, NULL, reason)))
        json_object_set_new(line, "countable", json_false());
    return line;
}

/* Round 1's repeat shows whether a version's counts of a configuration repeat: a later round's
 * line says exact only when round 1's did (r->cost_fates, by configuration and version; a
 * round 1 of an earlier invocation, on --resume, is not known here and leaves the line as it
 * is). Returns line. */
static json_t *round_fate(struct runner *r, const struct sched_run *sr, json_t *line)
{
    json_t *fixed = json_object_get(json_object_get(line, "instructions"), "fixed");
    char key[64];

    if (!json_is_object(fixed))
        return line;
    snprintf(key, sizeof(key), "%zu/%zu", (size_t)sr->config, (size_t)sr->version);
    if (sr->round == 1) {
        if (!r->cost_fates)
            r->cost_fates = json_object();
        json_object_set_new(r->cost_fates, key,
                            json_boolean(json_is_true(json_object_get(fixed, "exact"))));
    } else if (json_is_false(json_object_get(r->cost_fates, key)) &&
               json_is_true(json_object_get(fixed, "exact"))) {
        json_object_set_new(fixed, "exact", json_false());
        json_object_set_new(fixed, "reason",
                            json_string("round 1 of this version and configuration was not "
                                        "exact, so no count of one seed was shown to repeat"));
    }
    return line;
}

json_t *cost_run(struct runner *r, const struct sched_run *sr, const struct cost_settings *cs,
                 char *err, size_t errlen)
{
    json_t *line = setid_line(r, sr, cs), *rep;
    const json_t *fixed;

    if (line)
        return line;
    line = count_once(r, sr, cs, err, errlen);
    fixed = json_object_get(json_object_get(line, "instructions"), "fixed");
    /* one repeat per version and configuration: round 1's seed, counted again */
    if (!line || sr->round != 1 || !json_is_true(json_object_get(fixed, "exact")))
        return line ? round_fate(r, sr, line) : NULL;
    if (!(rep = count_once(r, sr, cs, err, errlen))) {
        json_decref(line);
        return NULL;
    }
    cost_verify_repeat(line, rep);
    json_decref(rep);
    return round_fate(r, sr, line);
}

/* ---- the counted rounds ---- */

struct done_ctx {
    const struct spec *sp;
    const json_t *existing;
    const unsigned char *selected;
    const json_t *match;
};

static int counted_done(void *ctx, size_t config, size_t version, unsigned round)
{
    const struct done_ctx *d = ctx;

    if (d->selected && !d->selected[config])
        return 1;
    if (d->match) {
        const char *k;
        const json_t *v;
        json_object_foreach((json_t *)d->match, k, v)
        {
            if (!json_equal((json_t *)v, json_object_get(d->sp->configs[config].params, k)))
                return 1; /* not a configuration to count */
        }
    }
    return dataset_has_ok_line(d->existing, "instructions", d->sp->configs[config].id,
                               d->sp->versions[version].name, round);
}

int cost_schedule(struct runner *r, const struct cost_settings *cs, const unsigned char *selected,
                  unsigned shard_k, unsigned shard_n, const json_t *existing, int fd, char *err,
                  size_t errlen)
{
    struct done_ctx d = {
        .sp = r->sp, .existing = existing, .selected = selected, .match = cs->match};
    struct sched_run *plan = NULL;
    size_t n, total, i;
    int failed = 0;
    unsigned char *skip;

    if (!cs->enabled || cs->use_counters)
        return 0; /* counters: the timed runs counted */
    n = sched_plan(r->sp->n_configs, r->sp->n_versions, cs->runs, shard_k, shard_n, counted_done,
                   &d, &plan, &total);
    if (n == (size_t)-1) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    skip = calloc(r->sp->n_configs + 1, 1);
    for (i = 0; i < n && !*r->stop; i++) {
        const struct sched_run *sr = &plan[i];
        json_t *line;
        const char *st;
        int whole = 0;

        if (skip && skip[sr->config])
            continue; /* its server was not countable here: the row stands on its timed runs */
        if (!(line = cost_run(r, sr, cs, err, errlen))) {
            if (*r->stop)
                break;
            failed = -1;
            break;
        }
        st = ju_str(line, "status", NULL);
        /* not countable here: a server that never answers when counted (the whole plan), a
         * row whose threads poll for work, or a line cost_run marked (a setuid server) */
        if (strcmp(st ? st : "", "ok") != 0 &&
            (cost_not_countable(line, &whole) ||
             json_is_false(json_object_get(line, "countable")))) {
            char shown[2100];

            /* the rows are judged on their timed metrics (summary_row.c reads "countable":
             * false) */
            json_object_set_new(line, "countable", json_false());
            fprintf(stderr,
                    "compare: not countable here: %s · %s: %s; the counted runs are left out and "
                    "the rows judged on their timed metrics\n",
                    r->sp->configs[sr->config].label, r->sp->versions[sr->version].name,
                    redact_show(ju_str(line, "reason", NULL), shown, sizeof(shown)));
            if (whole || !skip)
                n = i + 1;
            else /* the row keeps no count: its other counted runs are left out */
                skip[sr->config] = 1;
        } else if (strcmp(st ? st : "", "ok") != 0) {
            char shown[2100];

            failed++;
            fprintf(stderr, "compare: counted run failed: %s · %s · round %u: %s\n",
                    r->sp->configs[sr->config].label, r->sp->versions[sr->version].name, sr->round,
                    redact_show(ju_str(line, "reason", NULL), shown, sizeof(shown)));
        } else {
            fprintf(stderr, "compare: counted %s · %s · round %u: %.0f instructions/op\n",
                    r->sp->configs[sr->config].label, r->sp->versions[sr->version].name, sr->round,
                    json_number_value(
                        json_object_get(json_object_get(line, "instructions"), "per_op")));
        }
        if (dataset_append(fd, line, err, errlen) < 0) {
            json_decref(line);
            failed = -1;
            break;
        }
        json_decref(line);
    }
    free(plan);
    free(skip);
    return failed;
}
