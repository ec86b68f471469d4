/* moderate: a moderated t-test on the log scale (moderate.h). The t distribution comes from
 * the regularized incomplete beta function (a continued fraction, evaluated by the modified
 * Lentz method); digamma and trigamma from their recurrences and asymptotic series. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "analysis/moderate.h"

double mod_digamma(double x)
{
    double r = 0, f;

    if (!(x > 0))
        return NAN;
    while (x < 6) {
        r -= 1 / x;
        x += 1;
    }
    f = 1 / (x * x);
    return r + log(x) - 0.5 / x -
           f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

double mod_trigamma(double x)
{
    double r = 0, f;

    if (!(x > 0))
        return NAN;
    while (x < 6) {
        r += 1 / (x * x);
        x += 1;
    }
    f = 1 / (x * x);
    return r + 1 / x + f / 2 +
           f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f * (1.0 / 30 - f * 5 / 66))));
}

/* y > 0 with trigamma(y) = v (trigamma falls from +inf to 0): bisection on log y. */
static double trigamma_inverse(double v)
{
    double lo = -30, hi = 30, mid = 0;
    int i;

    for (i = 0; i < 200; i++) {
        mid = (lo + hi) / 2;
        if (mod_trigamma(exp(mid)) > v)
            lo = mid;
        else
            hi = mid;
    }
    return exp(mid);
}

