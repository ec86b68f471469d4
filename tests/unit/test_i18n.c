/* i18n: every entry of the string table (report/i18n_strings.h) renders in both languages:
 * neither text is empty, both use the same {0}..{9} placeholders, and filled with arguments
 * no placeholder is left in the sentence. The few known differences are listed in
 * exceptions[] with their reason, so a new one fails until it is named. */
#include <stdlib.h>

#include "t.h"
#include "report/i18n.h"
#include "analysis/metrics.h"

static const char *const names[I18N_COUNT] = {
#define X(id, en, zh) [id] = #id,
#include "report/i18n_strings.h"
#undef X
};

/* Entries whose Chinese may differ from the English: placeholders the Chinese leaves out (an
 * English plural ending: Chinese has none) and a Chinese that may be empty (no space between
 * Chinese sentences). */
static const struct {
    enum i18n_msg id;
    unsigned en_only; /* placeholders of the English only */
    int zh_empty;
} exceptions[] = {
    {M_SENT_SEP, 0, 1},        /* Chinese sentences follow each other without a space */
    {D_HISTORY, 1u << 2, 0},   /* "night{2}" */
    {D_OTHER_ENV, 1u << 1, 0}, /* "night{1}" */
    {D_LEFT_OUT, 1u << 1, 0},  /* "line{1}" */
    {C_ALARMS, 1u << 1, 0},    /* "alarm{1}" */
    {C_ALARMS_LINE, 1u << 1, 0},
};

/* The placeholders of s as a bit set ({0} = bit 0). */
static unsigned placeholders(const char *s)
{
    unsigned set = 0;

    for (; *s; s++)
        if (s[0] == '{' && s[1] >= '0' && s[1] <= '9' && s[2] == '}')
            set |= 1u << (s[1] - '0');
    return set;
}

static void check_entry(enum i18n_msg id)
{
    const char *en = i18n("en", id), *zh = i18n("zh", id);
    unsigned pen = placeholders(en), pzh = placeholders(zh);
    unsigned en_only = 0;
    int zh_empty = 0, lang;
    size_t i;
    char *f;

    for (i = 0; i < sizeof(exceptions) / sizeof(exceptions[0]); i++)
        if (exceptions[i].id == id) {
            en_only = exceptions[i].en_only;
            zh_empty = exceptions[i].zh_empty;
            CHECK_MSG((pen & ~pzh) == en_only, "%s: exception en_only %#x, actual %#x", names[id],
                      en_only, pen & ~pzh);
        }
    CHECK_MSG(en[0] != '\0', "%s: empty English", names[id]);
    CHECK_MSG(zh[0] != '\0' || zh_empty, "%s: empty Chinese", names[id]);
    CHECK_MSG(pen == (pzh | en_only), "%s: placeholders en %#x, zh %#x", names[id], pen, pzh);
    CHECK_MSG(valid_utf8(en) && valid_utf8(zh), "%s: not UTF-8", names[id]);
    for (lang = 0; lang < 2; lang++) {
        f = i18n_fill(lang ? zh : en, "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9",
                      (const char *)NULL);
        CHECK_MSG(f != NULL, "%s: fill failed", names[id]);
        if (f)
            CHECK_MSG(placeholders(f) == 0, "%s (%s): placeholder left: %s", names[id],
                      lang ? "zh" : "en", f);
        free(f);
    }
}

/* Every metric a summary sentence can name has a name of its own: only cpu_percent reads
 * "CPU %" (a metric falling back to it said "CPU %" for allocations and context switches). */
static void check_metric_names(void)
{
    int m, k;

    for (m = 0; m < METRIC_ALL; m++) {
        CHECK_MSG(i18n_metric_msg(m) != M_MN_CPU || m == METRIC_CPU_PERCENT, "%s has no name",
                  metric_name((enum metric)m));
        for (k = 0; k < m; k++)
            CHECK_MSG(i18n_metric_msg(m) != i18n_metric_msg(k), "%s and %s share a name",
                      metric_name((enum metric)m), metric_name((enum metric)k));
    }
}

int main(void)
{
    int id;

    check_metric_names();
    for (id = 0; id < I18N_COUNT; id++)
        check_entry((enum i18n_msg)id);
    CHECK(i18n("zh", (enum i18n_msg)I18N_COUNT)[0] == '\0');
    {
        char *f = i18n_fill("{1} before {0}; {2} kept", "x", "y", (const char *)NULL);

        CHECK(f != NULL);
        if (f)
            CHECK_STR(f, "y before x; {2} kept");
        free(f);
    }
    return T_DONE();
}
