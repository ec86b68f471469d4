/* i18n: the English and Chinese string tables, generated from compare/report/i18n_strings.h. */
#include <string.h>

#include "i18n.h"

static const char *const strings_en[I18N_COUNT] = {
#define X(id, en, zh) [id] = en,
#include "i18n_strings.h"
#undef X
};

static const char *const strings_zh[I18N_COUNT] = {
#define X(id, en, zh) [id] = zh,
#include "i18n_strings.h"
#undef X
};

const char *i18n(const char *lang, enum i18n_msg id)
{
    if ((unsigned)id >= I18N_COUNT)
        return "";
    return lang && strcmp(lang, "zh") == 0 ? strings_zh[id] : strings_en[id];
}
