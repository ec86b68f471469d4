/* cgprof: per-function instruction sums from callgrind/cachegrind profile text (see
 * cgprof.h). */
#include "analysis/cgprof.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IDS 1000000u /* compressed-name ids a file may define */
#define MAX_EVENTS 64    /* events named on the "events:" line */
#define MAX_POSITIONS 4  /* names on the "positions:" line */
#define MAX_NAME 4096    /* bytes of one function name */

struct fn_entry {
    char *name;
    uint64_t cost;
    uint64_t allocs; /* calls this function made to an allocator entry point */
};

struct cgprof {
    struct fn_entry *tab; /* open addressing, size a power of two */
    size_t cap, used;
    uint64_t total, alloc_total;
    size_t files;
    unsigned event_mask;              /* events some file named */
    uint64_t events[CGPROF_N_EVENTS]; /* self costs of the cache simulation's events */
};

/* One file's parsing state. */
struct file_state {
    char **ids; /* compressed function names by id */
    size_t n_ids;
    char **obs; /* compressed object names by id (ob=, cob=: their own ids) */
    size_t n_obs;
    char ob[256];  /* the current object's file name ("ob="), or "" */
    size_t fn;     /* slot in the profile table of the current function, or SIZE_MAX */
    int ir;        /* index of "Ir" among the events, -1 before "events:" */
    int npos;      /* position columns in a cost line */
    int skip_next; /* the next cost line belongs to calls=/jump= */
    int fn_alloc;  /* the current function is an allocator entry point itself */
    int cfn_alloc; /* the callee named by the last "cfn=" is one */
    uint64_t sum, allocs;
    int ev_col[CGPROF_N_EVENTS]; /* column of each cgprof_event_names entry, -1 absent */
    int last_col;                /* the last column to read: Ir's or an event's */
    uint64_t ev_sum[CGPROF_N_EVENTS];
};

const char *const cgprof_event_names[CGPROF_N_EVENTS] = {"Ir",   "Dr",   "Dw",   "I1mr", "D1mr",
                                                         "D1mw", "ILmr", "DLmr", "DLmw"};

struct cgprof *cgprof_new(void)
{
    struct cgprof *p = calloc(1, sizeof(*p));

    if (!p)
        return NULL;
    p->cap = 256;
    p->tab = calloc(p->cap, sizeof(*p->tab));
    if (!p->tab) {
        free(p);
        return NULL;
    }
    return p;
}

void cgprof_free(struct cgprof *p)
{
    size_t i;

    if (!p)
        return;
    for (i = 0; i < p->cap; i++)
        free(p->tab[i].name);
    free(p->tab);
    free(p);
}

uint64_t cgprof_total(const struct cgprof *p)
{
    return p->total;
}

uint64_t cgprof_event_total(const struct cgprof *p, int event)
{
    return event >= 0 && event < CGPROF_N_EVENTS ? p->events[event] : 0;
}

int cgprof_has_event(const struct cgprof *p, int event)
{
    return event >= 0 && event < CGPROF_N_EVENTS && (p->event_mask >> event & 1u);
}

size_t cgprof_files(const struct cgprof *p)
{
    return p->files;
}

uint64_t cgprof_allocs(const struct cgprof *p)
{
    return p->alloc_total;
}

int cgprof_is_allocator(const char *name)
{
    static const char *const names[] = {"malloc",           "calloc",
                                        "realloc",          "free",
                                        "reallocarray",     "posix_memalign",
                                        "aligned_alloc",    "memalign",
                                        "valloc",           "je_malloc",
                                        "je_calloc",        "je_realloc",
                                        "je_free",          "je_mallocx",
                                        "je_rallocx",       "je_dallocx",
                                        "je_sdallocx",      "je_posix_memalign",
                                        "je_aligned_alloc", NULL};
    size_t i, n = strcspn(name, "'"); /* callgrind marks recursion levels "malloc'2" */

    for (i = 0; names[i]; i++)
        if (strlen(names[i]) == n && strncmp(name, names[i], n) == 0)
            return 1;
    return 0;
}

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603ull;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int grow(struct cgprof *p)
{
    size_t ncap = p->cap * 2, i;
    struct fn_entry *nt = calloc(ncap, sizeof(*nt));

    if (!nt)
        return -1;
    for (i = 0; i < p->cap; i++) {
        size_t j;
        if (!p->tab[i].name)
            continue;
        for (j = hash_str(p->tab[i].name) & (ncap - 1); nt[j].name; j = (j + 1) & (ncap - 1))
            ;
        nt[j] = p->tab[i];
    }
    free(p->tab);
    p->tab = nt;
    p->cap = ncap;
    return 0;
}

