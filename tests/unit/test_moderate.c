/* The moderated t-test (analysis/moderate.c) against known answers: Student's t tails and
 * quantiles from tables, digamma and trigamma at known points, the evidence of paired and
 * unpaired samples, the prior of rows that agree and of rows far apart, the interval of a
 * clear change, and the runs a side that would decide. */
#include <math.h>
#include <stdint.h>

#include "analysis/moderate.h"
#include "data/order.h"
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

    CHECK(mod_evidence_from(a, 3, b, 3, r2, NULL, 3, &e) == 0);
    CHECK(e.paired && e.df == 2 && fabs(e.est - (log(0.5) + log(0.55) + log(0.45)) / 3) < 1e-12);
    CHECK(mod_test(&e, NULL, &res) == 0);
    CHECK(res.p < 0.01 && res.hi < -0.3 && res.lo > -0.7);
    /* unpaired when a round is missing */
    CHECK(mod_evidence_from(a, 3, b, 2, r, NULL, 2, &e) == 0);
    CHECK(!e.paired && e.df == 3 && fabs(e.scale - sqrt(1 / 3.0 + 1 / 2.0)) < 1e-12);
    /* one run a side: no variance of its own, undecidable without a prior */
    CHECK(mod_evidence_from(a, 1, b, 1, r, NULL, 1, &e) == 0 && e.df == 0);
    CHECK(mod_test(&e, NULL, &res) == -1 && res.p == 1);
    {
        struct mod_prior pr = {0.01, 20};

        CHECK(mod_test(&e, &pr, &res) == 0 && res.df == 20 && res.p < 0.001);
    }
    CHECK(mod_evidence_from(a, 0, b, 3, r, NULL, 0, &e) == -1);
}

/* An effect of running second, taken out with the run's estimate of it: in 3 rounds of A/A
 * where whoever runs second is 10% slower (ratios 0.9, 1/0.9, 0.9: the candidate second in
 * rounds 1 and 3), the plain mean is biased by a third of log 0.9; four such rows fit the
 * effect at log 0.9 exactly, and net of it each row's change is 0 with no noise left. */
static void test_position(void)
{
    const double a[3] = {100, 100, 100}, r[3] = {0.9, 1 / 0.9, 0.9};
    const double r5[5] = {0.91, 1 / 0.9, 0.89, 1 / 0.91, 0.9};
    const unsigned char after[5] = {1, 0, 1, 0, 1};
    struct mod_evidence e, rows[4], net;
    struct mod_result res;
    double host, rel_var;
    int i;

    CHECK(mod_evidence_from(a, 3, a, 3, r, after, 3, &e) == 0);
    CHECK(e.paired && e.df == 2 && fabs(e.est - log(0.9) / 3) < 1e-12);
    CHECK(e.k_after == 2 && e.k_before == 1 && fabs(e.position - log(0.9)) < 1e-12);
    CHECK(mod_position_fit(&e, 1, &host, &rel_var) == -1 && host == 0);
    for (i = 0; i < 4; i++)
        rows[i] = e;
    CHECK(mod_position_fit(rows, 4, &host, &rel_var) == 0 && fabs(host - log(0.9)) < 1e-12);
    /* each row's position has variance (1/2 + 1/1)/4 = 3/8 of the noise: a mean of 4, 3/32 */
    CHECK(fabs(rel_var - 3.0 / 32) < 1e-12);
    e.host = host;
    e.host_rel_var = rel_var;
    mod_net(&e, &net);
    /* the row's share of the fit, w·rel_var = 8/3 · 3/32, leaves 1.75 of its 2 degrees of freedom
     */
    CHECK(fabs(net.est) < 1e-12 && net.s2 < 1e-20 && fabs(net.df - 1.75) < 1e-12);
    CHECK(fabs(net.scale - sqrt(1 / 3.0 + rel_var / 9)) < 1e-12);
    {
        struct mod_prior pr = {0.001, 10};

        CHECK(mod_test(&e, &pr, &res) == 0 && res.p > 0.99 && fabs(res.df - 11.75) < 1e-12);
    }
    /* unknown order, or nothing fitted: no change */
    CHECK(mod_evidence_from(a, 3, a, 3, r, NULL, 3, &e) == 0 && e.k_after == 0);
    mod_net(&e, &net);
    CHECK(net.est == e.est && net.s2 == e.s2 && net.scale == e.scale);
    /* 5 rounds with noise: the net change near 0, less variance than the raw ratios */
    CHECK(mod_evidence_from(a, 5, a, 5, r5, after, 5, &e) == 0 && e.k_after == 3);
    e.host = log(0.9);
    e.host_rel_var = 0.01;
    mod_net(&e, &net);
    CHECK(fabs(net.est) < 0.01 && net.s2 < e.s2 / 10 && fabs(net.df - (4 - 4.8 * 0.01)) < 1e-12);
    CHECK(sched_runs_after(2, 1, 0, 1) && !sched_runs_after(2, 2, 0, 1));
    CHECK(sched_runs_after(2, 3, 0, 1) && !sched_runs_after(2, 1, 1, 0));
    /* three versions: A B C, B C A, C A B; B after A in rounds 1 and 3, C only in round 1 */
    CHECK(sched_runs_after(3, 1, 0, 1) && !sched_runs_after(3, 2, 0, 1));
    CHECK(sched_runs_after(3, 3, 0, 1) && !sched_runs_after(3, 2, 0, 2));
    CHECK(sched_runs_after(3, 1, 0, 2) && !sched_runs_after(3, 3, 0, 2));
}

