/* sentences: the facts of the model in words (see sentences.h). */
#include "report/sentences.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/i18n.h"
#include "analysis/stats.h"
#include "analysis/summary.h"
#include "analysis/summary_workload.h"
#include "util/fmt.h"
#include "util/jobs_util.h"

#define END ((const char *)NULL)

char *sent_rows(const struct report_model *m, const size_t *idx, size_t n, const char *lang)
{
    size_t i, shown = n > SENT_LIST_MAX ? SENT_LIST_MAX : n, len = 0;
    char *s = NULL, more[32];
    FILE *f = open_memstream(&s, &len);

    if (!f)
        return NULL;
    for (i = 0; i < shown; i++) {
        if (i > 0)
            fputs(i18n(lang, (i == shown - 1 && shown == n) ? M_AND : M_LIST_SEP), f);
        fputs(model_row_label(json_array_get(m->rows, idx[i])), f);
    }
    if (shown < n) {
        char *t;

        snprintf(more, sizeof(more), "%zu", n - shown);
        t = i18n_fill(i18n(lang, M_MORE), more, END);
        fputs(i18n(lang, M_AND), f);
        fputs(t ? t : "", f);
        free(t);
    }
    if (fclose(f) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

char *sent_rows_mask(const struct report_model *m, const unsigned char *mask, const char *lang)
{
    size_t *idx = calloc(m->nrows + 1, sizeof(size_t)), r, n = 0;
    char *s;

    if (!idx)
        return NULL;
    for (r = 0; r < m->nrows; r++)
        if (mask[r])
            idx[n++] = r;
    s = sent_rows(m, idx, n, lang);
    free(idx);
    return s;
}

static char *machine(const struct env_warning *w, const char *text, const char *lang)
{
    char cores[32];

    if (strcmp(lang, "zh") == 0 && w->kind == ENV_WARN_LOAD) {
        snprintf(cores, sizeof(cores), "%ld", w->cores);
        return i18n_fill(i18n(lang, w->at_end ? M_WARN_LOAD_END : M_WARN_LOAD_START), w->load_text,
                         cores, END);
    }
    if (strcmp(lang, "zh") == 0 && w->kind == ENV_WARN_GOVERNOR)
        return i18n_fill(i18n(lang, M_WARN_GOVERNOR), w->governor, END);
    if (strcmp(lang, "zh") == 0 && w->kind == ENV_WARN_HALT_POLL)
        return i18n_fill(i18n(lang, M_WARN_HALT_POLL), END);
    return i18n_fill(i18n(lang, M_WEAK_MACHINE), text ? text : w->text, END);
}

char *sent_weakness(const struct report_model *m, const struct weakness *w, const char *lang)
{
    char num[32], *rows, *s;

    if (!w)
        return i18n_fill(i18n(lang, M_WEAK_NONE), END);
    switch (w->kind) {
    case WEAK_STOPPED:
        return i18n_fill(i18n(lang, M_WEAK_STOPPED), w->text, END);
    case WEAK_NO_META:
        return i18n_fill(i18n(lang, M_WEAK_NOMETA), END);
    case WEAK_HASH:
        return i18n_fill(i18n(lang, M_WEAK_HASH), w->sha_recorded, w->sha_now, END);
    case WEAK_MACHINE:
        return machine(&w->machine, w->text, lang);
    case WEAK_TEXT:
        return i18n_fill(i18n(lang, M_WEAK_MACHINE), w->text, END);
    case WEAK_FAILED:
        snprintf(num, sizeof(num), "%lld", w->count);
        return i18n_fill(i18n(lang, M_WEAK_FAILED), num, END);
    case WEAK_UNSTABLE:
    case WEAK_INSECURE:
        rows = sent_rows_mask(m, w->kind == WEAK_UNSTABLE ? m->unstable : m->insecure, lang);
        snprintf(num, sizeof(num), "%.0f", w->noise_limit_pct);
        s = w->kind == WEAK_UNSTABLE
                ? i18n_fill(i18n(lang, M_WEAK_UNSTABLE), num, rows ? rows : "", END)
                : i18n_fill(i18n(lang, M_WEAK_INSECURE), rows ? rows : "", END);
        free(rows);
        return s;
    case WEAK_NOT_COUNTABLE:
        rows = sent_rows_mask(m, m->not_countable, lang);
        s = i18n_fill(i18n(lang, M_WEAK_NOT_COUNTABLE), rows ? rows : "", w->text, END);
        free(rows);
        return s;
    }
    return NULL;
}

char *sent_notable_intro(const struct report_model *m, size_t cand, const char *lang)
{
    char k[32], n[32];

    snprintf(k, sizeof(k), "%zu", m->cand[cand].n_notable);
    snprintf(n, sizeof(n), "%zu", m->nrows);
    return i18n_fill(i18n(lang, M_NOTABLE_INTRO), m->versions[cand], m->versions[0], k, n, END);
}

char *sent_completeness(const struct report_model *m, const char *lang)
{
    char s[5][32];

    snprintf(s[0], sizeof(s[0]), "%zu", m->complete_rows);
    snprintf(s[1], sizeof(s[1]), "%zu", m->nrows);
    snprintf(s[2], sizeof(s[2]), "%lld", m->runs_ok);
    snprintf(s[3], sizeof(s[3]), "%lld", m->runs_total);
    snprintf(s[4], sizeof(s[4]), "%lld", m->runs_failed);
    return i18n_fill(i18n(lang, M_COMPLETE_ROWS), s[0], s[1], s[2], s[3], s[4], END);
}

char *sent_driver_errors(const struct report_model *m, const char *lang)
{
    char s[MODEL_N_ERRORS][32];
    size_t j;

    for (j = 0; j < MODEL_N_ERRORS; j++)
        snprintf(s[j], sizeof(s[j]), "%lld", m->errors[j]);
    return i18n_fill(i18n(lang, M_DRIVER_ERRORS), s[0], s[1], s[2], s[3], s[4], END);
}

char *sent_reopened(const struct report_model *m, const char *lang)
{
    char k[32], n[32], list[512];
    size_t v, len = 0;

    if (m->n_reopened_rows == 0)
        return NULL;
    snprintf(k, sizeof(k), "%zu", m->n_reopened_rows);
    snprintf(n, sizeof(n), "%zu", m->nrows);
    list[0] = '\0';
    for (v = 0; v < m->nv && len < sizeof(list); v++)
        len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s %.1f", v ? ", " : "",
                                m->versions[v], m->reopened_max[v]);
    return i18n_fill(i18n(lang, M_REOPENED), k, n, list, END);
}

char *sent_series(const struct report_model *m, const char *lang)
{
    char k[32], n[32];

    if (m->n_series_rows == 0)
        return NULL;
    snprintf(k, sizeof(k), "%zu", m->n_series_rows);
    snprintf(n, sizeof(n), "%zu", m->nrows);
    return i18n_fill(i18n(lang, M_SERIES_LINE), k, n, END);
}

char *sent_evidence(const struct report_model *m, double alpha, const char *lang)
{
    char r[32], comb[32], p[32], a[32];

    if (m->rank_combinations <= 0)
        return NULL;
    snprintf(r, sizeof(r), "%lld", m->rounds);
    snprintf(comb, sizeof(comb), "%.0f", m->rank_combinations);
    snprintf(p, sizeof(p), "%.4f", m->p_disjoint);
    /* {3}: every paired ratio on one side by chance, 2/2^rounds (alpha, the summary's
     * false-flag chance, is stated by sent_floor) */
    (void)alpha;
    snprintf(a, sizeof(a), "%.4f", 2 / ldexp(1, (int)(m->rounds < 1000 ? m->rounds : 1000)));
    return i18n_fill(i18n(lang, M_EVID_MWU), r, comb, p, a, END);
}

char *sent_floor(const json_t *chance, const char *lang)
{
    char level[32], runs[32], a[32];
    const json_t *reach = json_object_get(chance, "reachable");

    if (!json_is_boolean(reach))
        return NULL;
    snprintf(level, sizeof(level), "%.2f", json_number_value(json_object_get(chance, "level")));
    snprintf(runs, sizeof(runs), "%lld",
             (long long)json_integer_value(json_object_get(chance, "runs_per_side")));
    /* the row's own degrees of freedom, paired: runs − 1 */
    snprintf(a, sizeof(a), "%lld",
             (long long)json_integer_value(json_object_get(chance, "runs_per_side")) > 1
                 ? (long long)json_integer_value(json_object_get(chance, "runs_per_side")) - 1
                 : 0);
    return i18n_fill(i18n(lang, json_is_true(reach) ? M_EVID_FLOOR : M_EVID_FLOOR_NO), level, runs,
                     a, END);
}

char *sent_family(const json_t *chance, const char *lang)
{
    char n[32], level[32], a[32];
    const json_t *f = json_object_get(chance, "family");
    double c = json_number_value(json_object_get(f, "chance"));

    if (!json_is_object(f))
        return NULL;
    snprintf(n, sizeof(n), "%lld", (long long)json_integer_value(json_object_get(f, "metrics")));
    snprintf(level, sizeof(level), "%.2f", json_number_value(json_object_get(f, "level")));
    snprintf(a, sizeof(a), "%.4f", c);
    return i18n_fill(i18n(lang, c > 0 ? M_EVID_FAMILY : M_EVID_FAMILY_NO), n, level, a, END);
}

char *sent_unjudged(const struct report_model *m, const char *lang)
{
    char a[32], b[32], *rows, *s;

    if (m->n_unjudged == 0)
        return NULL;
    rows = sent_rows_mask(m, m->unjudged, lang);
    if (!rows)
        return NULL;
    snprintf(a, sizeof(a), "%zu", m->n_unjudged);
    snprintf(b, sizeof(b), "%zu", m->nrows);
    s = i18n_fill(i18n(lang, M_UNJUDGED), a, b, rows, END);
    free(rows);
    return s;
}

char *sent_undecided(const struct report_model *m, const char *lang)
{
    char a[32], b[32], *rows, *s;

    if (m->n_undecided == 0)
        return NULL;
    rows = sent_rows_mask(m, m->undecided, lang);
    if (!rows)
        return NULL;
    snprintf(a, sizeof(a), "%zu", m->n_undecided);
    snprintf(b, sizeof(b), "%zu", m->nrows);
    s = i18n_fill(i18n(lang, M_UNDECIDED), a, b, rows, END);
    free(rows);
    return s;
}

char *sent_one_best(const struct report_model *m, const char *lang)
{
    char t[64], l[64];

    if (m->best_throughput_row < 0 || m->lowest_p99_row < 0)
        return NULL;
    snprintf(t, sizeof(t), "%.0f", m->best_throughput);
    snprintf(l, sizeof(l), "%.1f", m->lowest_p99);
    return i18n_fill(i18n(lang, M_ONE_BEST),
                     model_row_label(json_array_get(m->rows, (size_t)m->best_throughput_row)), t,
                     model_row_label(json_array_get(m->rows, (size_t)m->lowest_p99_row)), l, END);
}

/* A round trip's median in whole µs, or "?". */
static void rtt_text(const json_t *rtt, char *out, size_t outlen)
{
    const json_t *v = json_object_get(rtt, "median_us");

    if (json_is_number(v))
        snprintf(out, outlen, "%.0f", json_number_value(v));
    else
        snprintf(out, outlen, "?");
}

char *sent_server_host(const json_t *meta, const char *lang)
{
    const json_t *h = json_object_get(meta, "server_host"), *mach = json_object_get(h, "machine");
    const char *addr = json_string_value(json_object_get(h, "address"));
    const char *name = json_string_value(json_object_get(mach, "hostname"));
    const char *kernel = json_string_value(json_object_get(mach, "kernel"));
    char cpus[32], before[32], after[32];

    if (!json_is_object(h))
        return NULL;
    snprintf(cpus, sizeof(cpus), "%lld",
             (long long)json_integer_value(json_object_get(mach, "cpus")));
    rtt_text(json_object_get(h, "rtt_before"), before, sizeof(before));
    rtt_text(json_object_get(h, "rtt_after"), after, sizeof(after));
    return i18n_fill(i18n(lang, M_ENV_NETWORK_APART), addr ? addr : "?", name ? name : "?", cpus,
                     kernel ? kernel : "?", before, after, END);
}

char *sent_steps_state(const json_t *rows, const struct steps *st, const char *base,
                       const char *cand, const char *lang)
{
    size_t i;

    for (i = 0; i < st->n; i++) {
        const json_t *row = json_array_get(rows, st->row[i]),
                     *sa = json_object_get(row, "state_after");
        const json_t *kb = json_object_get(json_object_get(sa, base), "keys"),
                     *kc = json_object_get(json_object_get(sa, cand), "keys");
        double b = json_number_value(kb), c = json_number_value(kc);
        char ks[32], bs[32], cs[32];

        if (!json_is_number(kb) || !json_is_number(kc))
            return NULL; /* not a server that counts keys */
        if (summary_same_keys(b, c))
            continue;
        snprintf(ks, sizeof(ks), "%zu", i + 1);
        snprintf(bs, sizeof(bs), "%.0f", b);
        snprintf(cs, sizeof(cs), "%.0f", c);
        return i18n_fill(i18n(lang, M_STEPS_STATE_DIFF), base, cand, ks,
                         json_string_value(json_object_get(row, "label")), bs, cs, END);
    }
    return st->n ? i18n_fill(i18n(lang, M_STEPS_STATE_SAME), base, cand, END) : NULL;
}

const char *sent_verdict_word(const char *lang, const char *v)
{
    if (strcmp(v, VERDICT_REGRESSED) == 0)
        return i18n(lang, M_V_REGRESSED);
    if (strcmp(v, VERDICT_IMPROVED) == 0)
        return i18n(lang, M_V_IMPROVED);
    if (strcmp(v, VERDICT_UNDECIDED) == 0)
        return i18n(lang, M_V_UNDECIDED);
    if (strcmp(v, VERDICT_FAILED) == 0)
        return i18n(lang, M_V_FAILED);
    return v;
}

char *sent_steps_fresh(const json_t *rows, const struct steps *st, const char *base,
                       const char *cand, const char *lang)
{
    size_t k = steps_first_regressed(st, rows, "throughput", cand);
    const json_t *row, *fvs;
    char ks[32], seq[64], fresh[64];
    const char *fv;

    if (!k)
        return NULL;
    row = json_array_get(rows, st->row[k - 1]);
    if (!(fvs = steps_fresh_vs(row, cand)))
        return NULL;
    snprintf(ks, sizeof(ks), "%zu", k);
    fmt_change(json_number_value(json_object_get(summary_vs(row, "throughput", cand), "change")),
               seq, sizeof(seq));
    fmt_change(json_number_value(json_object_get(fvs, "change")), fresh, sizeof(fresh));
    fv = ju_str(fvs, "verdict", "");
    if (strcmp(fv, VERDICT_REGRESSED) == 0)
        return i18n_fill(i18n(lang, M_STEPS_FRESH_TOO), cand, base, ks,
                         json_string_value(json_object_get(row, "label")), fresh, END);
    return i18n_fill(i18n(lang, M_STEPS_BUILDS), cand, base, ks,
                     json_string_value(json_object_get(row, "label")), seq, fresh,
                     sent_verdict_word(lang, fv), END);
}

char *sent_steps_first(const json_t *rows, const struct steps *st, const char *base,
                       const char *cand, const char *lang)
{
    size_t k = steps_first_regressed(st, rows, "throughput", cand);
    const json_t *row;
    char ks[32], ns[32], change[64];

    if (!k)
        return i18n_fill(i18n(lang, M_STEPS_NONE), cand, base, END);
    row = json_array_get(rows, st->row[k - 1]);
    snprintf(ks, sizeof(ks), "%zu", k);
    snprintf(ns, sizeof(ns), "%zu", st->n);
    fmt_change(json_number_value(json_object_get(summary_vs(row, "throughput", cand), "change")),
               change, sizeof(change));
    return i18n_fill(i18n(lang, M_STEPS_FIRST), cand, base, ks, ns,
                     json_string_value(json_object_get(row, "label")), change, END);
}
