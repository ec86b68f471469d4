/* drift_run: the engine of `compare drift` (see drift_run.h; cmd/drift.c parses its argv). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/drift_run.h"
#include "util/atomic.h"
#include "analysis/drift.h"
#include "analysis/gate.h"
#include "analysis/outcome.h"
#include "analysis/summary.h"
#include "analysis/summary_judge.h"
#include "util/jobs_util.h"
#include "report/render.h"
#include "run/history.h"
#include "util/exit_codes.h"
#include "util/fmt.h"

#define DRIFT_SEED 20240601u

/* What a night's environment is judged by (run/history.h); "cpu_id" after them when the
 * night recorded it (see env_same). */
static const char *const env_keys[] = HISTORY_ENV_KEYS;
#define ENV_KEYS (sizeof(env_keys) / sizeof(env_keys[0]))

/* "machine · cpu · kernel · compiler", and the CPU's identity when the night recorded it */
static void env_signature(const json_t *env, char *out, size_t len)
{
    const char *id = json_string_value(json_object_get(env, "cpu_id"));
    size_t k, used = 0;

    out[0] = '\0';
    for (k = 0; k < ENV_KEYS && used < len; k++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", k ? " · " : "",
                                 ju_str(env, env_keys[k], "unknown"));
    if (id && used < len)
        snprintf(out + used, len - used, " · %s", id);
}

/* Whether two nights ran in the same environment: the same machine, CPU model, kernel and
 * compiler, and the same CPU identity (family, model, stepping) where both recorded it. A
 * model name such as "AMD EPYC" covers several generations; nights added before the
 * identity was recorded match on the rest, as they always did. */
static int env_same(const json_t *a, const json_t *b)
{
    const char *ia = json_string_value(json_object_get(a, "cpu_id"));
    const char *ib = json_string_value(json_object_get(b, "cpu_id"));
    size_t k;

    for (k = 0; k < ENV_KEYS; k++)
        if (strcmp(ju_str(a, env_keys[k], "unknown"), ju_str(b, env_keys[k], "unknown")) != 0)
            return 0;
    return !ia || !ib || strcmp(ia, ib) == 0;
}

static int cmp_night(const void *a, const void *b)
{
    const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    const char *sx = json_string_value(json_object_get(x, "started"));
    const char *sy = json_string_value(json_object_get(y, "started"));
    int c = strcmp(sx ? sx : "", sy ? sy : "");

    if (c)
        return c;
    sx = json_string_value(json_object_get(x, "id"));
    sy = json_string_value(json_object_get(y, "id"));
    return strcmp(sx ? sx : "", sy ? sy : "");
}

static const json_t *find_row(const json_t *summary, const char *config)
{
    json_t *row;
    size_t i;

    json_array_foreach(json_object_get(summary, "rows"), i, row)
    {
        const char *c = json_string_value(json_object_get(row, "config"));

        if (c && strcmp(c, config) == 0)
            return row;
    }
    return NULL;
}

/* The baseline's figure key ("median", "min", "max") of metric m in row, or NAN. */
static double baseline_figure(const json_t *summary, const json_t *row, enum metric m,
                              const char *key)
{
    const char *base = json_string_value(json_object_get(summary, "baseline")), *st;
    json_t *v = json_object_get(
        json_object_get(
            json_object_get(json_object_get(json_object_get(row, "metrics"), metric_name(m)),
                            "values"),
            base ? base : ""),
        key);

    if (!json_is_number(v))
        return NAN;
    st = json_string_value(json_object_get(row, "status"));
    if (st && strcmp(st, "failed") == 0)
        return NAN;
    return json_number_value(v);
}

static int write_reports(const struct drift_report *r, char *err, size_t errlen)
{
    char *buf = NULL, path[4096];
    size_t len = 0;
    FILE *f;
    int k;

    for (k = 0; k < 2; k++) {
        f = open_memstream(&buf, &len);
        if (!f) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if ((k == 0 ? drift_write_md(f, r) : drift_write_html(f, r)) < 0) {
            fclose(f);
            free(buf);
            snprintf(err, errlen, "cannot format the drift report");
            return -1;
        }
        fclose(f);
        snprintf(path, sizeof(path), "%s/%s", r->history, k == 0 ? "drift.md" : "drift.html");
        if (atomic_write(path, buf, len, err, errlen) < 0) {
            free(buf);
            return -1;
        }
        free(buf);
        buf = NULL;
    }
    return 0;
}

/* The repository, build command and spec a night's meta.json names (compare commits runs
 * record the first two; the spec is the --spec of the command line), for the bisect hint. */
