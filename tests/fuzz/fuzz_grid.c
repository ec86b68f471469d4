/* libFuzzer target: the spec/grid loader's pure parts. The input is parsed as a grid document
 * and expanded with grid_expand() (validation, axes product, exclude, configs, ids, labels),
 * and split as a command line with words_split() (with and without placeholder values).
 * Whatever the input, they must refuse it with a message or accept it, never crash, leak or
 * overrun; an accepted grid's configurations must have 8-hex ids and non-empty labels. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/grid.h"
#include "util/words.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct words_vars vars = {.port = "6379", .host = "127.0.0.1", .dir = "/tmp/d"};
    struct grid_config *cfgs = NULL;
    char err[1024], *text, **argv = NULL;
    size_t n = 0, i, argc = 0;
    json_t *grid;

    grid = json_loadb((const char *)data, size, 0, NULL);
    if (grid) {
        if (grid_expand(grid, "fuzz.json", &cfgs, &n, err, sizeof(err)) == 0) {
            for (i = 0; i < n; i++) {
                if (strlen(cfgs[i].id) != 8 || cfgs[i].label[0] == '\0')
                    abort();
                json_decref(cfgs[i].params);
            }
            free(cfgs);
        } else if (err[0] == '\0') {
            abort(); /* a refusal always says why */
        }
        json_decref(grid);
    }
    text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (words_split(text, &vars, &argv, &argc, err, sizeof(err)) == 0)
        words_free(argv);
    if (words_split(text, NULL, &argv, &argc, err, sizeof(err)) == 0)
        words_free(argv);
    free(text);
    return 0;
}
