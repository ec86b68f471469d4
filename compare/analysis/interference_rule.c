/* interference_rule: the disturbed-run limits and the outlier rule (see interference_rule.h). */
#include "analysis/interference_rule.h"

void interference_limits_default(struct interference_limits *lim)
{
    lim->other_cpu_cores = INTERFERENCE_OTHER_CORES;
    lim->steal_pct = INTERFERENCE_STEAL_PCT;
}

int interference_is_outlier(double value, double row_median)
{
    if (!(row_median > 0))
        return 0;
    return value < row_median / INTERFERENCE_OUTLIER_FACTOR ||
           value > row_median * INTERFERENCE_OUTLIER_FACTOR;
}
