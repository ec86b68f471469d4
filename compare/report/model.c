/* model: every fact a report states, computed once (see model.h). */
#include "report/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics.h"
#include "analysis/outcome.h"
#include "analysis/stats.h"
#include "analysis/summary.h"

#include "util/jobs_util.h"

const char *const model_error_keys[MODEL_N_ERRORS] = {"connect", "io", "protocol", "verify",
                                                      "timeout"};

const char *model_verdict(const json_t *row, const char *metric, const char *version)
{
    return json_string_value(json_object_get(summary_vs(row, metric, version), "verdict"));
}

const char *model_row_label(const json_t *row)
{
    return ju_str(row, "label", ju_str(row, "config", "?"));
}

/* Whether row has verdict `want` on a gateable metric for version; want NULL: regressed or
 * improved. */
static int row_has_verdict(const json_t *row, const char *version, const char *want)
{
    int k;

    for (k = 0; k < METRIC_ALL; k++) { /* a counted verdict (instructions) decides too */
        const char *v = model_verdict(row, metric_name((enum metric)k), version);

        if (!metric_gateable((enum metric)k) || !v)
            continue;
        if (want ? strcmp(v, want) == 0
                 : strcmp(v, VERDICT_REGRESSED) == 0 || strcmp(v, VERDICT_IMPROVED) == 0)
            return 1;
    }
    return 0;
}

/* Whether some gateable metric of row is undecided for version because of the noise. */
static int row_noisy(const json_t *row, const char *version)
{
    int k;

    for (k = 0; k < METRIC_ALL; k++) {
        const json_t *vs =
            json_object_get(json_object_get(json_object_get(json_object_get(row, "metrics"),
                                                            metric_name((enum metric)k)),
                                            "vs_baseline"),
                            version);

        if (metric_gateable((enum metric)k) &&
            strcmp(ju_str(vs, "verdict", ""), VERDICT_UNDECIDED) == 0 &&
            strcmp(ju_str(vs, "reason", ""), STATS_REASON_NOISE) == 0)
            return 1;
    }
    return 0;
}

static double abs_change(const json_t *row, const char *version)
{
    double c;

    return ju_get_num(summary_vs(row, "throughput", version), "change", &c) == 0 ? fabs(c) : -1;
}

struct sort_ctx {
    const json_t *rows;
    const char *version;
};

