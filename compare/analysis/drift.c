/* Drift analysis of one series (see drift.h): newest night against the median of the
 * previous K, change points with E-divisive means, each reported change classified as a step
 * or part of a slow drift, and the regression-step rule that decides `compare drift`'s exit. */
#include "analysis/drift.h"
#include "analysis/family.h"
#include "analysis/summary_judge.h"

#include <math.h>
#include <string.h>

/* +1 when a change of rel (after/before - 1) is better for the metric, -1 worse; 0 when its
 * size is below the threshold. */
static int direction(enum metric m, double rel, double threshold_pct)
{
    if (!(fabs(rel) * 100 >= threshold_pct) || threshold_pct <= 0)
        return 0;
    return (rel > 0) == (metric_higher_is_better(m) != 0) ? 1 : -1;
}

/* The newest night against the n previous values prev[0..n) (drift.h, newest_verdict). */
static void judge_newest(struct drift_series *s, const double *prev, size_t n, double th)
{
    struct verdict_out vo;
    struct mod_evidence ev = {.scale = 1};
    double m = 0, ss = 0;
    size_t i;

    s->newest_verdict = VERDICT_UNDECIDED;
    s->newest_reason = STATS_REASON_TOO_FEW;
    s->newest_p = 1;
    if (n < DRIFT_MIN_PREVIOUS || !(s->newest > 0) || !isfinite(s->change))
        return;
    for (i = 0; i < n; i++) {
        if (!(prev[i] > 0))
            return;
        m += log(prev[i]);
    }
    m /= (double)n;
    for (i = 0; i < n; i++)
        ss += (log(prev[i]) - m) * (log(prev[i]) - m);
    ev.est = log(s->newest) - m;
    ev.df = (double)n - 1;
    ev.s2 = ss / ev.df;
    ev.scale = sqrt(1 + 1 / (double)n); /* one new night against the mean of n */
    stats_judge_timed(th, metric_higher_is_better(s->metric), s->change, &ev, NULL,
                      STATS_EVIDENCE_LEVEL, &vo);
    s->newest_verdict = vo.verdict;
    s->newest_reason = vo.reason;
    s->newest_p = vo.has_evidence ? vo.res.p : 1;
    /* a night whose runs were disturbed (other work took CPU beside them): a timed verdict
     * stands only past what that work could do, ln(1 + cores) plus three standard errors,
     * as a run's disturbed rounds are held (summary_judge.c) */
    if (strcmp(vo.verdict, VERDICT_SAME) != 0 && strcmp(vo.verdict, VERDICT_UNDECIDED) != 0 &&
        metric_timed(s->metric) && s->newest_disturb_cores > 0 &&
        summary_disturbance_explains(ev.est, s->newest_disturb_cores, vo.res.se)) {
        s->newest_verdict = VERDICT_UNDECIDED;
        s->newest_reason = STATS_REASON_DISTURBED;
        return;
    }
    /* one noisy night: its own runs reach back within the threshold of the nights before */
    if (strcmp(vo.verdict, VERDICT_SAME) != 0 && strcmp(vo.verdict, VERDICT_UNDECIDED) != 0 &&
        isfinite(s->newest_min) && isfinite(s->newest_max) &&
        ((s->change < 0 && s->newest_max >= s->prev_median * (1 - th / 100)) ||
         (s->change > 0 && s->newest_min <= s->prev_median * (1 + th / 100)))) {
        s->newest_verdict = VERDICT_UNDECIDED;
        s->newest_reason = STATS_REASON_NOISE;
    }
}

/* flagged (drift.h): a change of the threshold's size, or a reported change point that is */
static int worth_a_chart(const struct drift_series *s)
{
    size_t k;

    for (k = 0; k < s->cp.n_changes; k++)
        if (s->kind[k] != DRIFT_KIND_SMALL)
            return 1;
    return s->newest_dir || s->trend_dir || !strcmp(s->newest_verdict, VERDICT_REGRESSED);
}

