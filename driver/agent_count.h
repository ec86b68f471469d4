/* agent_count: the agent's requests for a counted run (docs/remote.md): the server started
 * under valgrind's callgrind on this machine is zeroed and dumped here through vgdb, and its
 * profile files are handed back to compare, which parses them itself. Every request acts only
 * on the agent's own server (its process group) and its own run directory: no pid, path or
 * command comes from the request.
 *
 *   {"op":"tools"}                 {"ok":true,"valgrind":"valgrind-3.19.0"} ("" when valgrind
 *                                  cannot be run here)
 *   {"op":"vgdb","cmd":"zero"}     {"ok":true,"processes":N}: `vgdb --vgdb-prefix=DIR/vgdb
 *                                  --pid=P zero` (or "dump") for every live process of the
 *                                  server's group
 *   {"op":"files"}                 {"ok":true,"files":{"cg.P.1":BYTES,...}}: DIR's profiles
 *   {"op":"fetch","name":"cg.P.1","offset":N}
 *                                  {"ok":true,"data":BASE64,"eof":true|false}: at most
 *                                  AGENT_FETCH_MAX bytes of one profile from offset N
 *   {"op":"trace","do":"start"}    {"ok":true}: a ptrace tracer (common/syscount.h) seizes
 *                                  every thread of the server's tree
 *   {"op":"trace","do":"open"} / "close"   the counted window's marks
 *   {"op":"trace","do":"counts"}   {"ok":true,"counts":{"total":N,"by_name":{..},..}} */
#ifndef PAIRBENCH_AGENT_COUNT_H
#define PAIRBENCH_AGENT_COUNT_H

#include <signal.h>
#include <sys/types.h>

#include <jansson.h>

/* The bytes of one fetch reply (before base64): its line stays within compare's 16 KiB. */
#define AGENT_FETCH_MAX 8192

json_t *agent_count_tools(void);

/* pgid 0: no server. stop ends the waits early (the agent's signal flag). */
json_t *agent_count_vgdb(pid_t pgid, const char *dir, const json_t *req,
                         volatile sig_atomic_t *stop);

json_t *agent_count_files(const char *dir);

json_t *agent_count_fetch(const char *dir, const json_t *req);

/* pid 0: no server. */
json_t *agent_count_trace(pid_t pid, const json_t *req);

/* Stops the tracer, if one runs (the server's stop, the agent's end). */
void agent_count_trace_end(void);

#endif
