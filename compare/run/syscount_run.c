/* syscount_run: the counted rounds of system calls (see syscount_run.h). */
#include "run/syscount_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/dataset.h"
#include "run/schedule.h"
#include "syscount.h"

#include "util/jobs_util.h"
#include "util/redact.h"

static int bad(char *err, size_t errlen, const char *file, const char *key, const char *want)
{
    snprintf(err, errlen, "%s: $.syscalls%s%s: expected %s", file, key[0] ? "." : "", key, want);
    return -1;
}

int syscount_settings_parse(const json_t *j, int force, const char *file,
                            struct syscount_settings *ss, char *err, size_t errlen)
{
    const char *k;
    json_t *v;

    memset(ss, 0, sizeof(*ss));
    ss->runs = 3;
    if (json_is_boolean(j))
        ss->enabled = json_is_true(j);
    else if (json_is_object(j)) {
        ss->enabled = 1;
        json_object_foreach((json_t *)j, k, v)
        {
            if (strcmp(k, "enabled") == 0) {
                if (!json_is_boolean(v))
                    return bad(err, errlen, file, k, "true or false");
                ss->enabled = json_is_true(v);
            } else if (strcmp(k, "runs") == 0) {
                if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 100)
                    return bad(err, errlen, file, k, "an integer from 1 to 100 (rounds)");
                ss->runs = (unsigned)json_integer_value(v);
            } else {
                snprintf(err, errlen,
                         "%s: $.syscalls.%s: unknown key '%s' (expected enabled or runs)", file, k,
                         k);
                return -1;
            }
        }
    } else if (j) {
        return bad(err, errlen, file, "", "true, false or an object of settings");
    }
    if (force)
        ss->enabled = 1;
    return 0;
}

struct done_ctx {
    const struct spec *sp;
    const json_t *existing;
    const unsigned char *selected;
};

static int counted_done(void *ctx, size_t config, size_t version, unsigned round)
{
    const struct done_ctx *d = ctx;

    if (d->selected && !d->selected[config])
        return 1;
    return dataset_has_ok_line(d->existing, "syscalls", d->sp->configs[config].id,
                               d->sp->versions[version].name, round);
}

/* The counted line (kind "syscalls") made of a traced run's line. New reference. */
static json_t *counted_line(const json_t *run)
{
    const json_t *srv = json_object_get(run, "server"), *w = json_object_get(srv, "window");
    const json_t *counts = json_object_get(w, "syscalls");
    double ops = json_number_value(json_object_get(json_object_get(run, "result"), "ops"));
    const char *st = ju_str(run, "status", NULL);
    char reason[1200] = "";
    json_t *per = NULL;

    if (strcmp(st ? st : "", "ok") != 0)
        snprintf(reason, sizeof(reason), "syscalls: the traced run failed: %s",
                 ju_str(run, "reason", "unknown"));
    else if (!counts)
        snprintf(reason, sizeof(reason), "syscalls: version '%s': %s", ju_str(run, "version", NULL),
                 ju_str(w, "syscalls_error", NULL) ? ju_str(w, "syscalls_error", NULL)
                                                   : "the version starts no server to trace");
    else if (!(per = syscount_per_op(counts, ops)))
        snprintf(reason, sizeof(reason), "syscalls: no successful operations in the window");
    else /* the traced server's pace, for the slowdown the report states */
        json_object_set(per, "throughput_traced",
                        json_object_get(json_object_get(run, "result"), "throughput"));
    return json_pack("{s:O,s:O,s:O,s:s,s:O,s:O,s:O,s:O,s:O,s:s,s:o,s:n,s:o}", "version",
                     json_object_get(run, "version"), "config", json_object_get(run, "config"),
                     "label", json_object_get(run, "label"), "kind", "syscalls", "round",
                     json_object_get(run, "round"), "position", json_object_get(run, "position"),
                     "pid", json_object_get(srv, "pid") ? json_object_get(srv, "pid") : json_null(),
                     "started", json_object_get(run, "started"), "ended",
                     json_object_get(run, "ended"), "status", per ? "ok" : "failed", "reason",
                     per ? json_null() : json_string(reason), "result", "syscalls",
                     per ? per : json_null());
}

/* One counted round of sr: a traced run, its line. 0, or -1 (err set, or stopped). */
static int count_one(struct runner *r, const struct sched_run *sr, int fd, int *failed, char *err,
                     size_t errlen)
{
    json_t *run, *line;
    int rc = -1;

    r->trace_syscalls = 1;
    run = runner_run(r, sr, err, errlen);
    r->trace_syscalls = 0;
    json_decref(r->counted); /* instruction counters of a traced run: not a measurement */
    r->counted = NULL;
    if (!run)
        return -1;
    line = counted_line(run);
    json_decref(run);
    if (!line) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (strcmp(ju_str(line, "status", NULL), "ok") != 0) {
        char shown[2100];
        (*failed)++;
        fprintf(stderr, "compare: counted run failed: %s · %s · round %u: %s\n",
                r->sp->configs[sr->config].label, r->sp->versions[sr->version].name, sr->round,
                redact_show(ju_str(line, "reason", NULL), shown, sizeof(shown)));
    } else {
        fprintf(stderr, "compare: counted %s · %s · round %u: %.2f system calls/op\n",
                r->sp->configs[sr->config].label, r->sp->versions[sr->version].name, sr->round,
                json_number_value(json_object_get(json_object_get(line, "syscalls"), "per_op")));
    }
    if (dataset_append(fd, line, err, errlen) == 0)
        rc = 0;
    json_decref(line);
    return rc;
}

int syscount_schedule(struct runner *r, const struct syscount_settings *ss,
                      const unsigned char *selected, unsigned shard_k, unsigned shard_n,
                      const json_t *existing, int fd, char *err, size_t errlen)
{
    struct done_ctx d = {.sp = r->sp, .existing = existing, .selected = selected};
    struct sched_run *plan = NULL;
    size_t n, total, i;
    int failed = 0;

    if (!ss->enabled)
        return 0;
    n = sched_plan(r->sp->n_configs, r->sp->n_versions, ss->runs, shard_k, shard_n, counted_done,
                   &d, &plan, &total);
    if (n == (size_t)-1) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (n)
        fprintf(stderr,
                "compare: counting the servers' system calls with ptrace: %zu traced runs of "
                "their own\n",
                n);
    for (i = 0; i < n && !*r->stop; i++)
        if (count_one(r, &plan[i], fd, &failed, err, errlen) < 0) {
            failed = *r->stop ? failed : -1;
            break;
        }
    free(plan);
    return failed;
}
