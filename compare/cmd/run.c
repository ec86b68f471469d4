/* cmd/run.c: `compare run`, `compare report` and `compare demo`, and the run machinery of
 * run.h that gate, commits and calibrate call: load and check the spec (nothing runs when it
 * is bad), choose the run directory, run the schedule (runner.c per run, runs.jsonl appended
 * and fsync'd per run), write meta.json, render the reports. SIGINT/SIGTERM stop the current
 * run (its children are stopped and reaped, nothing half-written is recorded), write a
 * partial report and return EXIT_HARNESS (3); `--resume` runs what is missing. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "clock.h"
#include "cmds.h"
#include "confirm.h"
#include "cost.h"
#include "stats.h"
#include "dataset.h"
#include "num.h"
#include "proc.h"
#include "render.h"
#include "resume.h"
#include "run.h"
#include "runmeta.h"
#include "runner.h"
#include "schedule.h"
#include "spec.h"
#include "term.h"

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

const struct flag_def run_flags[] = {
    {"--spec", 1, RUN_FLAG_SPEC},
    {"--grid", 1, RUN_FLAG_GRID},
    {"--runs", 1, RUN_FLAG_RUNS},
    {"--warmup", 1, RUN_FLAG_WARMUP},
    {"--duration", 1, RUN_FLAG_DURATION},
    {"--out", 1, RUN_FLAG_OUT},
    {"--shard", 1, RUN_FLAG_SHARD},
    {"--lang", 1, RUN_FLAG_LANG},
    {"--pin-driver", 1, RUN_FLAG_PIN_DRIVER},
    {"--pin-server", 1, RUN_FLAG_PIN_SERVER},
    {"--confirm", 1, RUN_FLAG_CONFIRM},
    {"--resume", 0, RUN_FLAG_RESUME},
    {"--instructions", 0, RUN_FLAG_INSTRUCTIONS},
};
const size_t run_flags_count = sizeof(run_flags) / sizeof(run_flags[0]);

static int run_flag_number(struct flags *f, int id, struct run_request *rq)
{
    const char *v = f->value;
    unsigned n;

    switch (id) {
    case RUN_FLAG_RUNS:
        if (num_parse_uint(v, 1, 1000, &n) < 0)
            return flags_bad_value(f, "an integer from 1 to 1000");
        rq->runs = (int)n;
        return 0;
    case RUN_FLAG_WARMUP:
        if (num_parse_double(v, 0, 3600, &rq->warmup_s) < 0)
            return flags_bad_value(f, "seconds from 0 to 3600");
        return 0;
    case RUN_FLAG_DURATION:
        if (num_parse_double(v, 0.001, 86400, &rq->duration_s) < 0)
            return flags_bad_value(f, "seconds from 0.001 to 86400");
        return 0;
    default: /* RUN_FLAG_CONFIRM */
        if (num_parse_uint(v, 0, 100, &n) < 0)
            return flags_bad_value(f, "extra rounds from 0 to 100");
        rq->confirm_rounds = (int)n;
        return 0;
    }
}

