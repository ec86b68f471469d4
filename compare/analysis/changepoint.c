/* E-divisive means change-point detection with a permutation test (see changepoint.h and
 * docs/drift.md). Hierarchical: find the best split of every current segment, keep the split
 * with the largest statistic if a permutation test (observations shuffled within each current
 * segment, as in the R package ecp) says it is significant, and repeat. */
#include "analysis/changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cp_options_default(struct cp_options *o)
{
    o->alpha = 0.05;
    o->permutations = 199;
    o->min_segment = 3;
    o->seed = 0x9e3779b97f4a7c15ull;
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void shuffle(double *x, size_t n, uint64_t *s)
{
    size_t i;

    for (i = n; i > 1; i--) {
        size_t j = (size_t)(rng_next(s) % i);
        double t = x[i - 1];

        x[i - 1] = x[j];
        x[j] = t;
    }
}

/* Prefix sums of the distance matrix: S[a * (n + 1) + b] = sum over i < a, j < b of
 * |y_i - y_j|. Any block sum, and so every energy statistic below, is then O(1). */
static void prefix_fill(const double *y, size_t n, double *S)
{
    size_t a, b, w = n + 1;

    for (b = 0; b <= n; b++)
        S[b] = 0;
    for (a = 1; a <= n; a++) {
        double row = 0;

        S[a * w] = 0;
        for (b = 1; b <= n; b++) {
            row += fabs(y[a - 1] - y[b - 1]);
            S[a * w + b] = S[(a - 1) * w + b] + row;
        }
    }
}

/* sum over a <= i < b, c <= j < d of |y_i - y_j| */
static double block(const double *S, size_t w, size_t a, size_t b, size_t c, size_t d)
{
    return S[b * w + d] - S[a * w + d] - S[b * w + c] + S[a * w + c];
}

/* Best split of segment [s, e): X = [s, tau), Y = [tau, kappa) with kappa <= e (Matteson &
 * James: the right part may end before the segment does, which finds a change that was
 * undone later, e.g. a regression fixed a few nights on), both parts >= minseg. Returns the
 * statistic, *tau_out the split (0 when there is none; the statistic is then -1). */
static double best_split(const double *S, size_t w, size_t s, size_t e, size_t minseg,
                         size_t *tau_out)
{
    double best = -1;
    size_t tau, kappa;

    *tau_out = 0;
    if (minseg < 2)
        minseg = 2;
    if (e - s < 2 * minseg)
        return -1;
    for (tau = s + minseg; tau + minseg <= e; tau++) {
        double nx = (double)(tau - s);
        double wx = block(S, w, s, tau, s, tau) / 2;

        for (kappa = tau + minseg; kappa <= e; kappa++) {
            double ny = (double)(kappa - tau);
            double b = block(S, w, s, tau, tau, kappa);
            double wy = block(S, w, tau, kappa, tau, kappa) / 2;
            double en = 2.0 * b / (nx * ny) - wx / (nx * (nx - 1) / 2) - wy / (ny * (ny - 1) / 2);
            double q = nx * ny / (nx + ny) * en;

            if (q > best) {
                best = q;
                *tau_out = tau;
            }
        }
    }
    return best;
}

double cp_energy_at(const double *x, size_t n, size_t tau)
{
    double wl = 0, wr = 0, b = 0, nl, nr;
    size_t i, k;

    if (tau < 2 || n < tau + 2)
        return 0;
    for (i = 0; i < n; i++)
        for (k = i + 1; k < n; k++) {
            double d = fabs(x[i] - x[k]);

            if (k < tau)
                wl += d;
            else if (i >= tau)
                wr += d;
            else
                b += d;
        }
    nl = (double)tau;
    nr = (double)(n - tau);
    return nl * nr / (nl + nr) *
           (2.0 * b / (nl * nr) - wl / (nl * (nl - 1) / 2) - wr / (nr * (nr - 1) / 2));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

double cp_median(const double *x, size_t n)
{
    double *c, m;

    if (n == 0)
        return NAN;
    c = malloc(n * sizeof(*c));
    if (!c)
        return NAN;
    memcpy(c, x, n * sizeof(*c));
    qsort(c, n, sizeof(*c), cmp_double);
    m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    free(c);
    return m;
}

/* Least squares of y = c0 + c1 * i + c2 * [i >= tau] over x[a..b): a straight line plus a
 * jump at tau. The jump's t statistic says whether a discontinuity is needed beyond the trend:
 * a slow drift fits the line alone (jump near 0), a step does not. */
int cp_is_step(const double *x, size_t a, size_t tau, size_t b)
{
    double m[3][4] = {{0}}, sse = 0, inv_dd, se, t;
    size_t i, r, c, k, n = b - a;

    if (tau <= a || tau >= b || n < 5)
        return 0;
    for (i = a; i < b; i++) {
        double v[3] = {1.0, (double)(i - a), i >= tau ? 1.0 : 0.0};

        for (r = 0; r < 3; r++) {
            for (c = 0; c < 3; c++)
                m[r][c] += v[r] * v[c];
            m[r][3] += v[r] * x[i];
        }
    }
    /* Gauss-Jordan on the normal equations, keeping the dd cofactor for the jump's variance:
     * (X'X)^-1[2][2] = det(minor) / det(X'X). */
    {
        double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                     m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);

        if (!(fabs(det) > 1e-12))
            return 0;
        inv_dd = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det;
    }
    for (k = 0; k < 3; k++) {
        double piv = m[k][k];

        if (!(fabs(piv) > 1e-12))
            return 0;
        for (c = 0; c < 4; c++)
            m[k][c] /= piv;
        for (r = 0; r < 3; r++) {
            double f = m[r][k];

            if (r == k)
                continue;
            for (c = 0; c < 4; c++)
                m[r][c] -= f * m[k][c];
        }
    }
    for (i = a; i < b; i++) {
        double d = x[i] - (m[0][3] + m[1][3] * (double)(i - a) + (i >= tau ? m[2][3] : 0));

        sse += d * d;
    }
    se = sqrt(sse / (double)(n - 3) * inv_dd);
    if (!(se > 0))
        return m[2][3] != 0;
    t = fabs(m[2][3]) / se;
    return t > CP_STEP_T;
}

/* Segments are kept as sorted boundaries: bounds[0] = 0 < ... < bounds[nb-1] = n. S holds
 * the prefix sums of the series being tested (the data or one permutation of it). */
static double best_over_segments(const double *S, size_t w, const size_t *bounds, size_t nb,
                                 size_t minseg, size_t *tau_out)
{
    double best = -1;
    size_t s;

    *tau_out = 0;
    for (s = 0; s + 1 < nb; s++) {
        size_t tau;
        double q = best_split(S, w, bounds[s], bounds[s + 1], minseg, &tau);

        if (tau && q > best) {
            best = q;
            *tau_out = tau;
        }
    }
    return best;
}

int cp_detect(const double *x, size_t n, const struct cp_options *opt, struct cp_result *res)
{
    struct cp_options def;
    size_t bounds[CP_MAX_CHANGES + 2], nb = 2, minseg, i, c;
    double *perm = NULL, *S = NULL;
    uint64_t rng;
    int rc = -1;

    memset(res, 0, sizeof(*res));
    if (!opt) {
        cp_options_default(&def);
        opt = &def;
    }
    if (n > CP_MAX_POINTS)
        return -1;
    minseg = opt->min_segment < 2 ? 2 : opt->min_segment;
    rng = opt->seed;
    bounds[0] = 0;
    bounds[1] = n;
    if (n < 2 * minseg)
        return 0;
    perm = malloc(n * sizeof(*perm));
    S = malloc((n + 1) * (n + 1) * sizeof(*S));
    if (!perm || !S) {
        free(perm);
        free(S);
        return -1;
    }
    prefix_fill(x, n, S);
    while (nb - 2 < CP_MAX_CHANGES) {
        size_t tau, ptau, s, at;
        double q, p;
        unsigned r, ge = 0;

        prefix_fill(x, n, S);
        q = best_over_segments(S, n + 1, bounds, nb, minseg, &tau);
        if (!tau || !(q > 0))
            break;
        for (r = 0; r < opt->permutations; r++) {
            memcpy(perm, x, n * sizeof(*perm));
            for (s = 0; s + 1 < nb; s++)
                shuffle(perm + bounds[s], bounds[s + 1] - bounds[s], &rng);
            prefix_fill(perm, n, S);
            if (best_over_segments(S, n + 1, bounds, nb, minseg, &ptau) >= q)
                ge++;
        }
        p = (double)(ge + 1) / (double)(opt->permutations + 1);
        if (p > opt->alpha)
            break;
        for (at = 1; at < nb && bounds[at] < tau; at++)
            ;
        memmove(bounds + at + 1, bounds + at, (nb - at) * sizeof(bounds[0]));
        bounds[at] = tau;
        nb++;
        res->changes[res->n_changes].index = tau;
        res->changes[res->n_changes].q = q;
        res->changes[res->n_changes].p = p;
        res->n_changes++;
    }
    /* Sort by index and fill the neighbouring segment medians from the final segmentation. */
    for (i = 1; i < res->n_changes; i++)
        for (c = i; c > 0 && res->changes[c - 1].index > res->changes[c].index; c--) {
            struct cp_change t = res->changes[c];

            res->changes[c] = res->changes[c - 1];
            res->changes[c - 1] = t;
        }
    for (c = 0; c < res->n_changes; c++) {
        size_t lo = c ? res->changes[c - 1].index : 0;
        size_t mid = res->changes[c].index;
        size_t hi = c + 1 < res->n_changes ? res->changes[c + 1].index : n;

        res->changes[c].before = cp_median(x + lo, mid - lo);
        res->changes[c].after = cp_median(x + mid, hi - mid);
    }
    rc = 0;
    free(perm);
    free(S);
    return rc;
}
