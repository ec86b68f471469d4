/* cost_fold: folded stacks of a counted window, written to the output directory. */
#include "run/cost_fold.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cgfold.h"
#include "run/grid.h"
#include "run/runner.h"
#include "run/schedule.h"
#include "run/spec.h"

#include "util/jobs_util.h"

static int fold_file(struct cgfold *f, const char *path, char *why, size_t whylen)
{
    char e[600], *text;
    size_t len = 0;
    int rc;

    if (!(text = ju_read_file(path, (size_t)-1, &len, e, sizeof(e)))) {
        snprintf(why, whylen, "cannot read %s", e);
        return -1;
    }
    rc = cgfold_parse(f, text, len, path, why, whylen);
    free(text);
    return rc;
}

int cost_fold_write(const char *dump_dir, const json_t *files, const char *out_dir,
                    const char *config_id, const char *version, double ops, char *why,
                    size_t whylen)
{
    struct cgfold *f = cgfold_new();
    char path[4400];
    const char *name;
    json_t *v, *stacks = NULL;
    FILE *out = NULL;
    int rc = -1;

    if (!f || ops <= 0) {
        snprintf(why, whylen, "out of memory");
        goto out;
    }
    json_object_foreach((json_t *)files, name, v)
    {
        snprintf(path, sizeof(path), "%s/%s", dump_dir, name);
        if (fold_file(f, path, why, whylen) < 0)
            goto out;
    }
    /* paths under 0.05 instructions per operation are counted in their caller */
    if (!(stacks = cgfold_stacks(f, 1.0 / ops, 0.05))) {
        snprintf(why, whylen, "out of memory");
        goto out;
    }
    snprintf(path, sizeof(path), "%s/flame", out_dir);
    if (ju_mkdir_p(path, why, whylen) < 0)
        goto out;
    snprintf(path, sizeof(path), "%s/flame/%s.%s.folded", out_dir, config_id, version);
    if (!(out = fopen(path, "we")) || cgfold_write(stacks, out) < 0) {
        snprintf(why, whylen, "cannot write '%.300s': %s", path, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    if (out && fclose(out) != 0 && rc == 0) {
        snprintf(why, whylen, "cannot write '%.300s': %s", path, strerror(errno));
        rc = -1;
    }
    json_decref(stacks);
    cgfold_free(f);
    return rc;
}

/* The window's folded stacks (cost_fold.h): the dump files seen now and not before. */
int cost_fold_window(struct runner *r, const struct sched_run *sr, const char *dir,
                     const json_t *seen, const json_t *before, const json_t *result, char *reason,
                     size_t reasonlen)
{
    json_t *files = json_object(), *v;
    const char *k;
    char why[512];
    double ops = (double)json_integer_value(json_object_get(result, "ops"));
    int rc = 0;

    json_object_foreach((json_t *)seen, k, v) if (!json_object_get(before, k))
        json_object_set_new(files, k, json_true());
    if (ops > 0 && cost_fold_write(dir, files, r->out_dir, r->sp->configs[sr->config].id,
                                   r->sp->versions[sr->version].name, ops, why, sizeof(why)) < 0) {
        snprintf(reason, reasonlen, "instructions: call paths: %s", why);
        rc = 1;
    }
    json_decref(files);
    return rc;
}