int run_flag_apply(struct run_request *rq, struct flags *f, int id)
{
    const char *v = f->value;
    cpu_set_t set;

    switch (id) {
    case RUN_FLAG_INSTRUCTIONS:
        rq->instructions = 1;
        return 0;
    case RUN_FLAG_RESUME:
        rq->resume = 1;
        return 0;
    case RUN_FLAG_SPEC:
        rq->spec_path = v;
        return 0;
    case RUN_FLAG_GRID:
        if (rq->n_grids == RUN_MAX_GRIDS)
            return flags_fail(f, "--grid: at most %d grids", RUN_MAX_GRIDS);
        rq->grid_paths[rq->n_grids++] = v;
        return 0;
    case RUN_FLAG_RUNS:
    case RUN_FLAG_WARMUP:
    case RUN_FLAG_DURATION:
    case RUN_FLAG_CONFIRM:
        return run_flag_number(f, id, rq);
    case RUN_FLAG_OUT:
        if (!*v)
            return flags_bad_value(f, "a directory");
        rq->out_dir = v;
        return 0;
    case RUN_FLAG_SHARD:
        if (sched_parse_shard(v, &rq->shard_k, &rq->shard_n) < 0)
            return flags_bad_value(f, "K/N with 1 <= K <= N");
        return 0;
    case RUN_FLAG_LANG:
        if (strcmp(v, "en") != 0 && strcmp(v, "zh") != 0)
            return flags_bad_value(f, "'en' or 'zh'");
        rq->lang = v;
        return 0;
    case RUN_FLAG_PIN_DRIVER:
    case RUN_FLAG_PIN_SERVER: {
        char why[320];
        if (proc_parse_cpus(v, &set) < 0)
            return flags_bad_value(f, "a CPU list like 0,2-3");
        if (proc_check_cpus(&set, why, sizeof(why)) < 0)
            return flags_fail(f, "%s '%s': %s", f->flag, v, why);
        if (id == RUN_FLAG_PIN_DRIVER)
            rq->pin_driver = v;
        else
            rq->pin_server = v;
        return 0;
    }
    default:
        return flags_fail(f, "%s: not a run flag", f->flag ? f->flag : "?");
    }
}

/* ---- run directory ---- */

static int mkdir_p(const char *path, char *err, size_t errlen)
{
    char buf[PATH_MAX];
    size_t i, n;

    n = (size_t)snprintf(buf, sizeof(buf), "%s", path);
    if (n >= sizeof(buf)) {
        snprintf(err, errlen, "path too long: '%s'", path);
        return -1;
    }
    for (i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
                snprintf(err, errlen, "cannot create directory '%s': %s", buf, strerror(errno));
                return -1;
            }
            buf[i] = c;
        }
    }
    return 0;
}