/* The continued fraction of the incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1), h;
    int m;

    if (fabs(d) < tiny)
        d = tiny;
    d = 1 / d;
    h = d;
    for (m = 1; m <= 300; m++) {
        double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2)), del;

        d = 1 + aa * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1 + aa / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + aa * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1 + aa / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1 / d;
        del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-14)
            break;
    }
    return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
    double bt;

    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return bt * beta_cf(a, b, x) / a;
    return 1 - bt * beta_cf(b, a, 1 - x) / b;
}

double mod_t_tail(double t, double df)
{
    double tail;

    if (!(df > 0) || isnan(t))
        return NAN;
    if (isinf(t))
        return t > 0 ? 0 : 1;
    tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
    return t >= 0 ? tail : 1 - tail;
}

/* The quantile by bisection on the tail, to a relative 1e-10. */
static double quantile_search(double tail, double df)
{
    double lo = 0, hi = 1, mid = 0;
    int i;

    while (mod_t_tail(hi, df) > tail && hi < 1e12)
        hi *= 2;
    for (i = 0; i < 200 && hi - lo > 1e-10 * hi; i++) {
        mid = (lo + hi) / 2;
        if (mod_t_tail(mid, df) > tail)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* The last quantiles asked for, by (tail, df): a summary asks the same few over and over (one
 * df per kind of row, the same levels), and each costs a bisection over the beta function.
 * compare judges in one thread. */
#define QUANTILE_CACHE 256
static struct {
    double tail, df, q;
} qcache[QUANTILE_CACHE];

double mod_t_quantile_upper(double tail, double df)
{
    size_t h;

    if (!(df > 0) || !(tail > 0) || !(tail < 1))
        return NAN;
    if (tail > 0.5)
        return -mod_t_quantile_upper(1 - tail, df);
    h = (size_t)(fmod(df * 7919.0 + tail * 104729.0, (double)QUANTILE_CACHE));
    if (h >= QUANTILE_CACHE)
        h = 0;
    if (qcache[h].tail != tail || qcache[h].df != df) {
        qcache[h].q = quantile_search(tail, df);
        qcache[h].tail = tail;
        qcache[h].df = df;
    }
    return qcache[h].q;
}

static double safe_log(double v)
{
    return log(v > 1e-12 ? v : 1e-12);
}

/* Mean of log v[0..n), and the sum of squared deviations from it. */
static double log_mean(const double *v, size_t n, double *ss)
{
    double m = 0, s = 0;
    size_t i;

    for (i = 0; i < n; i++)
        m += safe_log(v[i]);
    m /= (double)n;
    for (i = 0; i < n; i++)
        s += (safe_log(v[i]) - m) * (safe_log(v[i]) - m);
    *ss = s;
    return m;
}

/* The order groups of paired evidence e from its n ratios: k_after, k_before, position. */
static void order_groups(const double *ratios, const unsigned char *after, size_t n,
                         struct mod_evidence *e)
{
    double m[2] = {0, 0};
    size_t i;

    if (!after)
        return;
    for (i = 0; i < n; i++)
        m[after[i] != 0] += safe_log(ratios[i]);
    for (i = 0; i < n; i++) {
        if (after[i])
            e->k_after++;
        else
            e->k_before++;
    }
    if (e->k_after > 0 && e->k_before > 0)
        e->position = (m[1] / e->k_after - m[0] / e->k_before) / 2;
}

int mod_evidence_from(const double *a, size_t na, const double *b, size_t nb, const double *ratios,
                      const unsigned char *after, size_t n_pairs, struct mod_evidence *e)
{
    double ssa, ssb, ma, mb;

    memset(e, 0, sizeof(*e));
    e->scale = 1;
    if (na == 0 || nb == 0)
        return -1;
    if (ratios && n_pairs >= 2 && n_pairs == na && n_pairs == nb) {
        e->paired = 1;
        e->est = log_mean(ratios, n_pairs, &ssa);
        e->df = (double)n_pairs - 1;
        e->s2 = ssa / e->df;
        e->scale = 1 / sqrt((double)n_pairs);
        order_groups(ratios, after, n_pairs, e);
        return 0;
    }
    ma = log_mean(a, na, &ssa);
    mb = log_mean(b, nb, &ssb);
    e->est = mb - ma;
    e->df = (double)(na + nb) - 2;
    e->s2 = e->df > 0 ? (ssa + ssb) / e->df : 0;
    e->scale = sqrt(1 / (double)na + 1 / (double)nb);
    return 0;
}

int mod_position_fit(const struct mod_evidence *ev, size_t n, double *host, double *rel_var)
{
    double sw = 0, swp = 0;
    size_t i, k = 0;

    *host = *rel_var = 0;
    for (i = 0; i < n; i++) {
        double pairs = ev[i].k_after + ev[i].k_before, w;

        if (!ev[i].paired || !(ev[i].k_after > 0) || !(ev[i].k_before > 0))
            continue;
        w = 4 * ev[i].k_after * ev[i].k_before / pairs;
        sw += w;
        swp += w * ev[i].position;
        k++;
    }
    if (k < MOD_PRIOR_MIN_ROWS)
        return -1;
    *host = swp / sw;
    *rel_var = 1 / sw;
    return 0;
}

void mod_net(const struct mod_evidence *e, struct mod_evidence *net)
{
    double pairs = e->k_after + e->k_before, lean, ss, w;

    *net = *e;
    if (!e->paired || !(pairs > 0) || (e->host == 0 && e->host_rel_var == 0))
        return;
    /* l = est + host·s + noise with s = +1 (ran second) or −1: the rounds' mean of s is lean,
     * and the sum of squares of s about it is 4·k_after·k_before / pairs */
    lean = (e->k_after - e->k_before) / pairs;
    w = 4 * e->k_after * e->k_before / pairs;
    net->est = e->est - e->host * lean;
    ss = e->s2 * e->df - w * (2 * e->host * e->position - e->host * e->host);
    /* the fit took its share w·rel_var of this row's own degrees of freedom */
    net->df = e->df - w * e->host_rel_var;
    net->s2 = net->df > 0 ? fmax(ss, 0) / net->df : 0;
    net->scale = sqrt(1 / pairs + lean * lean * e->host_rel_var);
    net->host = net->host_rel_var = 0;
}

/* The moderated variance and its degrees of freedom; df 0 when nothing gives one. */
static double moderated_s2(const struct mod_evidence *e, const struct mod_prior *pr, double *df)
{
    double d0 = 0, s0 = 0;

    if (pr && pr->df > 0 && pr->s2 > 0) {
        d0 = pr->df;
        s0 = pr->s2;
    }
    *df = d0 + e->df;
    if (!(*df > 0))
        return 0;
    return (d0 * s0 + e->df * e->s2) / *df;
}

int mod_test(const struct mod_evidence *raw, const struct mod_prior *pr, struct mod_result *r)
{
    struct mod_evidence net, *e = &net;
    double s2, q;

    mod_net(raw, &net);
    s2 = moderated_s2(e, pr, &r->df);

    r->p = 1;
    r->lo = -INFINITY;
    r->hi = INFINITY;
    r->se = INFINITY;
    if (!(r->df > 0))
        return -1;
    r->se = sqrt(s2) * e->scale;
    if (r->se > 0)
        r->p = fmin(1, 2 * mod_t_tail(fabs(e->est) / r->se, r->df));
    else
        r->p = e->est != 0 ? 0 : 1;
    q = mod_t_quantile_upper(0.05, r->df);
    r->lo = expm1(e->est - q * r->se);
    r->hi = expm1(e->est + q * r->se);
    return 0;
}

int mod_prior_fit(const double *s2, const double *df, size_t n, struct mod_prior *pr)
{
    double emean = 0, evar = 0, tri = 0, dsum = 0, d0;
    size_t i, k = 0;

    pr->s2 = pr->df = 0;
    for (i = 0; i < n; i++)
        if (df[i] > 0 && s2[i] > 0) {
            emean += log(s2[i]) - mod_digamma(df[i] / 2) + log(df[i] / 2);
            dsum += df[i];
            k++;
        }
    if (k < MOD_PRIOR_MIN_ROWS)
        return -1;
    emean /= (double)k;
    for (i = 0; i < n; i++)
        if (df[i] > 0 && s2[i] > 0) {
            double ei = log(s2[i]) - mod_digamma(df[i] / 2) + log(df[i] / 2);

            evar += (ei - emean) * (ei - emean);
            tri += mod_trigamma(df[i] / 2);
        }
    evar = evar / (double)(k - 1) - tri / (double)k;
    d0 = evar > 0 ? 2 * trigamma_inverse(evar) : INFINITY;
    if (d0 > dsum)
        d0 = dsum;
    pr->df = d0;
    pr->s2 = exp(emean + mod_digamma(d0 / 2) - log(d0 / 2));
    return 0;
}

/* Whether n runs a side would decide e at the same moderated variance s2 (see mod_runs_needed). */
static int decides_at(const struct mod_evidence *e, double s2, double d0, size_t n, double up,
                      double down, double alpha)
{
    double df = d0 + (e->paired ? (double)n - 1 : 2.0 * (double)n - 2);
    double se = sqrt(s2) * (e->paired ? 1 / sqrt((double)n) : sqrt(2 / (double)n));

    if (!(df > 0))
        return 0;
    if (e->est >= up || e->est <= down)
        return mod_t_quantile_upper(alpha / 2, df) * se <= fabs(e->est);
    return e->est + mod_t_quantile_upper(0.05, df) * se < up &&
           e->est - mod_t_quantile_upper(0.05, df) * se > down;
}

size_t mod_runs_needed(const struct mod_evidence *raw, const struct mod_prior *pr, double threshold,
                       double alpha)
{
    struct mod_evidence net, *e = &net;
    double df0, s2, d0, up = log1p(threshold), down = log1p(-fmin(threshold, 0.999));
    size_t lo = 2, hi = MOD_RUNS_CAP;

    mod_net(raw, &net);
    s2 = moderated_s2(e, pr, &df0);
    d0 = df0 - e->df;

    if (!(s2 > 0) || !(df0 > 0) || !decides_at(e, s2, d0, hi, up, down, alpha))
        return 0;
    /* deciding only gets easier with more runs: the smallest count, by bisection */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;

        if (decides_at(e, s2, d0, mid, up, down, alpha))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}
