/* flags: the one command-line parser of every compare command. A command lists its flags in
 * tables of struct flag_def (several tables may be combined, e.g. its own and the run flags
 * of cmd/run_cli.h) and hands them with its usage text and a handler to flags_parse(), which runs
 * the whole loop (flags_next() underneath) and prints help or the error. Every flag that takes a
 * value accepts
 * "--flag value" and "--flag=value"; a switch rejects "=value". Every usage error is worded
 * the same way, prefixed with the command ("compare run: ..."):
 *   unknown flag '--rnus' (did you mean '--runs'? see compare run --help)
 *   --runs: missing value
 *   --runs: expected an integer from 1 to 1000, got '0'     (flags_bad_value)
 *   unexpected argument 'x' (see compare run --help)
 * and the command exits 2 (EXIT_USAGE). flags_next() and the functions below it are pure:
 * messages go to the struct; flags_parse() alone prints them. */
#ifndef PAIRBENCH_FLAGS_H
#define PAIRBENCH_FLAGS_H

#include <stddef.h>
#include <stdio.h>

struct flag_def {
    const char *name; /* "--runs" */
    int takes_value;  /* 1: "--runs N" / "--runs=N"; 0: a switch */
    int id;           /* returned by flags_next() (>= 0) */
};

#define FLAGS_MAX_TABLES 4

enum {
    FLAGS_END = -1,        /* no more arguments */
    FLAGS_ERROR = -2,      /* f->err holds the message (exit 2) */
    FLAGS_HELP = -3,       /* --help or -h */
    FLAGS_POSITIONAL = -4, /* f->value is an argument that is not a flag (when allowed) */
};

struct flags {
    const char *cmd; /* "compare run": the prefix of every message */
    const struct flag_def *tables[FLAGS_MAX_TABLES];
    size_t table_len[FLAGS_MAX_TABLES], n_tables;
    int argc, i;
    char **argv;
    int positional;    /* 1: arguments that are not flags are returned as FLAGS_POSITIONAL */
    const char *flag;  /* the last flag's name */
    const char *value; /* the last flag's value (NULL for a switch), or the positional */
    char err[512];     /* "compare run: unknown flag '--x' ..." on FLAGS_ERROR */
};

/* Starts parsing argv[1..argc) (argv[0] is the command's name) for cmd. */
void flags_init(struct flags *f, const char *cmd, int argc, char **argv);
/* Adds a table of n flags (at most FLAGS_MAX_TABLES tables; ids may not collide). */
void flags_add(struct flags *f, const struct flag_def *defs, size_t n);
/* The next argument: a flag's id (f->flag, f->value set), FLAGS_POSITIONAL, FLAGS_HELP,
 * FLAGS_END or FLAGS_ERROR (f->err set). */
int flags_next(struct flags *f);
/* Formats "<cmd>: <flag>: expected <expected>, got '<value>'" into f->err for the last flag
 * and returns FLAGS_ERROR. */
int flags_bad_value(struct flags *f, const char *expected);
/* Formats "<cmd>: <message>" into f->err (printf-style) and returns FLAGS_ERROR. */
int flags_fail(struct flags *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The known flag nearest to arg (Levenshtein distance at most 2, or arg a prefix of a flag);
 * NULL when none is near. */
const char *flags_suggest(const struct flags *f, const char *arg);
/* Levenshtein distance between a and b (each at most 63 bytes considered). */
size_t flags_distance(const char *a, const char *b);

/* A command's handler for one argument: a flag's id (f->flag and f->value set: the value is
 * NULL for a switch) or FLAGS_POSITIONAL (f->value). Returns 0, or FLAGS_ERROR after
 * flags_fail() / flags_bad_value() set f->err. */
typedef int (*flags_handler)(void *ctx, struct flags *f, int id);

struct flags_table {
    const struct flag_def *defs;
    size_t n;
};

/* A table of an array of struct flag_def: {defs, its length}. */
#define FLAGS_TABLE(defs)                                                                          \
    {                                                                                              \
        (defs), sizeof(defs) / sizeof((defs)[0])                                                   \
    }

/* A command's command line: its name, usage text, flag tables and handler (a constant). */
struct flags_cmd {
    const char *cmd;                             /* "compare run": the prefix of every message */
    const char *usage;                           /* printed as is on --help / -h */
    struct flags_table tables[FLAGS_MAX_TABLES]; /* unused entries {NULL, 0} */
    int positional;       /* 1: arguments that are not flags go to handle as FLAGS_POSITIONAL */
    flags_handler handle; /* called with ctx for every flag and positional, in argv order */
};

/* Parses argv[1..argc) for c to the end, handing every flag and positional to
 * c->handle(ctx, ...). Returns -1 when all of argv was accepted (the command goes on);
 * EXIT_OK (0) after --help or -h, with c->usage printed to stdout (nothing after it is
 * parsed); EXIT_USAGE (2) after the first usage error (unknown flag with its near miss,
 * missing value, unexpected argument, or the handler's FLAGS_ERROR), printed as one line to
 * stderr. */
int flags_parse(const struct flags_cmd *c, void *ctx, int argc, char **argv);
/* The same with the help going to out and the error to errs. */
int flags_parse_to(const struct flags_cmd *c, void *ctx, int argc, char **argv, FILE *out,
                   FILE *errs);

#endif