/* The slot of name (added with cost 0 when new), or SIZE_MAX when out of memory. */
static size_t slot_of(struct cgprof *p, const char *name)
{
    size_t j;

    if ((p->used + 1) * 2 > p->cap && grow(p) < 0)
        return SIZE_MAX;
    for (j = hash_str(name) & (p->cap - 1); p->tab[j].name; j = (j + 1) & (p->cap - 1))
        if (strcmp(p->tab[j].name, name) == 0)
            return j;
    if (!(p->tab[j].name = strdup(name)))
        return SIZE_MAX;
    p->used++;
    return j;
}

uint64_t cgprof_cost_of(const struct cgprof *p, const char *name)
{
    size_t j;

    for (j = hash_str(name) & (p->cap - 1); p->tab[j].name; j = (j + 1) & (p->cap - 1))
        if (strcmp(p->tab[j].name, name) == 0)
            return p->tab[j].cost;
    return 0;
}

/* Whether valgrind left the function unnamed: "0x<hex>" or "???". */
static int unresolved(const char *s)
{
    if (strcmp(s, "???") == 0 || s[0] == '\0')
        return 1;
    if (s[0] != '0' || s[1] != 'x' || !s[2])
        return 0;
    for (s += 2; *s; s++)
        if (!isxdigit((unsigned char)*s))
            return 0;
    return 1;
}

/* Resolves "(id) name", "(id)" or "name" (the text after "fn="/"cfn=") to a name, defining
 * ids on the way. Returns the name (borrowed), or NULL with why set. */
static const char *resolve_in(char ***ids, size_t *n_ids, const char *v, const char **why)
{
    char *end;
    unsigned long id;
    const char *name;

    if (v[0] != '(')
        return v;
    errno = 0;
    id = strtoul(v + 1, &end, 10);
    if (end == v + 1 || *end != ')' || errno || id > MAX_IDS) {
        *why = "expected \"(id)\" with an id from 0 to 1000000";
        return NULL;
    }
    name = end + 1;
    while (*name == ' ')
        name++;
    if (*name) {
        if (id >= *n_ids) {
            char **n = realloc((*ids), (id + 1) * sizeof(*n));
            if (!n) {
                *why = "out of memory";
                return NULL;
            }
            memset(n + *n_ids, 0, (id + 1 - *n_ids) * sizeof(*n));
            *ids = n;
            *n_ids = id + 1;
        }
        free((*ids)[id]);
        if (!((*ids)[id] = strdup(name))) {
            *why = "out of memory";
            return NULL;
        }
        return (*ids)[id];
    }
    if (id >= *n_ids || !(*ids)[id]) {
        *why = "refers to a name id that was never defined";
        return NULL;
    }
    return (*ids)[id];
}

static const char *resolve(struct file_state *fs, const char *v, const char **why)
{
    return resolve_in(&fs->ids, &fs->n_ids, v, why);
}

/* The slot of an unnamed function: "unknown (libc.so.6)", by the object it lies in (plain
 * "unknown" where callgrind does not know the object either: it writes "???"). */
static size_t unknown_slot(struct cgprof *p, const struct file_state *fs)
{
    char name[MAX_NAME + 16];
    const char *base;

    if (!fs->ob[0] || strcmp(fs->ob, "???") == 0)
        return slot_of(p, CGPROF_UNKNOWN);
    base = strrchr(fs->ob, '/');
    snprintf(name, sizeof(name), "%s (%s)", CGPROF_UNKNOWN, base ? base + 1 : fs->ob);
    return slot_of(p, name);
}

