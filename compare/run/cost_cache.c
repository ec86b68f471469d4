/* cost_cache: estimated cycles from the cache simulation's events (see cost_cache.h). */
#include "run/cost_cache.h"

#include <stdio.h>

int cost_cache_settings(struct cost_settings *cs, const json_t *j, int force, const char *file,
                        char *err, size_t errlen)
{
    if (j && !json_is_boolean(j)) {
        snprintf(err, errlen, "%s: $.cache_sim: expected true or false", file);
        return -1;
    }
    cs->cache_sim = force || json_is_true(j);
    if (!cs->cache_sim)
        return 0;
    if (cs->source == COST_SOURCE_COUNTERS) {
        snprintf(err, errlen,
                 "%s: $.instructions.source: \"counters\" with cache_sim (--cache-sim): "
                 "expected \"valgrind\" or \"auto\" (the cache is simulated by callgrind)",
                 file);
        return -1;
    }
    cs->enabled = 1;
    cs->source = COST_SOURCE_VALGRIND;
    return 0;
}

/* The window's count of event e less the idle phase's scaled, per operation (not below 0). */
static double per_op(const struct cgprof *idle, const struct cgprof *win, int e, double scale,
                     double ops)
{
    double v = (double)cgprof_event_total(win, e) - (double)cgprof_event_total(idle, e) * scale;

    return v > 0 ? v / ops : 0;
}

void cost_cache_add(json_t *inst, const struct cgprof *idle, const struct cgprof *win,
                    double idle_scale, double ops, double win_s)
{
    double ev[CGPROF_N_EVENTS], acc, l1m, llm, l1h, llh, cycles;
    json_t *o, *parts;
    int e;

    if (!inst || ops <= 0)
        return;
    for (e = 0; e < CGPROF_N_EVENTS; e++) {
        if (!cgprof_has_event(win, e))
            return; /* no cache simulation in these profiles */
        ev[e] = per_op(idle, win, e, idle_scale, ops);
    }
    acc = ev[CGPROF_IR] + ev[CGPROF_DR] + ev[CGPROF_DW];
    l1m = ev[CGPROF_I1MR] + ev[CGPROF_D1MR] + ev[CGPROF_D1MW];
    llm = ev[CGPROF_ILMR] + ev[CGPROF_DLMR] + ev[CGPROF_DLMW];
    /* every last-level miss missed L1 first; the idle phase's subtraction, made event by event,
     * can leave fewer L1 misses than LL ones (a window of a few hundred requests: 0.015 and
     * 0.0175 per operation), so the LL misses are held to the L1 misses */
    if (llm > l1m)
        llm = l1m;
    l1h = acc > l1m ? acc - l1m : 0;
    llh = l1m > llm ? l1m - llm : 0;
    cycles = l1h + COST_CACHE_LL_WEIGHT * llh + COST_CACHE_RAM_WEIGHT * llm;
    parts = json_pack("{s:f,s:f,s:f,s:f,s:f}", "L1 hits", l1h, "5 × LL hits",
                      COST_CACHE_LL_WEIGHT * llh, "35 × RAM accesses", COST_CACHE_RAM_WEIGHT * llm,
                      "L1 misses", l1m, "LL misses", llm);
    o = json_pack("{s:f,s:f,s:f,s:f,s:s,s:f,s:o}", "per_op", cycles, "l1_misses_per_op", l1m,
                  "ll_misses_per_op", llm, "accesses_per_op", acc, "formula",
                  "L1 hits + 5 × LL hits + 35 × RAM accesses", "throughput_traced",
                  win_s > 0 ? ops / win_s : 0, "by_part", parts);
    if (o)
        json_object_set_new(inst, "(estimated_cycles)", o);
}

void cost_cache_lift(json_t *line)
{
    json_t *fns = json_object_get(json_object_get(line, "instructions"), "functions");
    json_t *ec = json_object_get(fns, "(estimated_cycles)");

    if (!ec)
        return;
    json_object_set(line, "estimated_cycles", ec);
    json_object_del(fns, "(estimated_cycles)");
}
