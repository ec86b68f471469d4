/* report.html: the differential flame graph of the counted cost — per row and candidate, one
 * inline SVG of every call path's inclusive instructions per operation (the folded stacks of
 * the counted runs, flame_read.h), baseline against candidate. Root at the bottom, callees
 * above their caller in name order; a frame is as wide as the larger of its two figures or its
 * callees together; red where the candidate spends more on the path, blue where less, grey
 * where they differ by less than FLAME_SAME (or one instruction). A <title> per frame gives
 * both figures and the change. No script, no external URL; the same input gives the same
 * bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/i18n.h"
#include "report/report_html_int.h"
#include "analysis/summary.h"

#include "util/jobs_util.h"

#define FLAME_W 1000.0    /* viewBox width */
#define FLAME_ROW 17.0    /* frame height with its gap */
#define FLAME_TOP 22.0    /* the line that names the function that changed most */
#define FLAME_MIN_PX 0.5  /* narrower frames (and their callees) are not drawn */
#define FLAME_FRAMES 4000 /* at most this many frames per graph */
#define FLAME_SAME 0.01   /* |change| below 1%: grey */
#define FLAME_FULL 0.25   /* |change| from 25%: the deepest colour */
#define FLAME_CHAR_PX 6.6 /* width of a character at font-size 11, monospace */
#define FLAME_DEPTH 128   /* deeper frames of a path are counted in the frame at this depth */

struct fnode {
    char *name;
    double b, c, w;
    size_t child, next; /* first callee, next sibling; 0 = none (0 is the root) */
};

struct ftree {
    struct fnode *n;
    size_t len, cap;
    int failed;
};

static size_t node_new(struct ftree *t, const char *name, size_t len)
{
    if (t->len == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        struct fnode *nn = realloc(t->n, cap * sizeof(*nn));

        if (!nn) {
            t->failed = 1;
            return 0;
        }
        t->n = nn;
        t->cap = cap;
    }
    memset(&t->n[t->len], 0, sizeof(t->n[0]));
    if (!(t->n[t->len].name = strndup(name, len))) {
        t->failed = 1;
        return 0;
    }
    return t->len++;
}

/* The callee `name` of parent, created in name order when new; 0 when out of memory. */
static size_t callee(struct ftree *t, size_t parent, const char *name, size_t len)
{
    size_t prev = 0, k = t->n[parent].child, fresh;
    int cmp = 1;

    for (; k; prev = k, k = t->n[k].next) {
        cmp = strncmp(t->n[k].name, name, len);
        if (cmp == 0 && t->n[k].name[len] != '\0')
            cmp = 1;
        if (cmp >= 0)
            break;
    }
    if (k && cmp == 0)
        return k;
    if (!(fresh = node_new(t, name, len)))
        return 0;
    t->n[fresh].next = k;
    if (prev)
        t->n[prev].next = fresh;
    else
        t->n[parent].child = fresh;
    return fresh;
}

static void tree_add(struct ftree *t, const json_t *stacks, int cand)
{
    const char *path;
    json_t *v;

    json_object_foreach((json_t *)stacks, path, v)
    {
        double x = json_number_value(v);
        const char *p = path;
        size_t cur = 0;
        int depth = 0;

        for (;; depth++) {
            const char *semi = strchr(p, ';');
            size_t len = semi ? (size_t)(semi - p) : strlen(p);

            *(cand ? &t->n[cur].c : &t->n[cur].b) += x;
            if (!len || t->failed || depth >= FLAME_DEPTH)
                break;
            if (!(cur = callee(t, cur, p, len)))
                return;
            if (!semi) {
                *(cand ? &t->n[cur].c : &t->n[cur].b) += x;
                break;
            }
            p = semi + 1;
        }
    }
}

static double tree_width(struct ftree *t, size_t k)
{
    double sum = 0;
    size_t ch;

    for (ch = t->n[k].child; ch; ch = t->n[ch].next)
        sum += tree_width(t, ch);
    t->n[k].w = fmax(fmax(t->n[k].b, t->n[k].c), sum);
    return t->n[k].w;
}

static void tree_free(struct ftree *t)
{
    size_t i;

    for (i = 0; i < t->len; i++)
        free(t->n[i].name);
    free(t->n);
}