static void default_out_dir(char *out, size_t outlen)
{
    time_t now = time(NULL);
    struct tm tm;
    char ts[32];
    unsigned rnd = (unsigned)(clock_now_ns() ^ ((uint64_t)getpid() << 16));
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

    if (fd >= 0) {
        if (read(fd, &rnd, sizeof(rnd)) != (ssize_t)sizeof(rnd))
            rnd ^= (unsigned)now;
        close(fd);
    }
    gmtime_r(&now, &tm);
    strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
    snprintf(out, outlen, "reports/%s-%06x", ts, rnd & 0xffffffu);
}

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

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    (void)remove(path);
    return 0;
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
        /* counted runs (kind "instructions") have rounds of their own */
        snprintf(kv, sizeof(kv), "%s%s%s", ver, kind ? "\x1f" : "", kind ? kind : "");
        done_key(key, sizeof(key), c, kv, json_integer_value(json_object_get(line, "round")));
        json_object_set_new(latest, key, json_string(st));
    }
    *n_failed = 0;
    json_object_foreach(latest, k, v)
    {
        if (strcmp(json_string_value(v), "ok") != 0)
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

int run_execute(const struct run_request *rq, struct run_outcome *out, char *err, size_t errlen)
{
    struct spec sp;
    struct runner r;
    struct done_set done = {0};
    struct cost_settings cost;
    struct sched_run *plan = NULL;
    struct sigaction old_int, old_term, old_pipe;
    json_t *meta = NULL, *existing = NULL, *driver_build = NULL, *runs_now = NULL;
    unsigned char *selected = NULL;
    char dir[PATH_MAX], path[PATH_MAX + 32], work[PATH_MAX] = "", drv[PATH_MAX], why[2048];
    size_t n_plan = 0, n_total = 0, i, cfg_done_runs = 0, cfg_failed = 0, n_sel = 0;
    unsigned runs, n_failed = 0, truncated = 0;
    int fd = -1, rc = EXIT_USAGE, signals_set = 0, is_tty = isatty(2);
    uint64_t t0;
    double per_run_s;

    memset(out, 0, sizeof(*out));
    memset(&r, 0, sizeof(r));
    err[0] = '\0';
    stop_flag = 0;
    if (spec_load(&sp, rq->spec_path ? rq->spec_path : "", NULL, rq->grid_paths, rq->n_grids, err,
                  errlen) < 0) {
        if (!rq->spec_path)
            snprintf(err, errlen, "--spec: missing (expected a spec file, see specs/README.md)");
        goto out;
    }
    if (rq->resume && !rq->out_dir) {
        snprintf(err, errlen, "--resume: needs --out DIR (the run directory to continue)");
        goto out;
    }
    runs = rq->runs > 0 ? (unsigned)rq->runs : sp.runs ? sp.runs : 5;
    default_driver(drv, sizeof(drv));
    r.sp = &sp;
    r.default_driver = drv;
    r.warmup_s = rq->warmup_s;
    r.duration_s = rq->duration_s;
    r.pin_driver = rq->pin_driver;
    r.pin_server = rq->pin_server;
    r.tree_dirs = rq->n_tree_dirs ? rq->tree_dirs : NULL;
    r.n_tree_dirs = rq->n_tree_dirs;
    r.stop = &stop_flag;
    r.limits = rq->limits;
    r.server_versions = json_object();
    if (runner_check_programs(&r, err, errlen) < 0 ||
        cost_settings_parse(sp.instructions, rq->instructions, sp.path, &cost, err, errlen) < 0)
        goto out;
    selected = calloc(sp.n_configs + 1, 1);
    if (!selected || !r.server_versions) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (i = 0; i < sp.n_configs; i++) {
        selected[i] = (unsigned char)sched_in_shard(i, rq->shard_k, rq->shard_n);
        n_sel += selected[i];
    }
    if (n_sel == 0) {
        snprintf(err, errlen,
                 "--shard %u/%u: no configuration falls in this shard (the grids "
                 "have %zu)",
                 rq->shard_k, rq->shard_n, sp.n_configs);
        goto out;
    }

    /* the run directory */
    if (rq->out_dir)
        snprintf(dir, sizeof(dir), "%s", rq->out_dir);
    else
        default_out_dir(dir, sizeof(dir));
    {
        struct stat st;
        if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen,
                     "--out '%s': not a directory (expected a directory to write "
                     "the run into, new or holding a run to --resume)",
                     dir);
            goto out;
        }
    }
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    if (rq->resume) {
        if (access(path, F_OK) < 0) {
            snprintf(err, errlen,
                     "--resume: '%s' holds no runs.jsonl (expected the directory "
                     "of an interrupted run)",
                     dir);
            goto out;
        }
        if (dataset_read(path, &existing, &truncated, err, errlen) < 0)
            goto out;
    } else {
        struct stat st;
        if (stat(path, &st) == 0 && st.st_size > 0) {
            snprintf(err, errlen,
                     "--out: '%s' already holds a dataset (use --resume to continue "
                     "it, or choose another directory)",
                     dir);
            goto out;
        }
        if (mkdir_p(dir, err, errlen) < 0)
            goto out;
    }
    snprintf(out->dir, sizeof(out->dir), "%s", dir);

    /* what to run */
    if (existing) {
        done.sp = &sp;
        done.latest = latest_status(existing, &n_failed);
    }
    n_plan = sched_plan(sp.n_configs, sp.n_versions, runs, rq->shard_k, rq->shard_n,
                        existing ? done_fn : NULL, &done, &plan, &n_total);
    if (n_plan == (size_t)-1) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    meta = runmeta_build(rq, &r, selected, runs, err, errlen);
    if (!meta)
        goto out;
    if (rq->resume) {
        /* the same measurement only; keep the original start time and command line */
        json_t *old = NULL;
        if (resume_check(dir, meta, &old, err, errlen) < 0)
            goto out;
        if (old) {
            resume_carry(meta, old);
            json_decref(old);
        }
        resume_warn_stray(meta, existing, &sp, selected);
        if (truncated)
            json_array_append_new(json_object_get(meta, "warnings"),
                                  json_string("runs.jsonl ended in a truncated line (a run cut "
                                              "short while being written); it was dropped"));
    }
    {
        json_t *w;
        json_array_foreach(json_object_get(meta, "warnings"), i, w)
            fprintf(stderr, "compare: warning: %s\n", json_string_value(w));
    }
    snprintf(path, sizeof(path), "%s/meta.json", dir);
    if (atomic_write_json(path, meta, why, sizeof(why)) < 0) {
        snprintf(err, errlen, "%s", why);
        goto out;
    }
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    fd = dataset_open(path, err, errlen);
    if (fd < 0)
        goto out;
    {
        const char *tmp = getenv("TMPDIR");
        snprintf(work, sizeof(work), "%s/pairbench-run.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(work)) {
            snprintf(err, errlen, "cannot create a directory like '%s': %s", work, strerror(errno));
            work[0] = '\0';
            rc = EXIT_HARNESS;
            goto out;
        }
        r.work_dir = work;
    }

    /* the schedule */
    install_signals(&old_int, &old_term, &old_pipe);
    signals_set = 1;
    rc = EXIT_OK;
    t0 = clock_now_ns();
    per_run_s = json_number_value(json_object_get(json_object_get(meta, "settings"), "warmup")) +
                json_number_value(json_object_get(json_object_get(meta, "settings"), "duration")) +
                0.3;
    if (n_plan < n_total)
        fprintf(stderr, "compare: resuming '%s': %zu of %zu runs to go\n", dir, n_plan, n_total);
    for (i = 0; i < n_plan && !stop_flag; i++) {
        const struct sched_run *sr = &plan[i];
        const struct grid_config *cfg = &sp.configs[sr->config];
        double elapsed = (double)(clock_now_ns() - t0) / 1e9;
        double avg = i ? elapsed / (double)i : per_run_s;
        json_t *line;

        if (is_tty)
            progress_tty(i + 1, n_plan, cfg->label, sp.versions[sr->version].name, elapsed,
                         avg * (double)(n_plan - i));
        line = runner_run(&r, sr, why, sizeof(why));
        if (!line) {
            if (stop_flag)
                break;
            snprintf(err, errlen, "%s", why);
            rc = EXIT_HARNESS;
            break;
        }
        if (dataset_append(fd, line, why, sizeof(why)) < 0) {
            json_decref(line);
            snprintf(err, errlen, "%s/%s", dir, why);
            rc = EXIT_HARNESS;
            break;
        }
        cfg_done_runs++;
        if (strcmp(json_string_value(json_object_get(line, "status")), "ok") == 0) {
            if (!driver_build && json_object_get(json_object_get(line, "result"), "build"))
                driver_build =
                    json_incref(json_object_get(json_object_get(line, "result"), "build"));
        } else {
            cfg_failed++;
            if (is_tty)
                fputc('\n', stderr);
            fprintf(stderr, "compare: run failed: %s · %s · round %u: %s\n", cfg->label,
                    sp.versions[sr->version].name, sr->round,
                    json_string_value(json_object_get(line, "reason")));
        }
        json_decref(line);
        if (i + 1 == n_plan || plan[i + 1].config != sr->config) {
            if (!is_tty)
                fprintf(stderr, "compare: [%.0f s] %s: %zu runs, %zu failed\n",
                        (double)(clock_now_ns() - t0) / 1e9, cfg->label, cfg_done_runs, cfg_failed);
            cfg_done_runs = cfg_failed = 0;
        }
    }
    if (is_tty && n_plan)
        fputc('\n', stderr);
    if (!stop_flag && rc == EXIT_OK &&
        cost_schedule(&r, &cost, selected, rq->shard_k, rq->shard_n, existing, fd, err, errlen) < 0)
        rc = EXIT_HARNESS;
    if (!stop_flag && rc == EXIT_OK && sp.n_versions >= 2) {
        unsigned cap = rq->confirm_rounds >= 0 ? (unsigned)rq->confirm_rounds : sp.confirm_rounds;
        struct verdict_rules def;
        struct confirm_ctx cx = {.r = &r,
                                 .selected = selected,
                                 .cap = cap / 2 * 2,
                                 .fd = fd,
                                 .dir = dir,
                                 .meta = meta,
                                 .rules = rq->rules};

        if (!cx.rules) {
            verdict_rules_default(&def);
            cx.rules = &def;
        }
        confirm_plan_budget(&cx, rq->deadline_ns, n_plan ? (clock_now_ns() - t0) / n_plan : 0,
                            sp.n_versions);
        if ((rq->repeat_disturbed && confirm_repeat_disturbed(&cx, why, sizeof(why)) < 0) ||
            ((cx.cap > 0 || cx.deadline_ns) && confirm_run(&cx, why, sizeof(why)) < 0)) {
            snprintf(err, errlen, "%s", why);
            rc = EXIT_HARNESS;
        }
    }
    if (stop_flag) {
        out->interrupted = 1;
        fprintf(stderr,
                "compare: interrupted: the current run was stopped and not recorded; "
                "writing a partial report (continue with --resume --out %s)\n",
                dir);
    }
    close(fd);
    fd = -1;

    /* the record: meta.json, then the reports */
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    if (dataset_read(path, &runs_now, NULL, why, sizeof(why)) == 0) {
        json_t *latest = latest_status(runs_now, &n_failed);
        out->runs_total = (unsigned)json_array_size(runs_now);
        out->runs_failed = n_failed;
        json_decref(latest);
    }
    if (!driver_build && runs_now) {
        json_t *line;
        json_array_foreach(runs_now, i, line)
        {
            driver_build = json_object_get(json_object_get(line, "result"), "build");
            if (driver_build) {
                json_incref(driver_build);
                break;
            }
        }
    }
    if (runmeta_finish(meta, dir, driver_build, r.server_versions, why, sizeof(why)) < 0 ||
        (snprintf(path, sizeof(path), "%s/meta.json", dir),
         atomic_write_json(path, meta, why, sizeof(why)) < 0)) {
        if (!err[0])
            snprintf(err, errlen, "%s", why);
        rc = EXIT_HARNESS;
        goto out;
    }
    {
        struct render_opts ro = {.lang = rq->lang, .rules = rq->rules};
        if (render_dir(dir, &ro, &out->summary, why, sizeof(why)) < 0) {
            if (!err[0])
                snprintf(err, errlen, "reports: %s", why);
            rc = EXIT_HARNESS;
        }
    }
    if (rc == EXIT_OK && (out->runs_failed || out->interrupted)) {
        rc = EXIT_HARNESS;
        if (out->interrupted)
            snprintf(err, errlen,
                     "interrupted: %u runs recorded, %zu of this invocation's %zu "
                     "not run",
                     out->runs_total, n_plan - i, n_plan);
        else
            snprintf(err, errlen, "%u runs failed (see the reasons above and in %s/report.md)",
                     out->runs_failed, dir);
    }
