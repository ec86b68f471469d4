/* term: the compact terminal table of a summary (see term.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/outcome.h"
#include "analysis/summary.h"
#include "report/term.h"

#include "util/jobs_util.h"

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

#define VERDICT_CELLS 10 /* "incomplete" */
#define TERM_LABEL 512
#define LABEL_PARTS 32
static const char label_sep[] = " \xC2\xB7 "; /* " · " between a label's values */

/* The values of a label (between " · "): their starts and lengths; returns how many. */
static size_t label_split(const char *s, const char **part, size_t *len)
{
    size_t n = 0;
    const char *sep;

    while (n < LABEL_PARTS) {
        sep = strstr(s, label_sep);
        part[n] = s;
        len[n++] = sep ? (size_t)(sep - s) : strlen(s);
        if (!sep)
            break;
        s = sep + strlen(label_sep);
    }
    return n;
}

/* Whether the value p (n bytes) is one of every row's label values. */
static int label_common(const json_t *rows, const char *p, size_t n)
{
    const char *part[LABEL_PARTS];
    size_t len[LABEL_PARTS], i, k, np;
    const json_t *row;

    json_array_foreach(rows, i, row)
    {
        np = label_split(ju_str(row, "label", ""), part, len);
        for (k = 0; k < np && !(len[k] == n && memcmp(part[k], p, n) == 0); k++)
            ;
        if (k == np)
            return 0;
    }
    return 1;
}

/* Appends value p (n bytes) to out (TERM_LABEL bytes), " · " between values. */
static void label_add(char *out, const char *p, size_t n)
{
    size_t o = strlen(out);

    snprintf(out + o, TERM_LABEL - o, "%s%.*s", o ? label_sep : "", (int)n, p);
}

/* Whether the value p (n bytes) is one of the nc values in cp/cl. */
static int label_in(const char *const *cp, const size_t *cl, size_t nc, const char *p, size_t n)
{
    size_t k;

    for (k = 0; k < nc; k++)
        if (cl[k] == n && memcmp(cp[k], p, n) == 0)
            return 1;
    return 0;
}

/* Each row's label without the values every row shares (in labels[]), those shared values
 * in common (empty when there is one row or none is shared). A row left without a value
 * keeps its whole label. The shared values are found once (they are among the first row's),
 * so this is linear in the rows. */
static void label_rows(const json_t *rows, char (*labels)[TERM_LABEL], char *common)
{
    const char *part[LABEL_PARTS], *cp[LABEL_PARTS];
    size_t len[LABEL_PARTS], cl[LABEL_PARTS], i, k, np, nc = 0;
    const json_t *row;

    common[0] = '\0';
    if (json_array_size(rows) > 1) {
        np = label_split(ju_str(json_array_get(rows, 0), "label", ""), part, len);
        for (k = 0; k < np; k++)
            if (label_common(rows, part[k], len[k])) {
                label_add(common, part[k], len[k]);
                cp[nc] = part[k];
                cl[nc++] = len[k];
            }
    }
    json_array_foreach(rows, i, row)
    {
        const char *full = ju_str(row, "label", "");
        labels[i][0] = '\0';
        np = label_split(full, part, len);
        for (k = 0; nc && k < np; k++)
            if (!label_in(cp, cl, nc, part[k], len[k]))
                label_add(labels[i], part[k], len[k]);
        if (!labels[i][0])
            snprintf(labels[i], TERM_LABEL, "%s", full);
    }
}

/* label cut to `cells` at a boundary between values ("…" standing for the rest), padded
 * when pad;
 * a first value wider than that is cut in its middle (nothing else fits). */
static void label_fit(const char *label, size_t cells, int pad, char *out, size_t outlen)
{
    const char *part[LABEL_PARTS];
    size_t len[LABEL_PARTS], np, k;
    char buf[TERM_LABEL] = "", try[TERM_LABEL];

    if (term_width(label) <= cells) {
        term_fit(label, cells, pad, out, outlen);
        return;
    }
    np = label_split(label, part, len);
    for (k = 0; k < np; k++) {
        snprintf(try, sizeof(try), "%s", buf);
        label_add(try, part[k], len[k]);
        if (term_width(try) + 2 > cells) /* room for " …" */
            break;
        snprintf(buf, sizeof(buf), "%s", try);
    }
    if (!buf[0]) {
        term_fit(label, cells, pad, out, outlen);
        return;
    }
    snprintf(try, sizeof(try), "%s \xE2\x80\xA6", buf);
    term_fit(try, cells, pad, out, outlen);
}

/* Below the table, for each undecided (row, candidate): its label, then one indented line per
 * gated metric that is undecided, with its reason and the runs a side that would decide it
 * ("undecided: 64 B · window1" / "  throughput: too few runs (~7 runs a side would decide)").
 * The label is cut to width cells like the table's. */
