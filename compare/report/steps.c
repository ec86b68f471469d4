/* steps: a sequence run's rows in step order (see steps.h). */
#include "report/steps.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "analysis/summary.h"
#include "util/jobs_util.h"

int steps_find(const json_t *summary, const json_t *meta, struct steps *st)
{
    const json_t *rows = json_object_get(summary, "rows"), *cfg, *row;
    size_t i, j;

    memset(st, 0, sizeof(*st));
    if (!json_is_true(json_object_get(json_object_get(meta, "settings"), "sequence")) ||
        json_array_size(rows) == 0)
        return 0;
    st->row = calloc(json_array_size(rows), sizeof(*st->row));
    if (!st->row)
        return -1;
    /* meta.json's configurations are in index order: the order of the steps */
    json_array_foreach(json_object_get(meta, "configs"), i, cfg)
    {
        const char *id = ju_str(cfg, "id", "");
        json_array_foreach(rows, j, row) if (strcmp(ju_str(row, "config", ""), id) == 0)
        {
            st->row[st->n++] = j;
            break;
        }
    }
    return st->n > 0;
}

size_t steps_first_regressed(const struct steps *st, const json_t *rows, const char *metric,
                             const char *ver)
{
    size_t i;

    for (i = 0; i < st->n; i++) {
        const json_t *vs = summary_vs(json_array_get(rows, st->row[i]), metric, ver);
        if (strcmp(ju_str(vs, "verdict", ""), VERDICT_REGRESSED) == 0)
            return i + 1;
    }
    return 0;
}

void steps_release(struct steps *st)
{
    free(st->row);
    memset(st, 0, sizeof(*st));
}
