/* window_text: interference and server accounting in words (see window_text.h). */
#include "report/window_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/interference_rule.h"
#include "analysis/summary.h"
#include "report/i18n.h"
#include "report/sentences.h"

#include "util/jobs_util.h"
#include "util/fmt.h"

struct wt {
    const char *lang;
    void (*put)(void *ctx, int item, const char *text);
    void *ctx;
};

/* Fills the sentence id with the (const char *)NULL-ended arguments and hands it to put. */
static void say(const struct wt *w, int item, enum i18n_msg id, ...)
{
    va_list ap;
    char *s;

    va_start(ap, id);
    s = i18n_vfill(i18n(w->lang, id), ap);
    va_end(ap);
    if (s)
        w->put(w->ctx, item, s);
    free(s);
}

/* "15.2 → 15.9 µs/op (+4.6%, ~)" for metric of row, baseline → first candidate. */
static void per_op(const struct wt *w, char *out, size_t len, const json_t *row, const char *metric,
                   enum i18n_msg unit, const char *base, const char *cand, int decimals)
{
    const json_t *b = summary_values(row, metric, base), *c = summary_values(row, metric, cand);
    const json_t *vs = summary_vs(row, metric, cand);
    char x[32], y[32], ch[32], *s;

    snprintf(out, len, "%s", i18n(w->lang, W_UNKNOWN));
    if (!b || !c)
        return;
    snprintf(x, sizeof(x), "%.*f", decimals, ju_num(b, "median", 0));
    snprintf(y, sizeof(y), "%.*f", decimals, ju_num(c, "median", 0));
    fmt_change(ju_num(vs, "change", 0), ch, sizeof(ch));
    s = i18n_fill(i18n(w->lang, W_PER_OP), x, y, i18n(w->lang, unit), ch,
                  sent_verdict_word(w->lang, ju_str(vs, "verdict", "~")), (const char *)NULL);
    if (s)
        snprintf(out, len, "%s", s);
    free(s);
}

static void accounting(const struct wt *w, const json_t *summary)
{
    const json_t *rows = json_object_get(summary, "rows"), *row, *vers;
    const char *base, *cand;
    char a[200], b[200], c[200];
    int marks = 0, process = 0;
    size_t i;

    json_array_foreach(rows, i, row)
    {
        const char *src = ju_str(json_object_get(row, "server_window"), "source", "");

        marks |= strcmp(src, "marks") == 0 || strcmp(src, "mixed") == 0;
        process |= strcmp(src, "process") == 0 || strcmp(src, "mixed") == 0;
    }
    if (!marks && !process)
        return;
    say(w, 0,
        marks && !process ? W_ACCT_MARKS
        : !marks          ? W_ACCT_PROCESS
                          : W_ACCT_MIXED,
        (const char *)NULL);
    vers = json_object_get(summary, "versions");
    base = json_string_value(json_array_get(vers, 0));
    cand = json_string_value(json_array_get(vers, 1));
    if (!base || !cand)
        return;
    json_array_foreach(rows, i, row)
    {
        if (!summary_metric(row, "server_cpu_us"))
            continue;
        per_op(w, a, sizeof(a), row, "server_cpu_us", W_UNIT_US_OP, base, cand, 2);
        per_op(w, b, sizeof(b), row, SUMMARY_SERVER_SYSCALLS, W_UNIT_PER_OP, base, cand, 3);
        per_op(w, c, sizeof(c), row, SUMMARY_SERVER_CTXSW, W_UNIT_PER_OP, base, cand, 3);
        say(w, 1, W_ACCT_ROW, ju_str(row, "label", "?"), a, b, c, base, cand, (const char *)NULL);
    }
    say(w, 0, W_SYSCALLS_NOTE, (const char *)NULL);
}

/* v with the given decimals (-4: four significant digits, %g). */
static void fmt(char *out, size_t len, int decimals, double v)
{
    if (decimals < 0)
        snprintf(out, len, "%.*g", -decimals, v);
    else
        snprintf(out, len, "%.*f", decimals, v);
}

/* The disturbed runs of one version of a row that share a fate (excluded or kept): one list
 * item, their rounds listed and their figures as ranges (a run where every round of both
 * versions was disturbed would otherwise fill a screen with one line per run). */