static void undecided_lines(FILE *f, const json_t *rows, const json_t *versions,
                            const unsigned char *gated, char (*labels)[TERM_LABEL], size_t width)
{
    const json_t *row;
    size_t i, v, nv = json_array_size(versions);
    unsigned char g[METRIC_ALL];
    char cell[TERM_LABEL], label[TERM_LABEL];
    int m;

    json_array_foreach(rows, i, row) for (v = 1; v < nv; v++)
    {
        const char *cand = json_string_value(json_array_get(versions, v));

        /* the row's own gated set: a fixed-rate row gates server CPU, not throughput */
        if (gated)
            memcpy(g, gated, sizeof(g));
        else
            outcome_default_gated(g);
        outcome_rate_rules(json_object_get(row, "params"), gated != NULL, NULL, g);

        if (strcmp(outcome_row_verdict(row, cand, gated), VERDICT_UNDECIDED) != 0)
            continue;
        snprintf(label, sizeof(label), "undecided: %s%s%s", nv > 2 ? cand : "", nv > 2 ? ": " : "",
                 labels[i]);
        label_fit(label, width, 0, cell, sizeof(cell));
        fprintf(f, "%s\n", cell);
        for (m = 0; m < METRIC_ALL; m++) {
            const json_t *vs = summary_vs(row, metric_name((enum metric)m), cand);

            if (!g[m] || strcmp(ju_str(vs, "verdict", ""), VERDICT_UNDECIDED) != 0)
                continue;
            fprintf(f, "  %s: %s", metric_name((enum metric)m), ju_str(vs, "reason", "?"));
            if (ju_num(vs, "runs_needed", 0) > 0)
                fprintf(f, " (~%.0f runs a side would decide)", ju_num(vs, "runs_needed", 0));
            fputc('\n', f);
        }
    }
}

/* Columns: a metric's is its name's width + 1 (at least 8); the label gets the rest. */
static void lay_out(const json_t *summary, const unsigned char *gated, size_t width,
                    char (*labels)[TERM_LABEL], struct layout *L)
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
        size_t w = term_width(labels[i]);
        (void)row;
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
    char cell[TERM_LABEL], num[32];
    size_t k;

    label_fit(label, L->label, 1, cell, sizeof(cell));
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
    char cell[TERM_LABEL], label[TERM_LABEL + 64], common[TERM_LABEL];
    char(*labels)[TERM_LABEL] = calloc(json_array_size(rows) + 1, TERM_LABEL);
    size_t i, v, k, nv = json_array_size(versions);
    int rc = -1;

    if (!labels)
        return -1;
    if (!gated) {
        outcome_default_gated(dflt);
        gated = dflt;
    }
    label_rows(rows, labels, common);
    lay_out(summary, gated, width, labels, &L);
    L.planned = ju_num(summary, "rounds", 0);
    if (common[0]) {
        /* what every row shares, once; cut at a value boundary like the labels */
        label_fit(common, width > 12 ? width - 10 : width, 0, cell, sizeof(cell));
        fprintf(f, "all rows: %s\n", cell);
    }
    term_fit(nv > 2 ? "candidate: row" : "row", L.label, 1, cell, sizeof(cell));
    fputs(cell, f);
    for (k = 0; k < L.n_metrics; k++)
        fprintf(f, " %*s", (int)L.col[k] - 1, metric_name((enum metric)L.metric[k]));
    fprintf(f, "  verdict\n");
    json_array_foreach(rows, i, row)
    {
        const char *lbl = labels[i];

        for (v = nv > 1 ? 1 : 0; v < (nv > 1 ? nv : 1); v++) {
            const char *cand = nv > 1 ? json_string_value(json_array_get(versions, v)) : NULL;

            if (nv > 2)
                snprintf(label, sizeof(label), "%s: %s", cand, lbl);
            else
                snprintf(label, sizeof(label), "%s", lbl);
            if (print_line(f, &L, row, cand, label, gated) < 0)
                goto out;
        }
    }
    undecided_lines(f, rows, versions, gated, labels, width);
    if (json_is_object(oc)) {
        const json_t *vd = json_object_get(oc, "verdicts");
        fprintf(f, "%s: %lld regressed, %lld improved, %lld ~ (within threshold), %lld undecided",
                ju_str(oc, "overall", "?"), (long long)ju_num(vd, VERDICT_REGRESSED, 0),
                (long long)ju_num(vd, VERDICT_IMPROVED, 0), (long long)ju_num(vd, VERDICT_SAME, 0),
                (long long)ju_num(vd, VERDICT_UNDECIDED, 0));
        if (ju_num(vd, OUTCOME_INCOMPLETE, 0) > 0)
            fprintf(f, ", %lld %s", (long long)ju_num(vd, OUTCOME_INCOMPLETE, 0),
                    OUTCOME_INCOMPLETE);
        fprintf(f, ", %lld failed", (long long)ju_num(vd, VERDICT_FAILED, 0));
        if (ju_num(oc, "failed_runs", 0) > 0)
            fprintf(f, " (%lld runs failed)", (long long)ju_num(oc, "failed_runs", 0));
        fputc('\n', f);
    }
    rc = fflush(f) == 0 && !ferror(f) ? 0 : -1;
out:
    free(labels);
    return rc;
}