/* Parses a decimal count; NULL on a bad one. */
static const char *parse_u64(const char *s, uint64_t *v)
{
    uint64_t x = 0;

    if (!isdigit((unsigned char)*s))
        return NULL;
    for (; isdigit((unsigned char)*s); s++) {
        if (x > (UINT64_MAX - 9) / 10)
            return NULL;
        x = x * 10 + (uint64_t)(*s - '0');
    }
    *v = x;
    return s;
}

/* Skips the blanks at *v; returns the length of the word that starts there (0 at the end). */
static size_t next_word(const char **v)
{
    while (**v == ' ' || **v == '\t')
        (*v)++;
    return strcspn(*v, " \t");
}

/* "events: Ir Dr ..." → index of Ir. */
static int parse_events(struct file_state *fs, const char *v, const char **why)
{
    int i = 0, e;
    size_t n;

    fs->ir = -1;
    fs->last_col = 0;
    for (e = 0; e < CGPROF_N_EVENTS; e++)
        fs->ev_col[e] = -1;
    while ((n = next_word(&v)) > 0) {
        if (n == 2 && strncmp(v, "Ir", 2) == 0 && fs->ir < 0)
            fs->ir = i;
        for (e = 0; e < CGPROF_N_EVENTS; e++)
            if (n == strlen(cgprof_event_names[e]) && strncmp(v, cgprof_event_names[e], n) == 0 &&
                fs->ev_col[e] < 0) {
                fs->ev_col[e] = i;
                fs->last_col = i > fs->last_col ? i : fs->last_col;
            }
        if (++i > MAX_EVENTS) {
            *why = "more than 64 events";
            return -1;
        }
        v += n;
    }
    if (fs->ir < 0) {
        *why = "no \"Ir\" event (instructions executed) on the \"events:\" line";
        return -1;
    }
    return 0;
}

static int parse_positions(struct file_state *fs, const char *v, const char **why)
{
    int n = 0;
    size_t k;

    while ((k = next_word(&v)) > 0) {
        n++;
        v += k;
    }
    if (n < 1 || n > MAX_POSITIONS) {
        *why = "expected 1 to 4 position names";
        return -1;
    }
    fs->npos = n;
    return 0;
}

/* A cost line: positions, then event counts (missing trailing ones are 0). */
static int cost_line(struct cgprof *p, struct file_state *fs, const char *s, const char **why)
{
    int col, e;
    uint64_t v = 0, cols[MAX_EVENTS + 1] = {0};

    for (col = 0; col < fs->npos; col++) {
        size_t k = next_word(&s);
        if (!k) {
            *why = "a cost line without its positions";
            return -1;
        }
        s += k;
    }
    for (col = 0; col <= fs->ir || col <= fs->last_col; col++) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break; /* trailing zero counts are left out */
        s = parse_u64(s, &cols[col]);
        if (!s || (*s && *s != ' ' && *s != '\t')) {
            *why = "expected a count";
            return -1;
        }
    }
    v = fs->ir >= 0 ? cols[fs->ir] : 0;
    if (fs->ir < 0) {
        *why = "a cost line before \"events:\"";
        return -1;
    }
    if (fs->skip_next) {
        fs->skip_next = 0;
        return 0;
    }
    if (fs->fn == SIZE_MAX) {
        *why = "a cost line before any \"fn=\"";
        return -1;
    }
    p->tab[fs->fn].cost += v;
    fs->sum += v;
    for (e = 0; e < CGPROF_N_EVENTS; e++)
        if (fs->ev_col[e] >= 0)
            fs->ev_sum[e] += cols[fs->ev_col[e]];
    return 0;
}

