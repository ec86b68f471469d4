/* envinfo: describe the machine a measurement ran on, for meta.json and the reports:
 * machine model, CPU, cores, memory, OS, kernel, governor, idle driver, load average, CPU
 * affinity, the compiler of this build and the library versions. Reads /proc, /sys,
 * /etc/os-release and uname(2); never fails as a whole: what cannot be read is "unknown" (a
 * machine model hidden by a VM: "unknown (virtual machine)"). */
#ifndef PAIRBENCH_ENVINFO_H
#define PAIRBENCH_ENVINFO_H

#include <jansson.h>

/* New reference: {"machine", "cpu_model", "cpu_id" (when /proc/cpuinfo names it: see
 * envinfo_cpu_id()), "cores_physical", "cores_logical", "memory_bytes",
 * "os", "kernel", "arch", "governor", "cpuidle" (the idle driver; with "haltpoll" also
 * "guest_halt_poll_ns"), "loadavg": [1, 5, 15], "affinity", "compiler", "cflags",
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

/* Append to `warnings_array` a sentence for each thing in `env` (an envinfo_collect()
 * object) that weakens a measurement: a loaded machine (1-minute load average above half the
 * logical CPUs), a CPU frequency governor other than "performance", and idle vCPUs that
 * halt without polling first ("guest_halt_poll_ns" 0). Returns how many warnings were
 * appended, or -1 on bad arguments. */
int envinfo_warnings(const json_t *env, json_t *warnings_array);

/* The same warnings as structured facts, for reports that state them in their own words
 * (no report parses the English sentence back). */
enum env_warn_kind { ENV_WARN_LOAD, ENV_WARN_GOVERNOR, ENV_WARN_HALT_POLL };
#define ENV_MAX_WARNINGS 4
struct env_warning {
    enum env_warn_kind kind;
    int at_end;         /* LOAD: measured at the end of the run (else at its start) */
    double load;        /* LOAD: 1-minute load average */
    char load_text[32]; /* LOAD: the load as the sentence prints it ("2.3") */
    long cores;         /* LOAD: logical CPUs */
    char governor[64];  /* GOVERNOR: the governor's name */
    char text[256];     /* the English sentence envinfo_warnings() appends */
};
/* Fills out[0..max) (max >= ENV_MAX_WARNINGS, else nothing) with the facts behind
 * envinfo_warnings(env), in the same order. Returns how many. */
size_t envinfo_warning_facts(const json_t *env, struct env_warning *out, size_t max);

#endif
