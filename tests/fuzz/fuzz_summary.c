/* libFuzzer target: runs.jsonl text (optionally "META JSON\n---\n" first) through
 * dataset_parse(), summary_build(), summary_write_csv() and report_md_write() in both
 * languages. Whatever the dataset holds, the statistics and the report must not crash, leak
 * or overrun. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_md.h"
#include "analysis/summary.h"
#include "data/dataset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *sep = NULL;
    json_t *meta = NULL, *runs, *sum;
    char err[512], *out = NULL;
    size_t outlen = 0, i;
    unsigned cut;
    FILE *f;

    for (i = 0; i + 5 <= size; i++)
        if (memcmp(p + i, "\n---\n", 5) == 0) {
            sep = p + i;
            break;
        }
    if (sep) {
        meta = json_loadb(p, (size_t)(sep - p), 0, NULL);
        size -= (size_t)(sep + 5 - p);
        p = sep + 5;
    }
    runs = dataset_parse(p, size, "runs.jsonl", &cut, err, sizeof(err));
    if (!runs) {
        json_decref(meta);
        return 0;
    }
    sum = summary_build(runs, meta, NULL, err, sizeof(err));
    if (sum) {
        f = open_memstream(&out, &outlen);
        if (!f)
            abort();
        summary_write_csv(f, sum);
        report_md_write(f, sum, meta, "en", err, sizeof(err));
        report_md_write(f, sum, meta, "zh", err, sizeof(err));
        fclose(f);
        free(out);
    }
    json_decref(sum);
    json_decref(runs);
    json_decref(meta);
    return 0;
}
