/* arrival: the fixed-rate schedule (uniform spacing without drift, Poisson mean and
 * spread, phases), lateness bookkeeping and the kept/not-kept rule. */
#include <math.h>
#include <stdint.h>

#include "engine/arrival.h"
#include "t.h"

static void test_uniform(void)
{
    static const struct {
        double rate, phase;
        uint64_t start, due0, due1, due1000;
    } cases[] = {
        {1000, 0, 0, 0, 1000000, 1000000000},
        {1000, 0.5, 100, 500100, 1500100, 1000500100},
        {3, 0, 0, 0, 333333333, 333333333333},
        {100000, 0.25, 7, 2507, 12507, 10002507},
    };
    struct arrival a;
    size_t i;
    int k;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        arrival_init(&a, cases[i].start, cases[i].rate, 0, 1, cases[i].phase);
        CHECK_MSG(a.next_ns == cases[i].due0, "case %zu: first %llu", i,
                  (unsigned long long)a.next_ns);
        arrival_advance(&a);
        CHECK_MSG(a.next_ns == cases[i].due1, "case %zu: second %llu", i,
                  (unsigned long long)a.next_ns);
        for (k = 1; k < 1000; k++)
            arrival_advance(&a);
        /* computed from the index: no drift after many steps (within 1 ns of rounding) */
        CHECK_MSG(a.next_ns + 1 >= cases[i].due1000 && a.next_ns <= cases[i].due1000 + 1,
                  "case %zu: 1000th %llu", i, (unsigned long long)a.next_ns);
    }
    arrival_init(&a, 0, 10, 0, 1, 1.5); /* a phase out of range starts at the origin */
    CHECK(a.next_ns == 0);
}

static void test_poisson(void)
{
    static const double rates[] = {1000, 50000};
    struct arrival a;
    uint64_t prev, gap, n = 200000, i, over_mean = 0;
    double sum = 0, sum2 = 0, mean, sd, want;
    size_t r;

    for (r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
        want = 1e9 / rates[r];
        arrival_init(&a, 1000, rates[r], 1, 42 + r, 0);
        CHECK(a.next_ns >= 1000);
        sum = sum2 = 0;
        over_mean = 0;
        prev = a.next_ns;
        for (i = 0; i < n; i++) {
            arrival_advance(&a);
            CHECK(a.next_ns >= prev);
            gap = a.next_ns - prev;
            prev = a.next_ns;
            sum += (double)gap;
            sum2 += (double)gap * (double)gap;
            over_mean += (double)gap > want;
        }
        mean = sum / (double)n;
        sd = sqrt(sum2 / (double)n - mean * mean);
        /* exponential: mean = sd = 1/rate; P(gap > mean) = e^-1 */
        CHECK_MSG(fabs(mean / want - 1) < 0.01, "rate %g: mean gap %g, want %g", rates[r], mean,
                  want);
        CHECK_MSG(fabs(sd / want - 1) < 0.02, "rate %g: sd %g, want %g", rates[r], sd, want);
        CHECK_MSG(fabs((double)over_mean / (double)n - exp(-1.0)) < 0.01,
                  "rate %g: share over the mean %g", rates[r], (double)over_mean / (double)n);
    }
    /* the same seed gives the same schedule; another seed another one */
    {
        struct arrival b, c;
        arrival_init(&b, 0, 1000, 1, 7, 0);
        arrival_init(&c, 0, 1000, 1, 7, 0);
        for (i = 0; i < 10; i++) {
            arrival_advance(&b);
            arrival_advance(&c);
        }
        CHECK(b.next_ns == c.next_ns);
        arrival_init(&c, 0, 1000, 1, 8, 0);
        for (i = 0; i < 10; i++)
            arrival_advance(&c);
        CHECK(b.next_ns != c.next_ns);
    }
}

static void test_lag(void)
{
    static const struct {
        uint64_t due, now;
    } sends[] = {
        {1000, 900},                    /* early: on time, lag 0 */
        {2000, 2000},                   /* on time */
        {3000, 3000 + ARRIVAL_LATE_NS}, /* at the threshold: not late */
        {4000, 4001 + ARRIVAL_LATE_NS}, /* just past it: late */
        {5000, 5000 + 7000000},         /* 7 ms late */
    };
    struct arrival_lag l = {0}, m = {0};
    size_t i;

    for (i = 0; i < sizeof(sends) / sizeof(sends[0]); i++)
        arrival_note(&l, sends[i].due, sends[i].now);
    CHECK(l.sent == 5);
    CHECK(l.late == 2);
    CHECK(l.max_lag_ns == 7000000);
    m.sent = 10;
    m.late = 1;
    m.max_lag_ns = 9000000;
    arrival_lag_merge(&m, &l);
    CHECK(m.sent == 15 && m.late == 3 && m.max_lag_ns == 9000000);
}

static void test_kept(void)
{
    static const struct {
        double target, achieved;
        uint64_t sent, late;
        int kept;
    } cases[] = {
        {1000, 1000, 5000, 0, 1},           {1000, 990, 5000, 50, 1},
        {1000, 989.9, 5000, 0, 0},          {1000, 1000, 5000, 51, 0},
        {100000, 99500, 1000000, 10000, 1}, {100000, 100400, 1000000, 10001, 0},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        CHECK_MSG(arrival_kept(cases[i].target, cases[i].achieved, cases[i].sent, cases[i].late) ==
                      cases[i].kept,
                  "case %zu", i);
}

int main(void)
{
    test_uniform();
    test_poisson();
    test_lag();
    test_kept();
    return T_DONE();
}
