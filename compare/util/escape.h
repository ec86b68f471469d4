/* escape: the one escaper per output format, shared by every renderer (report.md/.html,
 * drift.md/.html, calibration.md/.html, gate.md, summary.csv). Each writes s to f so that
 * the target format shows the text as it is and its markup cannot be injected through
 * s. A NULL s writes nothing. Pure: no state, no allocation. */
#ifndef PAIRBENCH_ESCAPE_H
#define PAIRBENCH_ESCAPE_H

#include <stdio.h>

/* HTML/XML text and attribute values: & < > " ' as entities; control characters other than
 * tab and newline as a space (they would make the XML ill-formed). */
void escape_html(FILE *f, const char *s);

/* The same for a sentence of the string table (i18n.h), whose Markdown marks become HTML:
 * `x` as <code>x</code>, **x** as <b>x</b> (bold is not looked for inside code). A mark left
 * open is closed at the end. */
void escape_html_md(FILE *f, const char *s);

/* A Markdown table cell: '|' as "\|", CR and LF as a space (a cell is one line). */
void escape_md_cell(FILE *f, const char *s);

/* A CSV field (RFC 4180): always quoted, '"' doubled. */
void escape_csv(FILE *f, const char *s);

#endif
