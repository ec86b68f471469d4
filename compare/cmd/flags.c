/* flags: the one command-line parser of the compare commands (see flags.h). */
#include "cmd/flags.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmds.h"

void flags_init(struct flags *f, const char *cmd, int argc, char **argv)
{
    memset(f, 0, sizeof(*f));
    f->cmd = cmd;
    f->argc = argc;
    f->argv = argv;
    f->i = 1;
}

void flags_add(struct flags *f, const struct flag_def *defs, size_t n)
{
    if (f->n_tables < FLAGS_MAX_TABLES) {
        f->tables[f->n_tables] = defs;
        f->table_len[f->n_tables++] = n;
    }
}

size_t flags_distance(const char *a, const char *b)
{
    size_t la = strnlen(a, 63), lb = strnlen(b, 63), i, j;
    size_t row[64];

    for (j = 0; j <= lb; j++)
        row[j] = j;
    for (i = 1; i <= la; i++) {
        size_t diag = row[0];

        row[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

const char *flags_suggest(const struct flags *f, const char *arg)
{
    const char *best = NULL;
    size_t best_d = 3, t, k, alen;
    char name[64];
    const char *eq = strchr(arg, '=');

    alen = eq ? (size_t)(eq - arg) : strlen(arg);
    if (alen >= sizeof(name) || alen < 3)
        return NULL;
    memcpy(name, arg, alen);
    name[alen] = '\0';
    for (t = 0; t < f->n_tables; t++)
        for (k = 0; k < f->table_len[t]; k++) {
            const char *cand = f->tables[t][k].name;
            size_t d = flags_distance(name, cand);

            if (d >= best_d && strncmp(cand, name, alen) == 0 && alen >= 4)
                d = best_d - 1; /* an unambiguous start of a flag's name */
            if (d < best_d) {
                best_d = d;
                best = cand;
            }
        }
    return best;
}

int flags_fail(struct flags *f, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(f->err, sizeof(f->err), "%s: ", f->cmd);

    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof(f->err))
        vsnprintf(f->err + n, sizeof(f->err) - (size_t)n, fmt, ap);
    va_end(ap);
    return FLAGS_ERROR;
}

int flags_bad_value(struct flags *f, const char *expected)
{
    return flags_fail(f, "%s: expected %s, got '%s'", f->flag ? f->flag : "?", expected,
                      f->value ? f->value : "");
}

static const struct flag_def *find(const struct flags *f, const char *arg, size_t len)
{
    size_t t, k;

    for (t = 0; t < f->n_tables; t++)
        for (k = 0; k < f->table_len[t]; k++) {
            const char *n = f->tables[t][k].name;

            if (strlen(n) == len && strncmp(n, arg, len) == 0)
                return &f->tables[t][k];
        }
    return NULL;
}

static int unknown(struct flags *f, const char *arg)
{
    const char *near = flags_suggest(f, arg);

    if (near)
        return flags_fail(f, "unknown flag '%s' (did you mean '%s'? see %s --help)", arg, near,
                          f->cmd);
    return flags_fail(f, "unknown flag '%s' (see %s --help)", arg, f->cmd);
}

int flags_next(struct flags *f)
{
    const char *arg, *eq;
    const struct flag_def *d;
    size_t len;

    f->flag = NULL;
    f->value = NULL;
    if (f->i >= f->argc)
        return FLAGS_END;
    arg = f->argv[f->i++];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
        return FLAGS_HELP;
    if (arg[0] != '-' || arg[1] == '\0') {
        f->value = arg;
        if (f->positional)
            return FLAGS_POSITIONAL;
        return flags_fail(f, "unexpected argument '%s' (see %s --help)", arg, f->cmd);
    }
    eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    len = eq ? (size_t)(eq - arg) : strlen(arg);
    d = find(f, arg, len);
    if (!d)
        return unknown(f, arg);
    f->flag = d->name;
    if (!d->takes_value) {
        if (eq)
            return flags_fail(f, "%s: takes no value, got '%s'", d->name, eq + 1);
        return d->id;
    }
    if (eq) {
        f->value = eq + 1;
        return d->id;
    }
    if (f->i >= f->argc)
        return flags_fail(f, "%s: missing value", d->name);
    f->value = f->argv[f->i++];
    return d->id;
}

int flags_parse_to(const struct flags_cmd *c, void *ctx, int argc, char **argv, FILE *out,
                   FILE *errs)
{
    struct flags f;
    size_t t;
    int id;

    flags_init(&f, c->cmd, argc, argv);
    for (t = 0; t < FLAGS_MAX_TABLES; t++)
        if (c->tables[t].defs)
            flags_add(&f, c->tables[t].defs, c->tables[t].n);
    f.positional = c->positional;
    while ((id = flags_next(&f)) != FLAGS_END) {
        if (id == FLAGS_HELP) {
            fputs(c->usage, out);
            return EXIT_OK;
        }
        if (id == FLAGS_ERROR || c->handle(ctx, &f, id) < 0) {
            fprintf(errs, "%s\n", f.err);
            return EXIT_USAGE;
        }
    }
    return -1;
}

int flags_parse(const struct flags_cmd *c, void *ctx, int argc, char **argv)
{
    return flags_parse_to(c, ctx, argc, argv, stdout, stderr);
}