out:
    if (signals_set)
        restore_signals(&old_int, &old_term, &old_pipe);
    if (fd >= 0)
        close(fd);
    if (work[0])
        (void)nftw(work, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    json_decref(done.latest);
    json_decref(existing);
    json_decref(runs_now);
    json_decref(driver_build);
    json_decref(meta);
    json_decref(r.server_versions);
    free(plan);
    free(selected);
    spec_release(&sp);
    return rc;
}

void run_outcome_release(struct run_outcome *out)
{
    json_decref(out->summary);
    out->summary = NULL;
}

/* ---- compare run / compare report ---- */

static void run_usage(FILE *f)
{
    fprintf(f, "usage: compare run --spec FILE [--grid FILE]... [--runs N] [--warmup S] "
               "[--duration S]\n"
               "                   [--out DIR] [--resume] [--shard K/N] [--lang en|zh]\n"
               "                   [--pin-driver CPUS] [--pin-server CPUS] [--confirm N]\n"
               "Runs every configuration of the grids for every version of the spec, in fresh\n"
               "processes, rounds in alternating order; writes DIR/runs.jsonl, meta.json,\n"
               "summary.json, report.md and report.html, and prints DIR on stdout.\n"
               "--confirm N: a borderline row (change past its threshold without strong\n"
               "evidence, or unstable) gets up to N extra rounds, two at a time; fixed in\n"
               "advance and stated in the report (the spec's \"confirm_rounds\" sets it too).\n"
               "exit: 0 ok, 2 bad input, 3 runs failed or interrupted (SIGINT/SIGTERM: partial\n"
               "report; continue with --resume --out DIR)\n");
}