static uint64_t t_rng = 7;

/* A standard normal draw (xorshift64 and Box–Muller). */
static double normal01(void)
{
    double u[2];
    int k;

    for (k = 0; k < 2; k++) {
        t_rng ^= t_rng << 13;
        t_rng ^= t_rng >> 7;
        t_rng ^= t_rng << 17;
        u[k] = ((double)(t_rng >> 11) + 0.5) / 9007199254740992.0;
    }
    return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/* The share of rows flagged at p ≤ 0.05 in runs of 20 rows of 3 rounds, where the candidate
 * is factor times the baseline, whoever runs second is 9% slower and each run has 3%
 * log-normal noise, judged as summary_judge.c does: the position fitted across the rows
 * (unless plain), the prior fitted to the rows' net variances, each row tested net of it. */
static double flagged_share(int plain, double factor)
{
    const unsigned char after[3] = {1, 0, 1};
    struct mod_evidence ev[20], net;
    size_t rep, row, i, flagged = 0;

    for (rep = 0; rep < 500; rep++) {
        double s2[20], df[20], host = 0, rel_var = 0;
        struct mod_prior pr;

        for (row = 0; row < 20; row++) {
            double a[3], b[3], r[3];

            for (i = 0; i < 3; i++) {
                a[i] = exp(0.03 * normal01() + (after[i] ? 0 : log(0.91)));
                b[i] = factor * exp(0.03 * normal01() + (after[i] ? log(0.91) : 0));
                r[i] = b[i] / a[i];
            }
            mod_evidence_from(a, 3, b, 3, r, after, 3, &ev[row]);
        }
        if (!plain)
            mod_position_fit(ev, 20, &host, &rel_var);
        for (row = 0; row < 20; row++) {
            ev[row].host = host;
            ev[row].host_rel_var = rel_var;
            mod_net(&ev[row], &net);
            s2[row] = net.s2;
            df[row] = net.df;
        }
        mod_prior_fit(s2, df, 20, &pr);
        for (row = 0; row < 20; row++) {
            struct mod_result res;

            flagged += mod_test(&ev[row], &pr, &res) == 0 && res.p <= 0.05;
        }
    }
    return (double)flagged / (500.0 * 20);
}

/* An effect of running second inflates the plain paired variance (its rounds' log ratios
 * swing by ±9%) and a third of it leaks into the mean at 3 rounds: the plain test keeps its
 * level but cannot see a 10% fall through it; net of the fitted position, A/A rows stay at
 * the level and the fall is decided. */
static void test_position_power(void)
{
    double aa_net = flagged_share(0, 1), aa_plain = flagged_share(1, 1);
    double fall_net = flagged_share(0, 0.9), fall_plain = flagged_share(1, 0.9);

    CHECK_MSG(aa_net <= 0.06, "A/A net of the position: %.3f flagged", aa_net);
    CHECK_MSG(aa_plain <= 0.06, "A/A plain: %.3f flagged", aa_plain);
    CHECK_MSG(fall_net >= 0.8, "-10%% net of the position: %.3f decided", fall_net);
    CHECK_MSG(fall_plain <= 0.3, "-10%% plain: %.3f decided", fall_plain);
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
    test_position();
    test_position_power();
    test_prior();
    test_runs_needed();
    return T_DONE();
}
