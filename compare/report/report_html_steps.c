/* report_html_steps: report.html's "Step by step" of a sequence run (steps.h), the table and
 * the sentences report.md's has (report_md_steps.c): the steps in order, each with the
 * versions' median throughput and every candidate's change and verdict, then the first step
 * whose throughput verdict is regressed. Nothing for a run with a fresh server per run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/report_html_int.h"
#include "report/sentences.h"
#include "report/steps.h"

#include "util/fmt.h"
#include "util/jobs_util.h"

static void steps_head(const struct html_ctx *c)
{
    size_t v;
    int fresh = json_object_get(c->summary, "fresh_server") != NULL;

    fprintf(c->f, "<table>\n<tr><th>%s</th><th>%s</th><th>", HT(c, M_COL_STEP),
            HT(c, M_COL_CONFIG));
    html_say(c, M_COL_KS, c->versions[0], (const char *)NULL);
    fputs("</th>", c->f);
    for (v = 1; v < c->nv; v++) {
        fputs("<th>", c->f);
        html_say(c, M_COL_KS, c->versions[v], (const char *)NULL);
        fputs("</th><th>", c->f);
        html_say(c, M_COL_VS, c->versions[v], c->versions[0], (const char *)NULL);
        fprintf(c->f, "</th><th>%s</th>", HT(c, M_COL_VERDICT));
        if (fresh) {
            fputs("<th>", c->f);
            html_say(c, M_COL_FRESH, c->versions[v], c->versions[0], (const char *)NULL);
            fputs("</th>", c->f);
        }
    }
    fputs("</tr>\n", c->f);
}

/* The median throughput in k/s of row for version v. */
static void steps_ks(const struct html_ctx *c, const json_t *row, size_t v)
{
    const json_t *val = html_values(row, "throughput", c->versions[v]);

    if (json_is_number(json_object_get(val, "median")))
        fprintf(c->f, "<td class=\"n\">%.1f</td>", ju_num(val, "median", 0) / 1000);
    else
        fprintf(c->f, "<td class=\"n\">%s</td>", FMT_MISSING);
}

static void steps_row(const struct html_ctx *c, size_t step, const json_t *row)
{
    size_t v;
    char ch[64];

    fprintf(c->f, "<tr><td class=\"n\">%zu</td><td>", step);
    html_esc(c, ju_str(row, "label", ""));
    fputs("</td>", c->f);
    steps_ks(c, row, 0);
    for (v = 1; v < c->nv; v++) {
        const json_t *vs = html_vs(row, "throughput", c->versions[v]);
        const char *verdict = ju_str(vs, "verdict", "~");
        steps_ks(c, row, v);
        html_fmt_change(json_number_value(json_object_get(vs, "change")), ch, sizeof(ch));
        fprintf(c->f, "<td class=\"n %s\">%s</td><td class=\"%s\">", html_verdict_class(verdict),
                ch, html_verdict_class(verdict));
        html_esc(c, sent_verdict_word(c->zh ? "zh" : "en", verdict));
        fputs("</td>", c->f);
        if (json_object_get(c->summary, "fresh_server")) {
            const json_t *f = steps_fresh_vs(row, c->versions[v]);
            const char *fv = ju_str(f, "verdict", "");

            html_fmt_change(f ? json_number_value(json_object_get(f, "change")) : NAN, ch,
                            sizeof(ch));
            fprintf(c->f, "<td class=\"n %s\">%s", html_verdict_class(fv), ch);
            if (f) {
                fputs(" ", c->f);
                html_esc(c, sent_verdict_word(c->zh ? "zh" : "en", fv));
            }
            fputs("</td>", c->f);
        }
    }
    fputs("</tr>\n", c->f);
}

void html_steps(const struct html_ctx *c)
{
    struct steps st = {0};
    char n[32];
    size_t i, v;

    if (c->nv < 2 || steps_find(c->summary, c->meta, &st) <= 0) {
        steps_release(&st);
        return;
    }
    fprintf(c->f, "<section id=\"steps\"><h2>%s</h2>\n<p>", HT(c, M_H_STEPS));
    snprintf(n, sizeof(n), "%zu", st.n);
    html_say(c, M_STEPS_INTRO, n, (const char *)NULL);
    if (json_object_get(c->summary, "fresh_server")) {
        fputs(" ", c->f);
        html_say(c, M_STEPS_FRESH_INTRO,
                 ju_str(json_object_get(c->summary, "fresh_server"), "dir", ""),
                 (const char *)NULL);
    }
    fputs("</p>\n", c->f);
    steps_head(c);
    for (i = 0; i < st.n; i++)
        steps_row(c, i + 1, json_array_get(c->rows, st.row[i]));
    fputs("</table>\n", c->f);
    for (v = 1; v < c->nv; v++) {
        const char *lang = c->zh ? "zh" : "en";
        char *s[3] = {sent_steps_first(c->rows, &st, c->versions[0], c->versions[v], lang),
                      sent_steps_fresh(c->rows, &st, c->versions[0], c->versions[v], lang),
                      sent_steps_state(c->rows, &st, c->versions[0], c->versions[v], lang)};
        int k;

        for (k = 0; k < 3; k++) {
            if (s[k]) {
                fputs("<p>", c->f);
                html_text(c, s[k]);
                fputs("</p>\n", c->f);
            }
            free(s[k]);
        }
    }
    fputs("</section>\n", c->f);
    steps_release(&st);
}
