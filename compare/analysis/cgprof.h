/* cgprof: the instruction counts in valgrind's profile files (callgrind's and cachegrind's
 * text format: "events:", "fn=", cost lines, "calls=", "totals:"), summed per function over
 * any number of files. Pure: the caller reads the files; no I/O here, so the parser is unit
 * tested and fuzzed (tests/fuzz/fuzz_cgprof.c).
 *
 * What is counted: the event named "Ir" (instructions executed). A function's figure is its
 * self cost: the cost lines under its "fn=" block, excluding the line after "calls=" (that
 * line is the inclusive cost of a call, already counted in the callee) and the line after
 * "jump="/"jcnd=". Names follow callgrind's compression ("fn=(12) name" defines id 12,
 * "fn=(12)" refers to it; "cfn=" shares the table); names valgrind could not resolve
 * ("0x0000000000064da0") are kept apart and reported as "unknown". */
#ifndef PAIRBENCH_CGPROF_H
#define PAIRBENCH_CGPROF_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* The name under which unresolved addresses are summed. */
#define CGPROF_UNKNOWN "unknown"

struct cgprof; /* opaque: per-function instruction sums */

/* New, empty profile; NULL when out of memory. Free with cgprof_free(). */
struct cgprof *cgprof_new(void);
void cgprof_free(struct cgprof *p);

/* Adds one profile file's text (need not be NUL-terminated) to p. Returns 0, or -1 with err
 * naming the 1-based line and the problem (`name` prefixes the message). The file's
 * "totals:" line, when present, must equal the sum of its self costs: a file cut short is an
 * error, not a smaller count. */
int cgprof_parse(struct cgprof *p, const char *text, size_t len, const char *name, char *err,
                 size_t errlen);

/* Instructions summed over every file parsed so far. */
uint64_t cgprof_total(const struct cgprof *p);

/* Files parsed so far. */
size_t cgprof_files(const struct cgprof *p);

/* The functions as a JSON object {name: instructions}, the `top` largest (all when top is
 * 0), the rest summed under "(other)" when any are left out. New reference, NULL when out of
 * memory. */
json_t *cgprof_functions_json(const struct cgprof *p, size_t top);

/* The self cost of the function named name summed over the files (0 when absent). */
uint64_t cgprof_cost_of(const struct cgprof *p, const char *name);

/* Allocations: every "calls=" count whose callee ("cfn=") is an allocator entry point
 * (cgprof_is_allocator), made from a function that is not one itself (so malloc calling
 * je_malloc, or realloc calling malloc, is one allocation). Per calling function and summed. */
int cgprof_is_allocator(const char *name);
uint64_t cgprof_allocs(const struct cgprof *p);
/* {caller: allocator calls}, the `top` largest, the rest under "(other)". New reference. */
json_t *cgprof_allocs_json(const struct cgprof *p, size_t top);

#endif