/* The deepest level drawn (root 0) under the same cuts as draw(). */
static int tree_depth(const struct ftree *t, size_t k, double scale, int depth)
{
    int best = depth;
    size_t ch;

    for (ch = t->n[k].child; ch; ch = t->n[ch].next)
        if (t->n[ch].w * scale >= FLAME_MIN_PX) {
            int d = tree_depth(t, ch, scale, depth + 1);
            best = d > best ? d : best;
        }
    return best;
}

static void fmt_count(double v, char *out, size_t len)
{
    snprintf(out, len, v >= 100 || v == 0 ? "%.0f" : v >= 1 ? "%.1f" : "%.2f", v);
}

/* The fill of a frame by its change: grey, or red / blue the deeper the larger. */
static void frame_fill(const struct fnode *n, char *out, size_t len)
{
    double d = n->c - n->b, big = fmax(n->b, n->c);
    double t = big > 0 ? fmin(1.0, fabs(d) / big / FLAME_FULL) : 0;
    int lo = (int)lround(215 - 165 * fmax(t, 0.15));

    if (fabs(d) < 1.0 || big <= 0 || fabs(d) / big < FLAME_SAME)
        snprintf(out, len, "#d4d4d4");
    else if (d > 0)
        snprintf(out, len, "rgb(240,%d,%d)", lo, lo);
    else
        snprintf(out, len, "rgb(%d,%d,240)", lo, lo);
}

static void frame_title(const struct html_ctx *c, const struct fnode *n)
{
    char b[32], cc[32], ch[48];
    char *t;

    fmt_count(n->b, b, sizeof(b));
    fmt_count(n->c, cc, sizeof(cc));
    if (n->b <= 0)
        snprintf(ch, sizeof(ch), "%s", HT(c, F_FLAME_NEW));
    else if (n->c <= 0)
        snprintf(ch, sizeof(ch), "%s", HT(c, F_FLAME_GONE));
    else
        html_fmt_change((n->c - n->b) / n->b, ch, sizeof(ch));
    t = i18n_fill(HT(c, F_FLAME_TIP), n->name, b, cc, ch, (const char *)NULL);
    fputs("<title>", c->f);
    html_esc(c, t ? t : n->name);
    fputs("</title>", c->f);
    free(t);
}

struct draw {
    const struct html_ctx *c;
    const struct ftree *t;
    double scale;
    int top_depth;
    unsigned frames;
};

static void draw(struct draw *d, size_t k, double x, int depth)
{
    const struct fnode *n = &d->t->n[k];
    double px = n->w * d->scale, y = FLAME_TOP + (d->top_depth - depth) * FLAME_ROW;
    size_t ch, chars = (size_t)((px - 6) / FLAME_CHAR_PX);
    char fill[32];

    if (px < FLAME_MIN_PX || d->frames >= FLAME_FRAMES)
        return;
    d->frames++;
    frame_fill(n, fill, sizeof(fill));
    fputs("<g>", d->c->f);
    frame_title(d->c, n);
    fprintf(d->c->f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>", x,
            y, px, FLAME_ROW - 1, fill);
    if (chars >= 3) {
        size_t len = strlen(n->name);
        char label[256];

        if (len > chars)
            snprintf(label, sizeof(label), "%.*s..", (int)(chars - 2 < 250 ? chars - 2 : 250),
                     n->name);
        else
            snprintf(label, sizeof(label), "%s", n->name);
        fprintf(d->c->f, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FLAME_ROW - 5);
        html_esc(d->c, label);
        fputs("</text>", d->c->f);
    }
    fputs("</g>\n", d->c->f);
    for (ch = n->child; ch; ch = d->t->n[ch].next) {
        draw(d, ch, x, depth + 1);
        x += d->t->n[ch].w * d->scale;
    }
}

/* Per function the change of its own (self) instructions, summed over its paths: the name
 * with the largest |change| into *name (NULL when none), the change into *delta. */
static void changed_most(const json_t *base, const json_t *cand, json_t *acc, const char **name,
                         double *delta)
{
    const json_t *sides[2] = {base, cand};
    const char *path, *key;
    json_t *v;
    int s;

    *name = NULL;
    *delta = 0;
    for (s = 0; s < 2; s++)
        json_object_foreach((json_t *)sides[s], path, v)
        {
            const char *leaf = strrchr(path, ';');
            json_t *old;
            double x = (s ? 1 : -1) * json_number_value(v);

            leaf = leaf ? leaf + 1 : path;
            old = json_object_get(acc, leaf);
            if (old)
                json_real_set(old, json_real_value(old) + x);
            else
                json_object_set_new(acc, leaf, json_real(x));
        }
    json_object_foreach(acc, key, v)
    {
        double x = json_real_value(v);
        if (fabs(x) > fabs(*delta) || (fabs(x) == fabs(*delta) && *name && strcmp(key, *name) < 0))
            *name = key, *delta = x;
    }
}

