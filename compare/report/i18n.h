/* i18n: the report strings in English and Chinese (the table is compare/report/i18n_strings.h).
 * A string may hold {0}..{9} placeholders; report writers fill them, never printf. */
#ifndef PAIRBENCH_I18N_H
#define PAIRBENCH_I18N_H

#include <stdarg.h>
#include <stdio.h>

enum i18n_msg {
#define X(id, en, zh) id,
#include "report/i18n_strings.h"
#undef X
    I18N_COUNT
};

/* The string for lang ("zh" = Chinese, anything else = English). Never NULL. */
const char *i18n(const char *lang, enum i18n_msg id);

/* Writes tmpl with {0}..{9} replaced by the following const char * arguments, which end with
 * a (const char *)NULL; a placeholder without an argument is written as it is. The one
 * template engine of every report (Markdown, HTML, drift, calibrate). */
void i18n_vwrite(FILE *f, const char *tmpl, va_list ap);
/* The same with the arguments given directly. */
void i18n_write(FILE *f, const char *tmpl, ...);
/* The same, then written as it is (Markdown, html 0) or escaped for HTML with its `code` and
 * **bold** marks as tags (html 1, escape_html_md of escape.h): arguments from the data are
 * escaped with the sentence. */
void i18n_vput(FILE *f, int html, const char *tmpl, va_list ap);
/* The same into a new string (free()), or NULL when out of memory. */
char *i18n_fill(const char *tmpl, ...);
char *i18n_vfill(const char *tmpl, va_list ap);

/* The name of metric m (enum metric of analysis/metrics.h) in a sentence: M_MN_*; every metric
 * has its own (test_i18n checks). */
enum i18n_msg i18n_metric_msg(int m);

#endif
