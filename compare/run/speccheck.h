/* speccheck: the checks on a loaded spec that refuse, before anything runs, what would waste
 * every run or send traffic where it should not go. Called by spec_load() once the grids are
 * expanded:
 *   - every server command of a version holds the {port} placeholder (compare starts the
 *     server on a free port it chooses; a server that ignores it is never reached);
 *   - a configuration whose server compare starts (a version's server command, or the
 *     driver's "serve") names a "host" of this machine: a loopback address, "localhost", this
 *     machine's host name, or an address of one of its interfaces (getifaddrs); no name is
 *     looked up, so no packet leaves the machine to decide it;
 *   - the "gate" section reads as `gate` reads it (metrics, thresholds, budget, rows), so a
 *     spec that `gate` would refuse is refused by `run` and `commits` before the first run.
 * Errors name the file, the JSON path or configuration, the value and what was expected. */
#ifndef PAIRBENCH_SPECCHECK_H
#define PAIRBENCH_SPECCHECK_H

#include <stddef.h>

#include <jansson.h>

struct spec;

/* Returns 0, or -1 with err. */
int speccheck_run(const struct spec *sp, char *err, size_t errlen);

/* The spec's "gate" section (may be NULL) read as `gate` reads it; file names the spec in
 * messages. For `commits`, which checks it before building anything. Returns 0, or -1 with
 * err naming the JSON path, the value and what was expected. */
int speccheck_gate(const json_t *gate, const char *file, char *err, size_t errlen);

/* Whether host is this machine's (see above): 1 yes, 0 no. */
int speccheck_host_is_local(const char *host);

#endif
