/* Change-point detection (E-divisive means + permutation test) on synthetic series with known
 * answers: a step found at its index, no step in pure noise, a slow drift classified as drift,
 * single outliers not taken for steps. Noise comes from a fixed-seed generator. */
#include <math.h>
#include <stdint.h>

#include "analysis/changepoint.h"
#include "t.h"

static uint64_t t_rng;

static double uniform01(void)
{
    uint64_t z = (t_rng += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
    return sqrt(-2.0 * log(uniform01())) * cos(6.283185307179586 * uniform01());
}

/* level 100 with 1% noise; step_at > 0 changes the level to 100 * (1 + step) from there. */
static void make_series(double *x, size_t n, size_t step_at, double step, double drift_per_pt)
{
    size_t i;

    for (i = 0; i < n; i++) {
        double level = 100.0 * (1 + (step_at && i >= step_at ? step : 0)) + drift_per_pt * i;

        x[i] = level + gauss();
    }
}

static size_t window_lo(size_t tau)
{
    return tau > 10 ? tau - 10 : 0;
}

static size_t window_hi(size_t tau, size_t n)
{
    return tau + 10 < n ? tau + 10 : n;
}

static double rel_change(const struct cp_change *c)
{
    return fabs(c->after / c->before - 1);
}

static void test_known_steps(void)
{
    static const struct {
        size_t n, at;
        double step;
    } cases[] = {
        {30, 15, -0.10}, {30, 20, 0.08}, {40, 10, -0.05}, {24, 21, -0.10}, {60, 30, 0.05},
    };
    size_t c;

    for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        double x[64];
        struct cp_options o;
        struct cp_result r;
        size_t k, found = 0;

        t_rng = 1000 + c;
        make_series(x, cases[c].n, cases[c].at, cases[c].step, 0);
        cp_options_default(&o);
        CHECK(cp_detect(x, cases[c].n, &o, &r) == 0);
        CHECK_MSG(r.n_changes >= 1, "case %zu: no change found", c);
        for (k = 0; k < r.n_changes; k++)
            if (r.changes[k].index == cases[c].at) {
                found = 1;
                CHECK(r.changes[k].p <= 0.05);
                CHECK(cp_is_step(x, window_lo(r.changes[k].index), r.changes[k].index,
                                 window_hi(r.changes[k].index, cases[c].n)));
                CHECK((r.changes[k].after < r.changes[k].before) == (cases[c].step < 0));
            }
        CHECK_MSG(found, "case %zu: step at %zu not found (%zu changes, first at %zu)", c,
                  cases[c].at, r.n_changes, r.n_changes ? r.changes[0].index : 0);
        for (k = 0; k < r.n_changes; k++)
            if (r.changes[k].index != cases[c].at)
                CHECK_MSG(rel_change(&r.changes[k]) < 0.02, "case %zu: extra change at %zu", c,
                          r.changes[k].index);
    }
}

/* Pure noise: the permutation test keeps false alarms near alpha; any change found is tiny
 * (drift.c only reports changes beyond the metric's threshold, so nightly noise never shows). */
static void test_no_step(void)
{
    unsigned seed, with_change = 0, seeds = 100;

    for (seed = 0; seed < seeds; seed++) {
        double x[30];
        struct cp_options o;
        struct cp_result r;
        size_t k;

        t_rng = 77 + seed;
        make_series(x, 30, 0, 0, 0);
        cp_options_default(&o);
        o.seed = seed;
        CHECK(cp_detect(x, 30, &o, &r) == 0);
        if (r.n_changes)
            with_change++;
        for (k = 0; k < r.n_changes; k++)
            CHECK_MSG(rel_change(&r.changes[k]) < 0.02, "seed %u: noise change of %.3f", seed,
                      rel_change(&r.changes[k]));
    }
    CHECK_MSG(with_change <= seeds / 10, "%u of %u noise series had a change point", with_change,
              seeds);
}