int drift_analyse(struct drift_series *s, const struct verdict_rules *rules, size_t window,
                  uint64_t seed)
{
    struct cp_options o;
    double th;
    size_t k, lo;

    th = rules->threshold_pct[s->metric];
    if (th <= 0)
        th = 5; /* informational metrics still get a size floor for reported changes */
    s->newest_dir = 0;
    s->regression_step = 0;
    s->flagged = 0;
    s->change = NAN;
    s->prev_median = NAN;
    s->trend_change = NAN;
    s->trend_dir = 0;
    s->newest_verdict = VERDICT_UNDECIDED;
    s->newest_reason = STATS_REASON_TOO_FEW;
    s->newest_p = 1;
    memset(&s->cp, 0, sizeof(s->cp));
    if (s->n == 0)
        return 0;
    if (window == 0)
        window = DRIFT_DEFAULT_WINDOW;
    s->newest = s->values[s->n - 1];
    if (s->n > 1) {
        lo = s->n - 1 > window ? s->n - 1 - window : 0;
        s->prev_median = cp_median(s->values + lo, s->n - 1 - lo);
        if (s->prev_median != 0) {
            s->change = s->newest / s->prev_median - 1;
            s->newest_dir = direction(s->metric, s->change, th);
        }
        judge_newest(s, s->values + lo, s->n - 1 - lo, th);
    }
    if (s->n >= window + 2) {
        size_t last = s->n - window, before = last > window ? last - window : 0;
        double a = cp_median(s->values + before, last - before);
        double b = cp_median(s->values + last, window);

        if (a != 0) {
            s->trend_change = b / a - 1;
            s->trend_dir = direction(s->metric, s->trend_change, th);
        }
    }
    cp_options_default(&o);
    o.seed = seed;
    if (cp_detect(s->values, s->n, &o, &s->cp) < 0)
        return -1;
    for (k = 0; k < s->cp.n_changes; k++) {
        const struct cp_change *c = &s->cp.changes[k];
        size_t a = c->index > DRIFT_STEP_WINDOW ? c->index - DRIFT_STEP_WINDOW : 0;
        size_t b = c->index + DRIFT_STEP_WINDOW < s->n ? c->index + DRIFT_STEP_WINDOW : s->n;

        s->step_change[k] = c->before != 0 ? c->after / c->before - 1 : 0;
        if (!direction(s->metric, s->step_change[k], th))
            s->kind[k] = DRIFT_KIND_SMALL;
        else
            s->kind[k] = cp_is_step(s->values, a, c->index, b) ? DRIFT_KIND_STEP : DRIFT_KIND_DRIFT;
    }
    /* the last reported change point decides */
    for (k = s->cp.n_changes; k > 0; k--)
        if (s->kind[k - 1] != DRIFT_KIND_SMALL)
            break;
    if (k > 0) {
        const struct cp_change *c = &s->cp.changes[k - 1];

        if (s->kind[k - 1] == DRIFT_KIND_STEP &&
            direction(s->metric, s->step_change[k - 1], th) < 0 && s->n - c->index <= window) {
            size_t from = c->index > window ? c->index - window : 0;
            double before = cp_median(s->values + from, c->index - from);

            if (before != 0 && direction(s->metric, s->newest / before - 1, th) < 0)
                s->regression_step = 1;
        }
    }
    s->flagged = worth_a_chart(s);
    return 0;
}

static int decided(const struct drift_series *s)
{
    return !strcmp(s->newest_verdict, VERDICT_REGRESSED) ||
           !strcmp(s->newest_verdict, VERDICT_IMPROVED);
}

void drift_family(struct drift_series **series, size_t n)
{
    double p[METRIC_ALL] = {0};
    unsigned char keep[METRIC_ALL] = {0};
    size_t idx[METRIC_ALL] = {0}, m = 0, i;

    for (i = 0; i < n && m < METRIC_ALL; i++)
        if (series[i]->gated && family_member(series[i]->metric)) {
            p[m] = decided(series[i]) ? series[i]->newest_p : 1;
            idx[m++] = i;
        }
    family_holm(p, m, FAMILY_LEVEL, keep);
    for (i = 0; i < m; i++) {
        struct drift_series *s = series[idx[i]];

        if (keep[i] || !decided(s))
            continue;
        s->newest_verdict = VERDICT_UNDECIDED;
        s->newest_reason = STATS_REASON_TOO_FEW;
        s->flagged = worth_a_chart(s);
    }
}
