/* i18n: the report strings in English and Chinese (the table is compare/report/i18n_strings.h).
 * A string may hold {0}..{9} placeholders; report writers fill them, never printf. */
#ifndef PAIRBENCH_I18N_H
#define PAIRBENCH_I18N_H

enum i18n_msg {
#define X(id, en, zh) id,
#include "i18n_strings.h"
#undef X
    I18N_COUNT
};

/* The string for lang ("zh" = Chinese, anything else = English). Never NULL. */
const char *i18n(const char *lang, enum i18n_msg id);

#endif
