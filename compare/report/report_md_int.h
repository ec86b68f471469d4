/* Internals shared by the Markdown report's files (report_md.c: summary and tables;
 * report_md_env.c: environment, provenance, reproduce): the writer state, placeholder
 * templates and number formats. Not a public contract. */
#ifndef PAIRBENCH_REPORT_MD_INT_H
#define PAIRBENCH_REPORT_MD_INT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "report/i18n.h"
#include "report/model.h"

struct md {
    FILE *f;
    const char *lang;
    const json_t *summary, *meta, *rows, *versions;
    size_t nv, nrows;
    const char *base;                 /* baseline version name */
    int server_cpu;                   /* some row has server CPU figures (found once) */
    const struct report_model *model; /* every fact the report states, computed once */
};

/* A formatted number, returned by value so it can be passed inline. */
struct num {
    char s[400];
};

const char *md_t(const struct md *m, enum i18n_msg id);
void md_put(const struct md *m, const char *s);
/* Ends the argument list of md_tmpl()/md_tmpl_str() (a typed null pointer: a bare NULL may
 * be an int in a variadic call). */
#define MD_END ((const char *)NULL)
/* Writes tmpl with {0}..{9} replaced by the following const char * arguments (MD_END ends
 * them). */
void md_tmpl(const struct md *m, const char *tmpl, ...);
/* Writes text for a table cell: '|' escaped, newlines as spaces. */
void md_cell(const struct md *m, const char *s);

/* v with `decimals` decimals ("-0.00" printed as "0.00", minus as U+2212 when sign_minus). */
struct num num_fixed(double v, int decimals);
/* change (a fraction) as a percentage with 2 decimals, explicit sign: "+1.20%", "−1.96%",
 * "0.00%". NaN/absent: "—". */
struct num num_pct(const json_t *change);
/* Writes a JSON value as table-cell text: strings as they are, numbers with %g, booleans,
 * arrays joined by " / ", objects as "key value" pairs joined by ", "; NULL/null/"" =
 * unknown (localized). */
void md_json(const struct md *m, const json_t *v);

/* Rows that pass the thresholds are named in words; more than MD_MAX_ROWS rows collapse the
 * full tables into <details>; a sentence names at most MD_LIST_MAX rows, then "and N more". */
#define MD_MAX_ROWS 12
#define MD_LIST_MAX MODEL_LIST_MAX

/* The template's text in a new string (free()), or NULL when out of memory. */
#define md_tmpl_str i18n_fill
/* "97.11 [95.52–99.63]" of a values object ({median,min,max}) scaled by 1/div, or "—". */
struct num num_range(const json_t *values, double div, int decimals);
struct num num_median(const json_t *values, double div, int decimals);
const char *md_version(const struct md *m, size_t i);
const char *md_row_label(const json_t *row);
/* The verdict of row/metric for candidate ver ("~" when absent). */
const char *md_verdict(const json_t *row, const char *metric, const char *ver);
/* A verdict other than "~" in any gated metric of any candidate. */
int md_row_stands_out(const struct md *m, const json_t *row);
/* "a, b and c" (localized), at most MD_LIST_MAX items, then "and N more". */
void md_put_list(const struct md *m, char **items, size_t n);
void md_free_items(char **items, size_t n);

/* report_md_tables.c */
void md_table_throughput(const struct md *m);
void md_table_latency(const struct md *m);
void md_table_memory(const struct md *m);
void md_evidence(const struct md *m);

/* report_md_cost.c: the counted-cost section (nothing when there were no counted runs) */
void md_section_instructions(const struct md *m);

/* report_md_workload.c: templates, mixes and setup in full (nothing without them) */
void md_section_workloads(const struct md *m);
/* report_md_load.c: where each version's P99 passes 1 ms in a rate sweep (nothing without). */
void md_section_load(const struct md *m);
/* report_md_steps.c: "Step by step" of a sequence run (nothing for any other run) */
void md_section_steps(const struct md *m);
/* A verdict in the report's words ("regressed" localized; "~" as it is). */
const char *md_verdict_word(const struct md *m, const char *v);
/* report_md_full.c: the full cost of a request (nothing when no row has it) */
void md_section_full_cost(const struct md *m);

/* report_md_env.c */
void md_env_sections(const struct md *m);

#endif
