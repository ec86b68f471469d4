/* execute: what `compare run` does, as the library of run.h that run, gate, commits, calibrate
 * and demo call. In steps: load and check the spec and grids (nothing runs when they are bad),
 * choose and open the run directory, plan (what is left to run on --resume), write meta.json,
 * run the schedule (runner.c per run, runs.jsonl appended and fsync'd per run), confirm the
 * borderline rows (confirm.c), then record meta.json and render the reports. SIGINT/SIGTERM
 * stop the current run (its children stopped and reaped, nothing half-written recorded), write
 * a partial report and return EXIT_HARNESS (3); `--resume` runs what is missing. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/cost.h"
#include "run/cost_cache.h"
#include "run/syscount_run.h"
#include "util/atomic.h"
#include "clock.h"
#include "util/exit_codes.h"
#include "util/jobs_util.h"
#include "run/confirm.h"
#include "data/dataset.h"
#include "report/render.h"
#include "run/resume.h"
#include "run/run.h"
#include "run/runmeta.h"
#include "run/runner.h"
#include "run/saturation.h"
#include "run/schedule.h"
#include "run/sequence.h"
#include "run/spec.h"
#include "analysis/stats.h"
#include "util/redact.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

void run_request_init(struct run_request *rq)
{
    memset(rq, 0, sizeof(*rq));
    rq->warmup_s = -1;
    rq->duration_s = -1;
    rq->confirm_rounds = -1;
}

/* ---- run directory ---- */

static void default_driver(char *out, size_t outlen)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

    if (n <= 0) {
        snprintf(out, outlen, "bin/driver");
        return;
    }
    exe[n] = '\0';
    snprintf(out, outlen, "%s/driver", dirname(exe));
}

/* ---- resume: what the dataset already holds ---- */

struct done_set {
    const struct spec *sp;
    json_t *latest; /* {"<config>\t<version>\t<round>": status} */
};

static void done_key(char *out, size_t outlen, const char *config, const char *version,
                     long long round)
{
    snprintf(out, outlen, "%s\t%s\t%lld", config, version, round);
}

static int done_fn(void *ctx, size_t config, size_t version, unsigned round)
{
    struct done_set *d = ctx;
    char key[256];
    const char *st;

    done_key(key, sizeof(key), d->sp->configs[config].id, d->sp->versions[version].name, round);
    st = json_string_value(json_object_get(d->latest, key));
    return st && strcmp(st, "ok") == 0;
}

/* Latest status per (config, version, round); counts of lines and of failed keys. */
static json_t *latest_status(const json_t *runs, unsigned *n_failed)
{
    json_t *latest = json_object(), *line, *v;
    size_t i;
    const char *k;
    json_array_foreach(runs, i, line)
    {
        char key[256];
        const char *c = json_string_value(json_object_get(line, "config"));
        const char *ver = json_string_value(json_object_get(line, "version"));
        const char *st = json_string_value(json_object_get(line, "status"));
        const char *kind = json_string_value(json_object_get(line, "kind"));
        char kv[160];
        if (!c || !ver || !st)
            continue;
        /* a counted run whose server was not countable here (cost.c) is no failure: its rows
         * are judged on their timed runs */
        if (json_is_false(json_object_get(line, "countable")))
            st = "not countable";
        /* counted runs (kind "instructions") have rounds of their own */
        snprintf(kv, sizeof(kv), "%s%s%s", ver, kind ? "\x1f" : "", kind ? kind : "");
        done_key(key, sizeof(key), c, kv, json_integer_value(json_object_get(line, "round")));
        json_object_set_new(latest, key, json_string(st));
    }
    *n_failed = 0;
    json_object_foreach(latest, k, v)
    {
        if (strcmp(json_string_value(v), "ok") != 0 &&
            strcmp(json_string_value(v), "not countable") != 0)
            (*n_failed)++;
    }
    return latest;
}

/* ---- progress ---- */