/* A slow drift (-0.4% a night over 30 nights, 1% noise) is cut into several change points;
 * cp_is_step classifies them as drift. Noise can make one boundary look like a real jump, so
 * at most 2 of 20 series may have one change classified as a step (docs/drift.md). */
static void test_slow_drift(void)
{
    unsigned seed, steps = 0, with_change = 0;

    for (seed = 0; seed < 20; seed++) {
        double x[30];
        struct cp_result r;
        size_t k;

        t_rng = 500 + seed;
        make_series(x, 30, 0, 0, -0.4);
        CHECK(cp_detect(x, 30, NULL, &r) == 0);
        if (r.n_changes)
            with_change++;
        for (k = 0; k < r.n_changes; k++)
            if (cp_is_step(x, window_lo(r.changes[k].index), r.changes[k].index,
                           window_hi(r.changes[k].index, 30)))
                steps++;
    }
    CHECK_MSG(with_change >= 18, "only %u of 20 drifting series changed", with_change);
    CHECK_MSG(steps <= 2, "%u changes of drifting series taken for steps", steps);
}

/* Single outliers (one night 15% low) anywhere, including the newest night: no change whose
 * segment medians differ by more than 2% (what drift.c reports); raw change points stay rare. */
static void test_outliers(void)
{
    static const size_t where[] = {5, 14, 22, 29};
    size_t w;

    for (w = 0; w < sizeof(where) / sizeof(where[0]); w++) {
        unsigned seed, bad = 0;

        for (seed = 0; seed < 20; seed++) {
            double x[30];
            struct cp_options o;
            struct cp_result r;
            size_t k;

            t_rng = 900 + seed;
            make_series(x, 30, 0, 0, 0);
            x[where[w]] *= 0.85;
            cp_options_default(&o);
            o.seed = seed;
            CHECK(cp_detect(x, 30, &o, &r) == 0);
            if (r.n_changes)
                bad++;
            for (k = 0; k < r.n_changes; k++)
                CHECK_MSG(rel_change(&r.changes[k]) < 0.03, "outlier at %zu: change of %.3f",
                          where[w], rel_change(&r.changes[k]));
        }
        CHECK_MSG(bad <= 5, "outlier at %zu: %u of 20 series had a change point", where[w], bad);
    }
}

static void test_small_and_edges(void)
{
    double x[8] = {1, 1, 1, 1, 5, 5, 5, 5}, flat[10] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    struct cp_result r;

    CHECK(cp_detect(x, 5, NULL, &r) == 0 && r.n_changes == 0); /* shorter than 2 segments */
    CHECK(cp_detect(flat, 10, NULL, &r) == 0 && r.n_changes == 0);
    CHECK(cp_energy_at(x, 8, 4) > cp_energy_at(x, 8, 3));
    CHECK(cp_energy_at(x, 8, 4) > cp_energy_at(x, 8, 5));
    /* Known answer: two groups {1,1,1,1} {5,5,5,5}: E = 2*4 - 0 - 0 = 8, Q = 4*4/8 * 8 = 16. */
    CHECK(fabs(cp_energy_at(x, 8, 4) - 16.0) < 1e-12);
    CHECK(cp_median(x, 8) == 3.0);
    CHECK(cp_median(x, 5) == 1.0);
    CHECK(cp_is_step(x, 0, 4, 8) == 1);
}

static void test_deterministic(void)
{
    double x[30];
    struct cp_result a, b;

    t_rng = 4242;
    make_series(x, 30, 18, -0.03, 0);
    CHECK(cp_detect(x, 30, NULL, &a) == 0);
    CHECK(cp_detect(x, 30, NULL, &b) == 0);
    CHECK(a.n_changes == b.n_changes);
    CHECK(memcmp(&a, &b, sizeof(a)) == 0);
}

int main(void)
{
    test_known_steps();
    test_no_step();
    test_slow_drift();
    test_outliers();
    test_small_and_edges();
    test_deterministic();
    return T_DONE();
}
