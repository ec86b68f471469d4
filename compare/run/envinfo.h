/* envinfo: describe the machine a measurement ran on, for meta.json and the reports:
 * machine model, CPU, cores, memory, OS, kernel, governor, idle driver, load average, CPU
 * affinity, the compiler of this build and the library versions. Reads /proc, /sys,
 * /etc/os-release and uname(2); never fails as a whole: what cannot be read is "unknown" (a
 * machine model hidden by a VM: "unknown (virtual machine)"). What in it weakens a measurement
 * is analysis/envinfo_warn.h. */
#ifndef PAIRBENCH_ENVINFO_H
#define PAIRBENCH_ENVINFO_H

#include <jansson.h>

#include "analysis/envinfo_warn.h"

/* New reference: {"machine", "cpu_model", "cpu_id" (when /proc/cpuinfo names it: see
 * envinfo_cpu_id()), "cores_physical", "cores_logical", "memory_bytes",
 * "os", "kernel", "arch", "governor", "cpuidle" (the idle driver; with "haltpoll" also
 * "guest_halt_poll_ns"), "knobs" (run/sysknobs.h: each host knob's value, null when absent),
 * "loadavg": [1, 5, 15], "affinity", "compiler", "cflags",
 * "libraries": {"openssl", "libcurl", "jansson", "hiredis"}}. Free with json_decref(). NULL
 * only when out of memory. */
json_t *envinfo_collect(void);

/* The identity of the CPU that a model name leaves out, from the text of /proc/cpuinfo: on
 * x86 "x86 family F model M stepping S", on Arm "arm implementer I part P variant V revision
 * R", the first CPU's fields as the kernel writes them. A model name such as "AMD EPYC"
 * covers several generations, and hosts behind one name can differ in what a wake-up costs
 * (docs/drift.md), so datasets are comparable only when this matches too. 0 with out set,
 * -1 when the text names neither. */
int envinfo_cpu_id(const char *cpuinfo, char *out, size_t len);

/* New reference: the load average [1, 5, 15] now (from /proc/loadavg), or null when it
 * cannot be read. Free with json_decref(). */
json_t *envinfo_loadavg(void);

#endif
