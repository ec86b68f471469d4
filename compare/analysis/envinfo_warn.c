/* envinfo_warn: the environment facts that weaken a measurement (see envinfo_warn.h). */
#include "analysis/envinfo_warn.h"

#include <stdio.h>
#include <string.h>

#include "util/jobs_util.h"

/* The first element of a [1, 5, 15] array, or -1 when absent. */
static double first_load(const json_t *arr)
{
    const json_t *v = json_array_get(arr, 0);

    return json_is_number(v) ? json_number_value(v) : -1;
}

/* A loaded machine at `when` (1-minute load above half the logical CPUs) into *w. */
static int fact_load(const json_t *env, const char *key, int at_end, struct env_warning *w)
{
    double load = first_load(json_object_get(env, key));
    long cores = ju_int(env, "cores_logical", 0);
    size_t n;

    if (load < 0 || cores <= 0 || load <= 0.5 * (double)cores)
        return 0;
    memset(w, 0, sizeof(*w));
    w->kind = ENV_WARN_LOAD;
    w->at_end = at_end;
    w->load = load;
    w->cores = cores;
    /* 3.1, 1.05, 12 — two decimals at most, no trailing zeros */
    snprintf(w->load_text, sizeof(w->load_text), "%.2f", load);
    n = strlen(w->load_text);
    while (n > 0 && w->load_text[n - 1] == '0')
        w->load_text[--n] = '\0';
    if (n > 0 && w->load_text[n - 1] == '.')
        w->load_text[--n] = '\0';
    snprintf(w->text, sizeof(w->text), "the machine was loaded at %s: load average %s on %ld CPU%s",
             at_end ? "end" : "start", w->load_text, cores, cores == 1 ? "" : "s");
    return 1;
}

size_t envinfo_warning_facts(const json_t *env, struct env_warning *out, size_t max)
{
    const json_t *halt;
    const char *gov;
    size_t n = 0;

    if (!json_is_object(env) || max < ENV_MAX_WARNINGS)
        return 0;
    /* envinfo_collect() says "loadavg"; meta.json's environment says "loadavg_start" */
    n += (size_t)fact_load(env, json_object_get(env, "loadavg_start") ? "loadavg_start" : "loadavg",
                           0, &out[n]);
    n += (size_t)fact_load(env, "loadavg_end", 1, &out[n]);
    gov = json_string_value(json_object_get(env, "governor"));
    if (gov && *gov && strcmp(gov, "unknown") != 0 && strcmp(gov, "performance") != 0) {
        memset(&out[n], 0, sizeof(out[n]));
        out[n].kind = ENV_WARN_GOVERNOR;
        snprintf(out[n].governor, sizeof(out[n].governor), "%s", gov);
        snprintf(out[n].text, sizeof(out[n].text),
                 "CPU frequency governor is '%s', not 'performance'", out[n].governor);
        n++;
    }
    halt = json_object_get(env, "guest_halt_poll_ns");
    if (json_is_integer(halt) && json_integer_value(halt) == 0) {
        memset(&out[n], 0, sizeof(out[n]));
        out[n].kind = ENV_WARN_HALT_POLL;
        snprintf(out[n].text, sizeof(out[n].text),
                 "idle CPUs halt without polling first (cpuidle 'haltpoll', guest_halt_poll_ns "
                 "0): each wake-up is an exit to the host, which slows rows that wait on single "
                 "round trips");
        n++;
    }
    return n;
}

int envinfo_warnings(const json_t *env, json_t *warnings_array)
{
    struct env_warning w[ENV_MAX_WARNINGS];
    size_t i, n;
    int added = 0;

    if (!json_is_object(env) || !json_is_array(warnings_array))
        return -1;
    n = envinfo_warning_facts(env, w, ENV_MAX_WARNINGS);
    for (i = 0; i < n; i++)
        if (json_array_append_new(warnings_array, json_string(w[i].text)) == 0)
            added++;
    return added;
}
