/* libFuzzer target for cgprof.c: arbitrary bytes as a profile file. Parsing never crashes or
 * leaks; when it succeeds, the functions' figures add up to the total. */
#include <stdint.h>
#include <stdlib.h>

#include "analysis/cgprof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cgprof *p = cgprof_new();
    char err[256];

    if (!p)
        return 0;
    if (cgprof_parse(p, (const char *)data, size, "fuzz", err, sizeof(err)) == 0) {
        json_t *f = cgprof_functions_json(p, 3), *v;
        const char *k;
        uint64_t sum = 0;

        json_object_foreach(f, k, v) sum += (uint64_t)json_integer_value(v);
        if (sum != cgprof_total(p))
            abort();
        json_decref(f);
    }
    cgprof_free(p);
    return 0;
}
