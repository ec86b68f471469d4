/* resume: the continued run directory's meta.json, checked and carried (see resume.h). */
#include "run/resume.h"

#include <limits.h>
#include <stdio.h>

#include "run/metacmp.h"
#include "run/spec.h"

#include "util/jobs_util.h"

int resume_check(const char *dir, const json_t *meta, json_t **old, char *err, size_t errlen)
{
    char path[PATH_MAX], what[512], why[PATH_MAX + 128];

    *old = NULL;
    snprintf(path, sizeof(path), "%s/meta.json", dir);
    *old = ju_load_json(path, why, sizeof(why));
    if (!*old) /* no readable meta.json (resume.h) */
        return 0;
    if (metacmp_diff(*old, meta, what, sizeof(what))) {
        snprintf(err, errlen,
                 "--resume: '%s' holds runs of a different measurement: its %s (expected the "
                 "spec, grids, warm-up, duration and run count it started with; or choose "
                 "another --out)",
                 dir, what);
        json_decref(*old);
        *old = NULL;
        return -1;
    }
    return 0;
}

void resume_carry(json_t *meta, const json_t *old)
{
    json_t *resumed = json_array(), *prev = json_object_get(old, "resumed");

    if (json_is_array(prev))
        json_array_extend(resumed, prev);
    json_array_append(resumed, json_object_get(meta, "started"));
    if (json_object_get(old, "started"))
        json_object_set(meta, "started", json_object_get(old, "started"));
    if (json_object_get(old, "command_line"))
        json_object_set(meta, "command_line", json_object_get(old, "command_line"));
    json_object_set_new(meta, "resumed", resumed);
}

void resume_warn_stray(json_t *meta, const json_t *existing, const struct spec *sp,
                       const unsigned char *selected)
{
    json_t *configs = json_object(), *versions = json_object(), *line;
    size_t i, stray = 0;

    for (i = 0; i < sp->n_configs; i++)
        if (selected[i])
            json_object_set_new(configs, sp->configs[i].id, json_true());
    for (i = 0; i < sp->n_versions; i++)
        json_object_set_new(versions, sp->versions[i].name, json_true());
    json_array_foreach(existing, i, line)
    {
        const char *c = json_string_value(json_object_get(line, "config"));
        const char *v = json_string_value(json_object_get(line, "version"));
        stray += !(c && v && json_object_get(configs, c) && json_object_get(versions, v));
    }
    if (stray) {
        char w[256];
        snprintf(w, sizeof(w),
                 "runs.jsonl holds %zu runs of configurations or versions "
                 "this spec does not have (was the spec changed since the run started?)",
                 stray);
        json_array_append_new(json_object_get(meta, "warnings"), json_string(w));
    }
    json_decref(configs);
    json_decref(versions);
}
