/* confirm_words: adaptive confirmation in words: the rule as meta.json and the reports state
 * it, and what a confirmed row's verdict used. Pure. */
#ifndef PAIRBENCH_CONFIRM_WORDS_H
#define PAIRBENCH_CONFIRM_WORDS_H

#include <stddef.h>

#include <jansson.h>

/* The rule, in words, as meta.json and the report state it (CONFIRM_RULE_EN; its Chinese is
 * M_CONFIRM_RULE_TEXT of the string table). */
#define CONFIRM_RULE_EN                                                                            \
    "a row is borderline when a gated metric is undecided (too few runs, noise larger than "       \
    "the threshold, or disturbed runs); it gets two more alternating rounds at a time until "      \
    "no gated metric is, up to the cap. Once it has extra rounds, its change is the median of "    \
    "its per-round ratios (the pairs' shared drift cancels), and a regression or improvement "     \
    "counts only when the moderated paired test of the per-round log ratios reaches a budget "     \
    "of 2/252 shared by the looks: 2/252 / (4 x looks) before the cap (looks = half the cap), "    \
    "3/4 of 2/252 at it"
extern const char *const confirm_rule;

/* What a confirmed row's throughput verdict used, for the reports: "-3.1% [-7.2%, +0.4%], p
 * 0.012" from a vs_baseline entry (the interval left out when summary.json has none), or
 * "—" when there is no paired change. Writes at most len bytes (NUL included). */
void confirm_paired_text(const json_t *vs, char *buf, size_t len);

#endif
