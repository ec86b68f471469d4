/* i18n: the English and Chinese string tables, generated from compare/report/i18n_strings.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metrics.h"
#include "util/escape.h"
#include "report/confirm_words.h"
#include "report/i18n.h"

static const char *const strings_en[I18N_COUNT] = {
#define X(id, en, zh) [id] = en,
#include "report/i18n_strings.h"
#undef X
};

static const char *const strings_zh[I18N_COUNT] = {
#define X(id, en, zh) [id] = zh,
#include "report/i18n_strings.h"
#undef X
};

const char *i18n(const char *lang, enum i18n_msg id)
{
    if ((unsigned)id >= I18N_COUNT)
        return "";
    return lang && strcmp(lang, "zh") == 0 ? strings_zh[id] : strings_en[id];
}

void i18n_vwrite(FILE *f, const char *tmpl, va_list ap)
{
    const char *args[10] = {0}, *a, *p;
    int n = 0;

    while (n < 10 && (a = va_arg(ap, const char *)) != NULL)
        args[n++] = a;
    for (p = tmpl; *p; p++) {
        if (p[0] == '{' && p[1] >= '0' && p[1] <= '9' && p[2] == '}' && p[1] - '0' < n) {
            fputs(args[p[1] - '0'], f);
            p += 2;
        } else {
            fputc(*p, f);
        }
    }
}

char *i18n_vfill(const char *tmpl, va_list ap)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);

    if (!f)
        return NULL;
    i18n_vwrite(f, tmpl, ap);
    if (fclose(f) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

char *i18n_fill(const char *tmpl, ...)
{
    va_list ap;
    char *s;

    va_start(ap, tmpl);
    s = i18n_vfill(tmpl, ap);
    va_end(ap);
    return s;
}

void i18n_write(FILE *f, const char *tmpl, ...)
{
    va_list ap;

    va_start(ap, tmpl);
    i18n_vwrite(f, tmpl, ap);
    va_end(ap);
}

void i18n_vput(FILE *f, int html, const char *tmpl, va_list ap)
{
    char *s = i18n_vfill(tmpl, ap);

    if (html)
        escape_html_md(f, s ? s : "?");
    else
        fputs(s ? s : "?", f);
    free(s);
}

enum i18n_msg i18n_metric_msg(int m)
{
    static const enum i18n_msg names[] = {
        [METRIC_THROUGHPUT] = M_MN_THROUGHPUT,
        [METRIC_CPU_PERCENT] = M_MN_CPU,
        [METRIC_CPU_EFFICIENCY] = M_MN_EFFICIENCY,
        [METRIC_P50_US] = M_MN_P50,
        [METRIC_P99_US] = M_MN_P99,
        [METRIC_RSS_MIB] = M_MN_RSS,
        [METRIC_SERVER_CPU_US] = M_MN_SERVER_CPU,
        [METRIC_INSTRUCTIONS] = M_MN_INSTRUCTIONS,
        [METRIC_CONTEXT_SWITCHES] = M_MN_CTXSW,
        [METRIC_PAGE_FAULTS] = M_MN_FAULTS,
        [METRIC_CPU_MIGRATIONS] = M_MN_MIGRATIONS,
        [METRIC_SYSCALLS] = M_MN_SYSCALLS,
        [METRIC_ALLOCATIONS] = M_MN_ALLOCATIONS,
        [METRIC_ESTIMATED_CYCLES] = M_MN_CYCLES,
        [METRIC_REOPENED] = M_MN_REOPENED,
        [METRIC_STALL] = M_MN_STALL,
        [METRIC_DECAY] = M_MN_DECAY,
    };
    _Static_assert(sizeof(names) / sizeof(names[0]) == METRIC_ALL, "a name per metric");

    return m >= 0 && m < METRIC_ALL ? names[m] : M_MN_CPU;
}
