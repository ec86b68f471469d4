/* fmt: the one way every report writes a change, a figure and a missing value, so report.md,
 * report.html, gate.md, the drift and the bisect reports agree: a relative change 0.0123 is
 * "+1.23%", -0.0123 is "−1.23%" (U+2212 minus), anything under 0.005% either way is "0.00%"
 * (no sign, never "−0.00%"), and a missing value (NaN, infinite) is FMT_MISSING. */
#ifndef PAIRBENCH_FMT_H
#define PAIRBENCH_FMT_H

#include <stddef.h>

/* A value the data does not have: an em dash. */
#define FMT_MISSING "\xe2\x80\x94"

/* The relative change rel (a fraction) as a percent with two decimals into out; returns
 * out. */
char *fmt_change(double rel, char *out, size_t len);

/* v with this many decimals into out ("−" for a negative value, never "−0.00"; FMT_MISSING
 * when v is not finite); returns out. */
char *fmt_fixed(double v, int decimals, char *out, size_t len);

#endif
