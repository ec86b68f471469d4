/* family: Holm across a row's gated timed metrics (family.h). */
#include "analysis/family.h"

#include <math.h>
#include <string.h>

#include "analysis/metrics.h"
#include "analysis/summary_judge.h"

#include "util/jobs_util.h"

int family_member(int m)
{
    /* stall is reported, not gated: its verdict stands alone (docs/statistics.md "Over
     * time"), so it does not take a share of the gated metrics' level */
    return metric_timed(m) && m != METRIC_STALL;
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

double family_chance(size_t m, int any_evidence)
{
    return m && any_evidence ? FAMILY_LEVEL : 0;
}

/* One metric of the family for one candidate. */
struct member {
    json_t *cmp;
    double p, alpha;
    const json_t *metric;
};

/* The family of candidate ver in metrics: its gated timed metrics with a comparison. Sets
 * *any to whether one has evidence; returns how many. */
static size_t family_collect(json_t *metrics, const char *ver, struct member *mem, int *any)
{
    size_t n = 0;
    int m;

    *any = 0;
    for (m = 0; m < METRIC_ALL; m++) {
        const json_t *mo = json_object_get(metrics, metric_name((enum metric)m));
        json_t *cmp = json_object_get(json_object_get(mo, "vs_baseline"), ver);
        const char *v = ju_str(cmp, "verdict", "");
        const json_t *e = json_object_get(cmp, "evidence");
        int decided = !strcmp(v, VERDICT_REGRESSED) || !strcmp(v, VERDICT_IMPROVED);
        double alpha = ju_num(e, "alpha", STATS_EVIDENCE_LEVEL);

        if (!family_member(m) || !cmp || !(ju_num(mo, "threshold_pct", 0) > 0))
            continue;
        *any |= json_is_object(e) && ju_num(e, "df_total", 0) > 0;
        mem[n].cmp = cmp;
        mem[n].metric = mo;
        mem[n].alpha = alpha > 0 ? alpha : STATS_EVIDENCE_LEVEL;
        /* scaled so that Holm at FAMILY_LEVEL asks each metric for at most its own alpha */
        mem[n].p = decided && e ? ju_num(e, "p", 1) * FAMILY_LEVEL / mem[n].alpha : 1;
        n++;
    }
    return n;
}

/* An undecided verdict for a decided metric that fails Holm, with the runs a side that would
 * reach the level the family asked of it (level: its alpha over the family's size). */
static void family_undecide(struct member *mem, double level)
{
    struct mod_evidence ev;
    const json_t *e = json_object_get(mem->cmp, "evidence");
    struct mod_prior pr = {ju_num(e, "prior_s2", 0), ju_num(e, "prior_df", 0)};
    size_t need;

    json_object_set_new(mem->cmp, "verdict", json_string(VERDICT_UNDECIDED));
    json_object_set_new(mem->cmp, "reason", json_string(STATS_REASON_TOO_FEW));
    json_object_del(mem->cmp, "runs_needed");
    if (summary_get_evidence(mem->cmp, &ev, NULL) < 0)
        return;
    need = mod_runs_needed(&ev, &pr, ju_num(mem->metric, "threshold_pct", 0) / 100, level);
    if (need)
        json_object_set_new(mem->cmp, "runs_needed", json_integer((json_int_t)need));
}

void family_hold(json_t *row, json_t *metrics, const json_t *versions, size_t planned)
{
    const json_t *any = json_object_get(metrics, metric_name(METRIC_THROUGHPUT));
    const char *ver;
    const json_t *x;
    double worst = 0;
    size_t most = 0;

    (void)versions;
    (void)planned;
    json_object_foreach(json_object_get((json_t *)any, "vs_baseline"), ver, x)
    {
        struct member mem[METRIC_ALL];
        double p[METRIC_ALL], chance;
        unsigned char keep[METRIC_ALL];
        size_t n, i;
        int evidence;

        n = family_collect(metrics, ver, mem, &evidence);
        if (n == 0)
            continue;
        for (i = 0; i < n; i++)
            p[i] = mem[i].p;
        family_holm(p, n, FAMILY_LEVEL, keep);
        chance = family_chance(n, evidence);
        for (i = 0; i < n; i++) {
            const char *v = ju_str(mem[i].cmp, "verdict", "");

            if ((!strcmp(v, VERDICT_REGRESSED) || !strcmp(v, VERDICT_IMPROVED)) && !keep[i])
                family_undecide(&mem[i], mem[i].alpha / (double)n);
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
