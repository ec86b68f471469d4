/* Checked number parsing (see num.h). */
#include "num.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int num_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end = NULL;
    unsigned long long v;

    if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno == ERANGE || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int num_parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
    uint64_t v;

    if (num_parse_u64(s, min, max, &v) < 0)
        return -1;
    *out = (unsigned)v;
    return 0;
}

int num_parse_double(const char *s, double min, double max, double *out)
{
    char *end = NULL;
    double v;

    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtod(s, &end);
    if (errno == ERANGE || *end != '\0' || !isfinite(v) || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int num_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char digits[32];
    size_t n = 0;
    uint64_t v, mult = 1;
    const char *suf;

    if (!s)
        return -1;
    while (s[n] && isdigit((unsigned char)s[n]))
        n++;
    if (n == 0 || n >= sizeof(digits))
        return -1;
    memcpy(digits, s, n);
    digits[n] = '\0';
    suf = s + n;
    if (*suf == '\0' || strcmp(suf, "B") == 0)
        mult = 1;
    else if (strcmp(suf, "k") == 0 || strcmp(suf, "K") == 0 || strcmp(suf, "KiB") == 0)
        mult = 1024;
    else if (strcmp(suf, "m") == 0 || strcmp(suf, "M") == 0 || strcmp(suf, "MiB") == 0)
        mult = 1024 * 1024;
    else
        return -1;
    if (num_parse_u64(digits, 0, UINT64_MAX / mult, &v) < 0)
        return -1;
    v *= mult;
    if (v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int num_parse_cpus(const char *list, cpu_set_t *set)
{
    char tok[32];
    const char *s = list;
    unsigned lo, hi, c;

    if (!list || !*list)
        return -1;
    CPU_ZERO(set);
    while (*s) {
        size_t n = strcspn(s, ",");
        char *dash;
        if (n == 0 || n >= sizeof(tok))
            return -1;
        memcpy(tok, s, n);
        tok[n] = '\0';
        s += n;
        if (*s == ',' && !*++s)
            return -1;
        dash = strchr(tok, '-');
        if (dash) {
            *dash = '\0';
            if (num_parse_uint(tok, 0, CPU_SETSIZE - 1, &lo) < 0 ||
                num_parse_uint(dash + 1, 0, CPU_SETSIZE - 1, &hi) < 0 || hi < lo)
                return -1;
        } else {
            if (num_parse_uint(tok, 0, CPU_SETSIZE - 1, &lo) < 0)
                return -1;
            hi = lo;
        }
        for (c = lo; c <= hi; c++)
            CPU_SET(c, set);
    }
    return CPU_COUNT(set) > 0 ? 0 : -1;
}
