/* cgfold: folded call stacks from callgrind's caller-callee arcs (see cgfold.h for the
 * method and its limits). */
#include "analysis/cgfold.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct arc {
    size_t from, to;
    uint64_t cost;
};

struct cgfold {
    json_t *index; /* name -> position in names */
    char **names;
    uint64_t *self;
    size_t n, cap;
    struct arc *arcs;
    size_t n_arcs, cap_arcs;
    uint64_t total;
};

struct fold_file {
    char **ids; /* compressed name ids of this file: "(12) name" */
    size_t n_ids;
    int npos, ir, after_calls;
    size_t fn, cfn;
};

struct cgfold *cgfold_new(void)
{
    struct cgfold *f = calloc(1, sizeof(*f));

    if (f && !(f->index = json_object())) {
        free(f);
        f = NULL;
    }
    return f;
}

void cgfold_free(struct cgfold *f)
{
    size_t i;

    if (!f)
        return;
    for (i = 0; i < f->n; i++)
        free(f->names[i]);
    free(f->names);
    free(f->self);
    free(f->arcs);
    json_decref(f->index);
    free(f);
}

uint64_t cgfold_total(const struct cgfold *f)
{
    return f->total;
}

static size_t fn_slot(struct cgfold *f, const char *name)
{
    json_t *v = json_object_get(f->index, name);
    size_t i = f->n;

    if (v)
        return (size_t)json_integer_value(v);
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 256;
        char **nn = realloc(f->names, cap * sizeof(*nn));
        uint64_t *ns;

        if (!nn)
            return SIZE_MAX;
        f->names = nn;
        if (!(ns = realloc(f->self, cap * sizeof(*ns))))
            return SIZE_MAX;
        f->self = ns;
        f->cap = cap;
    }
    if (!(f->names[i] = strdup(name)))
        return SIZE_MAX;
    if (json_object_set_new(f->index, name, json_integer((json_int_t)i)) < 0) {
        free(f->names[i]);
        return SIZE_MAX;
    }
    f->self[i] = 0;
    f->n++;
    return i;
}

/* "(12) name" defines id 12, "(12)" refers to it, "name" is plain. */
static size_t name_of(struct cgfold *f, struct fold_file *ff, const char *v, const char **why)
{
    char *end;
    long id;

    if (*v != '(')
        return fn_slot(f, v);
    id = strtol(v + 1, &end, 10);
    if (end == v + 1 || *end != ')' || id < 0 || id > 10000000) {
        *why = "a bad name id";
        return SIZE_MAX;
    }
    end++;
    while (*end == ' ')
        end++;
    if (*end) {
        if ((size_t)id >= ff->n_ids) {
            size_t n = (size_t)id + 64, k;
            char **ni = realloc(ff->ids, n * sizeof(*ni));
            if (!ni) {
                *why = "out of memory";
                return SIZE_MAX;
            }
            for (k = ff->n_ids; k < n; k++)
                ni[k] = NULL;
            ff->ids = ni;
            ff->n_ids = n;
        }
        free(ff->ids[id]);
        if (!(ff->ids[id] = strdup(end))) {
            *why = "out of memory";
            return SIZE_MAX;
        }
    }
    if ((size_t)id >= ff->n_ids || !ff->ids[id]) {
        *why = "a name id used before it is defined";
        return SIZE_MAX;
    }
    return fn_slot(f, ff->ids[id]);
}

static int add_arc(struct cgfold *f, size_t from, size_t to, uint64_t cost)
{
    if (f->n_arcs == f->cap_arcs) {
        size_t cap = f->cap_arcs ? f->cap_arcs * 2 : 256;
        struct arc *na = realloc(f->arcs, cap * sizeof(*na));
        if (!na)
            return -1;
        f->arcs = na;
        f->cap_arcs = cap;
    }
    f->arcs[f->n_arcs++] = (struct arc){from, to, cost};
    return 0;
}

