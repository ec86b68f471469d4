/* The fixed-rate schedule (see arrival.h). Uniform due times are computed from their index
 * (start + (k + phase) * gap), so rounding never accumulates over a long run; Poisson gaps
 * are -ln(U) * gap with U uniform in (0, 1] from xorshift64*. */
#include "engine/arrival.h"

#include <math.h>
#include <stdio.h>

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;

    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545f4914f6cdd1dull;
}

/* An exponential gap with mean a->gap_ns. */
static double exp_gap(struct arrival *a)
{
    /* 53 random bits, shifted to (0, 1]: log() never sees 0 */
    double u = ((double)(rng_next(&a->rng) >> 11) + 1.0) / 9007199254740992.0;

    return -log(u) * a->gap_ns;
}

void arrival_init(struct arrival *a, uint64_t start_ns, double rate_per_s, int poisson,
                  uint64_t seed, double phase)
{
    a->start_ns = start_ns;
    a->gap_ns = 1e9 / rate_per_s;
    a->phase = phase < 0 || phase >= 1 ? 0 : phase;
    a->k = 0;
    a->poisson = poisson;
    a->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
    if (poisson)
        a->next_ns = start_ns + (uint64_t)exp_gap(a);
    else
        a->next_ns = start_ns + (uint64_t)(a->phase * a->gap_ns);
}

void arrival_advance(struct arrival *a)
{
    if (a->poisson) {
        a->next_ns += (uint64_t)exp_gap(a);
        return;
    }
    a->k++;
    a->next_ns = a->start_ns + (uint64_t)(((double)a->k + a->phase) * a->gap_ns);
}

void arrival_note(struct arrival_lag *l, uint64_t due_ns, uint64_t now_ns)
{
    uint64_t lag = now_ns > due_ns ? now_ns - due_ns : 0;

    l->sent++;
    if (lag > ARRIVAL_LATE_NS)
        l->late++;
    if (lag > l->max_lag_ns)
        l->max_lag_ns = lag;
}

void arrival_lag_merge(struct arrival_lag *dst, const struct arrival_lag *src)
{
    dst->sent += src->sent;
    dst->late += src->late;
    if (src->max_lag_ns > dst->max_lag_ns)
        dst->max_lag_ns = src->max_lag_ns;
}

int arrival_kept(double target_per_s, double achieved_per_s, uint64_t sent, uint64_t late)
{
    if (achieved_per_s < 0.99 * target_per_s)
        return 0;
    return (double)late <= 0.01 * (double)sent;
}

int arrival_window_check(double rate_per_s, double window_s, int poisson, char *err, size_t errlen)
{
    double least = poisson ? 5 : 1;

    if (!(rate_per_s > 0) || rate_per_s * window_s >= least)
        return 0;
    snprintf(err, errlen,
             "--rate '%g': %g requests due in the %g s window; expected at least %g ops/s (%s)",
             rate_per_s, rate_per_s * window_s, window_s, least / window_s,
             poisson ? "5 due per window with --arrival poisson, so that it is seldom empty"
                     : "1 due per window");
    return -1;
}
