/* flags: the one command-line parser — "--flag value" and "--flag=value", switches, help,
 * positionals, and the same wording for every error, with "did you mean" for near misses. */
#include <string.h>

#include "flags.h"
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
    return T_DONE();
}
