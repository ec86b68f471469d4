/* summary_judge: every row judged again with the run's noise (summary_judge.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/family.h"
#include "analysis/summary.h"
#include "analysis/summary_judge.h"

#include "util/jobs_util.h"

/* A real number, or null when it is not finite (JSON has no infinity). */
static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

void summary_put_judgement(json_t *c, const struct verdict_out *vo, const struct mod_prior *pr)
{
    json_t *e;

    json_object_set_new(c, "verdict", json_string(vo->verdict));
    if (vo->reason)
        json_object_set_new(c, "reason", json_string(vo->reason));
    else
        json_object_del(c, "reason");
    json_object_del(c, "runs_needed");
    if (vo->runs_needed)
        json_object_set_new(c, "runs_needed", json_integer((json_int_t)vo->runs_needed));
    if (!vo->has_evidence)
        return;
    e = json_object();
    json_object_set_new(e, "est", jnum(vo->ev.est));
    json_object_set_new(e, "s2", jnum(vo->ev.s2));
    json_object_set_new(e, "df", jnum(vo->ev.df));
    json_object_set_new(e, "scale", jnum(vo->ev.scale));
    json_object_set_new(e, "paired", json_boolean(vo->ev.paired));
    if (vo->ev.paired) {
        json_object_set_new(e, "k_after", jnum(vo->ev.k_after));
        json_object_set_new(e, "k_before", jnum(vo->ev.k_before));
        json_object_set_new(e, "position", jnum(vo->ev.position));
        json_object_set_new(e, "host_position", jnum(vo->ev.host));
        json_object_set_new(e, "host_position_rel_var", jnum(vo->ev.host_rel_var));
    }
    json_object_set_new(e, "se", jnum(vo->res.se));
    json_object_set_new(e, "df_total", jnum(vo->res.df));
    json_object_set_new(e, "p", jnum(vo->res.p));
    json_object_set_new(e, "alpha", jnum(vo->alpha));
    json_object_set_new(e, "lo", jnum(vo->res.lo));
    json_object_set_new(e, "hi", jnum(vo->res.hi));
    json_object_set_new(e, "prior_s2", jnum(pr ? pr->s2 : 0));
    json_object_set_new(e, "prior_df", jnum(pr ? pr->df : 0));
    json_object_set_new(c, "evidence", e);
}

int summary_get_evidence(const json_t *c, struct mod_evidence *ev, double *alpha)
{
    const json_t *e = json_object_get(c, "evidence");

    if (!json_is_object(e))
        return -1;
    ev->est = ju_num(e, "est", 0);
    ev->s2 = ju_num(e, "s2", 0);
    ev->df = ju_num(e, "df", 0);
    ev->scale = ju_num(e, "scale", 1);
    ev->paired = json_is_true(json_object_get(e, "paired"));
    ev->k_after = ju_num(e, "k_after", 0);
    ev->k_before = ju_num(e, "k_before", 0);
    ev->position = ju_num(e, "position", 0);
    ev->host = ju_num(e, "host_position", 0);
    ev->host_rel_var = ju_num(e, "host_position_rel_var", 0);
    if (alpha)
        *alpha = ju_num(e, "alpha", STATS_EVIDENCE_LEVEL);
    return 0;
}

/* Whether metric m is judged by the moderated test (stats_judge: not counted, gated). */
static int judged_timed(int m)
{
    return m != METRIC_CPU_PERCENT && !metric_counted((enum metric)m);
}

/* The prior of metric m for evidence of kind paired, from every row's comparisons, pooled
 * with the outside noise o. Returns 0, or -1 when there is none. */
static int fit_prior(const json_t *rows, int m, int paired, const struct mod_prior *o,
                     struct mod_prior *pr)
{
    size_t cap = 64, n = 0, i;
    double *s2 = malloc(cap * sizeof(double)), *df = malloc(cap * sizeof(double));
    const json_t *row;
    int rc = -1;

