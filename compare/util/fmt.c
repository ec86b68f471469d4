/* fmt: one change formatter (see fmt.h). */
#include "util/fmt.h"

#include <math.h>
#include <stdio.h>

char *fmt_change(double rel, char *out, size_t len)
{
    double pct = rel * 100;

    if (!isfinite(pct))
        snprintf(out, len, "%s", FMT_MISSING);
    else if (round(fabs(pct) * 100) == 0)
        snprintf(out, len, "0.00%%");
    else if (pct < 0)
        snprintf(out, len, "\xe2\x88\x92%.2f%%", -pct);
    else
        snprintf(out, len, "+%.2f%%", pct);
    return out;
}

char *fmt_fixed(double v, int decimals, char *out, size_t len)
{
    if (!isfinite(v))
        snprintf(out, len, "%s", FMT_MISSING);
    else if (round(fabs(v) * pow(10, decimals)) == 0)
        snprintf(out, len, "%.*f", decimals, 0.0); /* no "-0.00" */
    else if (v < 0)
        snprintf(out, len, "\xe2\x88\x92%.*f", decimals, -v);
    else
        snprintf(out, len, "%.*f", decimals, v);
    return out;
}
