/* calibrate: noise, detectable change and floors from an A/A summary metric. */
#include <math.h>

#include "cmd/calibrate.h"
#include "t.h"

static json_t *metric(double rmin, double rmax, int n, const char *verdict)
{
    return json_pack("{s:{s:{s:f,s:f,s:f},s:{s:f,s:f,s:f}}, s:{s:{s:{s:f,s:f,s:f,s:i},s:s}}}",
                     "values", "a", "median", 100.0, "min", 95.0, "max", 105.0, "a-again", "median",
                     100.0, "min", 90.0, "max", 110.0, "vs_baseline", "a-again", "paired_ratio",
                     "min", rmin, "max", rmax, "median", 1.0, "n", n, "verdict", verdict);
}

int main(void)
{
    struct calibrate_metric cm;
    double floor_pct;
    json_t *m;

    m = metric(0.98, 1.03, 5, "~");
    CHECK(calibrate_metric_from_summary(m, "a", "a-again", &cm) == 0);
    CHECK(fabs(cm.noise_pct - 3.0) < 1e-9);
    /* a rise needs (1+d)*0.98 > 1: d > 2.0408%; a fall needs (1+d)*1.03 < 1: |d| > 2.9126% */
    CHECK(fabs(cm.detectable_pct - 100.0 * (1.0 - 1.0 / 1.03)) < 1e-9);
    CHECK(fabs(cm.spread_pct - 20.0) < 1e-9);
    CHECK(cm.n_pairs == 5 && cm.false_alarm == 0);
    CHECK(calibrate_floor(&cm, 5.0, &floor_pct) == 0 && fabs(floor_pct - 5.0) < 1e-9);
    CHECK(calibrate_floor(&cm, 1.0, &floor_pct) == 0 &&
          fabs(floor_pct - 1.25 * 100.0 * (1.0 - 1.0 / 1.03)) < 1e-9);
    json_decref(m);

    m = metric(0.80, 0.95, 5, "regressed");
    CHECK(calibrate_metric_from_summary(m, "a", "a-again", &cm) == 0);
    CHECK(cm.false_alarm == 1);
    CHECK(fabs(cm.detectable_pct - 25.0) < 1e-9); /* 1/0.8 - 1 */
    json_decref(m);

    m = json_pack("{s:{}}", "values");
    CHECK(calibrate_metric_from_summary(m, "a", "a-again", &cm) == -1);
    json_decref(m);
    return T_DONE();
}
