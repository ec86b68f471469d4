/* words: split a command string into argv words the way a POSIX shell would (blanks separate
 * words; '...' is literal; "..." honours \" \\ \$ \`; a backslash outside quotes escapes the
 * next character; '' is an empty word) and expand pairbench's placeholders {port} {host}
 * {cert} {key} {cacert} {dir} {tree} {conf}; render a configuration file's template with the
 * same placeholders. No shell runs: pipes, redirections, $variables and
 * command substitution are refused, so the process exec'd is the program itself. Pure logic,
 * no I/O. */
#ifndef PAIRBENCH_WORDS_H
#define PAIRBENCH_WORDS_H

#include <stddef.h>

/* Values of the placeholders; a NULL member makes its placeholder an error ("no value").
 * conf: the path of the version's rendered configuration file (spec "config"). */
struct words_vars {
    const char *port, *host, *cert, *key, *cacert, *dir, *tree, *conf;
    const char *port2; /* a second free loopback port per run (a proxy's backend) */
};

/* Splits cmd into a NULL-terminated argv (*argv_out, *argc_out words; at least one). vars NULL
 * only checks the syntax and that every placeholder is a known name. Placeholders are
 * expanded outside single quotes. Returns 0, or -1 with err saying what is wrong and where
 * (e.g. "unknown placeholder '{prot}' (expected one of {port} {host} {cert} {key} {cacert}
 * {dir} {tree})"). Free the argv with words_free(). */
int words_split(const char *cmd, const struct words_vars *vars, char ***argv_out, size_t *argc_out,
                char *err, size_t errlen);
void words_free(char **argv);

/* A configuration file's text with the placeholders expanded: every {name} of a known
 * placeholder is replaced by its value in vars; any other brace, {ident} included, is left as
 * written (configuration languages use braces: nginx blocks, a regex's {3}). Returns a
 * NUL-terminated string to free(), or NULL with err set (a known placeholder with no value:
 * "placeholder '{cert}' has no value here"; out of memory). */
char *words_render(const char *text, const struct words_vars *vars, char *err, size_t errlen);

/* Quotes one word for display so that words_split() would give it back ('' when empty, single
 * quotes when it holds blanks or special characters). Writes at most outlen bytes; returns out. */
char *words_quote(const char *word, char *out, size_t outlen);

#endif
