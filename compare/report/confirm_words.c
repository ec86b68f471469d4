/* confirm_words: confirmation in words (see confirm_words.h). */
#include "report/confirm_words.h"
#include <stdio.h>

#include "util/fmt.h"

const char *const confirm_rule = CONFIRM_RULE_EN;

void confirm_paired_text(const json_t *vs, char *buf, size_t len)
{
    const json_t *pr = json_object_get(vs, "paired_ratio");
    /* the p the verdict used: the moderated test's (summary_judge.h evidence) */
    const json_t *pp = json_object_get(json_object_get(vs, "evidence"), "p");
    const json_t *pm = json_object_get(pr, "median");
    const json_t *lo = json_object_get(pr, "lo"), *hi = json_object_get(pr, "hi");

    char m[32], l[32], h[32];

    if (!json_is_number(pp) || !json_is_number(pm)) {
        snprintf(buf, len, "%s", FMT_MISSING);
        return;
    }
    fmt_change(json_number_value(pm) - 1, m, sizeof(m));
    if (json_is_number(lo) && json_is_number(hi)) /* p: budgets go down to ~1e-5 */
        snprintf(buf, len, "%s [%s, %s], p %.2g", m,
                 fmt_change(json_number_value(lo) - 1, l, sizeof(l)),
                 fmt_change(json_number_value(hi) - 1, h, sizeof(h)), json_number_value(pp));
    else
        snprintf(buf, len, "%s, p %.2g", m, json_number_value(pp));
}