static void night_origin(const char *history, const char *dir, struct drift_night *dn)
{
    char path[4200], err[256];
    json_t *meta, *commits, *argv, *a;
    size_t i;

    snprintf(path, sizeof(path), "%s/%s/meta.json", history, dir ? dir : "?");
    meta = ju_load_json(path, err, sizeof(err));
    if (!meta)
        return;
    commits = json_object_get(meta, "commits");
    if (json_is_string(json_object_get(commits, "repo")))
        snprintf(dn->repo, sizeof(dn->repo), "%s",
                 json_string_value(json_object_get(commits, "repo")));
    if (json_is_string(json_object_get(commits, "build")))
        snprintf(dn->build, sizeof(dn->build), "%s",
                 json_string_value(json_object_get(commits, "build")));
    argv = json_object_get(meta, "command_line");
    json_array_foreach(argv, i, a)
    {
        const char *v = json_string_value(json_array_get(argv, i + 1));

        if (json_is_string(a) && strcmp(json_string_value(a), "--spec") == 0 && v)
            snprintf(dn->spec, sizeof(dn->spec), "%s", v);
    }
    json_decref(meta);
}

/* The history opened (locked, its index read), with the night of --add appended first.
 * Returns -1 to go on, else the exit code. */
static int open_history(struct drift_cmd *d)
{
    char err[1024] = "";

    if (history_open(&d->h, d->history, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare: drift: %s\n", err);
        return EXIT_HARNESS;
    }
    if (d->add && history_add(&d->h, d->add, &d->accept, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare: drift: %s\n", err);
        return EXIT_USAGE;
    }
    if (json_array_size(d->h.index) == 0) {
        fprintf(stderr, "compare: drift: history '%s' is empty (add a night with --add RUNDIR)\n",
                d->history);
        return EXIT_USAGE;
    }
    return -1;
}

/* A night's summary.json, or NULL (said on stderr, and in d->left_out) when it cannot be read
 * or is not a pairbench summary: the night is left out. */
static json_t *night_summary(struct drift_cmd *d, const char *id, const char *dir)
{
    char err[5000] = "", path[4096];
    json_t *s;
    size_t used = strlen(d->left_out);

    snprintf(path, sizeof(path), "%s/%s/summary.json", d->history, dir ? dir : "?");
    s = ju_load_json(path, err, sizeof(err));
    if (s && (!json_is_object(s) || !json_is_array(json_object_get(s, "rows")) ||
              (strcmp(ju_str(s, "schema", ""), SUMMARY_SCHEMA) != 0 &&
               strcmp(ju_str(s, "schema", ""), "pairbench.summary/1") != 0))) {
        snprintf(err, sizeof(err),
                 "'%s': not a pairbench summary (expected an object with \"schema\": "
                 "\"%s\" (or /1) and \"rows\")",
                 path, SUMMARY_SCHEMA);
        json_decref(s);
        s = NULL;
    }
    if (s) {
        summary_upgrade(s); /* a night of an older pairbench, in today's words */
        return s;
    }
    fprintf(stderr, "compare: drift: warning: night '%s' left out: %s\n", id, err);
    d->n_left_out++;
    if (used + 8 < sizeof(d->left_out))
        snprintf(d->left_out + used, sizeof(d->left_out) - used, "%snight `%s` (%s)",
                 used ? "; " : "", id, err);
    return NULL;
}

/* The newest nights (at most DRIFT_MAX_NIGHTS) whose summary reads, oldest first, with
 * their summaries; *newest_out: the newest night of the index was left out. */
static int keep_nights(struct drift_cmd *d, size_t n, int *newest_out)
{
    size_t i, k = 0;

    *newest_out = 0;
    for (i = n; i-- > 0 && k < DRIFT_MAX_NIGHTS;) {
        const json_t *night = d->all_nights[i];
        json_t *s = night_summary(d, ju_str(night, "id", "?"), ju_str(night, "dir", NULL));

        if (!s) {
            *newest_out |= i == n - 1;
            continue;
        }
        d->nights[k] = d->all_nights[i];
        d->summaries[k++] = s;
    }
    d->n = k;
    for (i = 0; i < k / 2; i++) { /* newest first -> oldest first */
        const json_t *t = d->nights[i];
        json_t *u = d->summaries[i];
        d->nights[i] = d->nights[k - 1 - i];
        d->nights[k - 1 - i] = t;
        d->summaries[i] = d->summaries[k - 1 - i];
        d->summaries[k - 1 - i] = u;
    }
    return 0;
}

/* The newest nights in order, each with its summary and environment. Returns -1 to go on,
 * else the exit code. */
static int load_nights(struct drift_cmd *d)
{
    size_t n = json_array_size(d->h.index), i;
    int newest_out;

    d->all_nights = calloc(n, sizeof(json_t *));
    d->nights = calloc(n, sizeof(json_t *));
    d->summaries = calloc(n, sizeof(json_t *));
    if (!d->all_nights || !d->nights || !d->summaries)
        return -2;
    for (i = 0; i < n; i++)
        d->all_nights[i] = json_array_get(d->h.index, i);
    qsort(d->all_nights, n, sizeof(json_t *), cmp_night);
    keep_nights(d, n, &newest_out);
    if (d->n == 0) {
        fprintf(stderr, "compare: drift: no night of history '%s' has a readable summary\n",
                d->history);
        return EXIT_HARNESS;
    }
    if (newest_out)
        snprintf(d->newest_out, sizeof(d->newest_out),
                 "the newest night of the index was left out (its summary.json, named above): "
                 "the newest judged is '%s'",
                 ju_str(d->nights[d->n - 1], "id", "?"));
    d->dn = calloc(d->n, sizeof(*d->dn));
    if (!d->dn)
        return -2;
    for (i = 0; i < d->n; i++) {
        const json_t *night = d->nights[i];

        snprintf(d->dn[i].id, sizeof(d->dn[i].id), "%s", ju_str(night, "id", "?"));
        snprintf(d->dn[i].started, sizeof(d->dn[i].started), "%s",
                 ju_str(night, "started", "unknown"));
        snprintf(d->dn[i].commit, sizeof(d->dn[i].commit), "%s", ju_str(night, "commit", ""));
        env_signature(json_object_get(night, "environment"), d->dn[i].env, sizeof(d->dn[i].env));
        night_origin(d->history, ju_str(night, "dir", NULL), &d->dn[i]);
    }
    for (i = 0; i < d->n; i++)
        d->dn[i].other_env = !env_same(json_object_get(d->nights[i], "environment"),
                                       json_object_get(d->nights[d->n - 1], "environment"));
    return -1;
}

/* One series: a row's metric over the nights of the newest night's environment, analysed
 * with the row's own rules (params: the newest night's row; a fixed-rate row has its own). */
static int add_series(struct drift_cmd *d, const json_t *params, const char *config,
                      const char *label, enum metric m)
{
    struct drift_series *s;
    struct verdict_rules rules;
    unsigned char gated[METRIC_ALL];
    size_t i;

    if (d->n_series == d->cap_series) {
        size_t cap = d->cap_series ? d->cap_series * 2 : 16;
        struct drift_series **ns = realloc(d->series, cap * sizeof(struct drift_series *));

        if (!ns)
            return -1;
        d->series = ns;
        d->cap_series = cap;
    }
    s = calloc(1, sizeof(*s));
    if (!s)
        return -1;
    d->series[d->n_series++] = s;
    snprintf(s->config, sizeof(s->config), "%s", config);
    snprintf(s->label, sizeof(s->label), "%s", label ? label : config);
    s->metric = m;
    gate_row_rules(&d->gc, params, &rules, gated);
    s->gated = gated[m] != 0;
    s->fixed_rate = outcome_rate_row(params);
    for (i = 0; i < d->n; i++) {
        const json_t *nr;
        double v;

        if (d->dn[i].other_env || !d->summaries[i])
            continue;
        nr = find_row(d->summaries[i], config);
        v = nr ? baseline_figure(d->summaries[i], nr, s->metric, "median") : NAN;
        if (!(v == v))
            continue;
        s->newest_disturb_cores = summary_disturbance_cores(json_object_get(nr, "interference"));
        s->newest_min = baseline_figure(d->summaries[i], nr, s->metric, "min");
        s->newest_max = baseline_figure(d->summaries[i], nr, s->metric, "max");
        s->values[s->n] = v;
        s->night[s->n] = i;
        s->n++;
    }
    return drift_analyse(s, &rules, d->window, DRIFT_SEED);
}

/* A series per row of the newest night and per gateable metric: the base metrics always, an
 * optional one (server CPU, instructions) where the newest night's row measured it; the
 * newest night's verdicts of a row's gated timed metrics held as one family. */
static int build_series(struct drift_cmd *d)
{
    json_t *row;
    size_t r;
    int m;

    json_array_foreach(json_object_get(d->summaries[d->n - 1], "rows"), r, row)
    {
        const char *config = json_string_value(json_object_get(row, "config"));
        size_t first = d->n_series;

        if (!config)
            continue;
        for (m = 0; m < METRIC_ALL; m++)
            if (metric_gateable((enum metric)m) &&
                (m < METRIC_COUNT ||
                 json_object_get(json_object_get(row, "metrics"), metric_name((enum metric)m))) &&
                add_series(d, json_object_get(row, "params"), config,
                           json_string_value(json_object_get(row, "label")), (enum metric)m) < 0)
                return -1;
        drift_family(d->series + first, d->n_series - first);
    }
    return 0;
}

/* EXIT_REGRESSION when a gated series steps down, or its newest night is decided regressed
 * against the previous K (drift.h newest_verdict), on the newest night (reason names them). */
static int judge(struct drift_cmd *d)
{
    size_t i;
    int rc = EXIT_OK;

    for (i = 0; i < d->n_series; i++) {
        size_t used = strlen(d->reason);
        char ch[32];

        if (!d->series[i]->gated || (!d->series[i]->regression_step &&
                                     strcmp(d->series[i]->newest_verdict, VERDICT_REGRESSED) != 0))
            continue;
        rc = EXIT_REGRESSION;
        fmt_change(d->series[i]->change, ch, sizeof(ch));
        if (used + 16 < sizeof(d->reason))
            snprintf(d->reason + used, sizeof(d->reason) - used, "%s'%s' %s %s", used ? ", " : "",
                     d->series[i]->label, metric_name(d->series[i]->metric), ch);
    }
    return rc;
}

/* drift.md and drift.html, and the one-line account on stdout. */
static int report(struct drift_cmd *d, int rc)
{
    char err[1024] = "", all_left_out[2600];
    size_t flagged = 0, marked = 0, i;
    struct drift_report r;

    if (*d->newest_out) /* nothing judges the night the history was kept for */
        rc = EXIT_HARNESS;
    r = (struct drift_report){
        .history = d->history,
        .nights = d->dn,
        .n_nights = d->n,
        .series = d->series,
        .n_series = d->n_series,
        .window = d->window,
        .rules = &d->gc.rules,
        .gated = d->gc.gated,
        .code = rc,
        .reason = *d->newest_out ? d->newest_out : d->reason,
        .lang = d->lang,
        .index_lines = d->h.lines,
        .left_out = all_left_out,
    };

    snprintf(all_left_out, sizeof(all_left_out), "%s%s%s", d->h.bad_lines,
             *d->h.bad_lines && *d->left_out ? "; " : "", d->left_out);
    if (write_reports(&r, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare: drift: %s\n", err);
        return EXIT_HARNESS;
    }
    for (i = 0; i < d->n_series; i++)
        flagged += d->series[i]->flagged != 0;
    for (i = 0; i < d->n; i++)
        marked += d->dn[i].other_env != 0;
    if (d->h.bad + d->n_left_out)
        snprintf(err, sizeof(err), "; %zu left out of %u index lines (named above)",
                 (size_t)d->h.bad + d->n_left_out, d->h.lines);
    else
        err[0] = '\0';
    printf("drift: %zu nights (%zu in another environment, marked), %zu series, %zu "
           "flagged%s; report: %s/drift.md\n",
           d->n, marked, d->n_series, flagged, err, d->history);
    if (rc == EXIT_REGRESSION)
        fprintf(stderr, "compare: drift: regression on the newest night in %s\n", d->reason);
    if (*d->newest_out)
        fprintf(stderr, "compare: drift: exit 3: %s\n", d->newest_out);
    return rc;
}

void drift_cmd_release(struct drift_cmd *d)
{
    size_t i;

    if (d->summaries)
        for (i = 0; i < d->n; i++)
            json_decref(d->summaries[i]);
    free(d->summaries);
    free(d->all_nights);
    free(d->nights);
    free(d->dn);
    for (i = 0; i < d->n_series; i++)
        free(d->series[i]);
    free(d->series);
    history_close(&d->h);
    gate_config_release(&d->gc);
}

int drift_execute(struct drift_cmd *d)
{
    int rc = open_history(d);

    if (rc < 0)
        rc = load_nights(d);
    if (rc == -1)
        rc = build_series(d) < 0 ? -2 : judge(d);
    if (rc == -2) {
        fprintf(stderr, "compare: drift: out of memory\n");
        rc = EXIT_HARNESS;
    } else if (rc == EXIT_OK || rc == EXIT_REGRESSION) {
        rc = report(d, rc);
    }
    return rc;
}
