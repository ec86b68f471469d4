/* load_sweep: the groups and knees of a rate sweep (see load_sweep.h). */
#include "report/load_sweep.h"

#include <stdlib.h>

double load_row_percent(const json_t *row)
{
    const char *s = json_string_value(json_object_get(json_object_get(row, "params"), "rate"));
    char *end = NULL;
    double d;

    if (!s)
        return 0;
    d = strtod(s, &end);
    return end && *end == '%' ? d : 0;
}

int load_same_base(const json_t *a, const json_t *b)
{
    static const char *const drop[] = {"rate", "arrival", "warmup", "duration", "host", "port"};
    json_t *x = json_deep_copy(json_object_get(a, "params"));
    json_t *y = json_deep_copy(json_object_get(b, "params"));
    size_t i;
    int eq;

    for (i = 0; x && y && i < sizeof(drop) / sizeof(drop[0]); i++) {
        json_object_del(x, drop[i]);
        json_object_del(y, drop[i]);
    }
    eq = x && y && json_equal(x, y);
    json_decref(x);
    json_decref(y);
    return eq;
}

int load_group_first(const json_t *rows, size_t i)
{
    size_t j;

    if (load_row_percent(json_array_get(rows, i)) <= 0)
        return 0;
    for (j = 0; j < i; j++)
        if (load_row_percent(json_array_get(rows, j)) > 0 &&
            load_same_base(json_array_get(rows, j), json_array_get(rows, i)))
            return 0;
    return 1;
}

int load_median(const json_t *row, const char *metric, const char *ver, double *out)
{
    const json_t *v = json_object_get(
        json_object_get(
            json_object_get(json_object_get(json_object_get(row, "metrics"), metric), "values"),
            ver),
        "median");

    if (!json_is_number(v))
        return -1;
    *out = json_number_value(v);
    return 0;
}

double load_knee(const json_t *rows, size_t first, const char *ver)
{
    double best = 0;
    size_t i;

    for (i = first; i < json_array_size(rows); i++) {
        const json_t *row = json_array_get(rows, i);
        double pct = load_row_percent(row), p99 = 0;
        if (pct <= 0 || !load_same_base(json_array_get(rows, first), row))
            continue;
        if (load_median(row, "p99_us", ver, &p99) == 0 && p99 > LOAD_KNEE_US &&
            (best == 0 || pct < best))
            best = pct;
    }
    return best;
}
