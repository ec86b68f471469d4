/* libFuzzer target: report_html_write() in both languages on (a) an input that is itself a
 * summary object ({"rows": ...}, any shapes and types inside), or (b) runs.jsonl text,
 * optionally "META JSON\n---\n" first, through summary_build() as render_dir() does. Whatever
 * the summary or meta hold, the page must render without a crash, leak or overrun, and the
 * output must never contain an unescaped '<' coming from the data (checked by asking for no
 * "<script" in it: the page itself has none). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_html.h"
#include "analysis/summary.h"
#include "data/dataset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render(const json_t *sum, const json_t *meta)
{
    static const char *const langs[] = {"en", "zh"};
    char err[512], *out = NULL;
    size_t outlen = 0, i;
    FILE *f;

    for (i = 0; i < 2; i++) {
        f = open_memstream(&out, &outlen);
        if (!f)
            abort();
        report_html_write(f, sum, meta, langs[i], err, sizeof(err));
        fclose(f);
        if (out && strstr(out, "<script"))
            abort(); /* markup from the data got through unescaped */
        free(out);
        out = NULL;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *sep = NULL;
    json_t *meta = NULL, *runs, *sum, *direct;
    char err[512];
    unsigned cut;
    size_t i;

    direct = json_loadb(p, size, 0, NULL);
    if (json_is_object(direct) && json_object_get(direct, "rows")) {
        render(direct, json_object_get(direct, "meta"));
        json_decref(direct);
        return 0;
    }
    json_decref(direct);
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
    if (sum)
        render(sum, meta);
    json_decref(sum);
    json_decref(runs);
    json_decref(meta);
    return 0;
}
