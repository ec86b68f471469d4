/* escape: one escaper per output format (see escape.h). */
#include "util/escape.h"

#include <string.h>

void escape_html(FILE *f, const char *s)
{
    static const char special[] = "&<>\"'";
    static const char *const entity[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
    const char *e;

    for (; s && *s; s++) {
        if ((e = strchr(special, *s)) != NULL)
            fputs(entity[e - special], f);
        else
            fputc((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? ' ' : *s, f);
    }
}

void escape_html_md(FILE *f, const char *s)
{
    char one[2] = {0, 0};
    int code = 0, bold = 0;

    for (; s && *s; s++) {
        if (*s == '`') {
            fputs(code ? "</code>" : "<code>", f);
            code = !code;
        } else if (!code && s[0] == '*' && s[1] == '*') {
            fputs(bold ? "</b>" : "<b>", f);
            bold = !bold;
            s++;
        } else {
            one[0] = *s;
            escape_html(f, one);
        }
    }
    if (code)
        fputs("</code>", f);
    if (bold)
        fputs("</b>", f);
}

void escape_md_cell(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else
            fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
}

void escape_csv(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
