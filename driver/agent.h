/* agent: `driver agent`, the far end of a server host (docs/remote.md). compare starts it for
 * one run over ssh and talks to it in JSON lines on its stdin and stdout; it places, starts,
 * samples and stops that run's server on this machine, so the server's figures are measured
 * where it runs. No daemon: it lives as long as its ssh session, and when its stdin ends (the
 * session closed or the connection died) or it gets SIGHUP/SIGTERM, it stops and reaps the
 * server's process group and removes the server's directory before it exits. The server also
 * gets PR_SET_PDEATHSIG(SIGKILL), so an agent killed outright takes its server with it.
 *
 * Requests (one JSON object a line) and replies (one a line, "ok": true or "error": text):
 *   {"op":"hello"}                    {"ok":true,"version":"pairbench R (C)","machine":{...}}
 *   {"op":"place","host":"H"}         {"ok":true,"port":N,"dir":"/tmp/pairbench-agent-..."}
 *   {"op":"start","argv":[...],"env":{...}}            {"ok":true,"pid":P}
 *     (optional "unset":[NAMES]: removed from the server's environment; "cpus": pinning)
 *   {"op":"sample"}                   {"ok":true,"running":true,"cpu_s":..,"sched_s":..,
 *                                      "n_sched":..,"n_procs":..,"syscr":..,"syscw":..,
 *                                      "vcsw":..,"nivcsw":..,"faults":..,"migrations":..,
 *                                      "n_migr":..}
 *                                     or {"ok":true,"running":false,"status":"exit 1","log":".."}
 *   {"op":"stop","grace_s":S}         {"ok":true,"status":"signal 15 (Terminated)",
 *                                      "rss_peak_kib":N,"cpu_s":S}
 * and, for a counted run (agent_count.h): "tools", "vgdb", "files" and "fetch".
 * "place" picks a free port on address H the way compare does on loopback (bind port 0); the
 * server's stdout and stderr go to DIR/server.log. */
#ifndef PAIRBENCH_AGENT_H
#define PAIRBENCH_AGENT_H

/* Runs the agent on stdin/stdout until its stdin ends. Returns the exit code: 0, or 2 for bad
 * arguments. */
int agent_main(int argc, char **argv);

#endif