static void fmt_secs(double s, char *out, size_t outlen)
{
    if (s < 60)
        snprintf(out, outlen, "%.0f s", s);
    else if (s < 3600)
        snprintf(out, outlen, "%dm%02ds", (int)s / 60, (int)s % 60);
    else
        snprintf(out, outlen, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

static void progress_tty(size_t k, size_t n, const char *label, const char *version, double elapsed,
                         double left)
{
    char e[32], l[32];

    fmt_secs(elapsed, e, sizeof(e));
    fmt_secs(left, l, sizeof(l));
    fprintf(stderr, "\r\033[Krun %zu/%zu · %s · %s · %s · ~%s left", k, n, label, version, e, l);
    fflush(stderr);
}

/* ---- the run ---- */

static void install_signals(struct sigaction *old_int, struct sigaction *old_term,
                            struct sigaction *old_pipe)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal; /* no SA_RESTART: poll and sleeps return early */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, old_int);
    sigaction(SIGTERM, &sa, old_term);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, old_pipe);
}

static void restore_signals(const struct sigaction *old_int, const struct sigaction *old_term,
                            const struct sigaction *old_pipe)
{
    sigaction(SIGINT, old_int, NULL);
    sigaction(SIGTERM, old_term, NULL);
    sigaction(SIGPIPE, old_pipe, NULL);
}

/* The state of one execution, shared by its steps. */
struct exec {
    const struct run_request *rq;
    struct run_outcome *out;
    char *err;
    size_t errlen;
    struct spec sp;
    struct runner r;
    struct done_set done;
    struct sched_run *plan;
    size_t n_plan, n_total, n_ran;
    json_t *meta, *existing, *driver_build, *runs_now;
    unsigned char *selected;
    char dir[PATH_MAX], work[PATH_MAX], drv[PATH_MAX], why[2048];
    unsigned runs, n_failed, truncated;
    int fd;
    uint64_t timed_ns;            /* what the planned timed runs took (not the counted ones) */
    struct cost_settings cost;    /* the counted-cost channel */
    struct syscount_settings sys; /* counted runs of system calls */
    struct seq_hold hold;         /* a sequence's server (sequence.h) */
};

