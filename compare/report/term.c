/* term: the compact terminal table of a summary (see term.h). */
#include <string.h>

#include "outcome.h"
#include "summary.h"
#include "term.h"

/* Decodes one UTF-8 character at s: its code point (or -1 for an invalid byte) and length. */
static long utf8_next(const unsigned char *s, size_t *len)
{
    long cp;
    size_t n, i;

    if (s[0] < 0x80) {
        *len = 1;
        return s[0];
    }
    if ((s[0] & 0xE0) == 0xC0) {
        n = 2;
        cp = s[0] & 0x1F;
    } else if ((s[0] & 0xF0) == 0xE0) {
        n = 3;
        cp = s[0] & 0x0F;
    } else if ((s[0] & 0xF8) == 0xF0) {
        n = 4;
        cp = s[0] & 0x07;
    } else {
        *len = 1;
        return -1;
    }
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *len = 1;
            return -1;
        }
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    *len = n;
    return cp;
}

/* Cells of one code point: 0 for combining marks and zero-width characters, 2 for East Asian
 * wide and fullwidth ranges and emoji, else 1. */
static size_t cp_cells(long cp)
{
    if (cp < 0)
        return 1;
    if ((cp >= 0x300 && cp <= 0x36F) || (cp >= 0x200B && cp <= 0x200F) ||
        (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
        (cp >= 0x20D0 && cp <= 0x20FF))
        return 0;
    if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
        (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
        (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1FAFF) ||
        (cp >= 0x20000 && cp <= 0x3FFFD))
        return 2;
    return 1;
}

size_t term_width(const char *s)
{
    size_t w = 0, len;

    while (*s) {
        w += cp_cells(utf8_next((const unsigned char *)s, &len));
        s += len;
    }
    return w;
}

/* Copies whole characters of s taking at most `cells` cells into out (room bytes); returns
 * the bytes copied and adds the cells to *used. */
static size_t copy_cells(const char *s, size_t cells, char *out, size_t room, size_t *used)
{
    size_t o = 0, len, c, u = 0;

    while (*s) {
        c = cp_cells(utf8_next((const unsigned char *)s, &len));
        if (u + c > cells || o + len >= room)
            break;
        memcpy(out + o, s, len);
        o += len;
        u += c;
        s += len;
    }
    *used += u;
    return o;
}

/* The suffix of s that takes at most `cells` cells (whole characters). */
static const char *tail_of(const char *s, size_t cells)
{
    size_t len;

    while (*s && term_width(s) > cells) {
        utf8_next((const unsigned char *)s, &len);
        s += len;
    }
    return s;
}

size_t term_fit(const char *s, size_t cells, int pad, char *out, size_t outlen)
{
    static const char ell[] = "\xE2\x80\xA6"; /* … */
    size_t used = 0, o = 0;

    if (outlen < sizeof(ell) + 1) {
        if (outlen)
            out[0] = '\0';
        return 0;
    }
    if (term_width(s) <= cells) {
        o = copy_cells(s, cells, out, outlen, &used);
    } else if (cells > 0) {
        /* cut in the middle: labels differ at both ends (command first, extras last) */
        size_t head = (cells - 1) / 2, tail = cells - 1 - head;
        o = copy_cells(s, head, out, outlen - sizeof(ell), &used);
        memcpy(out + o, ell, sizeof(ell) - 1);
        o += sizeof(ell) - 1;
        used++;
        o += copy_cells(tail_of(s, tail), tail, out + o, outlen - o, &used);
    }
    while (pad && used < cells && o + 1 < outlen) {
        out[o++] = ' ';
        used++;
    }
    out[o] = '\0';
    return used;
}

struct layout {
    int metric[METRIC_ALL];
    size_t n_metrics, col[METRIC_ALL], label;
    double planned; /* the summary's planned rounds (summary_judged_change) */
};

/* Whether a row of the summary measured metric m (the optional ones only where counted). */
static int measured(const json_t *rows, enum metric m)
{
    const json_t *row;
    size_t i;

    if ((int)m < METRIC_COUNT)
        return 1;
    json_array_foreach(rows, i, row)
    {
        if (json_object_get(json_object_get(row, "metrics"), metric_name(m)))
            return 1;
    }
    return 0;
}

#define VERDICT_CELLS 12 /* "inconclusive" */

/* Columns: a metric's is its name's width + 1 (at least 8); the label gets the rest. */
static void lay_out(const json_t *summary, const unsigned char *gated, size_t width,
                    struct layout *L)
{
    const json_t *rows = json_object_get(summary, "rows"), *row;
    size_t i, used = 0, longest = 5;
    int m;

    memset(L, 0, sizeof(*L));
    for (m = 0; m < METRIC_ALL; m++)
        if (gated[m] && measured(rows, (enum metric)m)) {
            size_t w = strlen(metric_name((enum metric)m)) + 1;
            L->metric[L->n_metrics] = m;
            L->col[L->n_metrics++] = w < 8 ? 8 : w;
            used += w < 8 ? 8 : w;
        }
    json_array_foreach(rows, i, row)
    {
        size_t w = term_width(summary_str(row, "label", ""));
        longest = w > longest ? w : longest;
    }
    if (json_array_size(json_object_get(summary, "versions")) > 2) {
        const json_t *versions = json_object_get(summary, "versions"), *v;
        size_t cw = 0;
        json_array_foreach(versions, i, v)
        {
            size_t w = term_width(json_string_value(v) ? json_string_value(v) : "");
            cw = w > cw ? w : cw;
        }
        longest += cw + 2;
    }
    used += VERDICT_CELLS + 2;
    L->label = width > used + 10 ? width - used : 10;
    if (L->label > longest)
        L->label = longest;
}

static int print_line(FILE *f, const struct layout *L, const json_t *row, const char *cand,
                      const char *label, const unsigned char *gated)
{
    char cell[512], num[32];
    size_t k;

    term_fit(label, L->label, 1, cell, sizeof(cell));
    fputs(cell, f);
    for (k = 0; k < L->n_metrics; k++) {
        const char *name = metric_name((enum metric)L->metric[k]);
        const json_t *vs = summary_vs(row, name, cand);
        double ch;

        /* the change the verdict was judged on: after extra rounds, the paired one */
        if (cand && vs &&
            summary_judged_change(json_object_get(json_object_get(row, "metrics"), name), vs,
                                  L->planned, &ch) == 0)
            snprintf(num, sizeof(num), "%+.1f%%", ch * 100);
        else
            snprintf(num, sizeof(num), "-");
        fprintf(f, " %*s", (int)L->col[k] - 1, num);
    }
    return fprintf(f, "  %s\n", outcome_row_verdict(row, cand, gated)) < 0 ? -1 : 0;
}

int term_table(FILE *f, const json_t *summary, const unsigned char *gated, size_t width)
{
    const json_t *rows = json_object_get(summary, "rows"), *row;
    const json_t *versions = json_object_get(summary, "versions");
    const json_t *oc = json_object_get(summary, "outcome");
    unsigned char dflt[METRIC_ALL];
    struct layout L;
    char cell[512], label[512];
    size_t i, v, k, nv = json_array_size(versions);

    if (!gated) {
        outcome_default_gated(dflt);
        gated = dflt;
    }
    lay_out(summary, gated, width, &L);
    L.planned = summary_num(summary, "rounds", 0);
    term_fit(nv > 2 ? "candidate: row" : "row", L.label, 1, cell, sizeof(cell));
    fputs(cell, f);
    for (k = 0; k < L.n_metrics; k++)
        fprintf(f, " %*s", (int)L.col[k] - 1, metric_name((enum metric)L.metric[k]));
    fprintf(f, "  verdict\n");
    json_array_foreach(rows, i, row)
    {
        const char *lbl = summary_str(row, "label", "");

        for (v = nv > 1 ? 1 : 0; v < (nv > 1 ? nv : 1); v++) {
            const char *cand = nv > 1 ? json_string_value(json_array_get(versions, v)) : NULL;

            if (nv > 2)
                snprintf(label, sizeof(label), "%s: %s", cand, lbl);
            else
                snprintf(label, sizeof(label), "%s", lbl);
            if (print_line(f, &L, row, cand, label, gated) < 0)
                return -1;
        }
    }
    if (json_is_object(oc)) {
        const json_t *vd = json_object_get(oc, "verdicts");
        fprintf(f, "%s: %lld regressed, %lld improved, %lld unchanged, %lld unstable, %lld failed",
                summary_str(oc, "overall", "?"), (long long)summary_num(vd, VERDICT_REGRESSED, 0),
                (long long)summary_num(vd, VERDICT_IMPROVED, 0),
                (long long)summary_num(vd, OUTCOME_UNCHANGED, 0),
                (long long)(summary_num(vd, VERDICT_UNSTABLE, 0) +
                            summary_num(vd, OUTCOME_INCOMPLETE, 0)),
                (long long)summary_num(vd, VERDICT_FAILED, 0));
        if (summary_num(vd, OUTCOME_INCONCLUSIVE, 0) > 0)
            fprintf(f, ", %lld %s", (long long)summary_num(vd, OUTCOME_INCONCLUSIVE, 0),
                    OUTCOME_INCONCLUSIVE);
        if (summary_num(oc, "failed_runs", 0) > 0)
            fprintf(f, " (%lld runs failed)", (long long)summary_num(oc, "failed_runs", 0));
        fputc('\n', f);
    }
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
