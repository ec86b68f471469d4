/* confirm_words: adaptive confirmation in words: the rule as meta.json and the reports state
 * it, and what a confirmed row's verdict used. Pure. */
#ifndef PAIRBENCH_CONFIRM_WORDS_H
#define PAIRBENCH_CONFIRM_WORDS_H

#include <stddef.h>

#include <jansson.h>

/* The rule, in words, as meta.json and the report state it (CONFIRM_RULE_EN; its Chinese is
 * M_CONFIRM_RULE_TEXT of the string table). */
#define CONFIRM_RULE_EN                                                                            \
    "a row is borderline when, for a gated metric, the change passes its threshold but the "       \
    "evidence is not strong (verdict ~ or unstable), or, after the planned rounds, a side is "     \
    "noisier than the noise limit (verdict unstable), or the planned rounds' verdict rests "       \
    "on every paired ratio being on one side of 1 while the ranges overlap, evidence that "        \
    "chance gives more often than 2/252 (1 in 16 with five pairs); it gets two more "              \
    "alternating rounds at "                                                                       \
    "a time until it is not, up to the cap. "                                                      \
    "Once it has extra rounds, its change is the median of its per-round ratios (the pairs' "      \
    "shared drift cancels), it stays borderline while the 90% interval of its throughput's "       \
    "median (order statistics) still reaches past the threshold, and it counts only when the "     \
    "exact Wilcoxon signed-rank p of those ratios is within a budget of 2/252 "                    \
    "shared by the looks: 2/252 / (4 x looks) before the cap (looks = half the cap), 3/4 of "      \
    "2/252 at it; and a side's noise is read from its interquartile range, as the spread of "      \
    "five runs, and makes a metric unstable only while the 90% interval of its paired change "     \
    "reaches its threshold"
extern const char *const confirm_rule;

/* What a confirmed row's throughput verdict used, for the reports: "-3.1% [-7.2%, +0.4%], p
 * 0.012" from a vs_baseline entry (the interval left out when summary.json has none), or
 * "—" when there is no paired change. Writes at most len bytes (NUL included). */
void confirm_paired_text(const json_t *vs, char *buf, size_t len);

#endif