/* Prints the outcome of run_execute(): the directory on stdout, the error on stderr. */
static void print_outcome(int rc, const struct run_outcome *o, const char *err)
{
    if (err[0])
        fprintf(stderr, "compare: %s\n", err);
    if (rc != EXIT_USAGE && o->dir[0]) {
        /* No summary means the reports could not be written (err says why): say where the
         * dataset is, and how to render it once the cause is fixed. */
        if (o->summary) {
            term_table(stderr, o->summary, NULL, 100);
            fprintf(stderr, "compare: %u runs recorded, %u failed; report: %s/report.md\n",
                    o->runs_total, o->runs_failed, o->dir);
        } else
            fprintf(stderr,
                    "compare: %u runs recorded, %u failed, in %s/runs.jsonl; no report "
                    "(render it with: compare report %s)\n",
                    o->runs_total, o->runs_failed, o->dir, o->dir);
        printf("%s\n", o->dir);
    }
}

int cmd_run(int argc, char **argv)
{
    struct run_request rq;
    struct run_outcome o;
    struct flags f;
    char err[4096] = "";
    int id, rc;

    run_request_init(&rq);
    rq.argc = argc;
    rq.argv = argv;
    flags_init(&f, "compare run", argc, argv);
    flags_add(&f, run_flags, run_flags_count);
    while ((id = flags_next(&f)) != FLAGS_END) {
        if (id == FLAGS_HELP) {
            run_usage(stdout);
            return EXIT_OK;
        }
        if (id < 0 || run_flag_apply(&rq, &f, id) < 0) {
            fprintf(stderr, "%s\n", f.err);
            return EXIT_USAGE;
        }
    }
    if (!rq.spec_path) {
        fprintf(stderr, "compare run: --spec FILE is required\n");
        run_usage(stderr);
        return EXIT_USAGE;
    }
    rc = run_execute(&rq, &o, err, sizeof(err));
    print_outcome(rc, &o, err);
    run_outcome_release(&o);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    static const struct flag_def defs[] = {{"--lang", 1, RUN_FLAG_LANG}};
    const char *dir = NULL, *lang = NULL;
    char err[2048], path[PATH_MAX + 32];
    struct render_opts ro = {0};
    struct flags f;
    int id;

    flags_init(&f, "compare report", argc, argv);
    flags_add(&f, defs, 1);
    f.positional = 1;
    while ((id = flags_next(&f)) != FLAGS_END) {
        if (id == FLAGS_HELP) {
            printf("usage: compare report DIR [--lang en|zh]\n"
                   "Re-renders summary.json, summary.csv, report.md and report.html of a run\n"
                   "directory from its runs.jsonl and meta.json (nothing is measured).\n");
            return EXIT_OK;
        }
        if (id == FLAGS_POSITIONAL && dir)
            id = flags_fail(
                &f, "unexpected argument '%s' (usage: compare report DIR [--lang en|zh])", f.value);
        else if (id == FLAGS_POSITIONAL)
            dir = f.value;
        else if (id == RUN_FLAG_LANG && strcmp(f.value, "en") != 0 && strcmp(f.value, "zh") != 0)
            id = flags_bad_value(&f, "'en' or 'zh'");
        else if (id == RUN_FLAG_LANG)
            lang = f.value;
        if (id == FLAGS_ERROR) {
            fprintf(stderr, "%s\n", f.err);
            return EXIT_USAGE;
        }
    }
    if (!dir) {
        fprintf(stderr, "compare report: missing DIR (usage: compare report DIR [--lang "
                        "en|zh])\n");
        return EXIT_USAGE;
    }
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    if (access(path, R_OK) < 0) {
        fprintf(stderr, "compare report: '%s' holds no readable runs.jsonl: %s\n", dir,
                strerror(errno));
        return EXIT_USAGE;
    }
    ro.lang = lang;
    if (render_dir(dir, &ro, NULL, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare report: %s\n", err);
        return EXIT_HARNESS;
    }
    printf("%s/report.md\n", dir);
    return EXIT_OK;
}
