/* confirm_words: confirmation in words (see confirm_words.h). */
#include "report/confirm_words.h"

#include <stdio.h>

const char *const confirm_rule =
    "a row is borderline when, for a gated metric, the change passes its threshold but the "
    "evidence is not strong (verdict ~ or unstable), or, after the planned rounds, a side is "
    "noisier than the noise limit (verdict unstable), or the planned rounds' verdict rests "
    "on every paired ratio being on one side of 1 while the ranges overlap, evidence that "
    "chance gives more often than 2/252 (1 in 16 with five pairs); it gets two more "
    "alternating rounds at "
    "a time until it is not, up to the cap. "
    "Once it has extra rounds, its change is the median of its per-round ratios (the pairs' "
    "shared drift cancels), it stays borderline while the 90% interval of its throughput's "
    "median (order statistics) still reaches past the threshold, and it counts only when the "
    "exact Wilcoxon signed-rank p of those ratios is within a budget of 2/252 "
    "shared by the looks: 2/252 / (4 x looks) before the cap (looks = half the cap), 3/4 of "
    "2/252 at it; and a side's noise is read from its interquartile range, as the spread of "
    "five runs, and makes a metric unstable only while the 90% interval of its paired change "
    "reaches its threshold";

void confirm_paired_text(const json_t *vs, char *buf, size_t len)
{
    const json_t *pr = json_object_get(vs, "paired_ratio");
    const json_t *pp = json_object_get(vs, "p_paired"), *pm = json_object_get(pr, "median");
    const json_t *lo = json_object_get(pr, "lo"), *hi = json_object_get(pr, "hi");

    if (!json_is_number(pp) || !json_is_number(pm)) {
        snprintf(buf, len, "—");
        return;
    }
    if (json_is_number(lo) && json_is_number(hi)) /* p: budgets go down to ~1e-5 */
        snprintf(buf, len, "%+.1f%% [%+.1f%%, %+.1f%%], p %.2g", (json_number_value(pm) - 1) * 100,
                 (json_number_value(lo) - 1) * 100, (json_number_value(hi) - 1) * 100,
                 json_number_value(pp));
    else
        snprintf(buf, len, "%+.1f%%, p %.2g", (json_number_value(pm) - 1) * 100,
                 json_number_value(pp));
}
