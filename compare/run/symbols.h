/* symbols: whether a counted server's binary can name its functions, and what would make it.
 * Valgrind names a function from the binary's symbol table, or from a separate debug file
 * found by the binary's build id (/usr/lib/debug/.build-id/xx/rest.debug, what Debian's
 * -dbgsym packages install). Without either, every function of the binary is "unknown", and
 * "where the instructions went" can only say so: this module finds out before the report
 * lists a column of unknowns, names the binary by the name the version's command used (Debian
 * ships redis-server as a link to redis-check-rdb) and the package whose -dbgsym would help. */
#ifndef PAIRBENCH_SYMBOLS_H
#define PAIRBENCH_SYMBOLS_H

#include <jansson.h>

/* The binary a server command runs: its program (words_split), looked up in PATH when it has
 * no '/' (cost_exact_resolve). Then {"name": the word's base name, "path": the file it
 * resolves to, "symbols": whether valgrind will find names (a symbol table or a debug file by
 * build id), "build_id": hex or null, "package": the Debian package that holds the file, or
 * null}. NULL when the command runs no ELF file this can read (a shell script, an `env`
 * wrapper): nothing is claimed then. */
json_t *symbols_probe(const char *command);

/* Probes command (symbols_probe) and notes it in a counted run's figures inst: its
 * "functions" (name: instructions per operation) with "unknown (FILE)" renamed to
 * "unknown (NAME)" when FILE is the binary's own file name, the probe as inst["binary"]. No
 * change when inst is NULL or the probe finds nothing. */
void symbols_note(json_t *inst, const char *command);

#endif
