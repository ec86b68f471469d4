/* family: Holm across a row's gated timed metrics (family.h). */
#include "analysis/family.h"

#include <math.h>
#include <string.h>

#include "analysis/metrics.h"

#include "util/jobs_util.h"

int family_member(int m)
{
    return m >= 0 && m < METRIC_INSTRUCTIONS && m != METRIC_CPU_PERCENT;
}

/* 2/2^k: every one of k paired ratios on one side of 1 by luck. */
static double sign_chance(size_t k)
{
    return k == 0 ? 1 : fmin(1, 2 / ldexp(1, (int)(k < 1000 ? k : 1000)));
}

double family_evidence_p(int confirmed, int disjoint, size_t na, size_t nb, size_t n_pairs)
{
    double p_disjoint;

    if (confirmed)
        return STATS_EXTRA_ALPHA;
    stats_evidence_alpha(n_pairs, na, nb, &p_disjoint);
    if (disjoint)
        return p_disjoint;
    return sign_chance(n_pairs);
}

void family_holm(const double *p, size_t m, double level, unsigned char *keep)
{
    size_t k, i, best;
    unsigned char used[METRIC_ALL];

    if (m > METRIC_ALL)
        m = METRIC_ALL;
    memset(used, 0, sizeof(used));
    memset(keep, 0, m);
    for (k = 0; k < m; k++) {
        best = m;
        for (i = 0; i < m; i++)
            if (!used[i] && (best == m || p[i] < p[best]))
                best = i;
        used[best] = 1;
        /* the 1e-9 keeps 2/252 against 0.05/6 from failing by rounding */
        if (!(p[best] <= level / (double)(m - k) * (1 + 1e-9)))
            return;
        keep[best] = 1;
    }
}

double family_chance(size_t m, int confirmed, size_t na, size_t nb, size_t n_pairs)
{
    double cut, a = 0, p_disjoint, p_sign = sign_chance(n_pairs);

    if (m == 0 || na == 0 || nb == 0)
        return 0;
    cut = FAMILY_LEVEL / (double)m * (1 + 1e-9);
    stats_evidence_alpha(n_pairs, na, nb, &p_disjoint);
    if (confirmed)
        a = STATS_EXTRA_ALPHA <= cut ? STATS_EXTRA_ALPHA : 0;
    else {
        if (p_disjoint <= cut)
            a = p_disjoint;
        if (n_pairs >= 2 && p_sign <= cut && p_sign > a)
            a = p_sign;
    }
    return fmin(FAMILY_LEVEL, (double)m * a);
}

/* One metric of the family for one candidate. */
struct member {
    json_t *cmp;
    double p;
};

/* The family of candidate ver in metrics: its gated timed metrics with a comparison. Sets
 * *na, *nb, *np to the smallest run and pair counts among them; returns how many. */
static size_t family_collect(json_t *metrics, const char *base, const char *ver, size_t planned,
                             struct member *mem, size_t *na, size_t *nb, size_t *np, int *conf)
{
    size_t n = 0;
    int m;

    *na = *nb = *np = (size_t)-1;
    *conf = 1;
    for (m = 0; m < METRIC_ALL; m++) {
        const json_t *mo = json_object_get(metrics, metric_name((enum metric)m));
        const json_t *vals = json_object_get(mo, "values");
        json_t *cmp = json_object_get(json_object_get(mo, "vs_baseline"), ver);
        const char *v = ju_str(cmp, "verdict", "");
        size_t a, b, k;
        int confirmed, decided;

        if (!family_member(m) || !cmp || !(ju_num(mo, "threshold_pct", 0) > 0))
            continue;
        a = (size_t)ju_num(json_object_get(vals, base), "n", 0);
        b = (size_t)ju_num(json_object_get(vals, ver), "n", 0);
        k = (size_t)ju_num(json_object_get(cmp, "paired_ratio"), "n", 0);
        confirmed = planned && (a > planned || b > planned);
        decided = !strcmp(v, VERDICT_REGRESSED) || !strcmp(v, VERDICT_IMPROVED);
        mem[n].cmp = cmp;
        mem[n].p = decided ? family_evidence_p(
                                 confirmed, json_is_false(json_object_get(cmp, "overlap")), a, b, k)
                           : 1;
        *na = a < *na ? a : *na;
        *nb = b < *nb ? b : *nb;
        *np = k < *np ? k : *np;
        *conf &= confirmed;
        n++;
    }
    return n;
}

void family_hold(json_t *row, json_t *metrics, const json_t *versions, size_t planned)
{
    const char *base = json_string_value(json_array_get(versions, 0));
    const json_t *any = json_object_get(metrics, metric_name(METRIC_THROUGHPUT));
    const char *ver;
    const json_t *x;
    double worst = 0;
    size_t most = 0;

    json_object_foreach(json_object_get((json_t *)any, "vs_baseline"), ver, x)
    {
        struct member mem[METRIC_ALL];
        double p[METRIC_ALL], chance;
        unsigned char keep[METRIC_ALL];
        size_t n, i, na, nb, np;
        int conf;

        n = family_collect(metrics, base ? base : "", ver, planned, mem, &na, &nb, &np, &conf);
        if (n == 0)
            continue;
        for (i = 0; i < n; i++)
            p[i] = mem[i].p;
        family_holm(p, n, FAMILY_LEVEL, keep);
        chance = family_chance(n, conf, na, nb, np);
        for (i = 0; i < n; i++) {
            const char *v = ju_str(mem[i].cmp, "verdict", "");
            int decided = !strcmp(v, VERDICT_REGRESSED) || !strcmp(v, VERDICT_IMPROVED);

            if (decided && !keep[i])
                json_object_set_new(mem[i].cmp, "verdict", json_string(VERDICT_SAME));
            if ((decided && !keep[i]) || (chance == 0 && !strcmp(v, VERDICT_SAME)))
                json_object_set_new(mem[i].cmp, "reason", json_string(STATS_REASON_TOO_FEW));
        }
        worst = chance > worst ? chance : worst;
        most = n > most ? n : most;
    }
    if (most)
        json_object_set_new(row, "family",
                            json_pack("{s:f, s:I, s:f}", "level", FAMILY_LEVEL, "metrics",
                                      (json_int_t)most, "chance", worst));
}

json_t *family_summary(const json_t *rows)
{
    const json_t *row;
    double worst = -1;
    size_t i, most = 0;

    json_array_foreach(rows, i, row)
    {
        const json_t *f = json_object_get(row, "family");

        if (!f)
            continue;
        worst = fmax(worst, ju_num(f, "chance", 0));
        if (ju_num(f, "metrics", 0) > (double)most)
            most = (size_t)ju_num(f, "metrics", 0);
    }
    if (worst < 0)
        return NULL;
    return json_pack("{s:f, s:I, s:f}", "level", FAMILY_LEVEL, "metrics", (json_int_t)most,
                     "chance", worst);
}
