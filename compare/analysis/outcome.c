/* outcome: a row's verdict over the headline metrics and the summary's overall outcome. */
#include <string.h>

#include "analysis/outcome.h"
#include "analysis/summary.h"

#include "util/jobs_util.h"

void outcome_default_gated(unsigned char gated[METRIC_ALL])
{
    int m;

    for (m = 0; m < METRIC_ALL; m++)
        gated[m] = (unsigned char)metric_def((enum metric)m)->gate_default;
}

int outcome_rate_row(const json_t *params)
{
    return json_number_value(json_object_get(params, "rate")) > 0;
}

void outcome_rate_rules(const json_t *params, int named_set, struct verdict_rules *rules,
                        unsigned char *gated)
{
    if (!outcome_rate_row(params))
        return;
    if (rules && !rules->named[METRIC_SERVER_CPU_US])
        rules->threshold_pct[METRIC_SERVER_CPU_US] = OUTCOME_RATE_SERVER_CPU_PCT;
    if (rules && !rules->named[METRIC_P99_US])
        rules->threshold_pct[METRIC_P99_US] = OUTCOME_RATE_P99_PCT;
    if (!gated)
        return;
    gated[METRIC_THROUGHPUT] = 0;
    gated[METRIC_CPU_EFFICIENCY] = 0;
    if (!named_set)
        gated[METRIC_SERVER_CPU_US] = 1;
}

const char *outcome_row_verdict(const json_t *row, const char *candidate,
                                const unsigned char *gated)
{
    unsigned char dflt[METRIC_ALL];
    const char *status = ju_str(row, "status", "ok");
    int m, regressed = 0, improved = 0, undecided = 0;

    if (strcmp(status, VERDICT_FAILED) == 0)
        return VERDICT_FAILED;
    if (!gated || outcome_rate_row(json_object_get(row, "params"))) {
        if (gated)
            memcpy(dflt, gated, sizeof(dflt));
        else
            outcome_default_gated(dflt);
        outcome_rate_rules(json_object_get(row, "params"), gated != NULL, NULL, dflt);
        gated = dflt;
    }
    for (m = 0; candidate && m < METRIC_ALL; m++) {
        const char *v;

        if (!gated[m] || !summary_vs(row, metric_name((enum metric)m), candidate))
            continue;
        v = ju_str(summary_vs(row, metric_name((enum metric)m), candidate), "verdict", "");
        if (strcmp(v, VERDICT_FAILED) == 0)
            return VERDICT_FAILED;
        regressed |= strcmp(v, VERDICT_REGRESSED) == 0;
        improved |= strcmp(v, VERDICT_IMPROVED) == 0;
        undecided |= strcmp(v, VERDICT_UNDECIDED) == 0;
    }
    if (regressed)
        return VERDICT_REGRESSED;
    if (strcmp(status, OUTCOME_INCOMPLETE) == 0)
        return OUTCOME_INCOMPLETE;
    if (undecided)
        return VERDICT_UNDECIDED;
    return improved ? VERDICT_IMPROVED : VERDICT_SAME;
}

static const char *const kinds[] = {VERDICT_REGRESSED, VERDICT_IMPROVED,   VERDICT_SAME,
                                    VERDICT_UNDECIDED, OUTCOME_INCOMPLETE, VERDICT_FAILED};
enum { N_KINDS = sizeof(kinds) / sizeof(kinds[0]) };

static void count(const char *w, json_int_t counts[N_KINDS])
{
    size_t k;

    for (k = 0; k < N_KINDS; k++)
        if (strcmp(w, kinds[k]) == 0)
            counts[k]++;
}

/* Each (row, candidate) once; a one-version row once. */
static void count_row(const json_t *row, const json_t *versions, const unsigned char *gated,
                      json_int_t counts[N_KINDS])
{
    size_t v, nv = json_array_size(versions);

    if (nv < 2)
        count(outcome_row_verdict(row, NULL, gated), counts);
    for (v = 1; v < nv; v++)
        count(outcome_row_verdict(row, json_string_value(json_array_get(versions, v)), gated),
              counts);
}

json_t *outcome_build(const json_t *summary, const unsigned char *gated)
{
    const json_t *rows = json_object_get(summary, "rows"), *row;
    const json_t *versions = json_object_get(summary, "versions");
    json_int_t counts[N_KINDS] = {0}, failed_runs = 0;
    json_t *o = json_object(), *verdicts = json_object();
    const char *overall;
    size_t i, k;

    if (!o || !verdicts) {
        json_decref(o);
        json_decref(verdicts);
        return NULL;
    }
    json_array_foreach(rows, i, row)
    {
        count_row(row, versions, gated, counts);
        failed_runs += (json_int_t)ju_num(json_object_get(row, "runs"), "failed", 0);
    }
    if (counts[0])
        overall = VERDICT_REGRESSED;
    else if (counts[5])
        overall = VERDICT_FAILED;
    else if (counts[3] || counts[4])
        overall = VERDICT_UNDECIDED;
    else if (counts[1])
        overall = VERDICT_IMPROVED;
    else
        overall = VERDICT_SAME;
    for (k = 0; k < N_KINDS; k++)
        json_object_set_new(verdicts, kinds[k], json_integer(counts[k]));
    json_object_set_new(o, "overall", json_string(overall));
    json_object_set_new(o, "rows", json_integer((json_int_t)json_array_size(rows)));
    json_object_set_new(o, "verdicts", verdicts);
    json_object_set_new(o, "failed_runs", json_integer(failed_runs));
    return o;
}