/* The Ir column of a cost line; -1 when the line is not one. */
static int cost_of(const struct fold_file *ff, const char *s, uint64_t *v)
{
    int col;
    char *end;

    *v = 0;
    for (col = 0; col < ff->npos; col++) {
        while (*s == ' ')
            s++;
        if (!*s)
            return -1;
        while (*s && *s != ' ')
            s++;
    }
    for (col = 0; col <= ff->ir; col++) {
        while (*s == ' ')
            s++;
        if (!*s) {
            *v = 0;
            return 0;
        }
        *v = strtoull(s, &end, 10);
        if (end == s)
            return -1;
        s = end;
    }
    return 0;
}

static void header(struct fold_file *ff, const char *s)
{
    if (!strncmp(s, "positions:", 10)) {
        ff->npos = 0;
        for (s += 10; *s;) {
            while (*s == ' ')
                s++;
            if (*s)
                ff->npos++;
            while (*s && *s != ' ')
                s++;
        }
    } else if (!strncmp(s, "events:", 7)) {
        int col = 0;
        for (s += 7, ff->ir = -1; *s && ff->ir < 0; col++) {
            while (*s == ' ')
                s++;
            if (!strncmp(s, "Ir", 2) && (s[2] == ' ' || !s[2]))
                ff->ir = col;
            while (*s && *s != ' ')
                s++;
        }
    }
}

static int fold_line(struct cgfold *f, struct fold_file *ff, const char *s, const char **why)
{
    uint64_t v;

    if (!strncmp(s, "fn=", 3)) {
        ff->fn = name_of(f, ff, s + 3, why);
        return ff->fn == SIZE_MAX ? -1 : 0;
    }
    if (!strncmp(s, "cfn=", 4)) {
        ff->cfn = name_of(f, ff, s + 4, why);
        return ff->cfn == SIZE_MAX ? -1 : 0;
    }
    if (!strncmp(s, "calls=", 6)) {
        ff->after_calls = 1;
        return 0;
    }
    if (!((*s >= '0' && *s <= '9') || *s == '+' || *s == '-' || *s == '*'))
        return header(ff, s), 0;
    if (ff->ir < 0 || cost_of(ff, s, &v) < 0) {
        *why = ff->ir < 0 ? "a cost line before \"events:\" names Ir" : "a bad cost line";
        return -1;
    }
    if (ff->fn == SIZE_MAX) {
        *why = "a cost line before any \"fn=\"";
        return -1;
    }
    if (ff->after_calls) {
        ff->after_calls = 0;
        if (ff->cfn == SIZE_MAX) {
            *why = "\"calls=\" without \"cfn=\"";
            return -1;
        }
        if (add_arc(f, ff->fn, ff->cfn, v) < 0) {
            *why = "out of memory";
            return -1;
        }
        return 0;
    }
    f->self[ff->fn] += v;
    f->total += v;
    return 0;
}

int cgfold_parse(struct cgfold *f, const char *text, size_t len, const char *name, char *err,
                 size_t errlen)
{
    struct fold_file ff = {.ir = -1, .npos = 1, .fn = SIZE_MAX, .cfn = SIZE_MAX};
    const char *why = NULL, *p = text, *end = text + len;
    char line[4096];
    size_t lineno = 0, i;
    int rc = 0;

    while (p < end && rc == 0) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t k = (size_t)((nl ? nl : end) - p);

        lineno++;
        if (k >= sizeof(line))
            k = sizeof(line) - 1;
        memcpy(line, p, k);
        line[k] = '\0';
        if (k && line[k - 1] == '\r')
            line[k - 1] = '\0';
        if (line[0] && line[0] != '#' && fold_line(f, &ff, line, &why) < 0) {
            snprintf(err, errlen, "%s: line %zu: %s", name, lineno, why);
            rc = -1;
        }
        p = nl ? nl + 1 : end;
    }
    for (i = 0; i < ff.n_ids; i++)
        free(ff.ids[i]);
    free(ff.ids);
    return rc;
}

static int by_from(const void *a, const void *b)
{
    const struct arc *x = a, *y = b;

    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return x->to < y->to ? -1 : x->to > y->to;
}

