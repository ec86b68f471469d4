/* Checked number parsing: the whole string must be a number in [min, max]. Returns 0, or
 * -1 leaving *out untouched (no atoi/strtol without end-pointer and ERANGE checks). */
#ifndef PAIRBENCH_NUM_H
#define PAIRBENCH_NUM_H

#include <sched.h>
#include <stdint.h>

int num_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int num_parse_uint(const char *s, unsigned min, unsigned max, unsigned *out);
int num_parse_double(const char *s, double min, double max, double *out);
/* Byte sizes with an optional k/K/KiB/m/M/MiB suffix (powers of 1024): "4k" = 4096. */
int num_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* A CPU list ("0", "0,2", "1-3,6") into set: every CPU below CPU_SETSIZE, at least one. Returns
 * 0, or -1. */
int num_parse_cpus(const char *list, cpu_set_t *set);

#endif