/* One line (NUL-terminated, no newline). */
static int parse_line(struct cgprof *p, struct file_state *fs, const char *s, const char **why)
{
    const char *v;

    if (!*s || *s == '#')
        return 0;
    if (isdigit((unsigned char)*s) || *s == '+' || *s == '-' || *s == '*')
        return cost_line(p, fs, s, why);
    if (strncmp(s, "fn=", 3) == 0) {
        const char *name = resolve(fs, s + 3, why);
        if (!name)
            return -1;
        fs->fn = unresolved(name) ? unknown_slot(p, fs) : slot_of(p, name);
        if (fs->fn == SIZE_MAX) {
            *why = "out of memory";
            return -1;
        }
        fs->fn_alloc = cgprof_is_allocator(name);
        fs->skip_next = 0;
        return 0;
    }
    if (strncmp(s, "ob=", 3) == 0 || strncmp(s, "cob=", 4) == 0) {
        const char *ob = resolve_in(&fs->obs, &fs->n_obs, s + (s[0] == 'o' ? 3 : 4), why);
        if (!ob)
            return -1;
        if (s[0] == 'o') {
            const char *base = strrchr(ob, '/');
            size_t n;
            base = base ? base + 1 : ob;
            n = strnlen(base, sizeof(fs->ob) - 1); /* a longer name is cut */
            memcpy(fs->ob, base, n);
            fs->ob[n] = '\0';
        }
        return 0;
    }
    if (strncmp(s, "cfn=", 4) == 0 || strncmp(s, "cfl=", 4) == 0) {
        if (s[1] == 'f' && s[2] == 'n') {
            const char *callee = resolve(fs, s + 4, why);
            if (!callee)
                return -1;
            fs->cfn_alloc = cgprof_is_allocator(callee);
        }
        return 0;
    }
    if (strncmp(s, "calls=", 6) == 0) {
        uint64_t n = 0;
        /* an allocator called from outside the allocator (its own inner calls are not more
         * allocations) */
        if (fs->cfn_alloc && !fs->fn_alloc && fs->fn != SIZE_MAX && parse_u64(s + 6, &n)) {
            p->tab[fs->fn].allocs += n;
            fs->allocs += n;
        }
        fs->cfn_alloc = 0;
        fs->skip_next = 1;
        return 0;
    }
    if (strncmp(s, "jump=", 5) == 0 || strncmp(s, "jcnd=", 5) == 0) {
        fs->skip_next = 1;
        return 0;
    }
    if (strncmp(s, "events:", 7) == 0)
        return parse_events(fs, s + 7, why);
    if (strncmp(s, "positions:", 10) == 0)
        return parse_positions(fs, s + 10, why);
    if (strncmp(s, "totals:", 7) == 0) {
        uint64_t t = 0;
        v = s + 7;
        while (*v == ' ')
            v++;
        if (!parse_u64(v, &t)) {
            *why = "expected a count after \"totals:\"";
            return -1;
        }
        if (t != fs->sum) {
            *why = "\"totals:\" differs from the sum of the cost lines (a file cut short?)";
            return -1;
        }
        return 0;
    }
    /* every other line is a header ("version:", "cmd:", "desc:", ...) or a file/object
     * name ("fl=", "ob=", "cob=", ...): nothing to count */
    if (isalpha((unsigned char)*s) && strpbrk(s, ":="))
        return 0;
    *why = "expected a header, a name line or a cost line";
    return -1;
}

int cgprof_parse(struct cgprof *p, const char *text, size_t len, const char *name, char *err,
                 size_t errlen)
{
    struct file_state fs = {.fn = SIZE_MAX, .ir = -1, .npos = 1};
    char line[MAX_NAME + 64];
    size_t off = 0, lineno = 0, i;
    int rc = -1;

    while (off < len) {
        const char *nl = memchr(text + off, '\n', len - off);
        size_t raw = nl ? (size_t)(nl - (text + off)) : len - off, n = raw;
        const char *why = NULL;

        lineno++;
        if (n && text[off + n - 1] == '\r')
            n--;
        if (n >= sizeof(line)) {
            snprintf(err, errlen, "%s: line %zu: longer than %zu bytes", name, lineno,
                     sizeof(line) - 1);
            goto out;
        }
        memcpy(line, text + off, n);
        line[n] = '\0';
        if (memchr(line, '\0', n)) {
            snprintf(err, errlen, "%s: line %zu: holds a NUL byte", name, lineno);
            goto out;
        }
        if (parse_line(p, &fs, line, &why) < 0) {
            snprintf(err, errlen, "%s: line %zu: %s", name, lineno, why);
            goto out;
        }
        off += raw + (nl ? 1 : 0);
    }
    if (fs.ir < 0) {
        snprintf(err, errlen, "%s: no \"events:\" line (not a callgrind or cachegrind file?)",
                 name);
        goto out;
    }
    p->total += fs.sum;
    p->alloc_total += fs.allocs;
    p->files++;
    for (i = 0; i < CGPROF_N_EVENTS; i++)
        if (fs.ev_col[i] >= 0) {
            p->events[i] += fs.ev_sum[i];
            p->event_mask |= 1u << i;
        }
    rc = 0;
out:
    for (i = 0; i < fs.n_ids; i++)
        free(fs.ids[i]);
    free(fs.ids);
    for (i = 0; i < fs.n_obs; i++)
        free(fs.obs[i]);
    free(fs.obs);
    return rc;
}