    pr->s2 = pr->df = 0;
    if (!s2 || !df)
        goto out;
    json_array_foreach(rows, i, row)
    {
        const json_t *cmp;
        const char *ver;

        json_object_foreach((json_t *)json_object_get(
                                summary_metric(row, metric_name((enum metric)m)), "vs_baseline"),
                            ver, cmp)
        {
            struct mod_evidence raw, ev;

            if (summary_get_evidence(cmp, &raw, NULL) < 0 || raw.paired != paired)
                continue;
            mod_net(&raw, &ev);
            if (n == cap) {
                double *a = realloc(s2, 2 * cap * sizeof(double)),
                       *b = a ? realloc(df, 2 * cap * sizeof(double)) : NULL;

                if (a)
                    s2 = a;
                if (!b)
                    goto out;
                df = b;
                cap *= 2;
            }
            s2[n] = ev.s2;
            df[n++] = ev.df;
        }
    }
    rc = mod_prior_fit(s2, df, n, pr);
    if (o && o->df > 0 && o->s2 > 0) {
        double d = (rc == 0 ? pr->df : 0) + o->df;

        pr->s2 = ((rc == 0 ? pr->df * pr->s2 : 0) + o->df * o->s2) / d;
        pr->df = d;
        rc = 0;
    }
out:
    free(s2);
    free(df);
    return rc;
}

/* The run's effect of running second on metric m (mod_position_fit), from every row's paired
 * comparisons, set into each of their evidence objects for fit_prior and judge_metric to take
 * net. Returns it as {"est", "se_rel", "rows"}, or NULL when too few rows saw both orders. */
static json_t *fit_position(json_t *rows, int m)
{
    size_t cap = 0, n = 0, i;
    struct mod_evidence *ev = NULL;
    const json_t *row;
    double host, rel_var;
    json_t *out = NULL;

    for (int pass = 0; pass < 2; pass++) {
        json_array_foreach(rows, i, row)
        {
            json_t *cmp;
            const char *ver;

            json_object_foreach(
                json_object_get(summary_metric(row, metric_name((enum metric)m)), "vs_baseline"),
                ver, cmp)
            {
                struct mod_evidence e;
                json_t *ej = json_object_get(cmp, "evidence");

                if (summary_get_evidence(cmp, &e, NULL) < 0 || !e.paired)
                    continue;
                if (pass == 0) {
                    if (n == cap) {
                        struct mod_evidence *g = realloc(ev, (cap ? 2 * cap : 64) * sizeof(*ev));

                        if (!g)
                            goto out;
                        ev = g;
                        cap = cap ? 2 * cap : 64;
                    }
                    ev[n++] = e;
                } else {
                    json_object_set_new(ej, "host_position", jnum(host));
                    json_object_set_new(ej, "host_position_rel_var", jnum(rel_var));
                }
            }
        }
        if (pass == 0 && mod_position_fit(ev, n, &host, &rel_var) < 0)
            goto out;
    }
    out = json_pack("{s:o, s:o, s:I}", "est", jnum(host), "se_rel", jnum(sqrt(rel_var)), "rows",
                    (json_int_t)n);
out:
    free(ev);
    return out;
}

/* Judges every comparison of metric m in rows again under the priors (by kind). */
static void judge_metric(json_t *rows, int m, const struct mod_prior pr[2], const int have[2],
                         size_t planned)
{
    const json_t *row;
    size_t i;

    json_array_foreach(rows, i, row)
    {
        const json_t *mo = summary_metric(row, metric_name((enum metric)m));
        json_t *cmp;
        const char *ver;

        json_object_foreach((json_t *)json_object_get(mo, "vs_baseline"), ver, cmp)
        {
            struct mod_evidence ev;
            struct verdict_out vo;
            double alpha, change;

            memset(&vo, 0, sizeof(vo));
            if (summary_get_evidence(cmp, &ev, &alpha) < 0 || !have[ev.paired] ||
                summary_judged_change(mo, cmp, (double)planned, &change) < 0)
                continue;
            stats_judge_timed(ju_num(mo, "threshold_pct", 0),
                              metric_higher_is_better((enum metric)m), change, &ev, &pr[ev.paired],
                              alpha, &vo);
            summary_put_judgement(cmp, &vo, &pr[ev.paired]);
        }
    }
}

int summary_disturbance_explains(double log_change, double cores, double se)
{
    return fabs(log_change) <= log1p(cores) + 3 * se;
}

double summary_disturbance_cores(const json_t *interf)
{
    const json_t *x;
    double most = 0;
    size_t k;

    json_array_foreach(json_object_get(interf, "disturbed"), k, x)
    {
        most = fmax(most, ju_num(x, "other_cpu_cores", 0));
    }
    return most;
}