static void disturbed_group(const struct wt *w, const char *label, const json_t *list,
                            const char *version, int excluded)
{
    double lo_oc = INFINITY, hi_oc = 0, hi_st = 0, lo_nv = INFINITY, hi_nv = 0;
    char rounds[256] = "", oc[32], oc2[32], st[32], nv[32], nv2[32];
    const json_t *d;
    size_t k, n = 0, used = 0;

    json_array_foreach(list, k, d)
    {
        double o = ju_num(d, "other_cpu_cores", 0), v = ju_num(d, "nivcsw", 0);

        if (strcmp(ju_str(d, "version", "?"), version) != 0 ||
            json_is_true(json_object_get(d, "excluded")) != excluded)
            continue;
        if (used + 24 < sizeof(rounds))
            used += (size_t)snprintf(rounds + used, sizeof(rounds) - used, "%s%.0f", n ? ", " : "",
                                     ju_num(d, "round", 0));
        lo_oc = fmin(lo_oc, o);
        hi_oc = fmax(hi_oc, o);
        hi_st = fmax(hi_st, ju_num(d, "steal_pct", 0));
        lo_nv = fmin(lo_nv, v);
        hi_nv = fmax(hi_nv, v);
        n++;
    }
    if (n == 0)
        return;
    fmt(oc, sizeof(oc), 2, lo_oc);
    fmt(oc2, sizeof(oc2), 2, hi_oc);
    fmt(st, sizeof(st), 1, hi_st);
    fmt(nv, sizeof(nv), 0, lo_nv);
    fmt(nv2, sizeof(nv2), 0, hi_nv);
    if (n == 1)
        say(w, 1, W_DISTURBED_RUN, label, version, rounds, oc, st, nv,
            i18n(w->lang, excluded ? W_LEFT_OUT : W_KEPT_FEW), (const char *)NULL);
    else
        say(w, 1, W_DISTURBED_RUNS, label, version, rounds, oc, oc2, st, nv, nv2,
            i18n(w->lang, excluded ? W_LEFT_OUT : W_KEPT_FEW), (const char *)NULL);
}

/* The disturbed runs (grouped per version and fate, in the order versions first appear) and
 * the outliers of one row, one list item each. */
static void row_interference(const struct wt *w, const json_t *row)
{
    const json_t *in = json_object_get(row, "interference"), *d;
    const json_t *list = json_object_get(in, "disturbed");
    const char *label = ju_str(row, "label", "?");
    char r[16], t[32], med[32], fac[16];
    size_t k, j;

    json_array_foreach(list, k, d)
    {
        const char *v = ju_str(d, "version", "?");
        int ex = json_is_true(json_object_get(d, "excluded")), seen = 0;

        for (j = 0; j < k && !seen; j++) {
            const json_t *e = json_array_get(list, j);

            seen = strcmp(ju_str(e, "version", "?"), v) == 0 &&
                   json_is_true(json_object_get(e, "excluded")) == ex;
        }
        if (!seen)
            disturbed_group(w, label, list, v, ex);
    }
    json_array_foreach(json_object_get(in, "outliers"), k, d)
    {
        fmt(r, sizeof(r), 0, ju_num(d, "round", 0));
        fmt(t, sizeof(t), -4, ju_num(d, "throughput", 0));
        fmt(med, sizeof(med), -4, ju_num(d, "median", 0));
        fmt(fac, sizeof(fac), 0, INTERFERENCE_OUTLIER_FACTOR);
        say(w, 1, W_OUTLIER, label, ju_str(d, "version", "?"), r, t, med, fac,
            i18n(w->lang,
                 json_is_false(json_object_get(d, "excluded")) ? W_OUTLIER_KEPT : W_OUTLIER_OUT),
            (const char *)NULL);
    }
}

static void disturbed(const struct wt *w, const json_t *summary, const json_t *meta)
{
    const json_t *rows = json_object_get(summary, "rows"), *row, *d, *lim;
    const json_t *again = json_object_get(meta, "disturbed_runs");
    char oc[32], st[32], r[16];
    size_t i, k, n = 0, any_interf = 0;
    int clean;

    lim = json_object_get(meta, "interference_limits");
    json_array_foreach(rows, i, row)
    {
        const json_t *in = json_object_get(row, "interference");

        any_interf += in != NULL;
        n += json_array_size(json_object_get(in, "disturbed")) +
             json_array_size(json_object_get(in, "outliers"));
    }
    if (!any_interf)
        return;
    clean = n == 0 && json_array_size(again) == 0;
    fmt(oc, sizeof(oc), 2, ju_num(lim, "other_cpu_cores", INTERFERENCE_OTHER_CORES));
    fmt(st, sizeof(st), 1, ju_num(lim, "steal_pct", INTERFERENCE_STEAL_PCT));
    say(w, 0, clean ? W_CLEAN : W_DISTURBED, oc, st, (const char *)NULL);
    if (clean)
        return;
    json_array_foreach(again, k, d)
    {
        fmt(r, sizeof(r), 0, ju_num(d, "round", 0));
        fmt(oc, sizeof(oc), 2, ju_num(d, "other_cpu_cores", 0));
        fmt(st, sizeof(st), 1, ju_num(d, "steal_pct", 0));
        say(w, 1, W_AGAIN, ju_str(d, "label", "?"), ju_str(d, "version", "?"), r, oc, st,
            (const char *)NULL);
    }
    json_array_foreach(rows, i, row) row_interference(w, row);
}

const char *window_text_heading(const char *lang)
{
    return i18n(lang, W_HEADING);
}

void window_text(const json_t *summary, const json_t *meta, const char *lang,
                 void (*put)(void *ctx, int item, const char *text), void *ctx)
{
    struct wt w = {lang, put, ctx};

    accounting(&w, summary);
    disturbed(&w, summary, meta);
}