static int by_cost_desc(const void *a, const void *b)
{
    const struct fn_entry *x = *(const struct fn_entry *const *)a;
    const struct fn_entry *y = *(const struct fn_entry *const *)b;

    if (x->cost != y->cost)
        return x->cost < y->cost ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* Adds cost to o[name] (a function may share its name with "(other)" or "unknown").
 * Returns -1 when name is not a valid JSON key (not UTF-8). */
static int add_cost(json_t *o, const char *name, uint64_t cost)
{
    const json_t *had = json_object_get(o, name);
    uint64_t sum = cost + (had ? (uint64_t)json_integer_value(had) : 0);

    return json_object_set_new(o, name, json_integer((json_int_t)sum));
}

json_t *cgprof_functions_json(const struct cgprof *p, size_t top)
{
    const struct fn_entry **v = NULL;
    json_t *o = json_object();
    size_t i, n = 0;
    uint64_t other = 0, unnamed = 0;

    if (!o || !p->used)
        return o;
    if (!(v = malloc(p->used * sizeof(const struct fn_entry *)))) {
        json_decref(o);
        return NULL;
    }
    for (i = 0; i < p->cap; i++)
        if (p->tab[i].name && p->tab[i].cost)
            v[n++] = &p->tab[i];
    if (n)
        qsort(v, n, sizeof(const struct fn_entry *), by_cost_desc);
    for (i = 0; v && i < n; i++) {
        if (top && i >= top)
            other += v[i]->cost;
        else if (add_cost(o, v[i]->name, v[i]->cost) < 0)
            unnamed += v[i]->cost; /* not UTF-8: JSON keys must be */
    }
    if (other)
        add_cost(o, "(other)", other);
    if (unnamed)
        add_cost(o, "unknown", unnamed);
    free(v);
    return o;
}

json_t *cgprof_allocs_json(const struct cgprof *p, size_t top)
{
    json_t *o = json_object();
    uint64_t *best = NULL, other = 0;
    size_t *idx = NULL, i, k, n = 0;

    if (!o || !p->used)
        return o;
    if (!(best = calloc(top + 1, sizeof(*best))) || !(idx = calloc(top + 1, sizeof(*idx)))) {
        free(best);
        json_decref(o);
        return NULL;
    }
    /* the `top` callers with the most allocator calls, by insertion; the rest as "(other)" */
    for (i = 0; i < p->cap; i++) {
        uint64_t a = p->tab[i].name ? p->tab[i].allocs : 0;

        if (!a)
            continue;
        for (k = n; k > 0 && best[k - 1] < a; k--)
            ;
        if (k >= top) {
            other += a;
            continue;
        }
        if (n == top)
            other += best[--n];
        memmove(best + k + 1, best + k, (n - k) * sizeof(*best));
        memmove(idx + k + 1, idx + k, (n - k) * sizeof(*idx));
        best[k] = a;
        idx[k] = i;
        n++;
    }
    for (k = 0; k < n; k++)
        if (add_cost(o, p->tab[idx[k]].name, best[k]) < 0)
            other += best[k];
    if (other)
        add_cost(o, "(other)", other);
    free(best);
    free(idx);
    return o;
}
