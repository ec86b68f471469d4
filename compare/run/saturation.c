/* saturation: a rate sweep's closed-loop saturation rate (see saturation.h). */
#include "run/saturation.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run/grid.h"

/* The saturation runs are short: a rate to scale percentages by, not a result. */
#define SAT_WARMUP_S 0.5
#define SAT_DURATION_S 2.0

/* The configuration without its schedule and timing: what a saturation run runs. */
static json_t *closed_loop_params(const json_t *params)
{
    json_t *p = json_deep_copy(params);

    if (!p)
        return NULL;
    json_object_del(p, "rate");
    json_object_del(p, "arrival");
    json_object_del(p, "warmup");
    json_object_del(p, "duration");
    return p;
}

int saturation_key(const json_t *params, char id[9])
{
    json_t *p = closed_loop_params(params);
    int rc;

    if (!p)
        return -1;
    rc = grid_config_id(p, id);
    json_decref(p);
    return rc;
}

json_t *saturation_resolve(const struct runner *r, json_t *eff)
{
    double pct = grid_rate_percent(json_object_get(eff, "rate")), sat;
    char id[9];

    if (!eff || pct <= 0 || !r->saturation || saturation_key(eff, id) < 0)
        return eff;
    sat = json_number_value(json_object_get(json_object_get(r->saturation, id), "rate"));
    if (sat > 0) /* else left a string: the driver refuses it rather than run closed-loop */
        json_object_set_new(eff, "rate", json_real(fmax(1, round(sat * pct / 100))));
    return eff;
}

/* One closed-loop run of version v on configuration config's base; its throughput in
 * *tput. Returns 0, 1 interrupted, or -1 with err. */
static int measure_one(struct runner *r, size_t config, size_t v, double *tput, char *err,
                       size_t errlen)
{
    struct sched_run sr = {.config = config, .version = v, .round = 0, .position = 0};
    json_t *line = runner_run(r, &sr, err, errlen);
    const char *status;

    json_decref(r->counted);
    r->counted = NULL;
    if (!line)
        return err[0] ? -1 : 1;
    status = json_string_value(json_object_get(line, "status"));
    *tput = json_number_value(json_object_get(json_object_get(line, "result"), "throughput"));
    if (!status || strcmp(status, "ok") != 0 || *tput <= 0) {
        snprintf(err, errlen,
                 "%s: configuration '%s': the closed-loop run of version '%s' that measures the "
                 "saturation rate of its \"rate\" percentages failed: %s",
                 r->sp->path, r->sp->configs[config].label, r->sp->versions[v].name,
                 json_string_value(json_object_get(line, "reason"))
                     ? json_string_value(json_object_get(line, "reason"))
                     : "no throughput");
        json_decref(line);
        return -1;
    }
    json_decref(line);
    return 0;
}

/* Every version's closed-loop throughput on config's base into r->saturation[id]. */
static int measure_config(struct runner *r, size_t config, const char *id, char *err, size_t errlen)
{
    json_t *base = closed_loop_params(r->sp->configs[config].params);
    json_t *per = json_object(), *eff = runner_effective_config(r, config);
    double old_w = r->warmup_s, old_d = r->duration_s, lowest = 0, tput = 0;
    const struct counters_event *ev = r->count_event;
    int old_trace = r->trace_syscalls, rc = -1;
    size_t v;

    if (!base || !per || !eff) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    r->warmup_s = fmin(SAT_WARMUP_S, json_number_value(json_object_get(eff, "warmup")));
    r->duration_s = fmin(SAT_DURATION_S, json_number_value(json_object_get(eff, "duration")));
    r->count_event = NULL;
    r->trace_syscalls = 0;
    r->params_override = base;
    for (v = 0; v < r->sp->n_versions; v++) {
        rc = measure_one(r, config, v, &tput, err, errlen);
        if (rc != 0)
            goto out;
        json_object_set_new(per, r->sp->versions[v].name, json_real(tput));
        lowest = v == 0 ? tput : fmin(lowest, tput);
    }
    /* one offered rate for both versions: the slower one's saturation, so that every
     * percentage up to 100% is a rate each version can keep (docs/formats.md#rate-sweep) */
    rc = json_object_set_new(r->saturation, id,
                             json_pack("{s:f,s:s,s:O,s:f,s:f}", "rate", lowest, "from",
                                       "slower version", "closed_loop", per, "warmup", r->warmup_s,
                                       "duration", r->duration_s)) < 0
             ? -1
             : 0;
    if (rc < 0)
        snprintf(err, errlen, "out of memory");
out:
    r->params_override = NULL;
    r->warmup_s = old_w;
    r->duration_s = old_d;
    r->count_event = ev;
    r->trace_syscalls = old_trace;
    json_decref(base);
    json_decref(per);
    json_decref(eff);
    return rc;
}

int saturation_measure(struct runner *r, const unsigned char *selected, const json_t *known,
                       char *err, size_t errlen)
{
    size_t i;
    char id[9];
    int rc;

    for (i = 0; i < r->sp->n_configs; i++) {
        json_t *k;
        if (!selected[i] ||
            grid_rate_percent(json_object_get(r->sp->configs[i].params, "rate")) <= 0)
            continue;
        if (!r->saturation && !(r->saturation = json_object())) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (saturation_key(r->sp->configs[i].params, id) < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (json_object_get(r->saturation, id))
            continue;
        k = json_object_get(known, id);
        if (json_number_value(json_object_get(k, "rate")) > 0) {
            json_object_set(r->saturation, id, k);
            continue;
        }
        rc = measure_config(r, i, id, err, errlen);
        if (rc != 0)
            return rc;
    }
    return 0;
}
