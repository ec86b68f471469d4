/* report_html_int: what report_html.c and report_html_tables.c share — the rendering context
 * (the summary, the meta, the versions, the language) and small formatting helpers. Internal
 * to the HTML report; nothing else includes it. */
#ifndef PAIRBENCH_REPORT_HTML_INT_H
#define PAIRBENCH_REPORT_HTML_INT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/metrics.h"
#include "report/i18n.h"
#include "report/model.h"

#define HTML_MAX_VERSIONS 16

/* More rows than this: the comparison tables show the rows that stand out and put the full
 * table in a collapsed <details> block, as report.md does. */
#define HTML_MAX_ROWS 12

struct html_ctx {
    FILE *f;
    int zh;
    const json_t *summary, *meta, *rows;
    size_t nrows;
    const char *versions[HTML_MAX_VERSIONS];
    size_t nv;
    int server_cpu; /* some row has server CPU figures (found once: tables ask per row) */
    const struct report_model *model; /* every fact the page states, computed once */
    const json_t *flame; /* folded stacks per "<config>.<version>" (flame_read.h), or NULL */
};

/* The English or the Chinese text. */
#define L(c, en, zh_text) ((c)->zh ? (zh_text) : (en))
/* The entry id of the string table (report/i18n_strings.h) in the page's language. */
#define HT(c, id) i18n((c)->zh ? "zh" : "en", (id))

/* Entry id of the string table in the page's language with {0}.. filled by the following
 * const char * arguments, ending with (const char *)NULL: written as it is (the arguments are
 * figures or markup the caller escaped). */
void html_say(const struct html_ctx *c, enum i18n_msg id, ...);

/* Escaped text. */
void html_esc(const struct html_ctx *c, const char *s);
/* A sentence of sentences.h: escaped, `x` as <code>x</code>. */
void html_text(const struct html_ctx *c, const char *s);

/* row.metrics[metric].values[version] (NULL when absent). */
const json_t *html_values(const json_t *row, const char *metric, const char *version);
/* row.metrics[metric].vs_baseline[version] (NULL when absent). */
const json_t *html_vs(const json_t *row, const char *metric, const char *version);
/* Whether some row has the metric (a counted one is absent when its channel was off). */
int html_has_metric(const struct html_ctx *c, const char *metric);

/* "97.11 [95.52–99.63]" of a values object, each figure divided by scale, with decimals;
 * "n/a" when absent. */
char *html_fmt_range(const json_t *values, double scale, int decimals, char *out, size_t len);
/* "−1.96%" / "+2.00%" (real minus sign); "n/a" when not finite. */
char *html_fmt_change(double change, char *out, size_t len);
/* The verdict's CSS class: "v-regressed", "v-improved", "v-undecided", "v-failed", "v-same". */
const char *html_verdict_class(const char *verdict);
/* The verdict's colour in the forest plot ("#3a5f8f" for "~", NULL or an unknown word). */
const char *html_verdict_color(const char *verdict);

/* The tables of the changes, right after the summary: multi-version (throughput and CPU,
 * latency, efficiency) or the single-version detailed results. */
void html_tables(const struct html_ctx *c);
/* The evidence table and note, then interference and server accounting (window_text). */
void html_evidence(const struct html_ctx *c);

/* The counted-cost table, its limits and where the instructions went (report_html_cost.c);
 * nothing when the summary holds no counted runs. */
void html_instructions(const struct html_ctx *c);
/* The differential flame graph of the counted cost per row and candidate
 * (report_html_flame.c); nothing without folded stacks of both versions. */
void html_flame(const struct html_ctx *c);
/* The full cost of a request: wake-ups, faults, system calls, allocations (report_html_full.c);
 * nothing when no row has them. */
void html_full_cost(const struct html_ctx *c);
/* The throughput of the rows with a series, over time (report_html_series.c); nothing when
 * no row has one. */
void html_series(const struct html_ctx *c);

/* "Step by step" of a sequence run (report_html_steps.c); nothing for any other run. */
void html_steps(const struct html_ctx *c);

/* The summary in words (two or more versions / one version), the completeness and the
 * weaknesses (report_html_summary.c). */
void html_summary_multi(const struct html_ctx *c);
void html_summary_single(const struct html_ctx *c);
void html_completeness(const struct html_ctx *c);

/* Latency against load of a rate sweep, with the knee in words (report_html_load.c). */
void html_load(const struct html_ctx *c);

/* The forest plot of the change per row, first of the charts (report_html_forest.c). */
void html_forest(const struct html_ctx *c);

/* The environment and versions, the provenance, the reproduce command (report_html_env.c). */
void html_environment(const struct html_ctx *c);
void html_provenance(const struct html_ctx *c);
void html_reproduce(const struct html_ctx *c);

#endif