/* The spec, the grids, the programs and the shard's configurations. */
static int exec_load(struct exec *e)
{
    const struct run_request *rq = e->rq;
    size_t i, n_sel = 0;

    if (spec_load(&e->sp, rq->spec_path ? rq->spec_path : "", NULL, rq->grid_paths, rq->n_grids,
                  e->err, e->errlen) < 0) {
        if (!rq->spec_path)
            snprintf(e->err, e->errlen,
                     "--spec: missing (expected a spec file, see specs/README.md)");
        return EXIT_USAGE;
    }
    /* the secrets servers and drivers may print: before the first starts (util/redact.h) */
    for (i = 0; i < e->sp.n_versions; i++)
        if (redact_add_env(e->sp.versions[i].env) < 0) {
            snprintf(e->err, e->errlen, "out of memory");
            return EXIT_HARNESS;
        }
    if (redact_add_environ(environ) < 0) {
        snprintf(e->err, e->errlen, "out of memory");
        return EXIT_HARNESS;
    }
    if (rq->resume && !rq->out_dir) {
        snprintf(e->err, e->errlen, "--resume: needs --out DIR (the run directory to continue)");
        return EXIT_USAGE;
    }
    e->runs = rq->runs > 0 ? (unsigned)rq->runs : e->sp.runs ? e->sp.runs : 5;
    default_driver(e->drv, sizeof(e->drv));
    e->r.sp = &e->sp;
    e->r.default_driver = e->drv;
    e->r.warmup_s = rq->warmup_s;
    e->r.duration_s = rq->duration_s;
    e->r.pin_driver = rq->pin_driver;
    e->r.pin_server = rq->pin_server;
    e->r.tree_dirs = rq->n_tree_dirs ? rq->tree_dirs : NULL;
    e->r.n_tree_dirs = rq->n_tree_dirs;
    e->r.stop = &stop_flag;
    e->r.limits = rq->limits;
    e->r.server_versions = json_object();
    if (runner_check_programs(&e->r, e->err, e->errlen) < 0 ||
        cost_settings_parse(e->sp.instructions, rq->instructions, e->sp.path, &e->cost, e->err,
                            e->errlen) < 0 ||
        cost_cache_settings(&e->cost, e->sp.cache_sim, rq->cache_sim, e->sp.path, e->err,
                            e->errlen) < 0 ||
        cost_resolve(&e->cost, &e->sp, e->err, e->errlen) < 0 ||
        syscount_settings_parse(e->sp.syscalls, rq->syscalls, e->sp.path, &e->sys, e->err,
                                e->errlen) < 0 ||
        seq_check(&e->sp, rq, e->cost.enabled || e->sys.enabled, e->err, e->errlen) < 0)
        return EXIT_USAGE;
    e->r.hold = e->sp.sequence ? &e->hold : NULL;
    e->r.count_event = e->cost.use_counters ? &e->cost.ev : NULL;
    e->selected = calloc(e->sp.n_configs + 1, 1);
    if (!e->selected || !e->r.server_versions) {
        snprintf(e->err, e->errlen, "out of memory");
        return EXIT_USAGE;
    }
    for (i = 0; i < e->sp.n_configs; i++) {
        e->selected[i] = (unsigned char)sched_in_shard(i, rq->shard_k, rq->shard_n);
        n_sel += e->selected[i];
    }
    if (n_sel == 0) {
        snprintf(e->err, e->errlen,
                 "--shard %u/%u: no configuration falls in this shard (the grids have %zu)",
                 rq->shard_k, rq->shard_n, e->sp.n_configs);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The run directory: new and empty, or (--resume) one holding the dataset to continue. */
static int exec_open_dir(struct exec *e)
{
    char path[PATH_MAX + 32];
    struct stat st;

    if (e->rq->out_dir)
        snprintf(e->dir, sizeof(e->dir), "%s", e->rq->out_dir);
    else
        run_default_out_dir(e->dir, sizeof(e->dir));
    if (stat(e->dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        snprintf(e->err, e->errlen,
                 "--out '%s': not a directory (expected a directory to write the run into, new "
                 "or holding a run to --resume)",
                 e->dir);
        return EXIT_USAGE;
    }
    snprintf(path, sizeof(path), "%s/runs.jsonl", e->dir);
    if (e->rq->resume) {
        if (access(path, F_OK) < 0) {
            snprintf(e->err, e->errlen,
                     "--resume: '%s' holds no runs.jsonl (expected the directory of an "
                     "interrupted run)",
                     e->dir);
            return EXIT_USAGE;
        }
        if (dataset_read(path, &e->existing, &e->truncated, e->err, e->errlen) < 0)
            return EXIT_USAGE;
    } else {
        if (stat(path, &st) == 0 && st.st_size > 0) {
            snprintf(e->err, e->errlen,
                     "--out: '%s' already holds a dataset (use --resume to continue it, or "
                     "choose another directory)",
                     e->dir);
            return EXIT_USAGE;
        }
        if (ju_mkdir_p(e->dir, e->err, e->errlen) < 0)
            return EXIT_USAGE;
    }
    snprintf(e->out->dir, sizeof(e->out->dir), "%s", e->dir);
    return EXIT_OK;
}

/* What to run, meta.json as planned (on --resume: checked against the first), the dataset
 * open for appending and a private work directory. */
static int exec_plan(struct exec *e)
{
    char path[PATH_MAX + 32];
    const char *tmp = getenv("TMPDIR");
    json_t *w;
    size_t i;

    if (e->existing) {
        e->done.sp = &e->sp;
        e->done.latest = latest_status(e->existing, &e->n_failed);
    }
    if (e->sp.sequence) /* round by round, every configuration a step (sequence.h) */
        e->n_plan =
            sched_plan_sequence(e->sp.n_configs, e->sp.n_versions, e->runs,
                                e->existing ? done_fn : NULL, &e->done, &e->plan, &e->n_total);
    else
        e->n_plan =
            sched_plan(e->sp.n_configs, e->sp.n_versions, e->runs, e->rq->shard_k, e->rq->shard_n,
                       e->existing ? done_fn : NULL, &e->done, &e->plan, &e->n_total);
    if (e->n_plan == (size_t)-1) {
        snprintf(e->err, e->errlen, "out of memory");
        return EXIT_USAGE;
    }
    e->meta = runmeta_build(e->rq, &e->r, e->selected, e->runs, e->err, e->errlen);
    if (!e->meta)
        return EXIT_USAGE;
    if (e->rq->resume) {
        /* the same measurement only; keep the original start time and command line */
        json_t *old = NULL;

        if (resume_check(e->dir, e->meta, &old, e->err, e->errlen) < 0)
            return EXIT_USAGE;
        if (old) {
            resume_carry(e->meta, old);
            if (json_object_get(old, "saturation")) /* the rates the first part ran at */
                json_object_set(e->meta, "saturation", json_object_get(old, "saturation"));
            json_decref(old);
        }
        resume_warn_stray(e->meta, e->existing, &e->sp, e->selected);
        if (e->truncated) { /* why: scratch here, as below */
            dataset_cut_text(e->why, sizeof(e->why), "runs.jsonl", e->truncated);
            json_array_append_new(json_object_get(e->meta, "warnings"), json_string(e->why));
        }
    }
    json_array_foreach(json_object_get(e->meta, "warnings"), i, w)
        fprintf(stderr, "compare: warning: %s\n", json_string_value(w));
    snprintf(path, sizeof(path), "%s/meta.json", e->dir);
    if (atomic_write_json(path, e->meta, e->why, sizeof(e->why)) < 0) {
        snprintf(e->err, e->errlen, "%s", e->why);
        return EXIT_USAGE;
    }
    snprintf(path, sizeof(path), "%s/runs.jsonl", e->dir);
    e->fd = dataset_open(path, e->err, e->errlen);
    if (e->fd < 0)
        return EXIT_USAGE;
    snprintf(e->work, sizeof(e->work), "%s/pairbench-run.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(e->work)) {
        snprintf(e->err, e->errlen, "cannot create a directory like '%s': %s", e->work,
                 strerror(errno));
        e->work[0] = '\0';
        return EXIT_HARNESS;
    }
    e->r.work_dir = e->work;
    e->r.out_dir = e->dir;
    return EXIT_OK;
}

/* A rate sweep's saturation rates (saturation.h), measured before the schedule (or, on
 * --resume, as the first part measured them) and kept in meta.json. */
static int exec_saturation(struct exec *e)
{
    char path[PATH_MAX + 32];
    int rc = saturation_measure(&e->r, e->selected, json_object_get(e->meta, "saturation"), e->err,
                                e->errlen);

    if (rc == 1)
        return EXIT_OK; /* interrupted: stop_flag says so */
    if (rc < 0)
        return EXIT_HARNESS;
    if (!e->r.saturation)
        return EXIT_OK;
    json_object_set(e->meta, "saturation", e->r.saturation);
    snprintf(path, sizeof(path), "%s/meta.json", e->dir);
    if (atomic_write_json(path, e->meta, e->why, sizeof(e->why)) < 0) {
        snprintf(e->err, e->errlen, "%s", e->why);
        return EXIT_HARNESS;
    }
    return EXIT_OK;
}

/* One run of the plan, recorded. Returns EXIT_OK, or EXIT_HARNESS with err set; -1 when
 * stopped by a signal. *failed: the run failed. */
static int exec_one(struct exec *e, const struct sched_run *sr, int is_tty, int *failed)
{
    const struct grid_config *cfg = &e->sp.configs[sr->config];
    json_t *line = runner_run(&e->r, sr, e->why, sizeof(e->why)), *build;

    *failed = 0;
    if (!line) {
        if (stop_flag)
            return -1;
        snprintf(e->err, e->errlen, "%s", e->why);
        return EXIT_HARNESS;
    }
    if (dataset_append(e->fd, line, e->why, sizeof(e->why)) < 0 ||
        runner_append_counted(&e->r, e->fd, e->why, sizeof(e->why)) < 0) {
        json_decref(line);
        snprintf(e->err, e->errlen, "%s/%s", e->dir, e->why);
        return EXIT_HARNESS;
    }
    build = json_object_get(json_object_get(line, "result"), "build");
    if (strcmp(json_string_value(json_object_get(line, "status")), "ok") == 0) {
        if (!e->driver_build && build)
            e->driver_build = json_incref(build);
    } else {
        *failed = 1;
        if (is_tty)
            fputc('\n', stderr);
        char shown[2100];
        fprintf(
            stderr, "compare: run failed: %s · %s · round %u: %s\n", cfg->label,
            e->sp.versions[sr->version].name, sr->round,
            redact_show(json_string_value(json_object_get(line, "reason")), shown, sizeof(shown)));
    }
    json_decref(line);
    return EXIT_OK;
}

/* The confirmation context of e (confirm.h); def holds the default rules when none are given. */
static void exec_confirm_ctx(struct exec *e, struct confirm_ctx *cx, struct verdict_rules *def)
{
    unsigned cap =
        e->rq->confirm_rounds >= 0 ? (unsigned)e->rq->confirm_rounds : e->sp.confirm_rounds;

    *cx = (struct confirm_ctx){.r = &e->r,
                               .selected = e->selected,
                               .cap = cap / 2 * 2,
                               .fd = e->fd,
                               .dir = e->dir,
                               .meta = e->meta,
                               .rules = e->rq->rules,
                               .gc = e->rq->gate,
                               .stop_when_regressed = e->rq->stop_when_regressed};
    if (!cx->rules) {
        verdict_rules_default(def);
        cx->rules = def;
    }
}

/* 1 when a gate's timed runs already decided a regression: no counted runs needed. */
static int exec_skip_counted(struct exec *e)
{
    struct confirm_ctx cx;
    struct verdict_rules def;

    if (!e->rq->stop_when_regressed || !(e->cost.enabled || e->sys.enabled))
        return 0;
    exec_confirm_ctx(e, &cx, &def);
    return confirm_counted_needless(&cx, e->why, sizeof(e->why));
}

/* The schedule, in order, with progress on stderr. */
static int exec_schedule(struct exec *e)
{
    const json_t *st = json_object_get(e->meta, "settings");
    double per_run_s = json_number_value(json_object_get(st, "warmup")) +
                       json_number_value(json_object_get(st, "duration")) + 0.3;
    size_t i, cfg_done_runs = 0, cfg_failed = 0;
    int is_tty = isatty(2), rc = EXIT_OK, failed;
    uint64_t t0 = clock_now_ns();

    if (e->n_plan < e->n_total)
        fprintf(stderr, "compare: resuming '%s': %zu of %zu runs to go\n", e->dir, e->n_plan,
                e->n_total);
    for (i = 0; i < e->n_plan && !stop_flag; i++) {
        const struct sched_run *sr = &e->plan[i];
        const struct grid_config *cfg = &e->sp.configs[sr->config];
        double elapsed = (double)(clock_now_ns() - t0) / 1e9;
        double avg = i ? elapsed / (double)i : per_run_s;
        int r1;

        if (is_tty)
            progress_tty(i + 1, e->n_plan, cfg->label, e->sp.versions[sr->version].name, elapsed,
                         avg * (double)(e->n_plan - i));
        r1 = exec_one(e, sr, is_tty, &failed);
        if (r1 < 0)
            break;
        if (r1 != EXIT_OK) {
            rc = r1;
            break;
        }
        cfg_done_runs++;
        cfg_failed += (size_t)failed;
        if (i + 1 == e->n_plan || e->plan[i + 1].config != sr->config) {
            if (!is_tty)
                fprintf(stderr, "compare: [%.0f s] %s: %zu runs, %zu failed\n",
                        (double)(clock_now_ns() - t0) / 1e9, cfg->label, cfg_done_runs, cfg_failed);
            cfg_done_runs = cfg_failed = 0;
        }
    }
    e->n_ran = i;
    e->timed_ns = clock_now_ns() - t0;
    if (is_tty && e->n_plan)
        fputc('\n', stderr);
    /* the counted rounds (cost.h), after the timed ones */
    if (!stop_flag && rc == EXIT_OK && exec_skip_counted(e))
        return rc;
    if (!stop_flag && rc == EXIT_OK &&
        cost_schedule(&e->r, &e->cost, e->selected, e->rq->shard_k, e->rq->shard_n, e->existing,
                      e->fd, e->err, e->errlen) < 0)
        rc = EXIT_HARNESS;
    if (!stop_flag && rc == EXIT_OK &&
        syscount_schedule(&e->r, &e->sys, e->selected, e->rq->shard_k, e->rq->shard_n, e->existing,
                          e->fd, e->err, e->errlen) < 0)
        rc = EXIT_HARNESS;
    return rc;
}

/* Extra rounds for the borderline rows (confirm.c), within the cap fixed before the run. */
static int exec_confirm(struct exec *e)
{
    struct verdict_rules def;
    struct confirm_ctx cx;

    exec_confirm_ctx(e, &cx, &def);
    /* a round's time from the timed runs alone: the counted ones (valgrind, after them) take
     * longer and are not repeated, and with them in the mean the cap came out at half the
     * rounds the budget allowed */
    confirm_plan_budget(&cx, e->rq->deadline_ns, e->n_ran ? e->timed_ns / e->n_ran : 0,
                        e->sp.n_versions);
    if ((e->rq->repeat_disturbed && confirm_repeat_disturbed(&cx, e->why, sizeof(e->why)) < 0) ||
        ((cx.cap > 0 || cx.deadline_ns) && confirm_run(&cx, e->why, sizeof(e->why)) < 0)) {
        snprintf(e->err, e->errlen, "%s", e->why);
        return EXIT_HARNESS;
    }
    return EXIT_OK;
}

/* The run counts and the driver's build, from the dataset as written. */
static void exec_count(struct exec *e)
{
    char path[PATH_MAX + 32];
    json_t *line;
    size_t i;

    snprintf(path, sizeof(path), "%s/runs.jsonl", e->dir);
    if (dataset_read(path, &e->runs_now, NULL, e->why, sizeof(e->why)) == 0) {
        json_t *latest = latest_status(e->runs_now, &e->n_failed);

        e->out->runs_total = (unsigned)json_array_size(e->runs_now);
        e->out->runs_failed = e->n_failed;
        json_decref(latest);
    }
    if (e->driver_build)
        return;
    json_array_foreach(e->runs_now, i, line)
    {
        e->driver_build = json_object_get(json_object_get(line, "result"), "build");
        if (e->driver_build) {
            json_incref(e->driver_build);
            break;
        }
    }
}

/* The record: meta.json as finished, then the reports; the exit code for what happened. */
static int exec_record(struct exec *e, int rc)
{
    char path[PATH_MAX + 32];
    struct render_opts ro = {.lang = e->rq->lang, .rules = e->rq->rules};

    exec_count(e);
    redact_text(e->err);
    if (rc == EXIT_HARNESS && e->err[0]) /* the cause, for the reports that follow */
        json_object_set_new(e->meta, "stopped", json_string(e->err));
    else /* a --resume that finished the plan */
        json_object_del(e->meta, "stopped");
    runner_host_finish(&e->r, e->meta);
    snprintf(path, sizeof(path), "%s/meta.json", e->dir);
    if (runmeta_finish(e->meta, e->dir, e->driver_build, e->r.server_versions, e->why,
                       sizeof(e->why)) < 0 ||
        atomic_write_json(path, e->meta, e->why, sizeof(e->why)) < 0) {
        if (!e->err[0])
            snprintf(e->err, e->errlen, "%s", e->why);
        return EXIT_HARNESS;
    }
    if (render_dir(e->dir, &ro, &e->out->summary, e->why, sizeof(e->why)) < 0) {
        if (!e->err[0])
            snprintf(e->err, e->errlen, "reports: %s", e->why);
        rc = EXIT_HARNESS;
    }
    if (rc == EXIT_OK && (e->out->runs_failed || e->out->interrupted)) {
        rc = EXIT_HARNESS;
        if (e->out->interrupted)
            snprintf(e->err, e->errlen,
                     "interrupted: %u runs recorded, %zu of this invocation's %zu not run",
                     e->out->runs_total, e->n_plan - e->n_ran, e->n_plan);
        else
            snprintf(e->err, e->errlen,
                     "%u runs failed (see the reasons above and in %s/report.md)",
                     e->out->runs_failed, e->dir);
    }
    return rc;
}

static void exec_release(struct exec *e)
{
    if (e->fd >= 0)
        close(e->fd);
    seq_hold_stop(&e->hold);
    if (e->work[0])
        runner_remove_tree(e->work);
    json_decref(e->done.latest);
    json_decref(e->existing);
    json_decref(e->runs_now);
    json_decref(e->driver_build);
    json_decref(e->meta);
    json_decref(e->r.server_versions);
    json_decref(e->r.cost_fates);
    json_decref(e->r.saturation);
    json_decref(e->r.server_conf);
    json_decref(e->r.host_meta);
    free(e->plan);
    free(e->selected);
    spec_release(&e->sp);
}

int run_execute(const struct run_request *rq, struct run_outcome *out, char *err, size_t errlen)
{
    struct exec *e = calloc(1, sizeof(*e));
    struct sigaction old_int, old_term, old_pipe;
    int rc;

    memset(out, 0, sizeof(*out));
    err[0] = '\0';
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return EXIT_HARNESS;
    }
    e->rq = rq;
    e->out = out;
    e->err = err;
    e->errlen = errlen;
    e->fd = -1;
    seq_hold_init(&e->hold);
    stop_flag = 0;
    rc = exec_load(e);
    if (rc == EXIT_OK)
        rc = exec_open_dir(e);
    if (rc == EXIT_OK)
        rc = exec_plan(e);
    if (rc != EXIT_OK)
        goto out;
    install_signals(&old_int, &old_term, &old_pipe);
    rc = exec_saturation(e);
    if (rc == EXIT_OK && !stop_flag)
        rc = exec_schedule(e);
    if (!stop_flag && rc == EXIT_OK && e->sp.n_versions >= 2 && !e->sp.sequence)
        rc = exec_confirm(e); /* a sequence's extra round would be a whole sequence */
    if (stop_flag) {
        out->interrupted = 1;
        fprintf(stderr,
                "compare: interrupted: the current run was stopped and not recorded; writing a "
                "partial report (%s%s)\n",
                e->rq->resume_hint ? e->rq->resume_hint : "continue with --resume --out ",
                e->rq->resume_hint ? "" : e->dir);
    }
    close(e->fd);
    e->fd = -1;
    rc = exec_record(e, rc);
    restore_signals(&old_int, &old_term, &old_pipe);
out:
    redact_text(err);
    exec_release(e);
    free(e);
    return rc;
}

void run_outcome_release(struct run_outcome *out)
{
    json_decref(out->summary);
    out->summary = NULL;
}

/* ---- compare run / compare report ---- */
