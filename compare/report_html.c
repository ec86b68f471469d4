/* report_html: the self-contained HTML report (skeleton: page frame only; charts and tables
 * follow). */
#include "report_html.h"

#include <string.h>

int report_html_write(FILE *f, const json_t *summary, const json_t *meta, const char *lang,
                      char *err, size_t errlen)
{
    int zh = lang && strcmp(lang, "zh") == 0;

    (void)meta;
    if (!json_is_object(summary)) {
        snprintf(err, errlen, "report_html: summary: expected an object");
        return -1;
    }
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head><meta charset=\"utf-8\">"
               "<title>pairbench</title></head>\n<body></body>\n</html>\n",
            zh ? "zh" : "en");
    if (ferror(f)) {
        snprintf(err, errlen, "report_html: write failed");
        return -1;
    }
    return 0;
}