static int cmp_change_desc(const void *a, const void *b, void *arg)
{
    const struct sort_ctx *sc = arg;
    double x = abs_change(json_array_get(sc->rows, *(const size_t *)a), sc->version);
    double y = abs_change(json_array_get(sc->rows, *(const size_t *)b), sc->version);

    if (x != y)
        return x < y ? 1 : -1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int candidate_build(struct report_model *m, struct model_candidate *c)
{
    size_t r;

    c->notable = calloc(m->nrows + 1, sizeof(size_t));
    c->by_change = calloc(m->nrows + 1, sizeof(size_t));
    c->disjoint = calloc(m->nrows + 1, sizeof(size_t));
    if (!c->notable || !c->by_change || !c->disjoint)
        return -1;
    for (r = 0; r < m->nrows; r++) {
        const json_t *row = json_array_get(m->rows, r);
        const json_t *ov = json_object_get(summary_vs(row, "throughput", c->version), "overlap");

        if (row_has_verdict(row, c->version, NULL))
            c->notable[c->n_notable++] = r;
        if (abs_change(row, c->version) >= 0)
            c->by_change[c->n_changed++] = r;
        if (json_is_boolean(ov)) {
            c->n_overlap_known++;
            if (json_is_false(ov))
                c->disjoint[c->n_disjoint++] = r;
        }
    }
    {
        struct sort_ctx sc = {m->rows, c->version};

        qsort_r(c->by_change, c->n_changed, sizeof(size_t), cmp_change_desc, &sc);
    }
    return 0;
}

/* The rows where connections were reopened, and each version's largest median there. */
static void count_reopened(struct report_model *m, const json_t *row)
{
    const json_t *vals = json_object_get(
        json_object_get(json_object_get(row, "metrics"), "reopened_per_1k"), "values");
    size_t v;
    double med;

    if (!json_is_object(vals))
        return;
    m->n_reopened_rows++;
    for (v = 0; v < m->nv; v++) {
        med = ju_num(json_object_get(vals, m->versions[v]), "median", 0);
        if (med > m->reopened_max[v])
            m->reopened_max[v] = med;
    }
}

/* rss_all_same and its range (model.h). */
static void rss_same(struct report_model *m)
{
    size_t r, v;

    m->rss_all_same = m->nv > 1 && m->nrows > 0;
    m->rss_lo = INFINITY;
    m->rss_hi = 0;
    for (r = 0; r < m->nrows && m->rss_all_same; r++) {
        const json_t *row = json_array_get(m->rows, r), *mo = summary_metric(row, "rss_mib");
        const json_t *vals = json_object_get(mo, "values");

        for (v = 0; v < m->nv && m->rss_all_same; v++) {
            const json_t *x = json_object_get(vals, m->versions[v]);

            m->rss_all_same =
                json_is_object(x) &&
                (v == 0 || strcmp(ju_str(summary_vs(row, "rss_mib", m->versions[v]), "verdict", ""),
                                  VERDICT_SAME) == 0);
            m->rss_lo = fmin(m->rss_lo, ju_num(x, "min", INFINITY));
            m->rss_hi = fmax(m->rss_hi, ju_num(x, "max", 0));
        }
    }
    if (!(m->rss_lo <= m->rss_hi))
        m->rss_all_same = 0;
}

static void count_rows(struct report_model *m)
{
    size_t r, v, j;

    for (r = 0; r < m->nrows; r++) {
        const json_t *row = json_array_get(m->rows, r), *runs = json_object_get(row, "runs");
        int ok = strcmp(ju_str(row, "status", ""), "ok") == 0;

        m->runs_ok += (long long)ju_num(runs, "ok", 0);
        m->runs_total += (long long)ju_num(runs, "expected", 0);
        m->runs_failed += (long long)ju_num(runs, "failed", 0);
        m->runs_replaced += (long long)ju_num(runs, "replaced", 0);
        m->complete_rows += (size_t)ok;
        count_reopened(m, row);
        m->n_series_rows += json_object_get(row, "series") != NULL;
        for (j = 0; j < MODEL_N_ERRORS; j++)
            m->errors[j] +=
                (long long)ju_num(json_object_get(row, "errors"), model_error_keys[j], 0);
        for (v = 1; v < m->nv; v++) {
            m->unstable[r] |= (unsigned char)row_noisy(row, m->versions[v]);
            m->undecided[r] |=
                (unsigned char)(strcmp(outcome_row_verdict(row, m->versions[v], NULL),
                                       OUTCOME_INCONCLUSIVE) == 0);
        }
        m->n_undecided += m->undecided[r];
        m->insecure[r] = json_is_true(json_object_get(row, "tls_insecure"));
        m->not_countable[r] = json_is_string(json_object_get(row, "not_countable"));
        if (m->not_countable[r] && !m->n_not_countable++)
            m->not_countable_why = ju_str(row, "not_countable", "");
        m->unjudged[r] = !ok; /* noisy rows are undecided, named by sent_undecided */
        m->n_unstable += m->unstable[r];
        m->n_insecure += m->insecure[r];
        m->n_unjudged += m->unjudged[r];
    }
    if (m->runs_total < m->runs_ok + m->runs_failed)
        m->runs_total = m->runs_ok + m->runs_failed;
}

static struct weakness *weak_add(struct report_model *m, enum weak_kind kind)
{
    struct weakness *w = &m->weak[m->n_weak++];

    memset(w, 0, sizeof(*w));
    w->kind = kind;
    return w;
}

/* The harness's warnings: each recorded sentence that envinfo states as a fact becomes that
 * fact; any other is kept as text. A dataset that recorded none gets the facts of its
 * environment. */
static void machine_weaknesses(struct report_model *m)
{
    struct env_warning facts[ENV_MAX_WARNINGS];
    const json_t *env = json_object_get(m->meta, "environment");
    const json_t *list = json_object_get(m->summary, "warnings"), *w;
    size_t nf = envinfo_warning_facts(env, facts, ENV_MAX_WARNINGS), i, k;

    if (!json_is_array(list))
        list = json_object_get(m->meta, "warnings");
    if (json_array_size(list) == 0) {
        for (k = 0; k < nf; k++)
            weak_add(m, WEAK_MACHINE)->machine = facts[k];
        return;
    }
    json_array_foreach(list, i, w)
    {
        const char *text = json_is_string(w) ? json_string_value(w)
                                             : json_string_value(json_object_get(w, "message"));
        struct weakness *x;

        if (!text)
            continue;
        for (k = 0; k < nf && strcmp(facts[k].text, text) != 0; k++)
            ;
        x = weak_add(m, k < nf ? WEAK_MACHINE : WEAK_TEXT);
        if (k < nf)
            x->machine = facts[k];
        x->text = text;
    }
}

static int weaknesses(struct report_model *m)
{
    const json_t *ds = json_object_get(m->summary, "dataset");
    size_t cap = 8 + ENV_MAX_WARNINGS + json_array_size(json_object_get(m->summary, "warnings")) +
                 json_array_size(json_object_get(m->meta, "warnings"));
    struct verdict_rules def;

    m->weak = calloc(cap, sizeof(*m->weak));
    if (!m->weak)
        return -1;
    if (json_is_string(json_object_get(m->meta, "stopped")))
        weak_add(m, WEAK_STOPPED)->text = json_string_value(json_object_get(m->meta, "stopped"));
    if (!json_is_object(m->meta))
        weak_add(m, WEAK_NO_META);
    if (json_is_false(json_object_get(ds, "matches"))) {
        struct weakness *w = weak_add(m, WEAK_HASH);

        w->sha_recorded = ju_str(ds, "recorded_sha256", "?");
        w->sha_now = ju_str(ds, "sha256", "?");
    }
    machine_weaknesses(m);
    if (m->runs_failed > 0)
        weak_add(m, WEAK_FAILED)->count = m->runs_failed;
    verdict_rules_default(&def);
    if (m->n_unstable > 0)
        weak_add(m, WEAK_UNSTABLE)->noise_limit_pct = ju_num(
            json_object_get(m->summary, "thresholds_pct"), "noise_limit_pct", def.noise_limit_pct);
    if (m->n_insecure > 0)
        weak_add(m, WEAK_INSECURE);
    if (m->n_not_countable > 0)
        weak_add(m, WEAK_NOT_COUNTABLE)->text = m->not_countable_why;
    return 0;
}

static void evidence(struct report_model *m)
{
    long long i;
    double c = 1;

    m->rounds = (long long)ju_num(m->summary, "rounds", 0);
    if (m->rounds < 2 || m->rounds > 30)
        return;
    for (i = 1; i <= m->rounds; i++)
        c = c * (double)(m->rounds + i) / (double)i;
    m->rank_combinations = c;
    m->p_disjoint = 2 / c;
}

static void one_version(struct report_model *m)
{
    size_t r;

    m->best_throughput_row = m->lowest_p99_row = -1;
    for (r = 0; r < m->nrows; r++) {
        const json_t *row = json_array_get(m->rows, r);
        double t = ju_num(summary_values(row, "throughput", m->versions[0]), "median", -1);
        double l = ju_num(summary_values(row, "p99_us", m->versions[0]), "median", -1);

        if (t >= 0 && (m->best_throughput_row < 0 || t > m->best_throughput)) {
            m->best_throughput = t;
            m->best_throughput_row = (long)r;
        }
        if (l >= 0 && (m->lowest_p99_row < 0 || l < m->lowest_p99)) {
            m->lowest_p99 = l;
            m->lowest_p99_row = (long)r;
        }
    }
}

const char *const model_lib_keys[MODEL_N_LIBS] = {"hiredis", "openssl", "libcurl", "jansson"};

/* o1[k1] when it is a string, else o2[k2]. */
static const json_t *build_or_env(const json_t *o1, const char *k1, const json_t *o2,
                                  const char *k2)
{
    const json_t *v = json_object_get(o1, k1);

    return json_is_string(v) ? v : json_object_get(o2, k2);
}

static void environment(struct model_env *e, const json_t *meta)
{
    size_t i;

    e->env = json_object_get(meta, "environment");
    e->build = json_object_get(meta, "driver_build");
    e->settings = json_object_get(meta, "settings");
    e->libs = json_object_get(e->env, "libraries");
    e->load_start = json_object_get(e->env, "loadavg_start")
                        ? json_object_get(e->env, "loadavg_start")
                        : json_object_get(e->env, "loadavg");
    e->load_end = json_object_get(e->env, "loadavg_end");
    e->cc = build_or_env(e->build, "cc", e->env, "compiler");
    e->cflags = build_or_env(e->build, "cflags", e->env, "cflags");
    for (i = 0; i < MODEL_N_LIBS; i++)
        e->lib[i] = build_or_env(e->build, model_lib_keys[i], e->libs, model_lib_keys[i]);
}

/* The counted binaries without symbols, once each (by file), from every row's instructions. */
static void unnamed_binaries(struct report_model *m)
{
    const json_t *row, *b;
    const char *ver;
    size_t i, k;

    json_array_foreach(m->rows, i, row)
    {
        json_object_foreach(json_object_get(summary_metric(row, "instructions"), "binaries"), ver,
                            b)
        {
            const char *path = ju_str(b, "path", NULL);

            if (!path || !json_is_false(json_object_get(b, "symbols")))
                continue;
            for (k = 0; k < m->n_unnamed && strcmp(m->unnamed[k].path, path) != 0; k++)
                ;
            if (k < m->n_unnamed || m->n_unnamed == MODEL_MAX_UNNAMED)
                continue;
            m->unnamed[m->n_unnamed++] =
                (struct model_unnamed){ju_str(b, "name", path), path, ju_str(b, "package", NULL)};
        }
    }
}

int model_fn_unnamed(const struct report_model *m, const char *fn)
{
    size_t k, n;

    for (k = 0; k < m->n_unnamed; k++) {
        n = strlen(m->unnamed[k].name);
        if (strncmp(fn, "unknown (", 9) == 0 && strncmp(fn + 9, m->unnamed[k].name, n) == 0 &&
            strcmp(fn + 9 + n, ")") == 0)
            return 1;
    }
    return 0;
}

size_t model_fns_listed(const struct report_model *m, const json_t *fns)
{
    const json_t *fn;
    size_t k, n = 0;

    json_array_foreach(fns, k, fn)
    {
        n += !model_fn_unnamed(m, ju_str(fn, "name", "unknown"));
    }
    return n;
}

int report_model_build(struct report_model *m, const json_t *summary, const json_t *meta)
{
    const json_t *vers = json_object_get(summary, "versions");
    size_t v;

    memset(m, 0, sizeof(*m));
    m->summary = summary;
    m->meta = meta;
    m->rows = json_object_get(summary, "rows");
    m->nrows = json_array_size(m->rows);
    for (v = 0; v < json_array_size(vers) && v < MODEL_MAX_VERSIONS; v++) {
        const json_t *x = json_array_get(vers, v);

        m->versions[v] = json_is_string(x) ? json_string_value(x) : ju_str(x, "name", "?");
    }
    if (v == 0) /* older summaries: the names from meta.versions */
        for (; v < json_array_size(json_object_get(meta, "versions")) && v < MODEL_MAX_VERSIONS;
             v++)
            m->versions[v] =
                ju_str(json_array_get(json_object_get(meta, "versions"), v), "name", "?");
    m->nv = v;
    m->unstable = calloc(m->nrows + 1, 1);
    m->insecure = calloc(m->nrows + 1, 1);
    m->unjudged = calloc(m->nrows + 1, 1);
    m->undecided = calloc(m->nrows + 1, 1);
    m->not_countable = calloc(m->nrows + 1, 1);
    if (!m->unstable || !m->insecure || !m->unjudged || !m->undecided || !m->not_countable)
        goto oom;
    for (v = 1; v < m->nv; v++) {
        m->cand[v].version = m->versions[v];
        if (candidate_build(m, &m->cand[v]) < 0)
            goto oom;
    }
    count_rows(m);
    rss_same(m);
    if (weaknesses(m) < 0)
        goto oom;
    evidence(m);
    one_version(m);
    environment(&m->env, meta);
    unnamed_binaries(m);
    return 0;
oom:
    report_model_release(m);
    return -1;
}

void report_model_release(struct report_model *m)
{
    size_t v;

    for (v = 0; v < MODEL_MAX_VERSIONS; v++) {
        free(m->cand[v].notable);
        free(m->cand[v].by_change);
        free(m->cand[v].disjoint);
    }
    free(m->unstable);
    free(m->insecure);
    free(m->unjudged);
    free(m->undecided);
    free(m->not_countable);
    free(m->weak);
    memset(m, 0, sizeof(*m));
}