/* A timed metric's regressed or improved verdict becomes undecided with
 * STATS_REASON_DISTURBED (as does one undecided for its noise) when it rests on disturbed runs
 * (kept because too few clean rounds remain: disturb.h), or when disturbed rounds were set aside
 * and fewer clean rounds than planned are left, unless the disturbance could not have made the
 * change. Work that takes k cores beside the measured processes can at worst slow one side by (1 +
 * k)× (it shares their cores) and leave the other alone, so a log change past ln(1 + k) of the most
 * disturbed run, plus three standard errors of the measured noise, is more than the
 * disturbance explains and stays decided (docs/statistics.md, "Interference"). Counts
 * (instructions, system calls, allocations, wake-ups, faults) are not timed and keep theirs. */
static void hold_disturbed(json_t *row, json_t *metrics, size_t planned)
{
    const json_t *d, *x, *interf = json_object_get(row, "interference");
    size_t k;
    int kept = 0, set_aside = 0, m;
    double cores;

    json_array_foreach(json_object_get(interf, "disturbed"), k, x)
    {
        kept |= json_is_false(json_object_get(x, "excluded"));
        set_aside |= json_is_true(json_object_get(x, "excluded"));
    }
    if (set_aside && planned && ju_num(interf, "clean_rounds", 0) < (double)planned)
        kept = 1;
    if (!kept)
        return;
    cores = summary_disturbance_cores(interf);
    for (m = 0; m < METRIC_ALL; m++) {
        const char *cand;
        json_t *cmp;

        /* counts, not times: the counted ones, and the software events (a server that sleeps
         * between requests is seldom preempted, so its context switches count its wake-ups
         * even on a loaded machine); the client's CPU percent is not judged */
        if (!metric_timed(m))
            continue;
        d = json_object_get(json_object_get(metrics, metric_name((enum metric)m)), "vs_baseline");
        json_object_foreach((json_t *)d, cand, cmp)
        {
            const char *v = ju_str(cmp, "verdict", "");
            double change = ju_num(cmp, "change", 0);

            /* noise measured on disturbed runs is the disturbance's as much as the row's:
             * named as such, so the remedy read is an idle runner */
            if (strcmp(v, VERDICT_UNDECIDED) == 0 &&
                strcmp(ju_str(cmp, "reason", ""), STATS_REASON_NOISE) == 0) {
                json_object_set_new(cmp, "reason", json_string(STATS_REASON_DISTURBED));
                continue;
            }
            if (strcmp(v, VERDICT_REGRESSED) != 0 && strcmp(v, VERDICT_IMPROVED) != 0)
                continue;
            if (change > -1 &&
                !summary_disturbance_explains(
                    log1p(change), cores, ju_num(json_object_get(cmp, "evidence"), "se", INFINITY)))
                continue;
            json_object_set_new(cmp, "verdict", json_string(VERDICT_UNDECIDED));
            json_object_set_new(cmp, "reason", json_string(STATS_REASON_DISTURBED));
        }
    }
}

json_t *summary_judge_rows(json_t *rows, const json_t *versions, const struct verdict_rules *rules,
                           size_t planned)
{
    json_t *noise = json_object(), *row;
    size_t i;
    int m, k;

    for (m = 0; noise && m < METRIC_ALL; m++) {
        struct mod_prior pr[2];
        int have[2];
        json_t *mj;

        json_t *pos;

        if (!judged_timed(m) || !(mj = json_object()))
            continue;
        if ((pos = fit_position(rows, m)))
            json_object_set_new(mj, "position", pos);
        for (k = 0; k < 2; k++) {
            have[k] = fit_prior(rows, m, k, rules ? &rules->outside[m] : NULL, &pr[k]) == 0;
            if (have[k])
                json_object_set_new(
                    mj, k ? "paired" : "unpaired",
                    json_pack("{s:o, s:o}", "s2", jnum(pr[k].s2), "df", jnum(pr[k].df)));
        }
        if (have[0] || have[1])
            judge_metric(rows, m, pr, have, planned);
        if (json_object_size(mj))
            json_object_set_new(noise, metric_name((enum metric)m), mj);
        else
            json_decref(mj);
    }
    json_array_foreach(rows, i, row)
    {
        json_t *metrics = json_object_get(row, "metrics");

        hold_disturbed(row, metrics, planned);
        family_hold(row, metrics, versions, planned);
    }
    return noise;
}
