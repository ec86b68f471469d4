/* disturb: rounds left out of a row's verdict (see disturb.h). */
#include "analysis/disturb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/interference_rule.h"
#include "analysis/stats.h"

#include "util/jobs_util.h"

/* The median throughput of version vi's runs in the row (0 when none). */
static double tput_median(const json_t *const *cells, size_t vi, size_t nr)
{
    double v[256];
    struct stats_range rg;
    size_t r, n = 0;

    for (r = 0; r < nr && n < 256; r++)
        if (cells[vi * nr + r])
            v[n++] = ju_num(json_object_get(cells[vi * nr + r], "result"), "throughput", 0);
    return n && stats_range(v, n, &rg) == 0 ? rg.median : 0;
}

static void note_source(json_t *row, const json_t *run, int *seen)
{
    const char *src =
        ju_str(json_object_get(json_object_get(run, "server"), "window"), "source", NULL);
    int bit = !src ? 0 : strcmp(src, "marks") == 0 ? 1 : 2;

    *seen |= bit;
    if (*seen)
        json_object_set_new(row, "server_window",
                            json_pack("{s:s}", "source",
                                      *seen == 1   ? "marks"
                                      : *seen == 2 ? "process"
                                                   : "mixed"));
}

void disturb_row(json_t *row, const json_t *const *cells, const json_t *versions, size_t nr,
                 unsigned char *exclude)
{
    size_t nv = json_array_size(versions), vi, r, clean = 0;
    json_t *dist = json_array(), *outl = json_array(), *excl = json_array(), *o;
    unsigned char *disturbed = calloc(nr ? nr : 1, 1), *outlier = calloc(nr ? nr : 1, 1);
    int seen = 0, any = 0;

    memset(exclude, 0, nr);
    if (!disturbed || !outlier)
        goto out;
    for (vi = 0; vi < nv; vi++) {
        double med = tput_median(cells, vi, nr);
        size_t n_runs = 0, n_far = 0;
        int set_aside;

        for (r = 0; r < nr; r++)
            if (cells[vi * nr + r]) {
                n_runs++;
                n_far += interference_is_outlier(
                    ju_num(json_object_get(cells[vi * nr + r], "result"), "throughput", 0), med);
            }
        /* an outlier is the odd impossible run; when more than one run in three is that far
         * from the median, the version's runs fall in two groups, and both are measurements */
        set_aside = n_far * 3 <= n_runs;
        for (r = 0; r < nr; r++) {
            const json_t *run = cells[vi * nr + r], *in;
            double t;

            if (!run)
                continue;
            note_source(row, run, &seen);
            in = json_object_get(run, "interference");
            any |= in != NULL;
            t = ju_num(json_object_get(run, "result"), "throughput", 0);
            if (json_is_true(json_object_get(in, "disturbed")))
                disturbed[r] = 1;
            if (interference_is_outlier(t, med)) {
                outlier[r] |= (unsigned char)set_aside;
                json_array_append_new(outl, json_pack("{s:O, s:I, s:f, s:f, s:b}", "version",
                                                      json_array_get(versions, vi), "round",
                                                      (json_int_t)r + 1, "throughput", t, "median",
                                                      med, "excluded", set_aside));
            }
        }
    }
    for (r = 0; r < nr; r++) {
        int present = 0;

        for (vi = 0; vi < nv; vi++)
            present |= cells[vi * nr + r] != NULL;
        if (present && !disturbed[r] && !outlier[r])
            clean++;
    }
    for (r = 0; r < nr; r++)
        exclude[r] = outlier[r] || (disturbed[r] && clean >= DISTURB_MIN_CLEAN);
    for (vi = 0; vi < nv; vi++)
        for (r = 0; r < nr; r++) {
            const json_t *run = cells[vi * nr + r];
            const json_t *in = json_object_get(run, "interference"), *host;

            if (!run || !json_is_true(json_object_get(in, "disturbed")))
                continue;
            /* the most of either machine when the server runs on its own host: either could
             * have slowed the run */
            host = json_object_get(in, "host");
            json_array_append_new(
                dist,
                json_pack(
                    "{s:O, s:I, s:f, s:f, s:I, s:b}", "version", json_array_get(versions, vi),
                    "round", (json_int_t)r + 1, "other_cpu_cores",
                    fmax(ju_num(in, "other_cpu_cores", 0), ju_num(host, "other_cpu_cores", 0)),
                    "steal_pct", fmax(ju_num(in, "steal_pct", 0), ju_num(host, "steal_pct", 0)),
                    "nivcsw", (json_int_t)ju_num(in, "nivcsw", 0), "excluded", exclude[r]));
            if (json_is_string(json_object_get(in, "where")))
                json_object_set(json_array_get(dist, json_array_size(dist) - 1), "where",
                                json_object_get(in, "where"));
        }
    for (r = 0; r < nr; r++)
        if (exclude[r])
            json_array_append_new(excl, json_integer((json_int_t)r + 1));
out:
    o = json_pack("{s:o, s:o, s:I, s:o}", "disturbed", dist, "outliers", outl, "clean_rounds",
                  (json_int_t)clean, "excluded_rounds", excl);
    if (o && (any || json_array_size(outl)))
        json_object_set_new(row, "interference", o);
    else
        json_decref(o);
    free(disturbed);
    free(outlier);
}
