/* envinfo_warn: what in an environment record (envinfo_collect(), or meta.json's
 * "environment") weakens a measurement, as facts for the reports to state in their own words
 * and as the English sentences meta.json keeps. Pure: reads the JSON only. */
#ifndef PAIRBENCH_ENVINFO_WARN_H
#define PAIRBENCH_ENVINFO_WARN_H

#include <stddef.h>

#include <jansson.h>

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
