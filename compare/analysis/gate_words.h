/* gate_words: the opening of gate.md in plain words — the outcome, then one sentence per
 * failing or inconclusive row and metric: what changed, by how much, how sure (the chance of
 * such evidence with no real change at the row's run counts), and what to do. Pure: writes
 * to a FILE. */
#ifndef PAIRBENCH_GATE_WORDS_H
#define PAIRBENCH_GATE_WORDS_H

#include <stdio.h>

#include <jansson.h>

#include "analysis/gate.h"

/* The chance of a false flag per metric for a row (stats_false_flag_chance at the runs its
 * throughput has: baseline and candidate counts, complete pairs); 1 when unknown. */
double gate_row_chance(const json_t *row, const char *candidate);

void gate_words(FILE *f, const json_t *summary, const struct gate_config *gc,
                const struct gate_result *gr);

#endif