static void most_line(const struct html_ctx *c, const json_t *base, const json_t *cand)
{
    json_t *acc = json_object();
    const char *name;
    double delta;
    char dv[48];
    char *t;

    if (!acc)
        return;
    changed_most(base, cand, acc, &name, &delta);
    if (name && fabs(delta) >= 0.5) {
        snprintf(dv, sizeof(dv), "%s%.1f", delta >= 0 ? "+" : "\xe2\x88\x92", fabs(delta));
        t = i18n_fill(HT(c, F_FLAME_MOST), name, dv, (const char *)NULL);
        fprintf(c->f, "<text class=\"most\" x=\"2\" y=\"%.1f\">", FLAME_TOP - 8);
        html_esc(c, t ? t : name);
        fputs("</text>\n", c->f);
        free(t);
    }
    json_decref(acc);
}

static void graph(const struct html_ctx *c, const json_t *row, size_t v, const json_t *base,
                  const json_t *cand)
{
    struct ftree t = {0};
    struct draw d = {.c = c, .t = &t};
    double h;

    node_new(&t, "all", 3); /* the root, index 0 */
    if (t.failed)
        goto out;
    tree_add(&t, base, 0);
    tree_add(&t, cand, 1);
    if (t.failed || tree_width(&t, 0) <= 0)
        goto out;
    d.scale = FLAME_W / t.n[0].w;
    d.top_depth = tree_depth(&t, 0, d.scale, 0);
    h = FLAME_TOP + (d.top_depth + 1) * FLAME_ROW + 2;
    fputs("<figure class=\"flame\">\n<figcaption>", c->f);
    html_esc(c, ju_str(row, "label", NULL));
    fputs(" &middot; <code>", c->f);
    html_esc(c, c->versions[0]);
    fputs("</code> &rarr; <code>", c->f);
    html_esc(c, c->versions[v]);
    fprintf(c->f,
            "</code></figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
            "viewBox=\"0 0 %.0f %.0f\" width=\"100%%\" font-family=\"monospace\" "
            "font-size=\"11\">\n",
            FLAME_W, h);
    most_line(c, base, cand);
    draw(&d, 0, 0, 0);
    fputs("</svg>\n</figure>\n", c->f);
out:
    tree_free(&t);
}

static const json_t *stacks_of(const struct html_ctx *c, const json_t *row, size_t v)
{
    char key[600];

    snprintf(key, sizeof(key), "%s.%s", ju_str(row, "config", ""), c->versions[v]);
    return json_object_get(c->flame, key);
}

static void caption(const struct html_ctx *c)
{
    char cands[1024] = "";
    size_t v, used = 0;
    char *t;

    for (v = 1; v < c->nv && used < sizeof(cands); v++)
        used += (size_t)snprintf(cands + used, sizeof(cands) - used, "%s%s", v > 1 ? ", " : "",
                                 c->versions[v]);
    fprintf(c->f, "<section id=\"flame\">\n<h2>%s</h2>\n<p class=\"note\">", HT(c, F_H_FLAME));
    t = i18n_fill(HT(c, F_FLAME_CAPTION), c->versions[0], cands, (const char *)NULL);
    html_text(c, t ? t : "");
    free(t);
    fputs("</p>\n<p class=\"note\">", c->f);
    html_text(c, HT(c, F_FLAME_LIMITS));
    fputs("</p>\n", c->f);
}

void html_flame(const struct html_ctx *c)
{
    size_t r, v;
    int any = 0;

    for (r = 0; r < c->nrows && c->flame; r++) {
        const json_t *row = json_array_get(c->rows, r);
        const json_t *base = stacks_of(c, row, 0);

        if (!base || !summary_metric(row, "instructions"))
            continue;
        for (v = 1; v < c->nv; v++) {
            const json_t *cand = stacks_of(c, row, v);

            if (!cand)
                continue;
            if (!any)
                caption(c);
            any = 1;
            graph(c, row, v, base, cand);
        }
    }
    if (any)
        fputs("</section>\n", c->f);
}
