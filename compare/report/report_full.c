/* report_full: what the report writers share about the full cost (see report_full.h). */
#include "report/report_full.h"

#include <math.h>
#include <string.h>

#include "analysis/metrics.h"
#include "analysis/summary.h"

#include "util/fmt.h"
#include "util/jobs_util.h"

const struct report_full_metric report_full_metrics[REPORT_FULL_N] = {
    {"syscalls", F_LIM_SYSCALLS, "by_name", F_UNIT_SYSCALLS, NULL},
    {"allocations", F_LIM_ALLOCS, "functions", F_UNIT_ALLOCS, NULL},
    {"estimated_cycles", F_LIM_CYCLES, "by_part", W_UNIT_PER_OP, "estimated_cycles"},
    {"context_switches", F_LIM_CTXSW, NULL, W_UNIT_PER_OP, NULL},
    {"page_faults", F_LIM_FAULTS, NULL, W_UNIT_PER_OP, NULL},
    {"cpu_migrations", F_LIM_MIGR, NULL, W_UNIT_PER_OP, NULL},
};

int report_full_has(const json_t *rows, const char *key)
{
    const json_t *row;
    size_t i;

    json_array_foreach(rows, i, row)
    {
        if (summary_metric(row, key))
            return 1;
    }
    return 0;
}

int report_full_nil(const json_t *rows, const char *key)
{
    const json_t *row, *v;
    const char *ver;
    size_t i;

    json_array_foreach(rows, i, row)
    {
        json_object_foreach((json_t *)json_object_get(summary_metric(row, key), "values"), ver, v)
        {
            if (!(ju_num(v, "max", 1) < 0.0005))
                return 0;
        }
    }
    return 1;
}

int report_full_same(const json_t *rows, const char *key, double *lo, double *hi)
{
    const json_t *row, *x;
    const char *ver;
    size_t i;
    int compared = 0;

    *lo = INFINITY;
    *hi = -INFINITY;
    json_array_foreach(rows, i, row)
    {
        const json_t *metric = summary_metric(row, key);

        json_object_foreach((json_t *)json_object_get(metric, "vs_baseline"), ver, x)
        {
            if (!json_is_string(json_object_get(x, "verdict")) ||
                strcmp(json_string_value(json_object_get(x, "verdict")), "~") != 0)
                return 0;
            compared = 1;
        }
        json_object_foreach((json_t *)json_object_get(metric, "values"), ver, x)
        {
            *lo = fmin(*lo, ju_num(x, "min", INFINITY));
            *hi = fmax(*hi, ju_num(x, "max", -INFINITY));
        }
    }
    return compared && *lo <= *hi;
}

char *report_full_collapsed(const json_t *rows, const struct report_full_metric *fm,
                            const char *lang)
{
    const struct metric_def *d = metric_def_by_key(fm->key);
    const char *title = strcmp(lang, "zh") == 0 ? d->title_zh : d->title_en;
    char lo_s[48], hi_s[48];
    double lo, hi;

    if (report_full_nil(rows, fm->key))
        return i18n_fill(i18n(lang, F_NONE), title, (const char *)NULL);
    if (report_full_same(rows, fm->key, &lo, &hi))
        return i18n_fill(i18n(lang, F_SAME), title, fmt_fixed(lo, 3, lo_s, sizeof(lo_s)),
                         fmt_fixed(hi, 3, hi_s, sizeof(hi_s)), (const char *)NULL);
    return NULL;
}

int report_full_any(const json_t *rows)
{
    int k;

    for (k = 0; k < REPORT_FULL_N; k++)
        if (report_full_has(rows, report_full_metrics[k].key))
            return 1;
    return 0;
}

double report_full_slowdown(const json_t *rows, const char *base)
{
    return report_full_slowdown_of(rows, base, "syscalls");
}

double report_full_slowdown_for(const json_t *rows, const char *base,
                                const struct report_full_metric *fm, double traced)
{
    return fm->slow ? report_full_slowdown_of(rows, base, fm->slow) : traced;
}

double report_full_slowdown_of(const json_t *rows, const char *base, const char *key)
{
    const json_t *row;
    size_t i;

    json_array_foreach(rows, i, row)
    {
        double t = ju_num(
            json_object_get(json_object_get(summary_metric(row, "throughput"), "values"), base),
            "median", 0);
        double k = ju_num(summary_metric(row, key), "throughput_counted", 0);

        if (t > 0 && k > 0)
            return t / k;
    }
    return 0;
}

size_t report_full_where(const json_t *l, const json_t **out, size_t max)
{
    const json_t *it;
    size_t k, n = 0;

    json_array_foreach(l, k, it)
    {
        if (n >= max || (k && fabs(ju_num(it, "delta", 0)) < 0.005))
            break; /* the list is by |delta|: the rest did not change */
        if (strncmp(ju_str(it, "name", ""), "unknown (", 9) != 0)
            out[n++] = it;
    }
    return n;
}
