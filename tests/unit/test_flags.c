/* flags: the one command-line parser — "--flag value" and "--flag=value", switches, help,
 * positionals, and the same wording for every error, with "did you mean" for near misses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/flags.h"
#include "t.h"

enum { F_RUNS, F_OUT, F_GATE };

static const struct flag_def defs[] = {
    {"--runs", 1, F_RUNS},
    {"--out", 1, F_OUT},
    {"--gate", 0, F_GATE},
};

/* Parses argv (NULL-ended after the command name) and writes "id:value;" per argument, or
 * the error, into out. Returns the last code. */
static int parse(char **argv, int positional, char *out, size_t outlen)
{
    struct flags f;
    int argc = 0, id;
    size_t len = 0;

    while (argv[argc])
        argc++;
    flags_init(&f, "compare test", argc, argv);
    flags_add(&f, defs, sizeof(defs) / sizeof(defs[0]));
    f.positional = positional;
    out[0] = '\0';
    while ((id = flags_next(&f)) != FLAGS_END) {
        if (id == FLAGS_ERROR) {
            snprintf(out, outlen, "%s", f.err);
            return id;
        }
        len += (size_t)snprintf(out + len, outlen - len, "%d:%s;", id, f.value ? f.value : "-");
        if (id == FLAGS_HELP)
            return id;
    }
    return FLAGS_END;
}

/* A handler that records "id:value;" per argument and refuses --runs 0. */
struct seen {
    char log[256];
    size_t len;
};

static int record(void *ctx, struct flags *f, int id)
{
    struct seen *s = ctx;

    if (id == F_RUNS && strcmp(f->value, "0") == 0)
        return flags_bad_value(f, "an integer from 1 to 1000");
    s->len += (size_t)snprintf(s->log + s->len, sizeof(s->log) - s->len, "%d:%s;", id,
                               f->value ? f->value : "-");
    return 0;
}

/* flags_parse_to() over argv: its return code, what the handler saw, and what went to the help
 * and error streams. */
static int parse_all(char **argv, int positional, struct seen *s, char *out, char *errs, size_t len)
{
    char *obuf = NULL, *ebuf = NULL;
    size_t olen = 0, elen = 0;
    FILE *out_f, *errs_f;
    int argc = 0, rc;
    const struct flags_cmd c = {
        .cmd = "compare test",
        .usage = "usage: compare test [--runs N] [--out DIR] [--gate]\n",
        .tables = {{defs, 2}, {defs + 2, 1}},
        .positional = positional,
        .handle = record,
    };

    while (argv[argc])
        argc++;
    memset(s, 0, sizeof(*s));
    out_f = open_memstream(&obuf, &olen);
    errs_f = open_memstream(&ebuf, &elen);
    rc = flags_parse_to(&c, s, argc, argv, out_f, errs_f);
    fclose(out_f);
    fclose(errs_f);
    snprintf(out, len, "%s", obuf ? obuf : "");
    snprintf(errs, len, "%s", ebuf ? ebuf : "");
    free(obuf);
    free(ebuf);
    return rc;
}

static void test_parse(void)
{
    static const struct {
        const char *args[6];
        int positional, rc;
        const char *seen, *out, *errs;
    } cases[] = {
        {{"test", "--runs", "3", "--gate", NULL}, 0, -1, "0:3;2:-;", "", ""},
        {{"test", "--out=a", "dir", NULL}, 1, -1, "1:a;-4:dir;", "", ""},
        {{"test", "--runs=2", "--help", "--bogus", NULL},
         0,
         0,
         "0:2;",
         "usage: compare test [--runs N] [--out DIR] [--gate]\n",
         ""},
        {{"test", "-h", NULL},
         0,
         0,
         "",
         "usage: compare test [--runs N] [--out DIR] [--gate]\n",
         ""},
        {{"test", "--rnus", "3", "--help", NULL},
         0,
         2,
         "",
         "",
         "compare test: unknown flag '--rnus' (did you mean '--runs'? see compare test --help)\n"},
        {{"test", "--gate", "--out", NULL},
         0,
         2,
         "2:-;",
         "",
         "compare test: --out: missing value\n"},
        {{"test", "--runs", "0", "--gate", NULL},
         0,
         2,
         "",
         "",
         "compare test: --runs: expected an integer from 1 to 1000, got '0'\n"},
        {{"test", "dir", NULL},
         0,
         2,
         "",
         "",
         "compare test: unexpected argument 'dir' (see compare test --help)\n"},
    };
    char out[512], errs[512];
    struct seen s;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int rc = parse_all((char **)cases[i].args, cases[i].positional, &s, out, errs, sizeof(out));

        CHECK_MSG(rc == cases[i].rc, "case %zu: rc %d != %d", i, rc, cases[i].rc);
        CHECK_MSG(strcmp(s.log, cases[i].seen) == 0, "case %zu: seen '%s' != '%s'", i, s.log,
                  cases[i].seen);
        CHECK_MSG(strcmp(out, cases[i].out) == 0, "case %zu: out '%s' != '%s'", i, out,
                  cases[i].out);
        CHECK_MSG(strcmp(errs, cases[i].errs) == 0, "case %zu: errs '%s' != '%s'", i, errs,
                  cases[i].errs);
    }
}

int main(void)
{
    static const struct {
        const char *args[6];
        int positional;
        const char *want;
    } cases[] = {
        {{"test", "--runs", "3", NULL}, 0, "0:3;"},
        {{"test", "--runs=3", "--out=a=b", NULL}, 0, "0:3;1:a=b;"},
        {{"test", "--runs=", NULL}, 0, "0:;"},
        {{"test", "--gate", "--out", "-x", NULL}, 0, "2:-;1:-x;"},
        {{"test", "-h", NULL}, 0, "-3:-;"},
        {{"test", "dir", "--gate", NULL}, 1, "-4:dir;2:-;"},
        {{"test", "--runs", NULL}, 0, "compare test: --runs: missing value"},
        {{"test", "--gate=1", NULL}, 0, "compare test: --gate: takes no value, got '1'"},
        {{"test", "--rnus", "3", NULL},
         0,
         "compare test: unknown flag '--rnus' (did you mean '--runs'? see compare test --help)"},
        {{"test", "--runs-x=4", NULL},
         0,
         "compare test: unknown flag '--runs-x=4' (did you mean '--runs'? see compare test "
         "--help)"},
        {{"test", "--frobnicate", NULL},
         0,
         "compare test: unknown flag '--frobnicate' (see compare test --help)"},
        {{"test", "dir", NULL},
         0,
         "compare test: unexpected argument 'dir' (see compare test --help)"},
    };
    char out[512];
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        parse((char **)cases[i].args, cases[i].positional, out, sizeof(out));
        CHECK_MSG(strcmp(out, cases[i].want) == 0, "case %zu: '%s' != '%s'", i, out, cases[i].want);
    }
    {
        char *argv[] = {"test", "--runs", "0", NULL};
        struct flags f;

        flags_init(&f, "compare test", 3, argv);
        flags_add(&f, defs, 3);
        CHECK(flags_next(&f) == F_RUNS);
        CHECK(flags_bad_value(&f, "an integer from 1 to 1000") == FLAGS_ERROR);
        CHECK_STR(f.err, "compare test: --runs: expected an integer from 1 to 1000, got '0'");
    }
    CHECK(flags_distance("--runs", "--runs") == 0);
    CHECK(flags_distance("--rnus", "--runs") == 2);
    CHECK(flags_distance("", "abc") == 3);
    CHECK(flags_distance("--thresold", "--threshold") == 1);
    test_parse();
    return T_DONE();
}