struct walk {
    const struct cgfold *f;
    size_t *first; /* first arc of each caller, arcs sorted by caller */
    double *incl;  /* self + the callers' arcs */
    char *on_path;
    char path[8192];
    double scale, min_cost;
    json_t *out;
    int failed;
};

static void emit(struct walk *w, double cost)
{
    json_t *v = json_object_get(w->out, w->path);
    double sum = (v ? json_real_value(v) : 0) + cost;

    if (cost <= 0)
        return;
    if (v)
        json_real_set(v, sum);
    else if (json_object_set_new(w->out, w->path, json_real(sum)) < 0)
        w->failed = 1;
}

/* The path in w->path ends at fn and costs `cost` (already scaled). */
static void walk_fn(struct walk *w, size_t fn, double cost, int depth)
{
    size_t a, len = strlen(w->path);
    double here = w->incl[fn] > 0 ? cost * (double)w->f->self[fn] / w->incl[fn] : cost;

    w->on_path[fn] = 1;
    for (a = w->first[fn]; a < w->first[fn + 1] && w->incl[fn] > 0; a++) {
        const struct arc *c = &w->f->arcs[a];
        double part = cost * (double)c->cost / w->incl[fn];
        size_t nl = strlen(w->f->names[c->to]);

        if (part < w->min_cost || depth + 1 >= CGFOLD_DEPTH || w->on_path[c->to] ||
            len + nl + 2 >= sizeof(w->path)) {
            here += part; /* cut here: counted in the caller's frame */
            continue;
        }
        w->path[len] = ';';
        memcpy(w->path + len + 1, w->f->names[c->to], nl + 1);
        walk_fn(w, c->to, part, depth + 1);
        w->path[len] = '\0';
    }
    emit(w, here);
    w->on_path[fn] = 0;
}

static int walk_prepare(struct walk *w, char **called)
{
    const struct cgfold *f = w->f;
    size_t i, a;

    w->first = calloc(f->n + 1, sizeof(*w->first));
    w->incl = calloc(f->n + 1, sizeof(*w->incl));
    w->on_path = calloc(f->n + 1, 1);
    *called = calloc(f->n + 1, 1);
    if (!w->first || !w->incl || !w->on_path || !*called)
        return -1;
    if (f->n_arcs)
        qsort(f->arcs, f->n_arcs, sizeof(*f->arcs), by_from);
    for (i = 0; i < f->n; i++)
        w->incl[i] = (double)f->self[i];
    for (a = 0, i = 0; i <= f->n; i++) {
        w->first[i] = a;
        for (; i < f->n && a < f->n_arcs && f->arcs[a].from == i; a++) {
            w->incl[i] += (double)f->arcs[a].cost;
            if (f->arcs[a].to != i)
                (*called)[f->arcs[a].to] = 1;
        }
    }
    return 0;
}

json_t *cgfold_stacks(const struct cgfold *f, double scale, double min_cost)
{
    struct walk w = {.f = f, .scale = scale, .min_cost = min_cost, .out = json_object()};
    char *called = NULL;
    size_t i;

    if (!w.out || walk_prepare(&w, &called) < 0) {
        w.failed = 1;
        goto out;
    }
    for (i = 0; i < f->n && !w.failed; i++) {
        size_t nl = strlen(f->names[i]);

        if (called[i] || w.incl[i] <= 0 || nl >= sizeof(w.path))
            continue; /* only roots: functions no other function calls */
        memcpy(w.path, f->names[i], nl + 1);
        walk_fn(&w, i, w.incl[i] * scale, 0);
    }
out:
    free(w.first);
    free(w.incl);
    free(w.on_path);
    free(called);
    if (w.failed) {
        json_decref(w.out);
        return NULL;
    }
    return w.out;
}

int cgfold_write(const json_t *stacks, FILE *out)
{
    const char *k;
    json_t *v;

    json_object_foreach((json_t *)stacks, k, v)
    {
        double c = round(json_number_value(v));
        if (c >= 1 && fprintf(out, "%s %.0f\n", k, c) < 0)
            return -1;
    }
    return ferror(out) ? -1 : 0;
}
