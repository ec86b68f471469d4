/* cost_remote: a counted run whose server runs on the server host (docs/remote.md "Counted
 * runs on the server host"). The server starts there under the same valgrind words as here
 * (their "{dir}" the agent's run directory), the agent zeroes and dumps it through vgdb
 * (driver/agent_count.h), and its profiles are copied into the local run directory under
 * their own names, where the local code parses them as if they had been written here. */
#ifndef PAIRBENCH_COST_REMOTE_H
#define PAIRBENCH_COST_REMOTE_H

#include <stddef.h>

#include "run/launch.h"
#include "run/remote.h"
#include "run/runner.h"

/* Starts the counted server on the host (launch_start_remote) and asks the agent for the
 * host's valgrind version into vg ("" when it has none). launch_start's codes. */
int cost_remote_start(struct runner *r, struct launch *l, json_t *eff, struct remote *rm, char *vg,
                      size_t vglen, char *reason, size_t reasonlen);

/* vgdb cmd ("zero", "dump") to every process of the server there. 0, or -1 with why. */
int cost_remote_vgdb(struct remote *rm, const char *cmd, char *why, size_t whylen);

/* Copies the host's profiles not yet in dir into dir. 0, or -1 with why. */
int cost_remote_pull(struct remote *rm, const char *dir, char *why, size_t whylen);

/* Why the counted server or its session ended (why set and 1), or 0 while it runs. */
int cost_remote_ended(struct remote *rm, char *why, size_t whylen);

#endif
