/* cost_driver: what the counted-cost channel counts (cost_resolve) and the driver counted under
 * valgrind when the versions differ only in their driver (see cost_int.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/cost_int.h"
#include "util/words.h"

#define TOP_FUNCTIONS 150

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Every version has the same server commands (and has some), and the drivers differ. */
static int driver_only(const struct spec *sp)
{
    size_t i;
    int differ = 0;

    if (sp->n_versions < 2 || !sp->versions[0].server)
        return 0;
    for (i = 1; i < sp->n_versions; i++) {
        const struct spec_version *a = &sp->versions[0], *b = &sp->versions[i];
        if (!b->server || !json_equal(a->server, b->server))
            return 0;
        if (!same_str(a->driver, b->driver))
            differ = 1;
    }
    return differ;
}

int cost_resolve(struct cost_settings *cs, const struct spec *sp, char *err, size_t errlen)
{
    char why[512];

    cs->use_counters = cs->count_driver = 0;
    if (!cs->enabled)
        return 0;
    if (counters_event_pick(&cs->ev, err, errlen) < 0)
        return -1;
    if (driver_only(sp)) {
        cs->count_driver = 1;
        fprintf(stderr, "compare: instructions: the versions differ only in their driver: "
                        "counting the driver under valgrind\n");
        return 0;
    }
    if (sp->has_server_host && cs->source == COST_SOURCE_COUNTERS) {
        snprintf(err, errlen,
                 "%s: $.instructions.source: \"counters\" is not supported with a server host "
                 "(the counters would be this machine's, the server runs on '%s'; expected "
                 "\"auto\" or \"valgrind\")",
                 sp->path, sp->server_host.host);
        return -1;
    }
    if (sp->has_server_host) {
        fprintf(stderr, "compare: instructions: the servers run on the server host: counting "
                        "them there under valgrind\n");
        return 0;
    }
    if (cs->source == COST_SOURCE_VALGRIND) {
        fprintf(stderr, "compare: instructions: \"source\": \"valgrind\": counting the server "
                        "under valgrind\n");
        return 0;
    }
    if (counters_probe(&cs->ev, why, sizeof(why))) {
        cs->use_counters = 1;
        fprintf(stderr,
                "compare: instructions: counting the server's %s with perf_event_open during "
                "the timed runs\n",
                cs->ev.name);
        return 0;
    }
    if (cs->source == COST_SOURCE_COUNTERS) {
        snprintf(err, errlen,
                 "%s: $.instructions.source: \"counters\", but %s (expected \"auto\" or "
                 "\"valgrind\" on this machine)",
                 sp->path, why);
        return -1;
    }
    fprintf(stderr, "compare: instructions: %s; counting under valgrind\n", why);
    return 0;
}

/* The figures of the driver's two counted runs (b of 2n operations, a of n). New reference. */
static json_t *driver_figures(const struct cgprof *a, const struct cgprof *b, unsigned n,
                              const char *vg)
{
    double d = (double)cgprof_total(b) - (double)cgprof_total(a), listed = 0;
    json_t *fa = cgprof_functions_json(a, 0), *fb = cgprof_functions_json(b, TOP_FUNCTIONS);
    json_t *per = json_object(), *v;
    const char *k;

    json_object_foreach(fb, k, v)
    {
        double x;
        if (strcmp(k, "(other)") == 0)
            continue;
        x = (double)(json_integer_value(v) - json_integer_value(json_object_get(fa, k))) / n;
        if (x == 0)
            continue; /* start-up code, the same in both runs */
        json_object_set_new(per, k, json_real(x));
        listed += x;
    }
    json_object_set_new(per, "(other)", json_real(d / n - listed));
    json_decref(fa);
    json_decref(fb);
    return json_pack("{s:f,s:I,s:I,s:I,s:[I,I],s:s,s:s,s:o}", "per_op", d / n, "processes",
                     (json_int_t)1, "window_instructions", (json_int_t)d, "ops", (json_int_t)n,
                     "requests", (json_int_t)n, (json_int_t)2 * n, "source", vg, "counted",
                     "driver", "functions", per);
}

/* One driver run of `requests` under valgrind, its profile parsed into p. drive()'s codes. */
static int counted_drive(struct runner *r, const struct sched_run *sr, const json_t *eff,
                         unsigned requests, char *const *wrap, const char *dir, json_t *seen,
                         struct cgprof *p, char *reason, size_t reasonlen, char *err, size_t errlen)
{
    char cfg_path[4400], log[4400];
    json_t *result = NULL;
    int rc;

    snprintf(cfg_path, sizeof(cfg_path), "%s/config.json", dir);
    snprintf(log, sizeof(log), "%s/driver.log", dir);
    rc = cost_drive(r, sr->version, eff, requests, wrap, cfg_path, log, &result, reason, reasonlen,
                    err, errlen);
    json_decref(result);
    if (rc == 0 && wrap && cost_parse_dumps(dir, seen, p, reason, reasonlen) < 0)
        rc = 1;
    return rc;
}

int cost_count_driver(struct runner *r, const struct sched_run *sr, const struct cost_settings *cs,
                      const json_t *eff, const char *dir, const char *vg, json_t **inst,
                      char *reason, size_t reasonlen, char *err, size_t errlen)
{
    struct cgprof *a = cgprof_new(), *b = cgprof_new();
    json_t *seen = json_object();
    char **wrap = NULL, **owned = NULL;
    unsigned n = cs->requests;
    int rc = -1;

    if (!a || !b || !seen || !(wrap = cost_valgrind_wrap(cs, dir, "cg.%p.d", &owned))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    rc = 0;
    if (cs->warmup_requests) /* the server's caches and allocations settled, as in the timed runs */
        rc = counted_drive(r, sr, eff, cs->warmup_requests, NULL, dir, seen, a, reason, reasonlen,
                           err, errlen);
    if (rc == 0)
        rc = counted_drive(r, sr, eff, n, wrap, dir, seen, a, reason, reasonlen, err, errlen);
    if (rc == 0)
        rc = counted_drive(r, sr, eff, 2 * n, wrap, dir, seen, b, reason, reasonlen, err, errlen);
    if (rc == 0 && (cgprof_files(a) == 0 || cgprof_total(b) <= cgprof_total(a))) {
        snprintf(reason, reasonlen,
                 "valgrind counted %llu driver instructions for %u requests and %llu for %u "
                 "(expected more for more requests)",
                 (unsigned long long)cgprof_total(a), n, (unsigned long long)cgprof_total(b),
                 2 * n);
        rc = 1;
    }
    if (rc == 0 && !(*inst = driver_figures(a, b, n, vg))) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
out:
    free(wrap);
    words_free(owned);
    json_decref(seen);
    cgprof_free(a);
    cgprof_free(b);
    return rc;
}
