/* The moderated t-test (analysis/moderate.c) against known answers: Student's t tails and
 * quantiles from tables, digamma and trigamma at known points, the evidence of paired and
 * unpaired samples, the prior of rows that agree and of rows far apart, the interval of a
 * clear change, and the runs a side that would decide. */
#include <math.h>

#include "analysis/moderate.h"
#include "t.h"

static void test_t(void)
{
    CHECK(fabs(mod_t_tail(2.776445, 4) - 0.025) < 1e-5);
    CHECK(fabs(mod_t_tail(12.7062, 1) - 0.025) < 1e-5);
    CHECK(fabs(mod_t_tail(1.959964, 1e6) - 0.025) < 1e-4);
    CHECK(fabs(mod_t_tail(0, 3) - 0.5) < 1e-12);
    CHECK(fabs(mod_t_tail(-2.776445, 4) - 0.975) < 1e-5);
    CHECK(fabs(mod_t_quantile_upper(0.025, 4) - 2.776445) < 1e-4);
    CHECK(fabs(mod_t_quantile_upper(0.05, 2) - 2.919986) < 1e-4);
    CHECK(fabs(mod_t_quantile_upper(0.005, 10) - 3.169273) < 1e-4);
}

static void test_gamma_fns(void)
{
    CHECK(fabs(mod_digamma(1) + 0.5772156649) < 1e-9);
    CHECK(fabs(mod_digamma(0.5) + 1.9635100260) < 1e-9);
    CHECK(fabs(mod_trigamma(1) - M_PI * M_PI / 6) < 1e-9);
    CHECK(fabs(mod_trigamma(0.5) - M_PI * M_PI / 2) < 1e-9);
}

static void test_evidence(void)
{
    const double a[3] = {100, 110, 90}, b[3] = {50, 55, 45}, r[3] = {0.5, 0.5, 0.5};
    const double r2[3] = {0.5, 0.55, 0.45};
    struct mod_evidence e;
    struct mod_result res;

    CHECK(mod_evidence_from(a, 3, b, 3, r2, 3, &e) == 0);
    CHECK(e.paired && e.df == 2 && fabs(e.est - (log(0.5) + log(0.55) + log(0.45)) / 3) < 1e-12);
    CHECK(mod_test(&e, NULL, &res) == 0);
    CHECK(res.p < 0.01 && res.hi < -0.3 && res.lo > -0.7);
    /* unpaired when a round is missing */
    CHECK(mod_evidence_from(a, 3, b, 2, r, 2, &e) == 0);
    CHECK(!e.paired && e.df == 3 && fabs(e.scale - sqrt(1 / 3.0 + 1 / 2.0)) < 1e-12);
    /* one run a side: no variance of its own, undecidable without a prior */
    CHECK(mod_evidence_from(a, 1, b, 1, r, 1, &e) == 0 && e.df == 0);
    CHECK(mod_test(&e, NULL, &res) == -1 && res.p == 1);
    {
        struct mod_prior pr = {0.01, 20};

        CHECK(mod_test(&e, &pr, &res) == 0 && res.df == 20 && res.p < 0.001);
    }
    CHECK(mod_evidence_from(a, 0, b, 3, r, 0, &e) == -1);
}

static void test_prior(void)
{
    const double same[4] = {0.01, 0.01, 0.01, 0.01}, df[4] = {2, 2, 2, 2};
    const double apart[4] = {1e-6, 1, 1e-5, 3}, spread[4] = {0.008, 0.012, 0.01, 0.011};
    struct mod_prior pr;

    CHECK(mod_prior_fit(same, df, 2, &pr) == -1 && pr.df == 0);
    /* rows alike beyond sampling: d0 capped at the rows' own 8 degrees of freedom */
    CHECK(mod_prior_fit(same, df, 4, &pr) == 0 && pr.df == 8 && pr.s2 > 0.01 && pr.s2 < 0.02);
    CHECK(mod_prior_fit(spread, df, 4, &pr) == 0 && pr.df == 8);
    /* rows orders of magnitude apart: little to borrow */
    CHECK(mod_prior_fit(apart, df, 4, &pr) == 0 && pr.df < 1);
}

static void test_runs_needed(void)
{
    struct mod_evidence e = {
        .est = log(0.9), .s2 = 0.01, .df = 2, .scale = 1 / sqrt(3.0), .paired = 1};
    size_t n = mod_runs_needed(&e, NULL, 0.05, 0.05);

    /* a 10% fall in 10% noise: a few more pairs decide it, and that count does */
    CHECK_MSG(n > 3 && n < 20, "runs needed %zu", n);
    e.est = log(1.045); /* just inside the threshold: no count up to the cap bounds it */
    CHECK(mod_runs_needed(&e, NULL, 0.05, 0.05) == 0);
}

int main(void)
{
    test_t();
    test_gamma_fns();
    test_evidence();
    test_prior();
    test_runs_needed();
    return T_DONE();
}
