/* confirm_words: adaptive confirmation in words: the rule as meta.json and the reports state
 * it, and what a confirmed row's verdict used. Pure. */
#ifndef PAIRBENCH_CONFIRM_WORDS_H
#define PAIRBENCH_CONFIRM_WORDS_H

#include <stddef.h>

#include <jansson.h>

/* The rule, in words, as meta.json and the report state it. */
extern const char *const confirm_rule;

/* What a confirmed row's throughput verdict used, for the reports: "-3.1% [-7.2%, +0.4%], p
 * 0.012" from a vs_baseline entry (the interval left out when summary.json has none), or
 * "—" when there is no paired change. Writes at most len bytes (NUL included). */
void confirm_paired_text(const json_t *vs, char *buf, size_t len);

#endif
