/* Internals shared by the Markdown report's files (report_md.c: summary and tables;
 * report_md_env.c: environment, provenance, reproduce): the writer state, placeholder
 * templates and number formats. Not a public contract. */
#ifndef PAIRBENCH_REPORT_MD_INT_H
#define PAIRBENCH_REPORT_MD_INT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "i18n.h"

struct md {
    FILE *f;
    const char *lang;
    const json_t *summary, *meta, *rows, *versions;
    size_t nv, nrows;
    const char *base; /* baseline version name */
};

/* A formatted number, returned by value so it can be passed inline. */
struct num {
    char s[400];
};

const char *md_t(const struct md *m, enum i18n_msg id);
void md_put(const struct md *m, const char *s);
/* Writes tmpl with {0}..{9} replaced by the following const char * arguments (NULL ends
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

void md_env_sections(const struct md *m);

#endif
