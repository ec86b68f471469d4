/* libFuzzer target for wrap_parse.c and wrap_args.c: any text as any tool's report must
 * parse or be refused with a message, never crash; a parsed report has finite, non-negative
 * figures. The first byte picks the tool; the rest, cut at its first NUL, is the text (also
 * expanded as a wrap argument against a fixed configuration). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wrap/wrap_args.h"
#include "wrap/wrap_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct wrap_stats s;
    char err[512], *text, *x;
    json_t *cfg;

    if (size < 1)
        return 0;
    text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    err[0] = '\0';
    if (wrap_parse((enum wrap_tool)(data[0] % 3), text, &s, err, sizeof(err)) == 0) {
        if (!(s.throughput >= 0) || !isfinite(s.throughput) || !(s.elapsed_s >= 0))
            abort();
    } else if (err[0] == '\0') {
        abort(); /* a refusal must say why */
    }
    cfg = json_pack("{s:s,s:i,s:f}", "host", "127.0.0.1", "port", 6379, "duration", 0.5);
    x = wrap_expand(text, cfg, err, sizeof(err));
    free(x);
    json_decref(cfg);
    free(text);
    return 0;
}
