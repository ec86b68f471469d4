/* The command line of "driver wrap TOOL [FLAGS] -- ARGS... [--config FILE.json]": wrap's own
 * flags, the tool's arguments, and the expansion of {placeholders} in those arguments from
 * the --config file's keys ({host}, {port}, {duration}, {connections}, ... any key whose
 * value is a string or a number). compare calls a driver as "<command> --config FILE.json",
 * so a trailing "--config FILE" belongs to wrap, not to the tool. Pure: no I/O (the caller
 * loads the file). */
#ifndef PAIRBENCH_WRAP_ARGS_H
#define PAIRBENCH_WRAP_ARGS_H

#include <stddef.h>

#include <jansson.h>

#include "wrap/wrap_parse.h"

struct wrap_args {
    enum wrap_tool tool;
    const char *tool_path; /* argv word naming the tool (exec'd through PATH) */
    double timeout_s;      /* the tool's run is killed past this; default 600 */
    double error_limit;    /* percent, as the client's --error-limit; default 1 */
    const char *config;    /* --config FILE, or NULL */
    char **tool_argv;      /* tool_path then ARGS (not expanded), NULL-terminated; borrowed */
    int tool_argc;
};

/* Splits argv (the words after "wrap"). 0, or -1 with err naming the flag or word. The
 * tool_argv array is allocated (free() it); its strings are argv's. */
int wrap_args_parse(struct wrap_args *a, int argc, char **argv, char *err, size_t errlen);

/* Expands {name} in arg from cfg's keys (integers as integers, other numbers with %g,
 * strings as they are); "{{" is a literal '{'. Returns a malloc'd string, or NULL with err
 * naming the placeholder and the argument when a name has no value (cfg may be NULL). */
char *wrap_expand(const char *arg, const json_t *cfg, char *err, size_t errlen);

#endif
