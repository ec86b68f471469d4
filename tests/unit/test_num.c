/* num: checked parsing of integers, doubles and sizes, table-driven. */
#include <stdint.h>

#include "num.h"
#include "t.h"

int main(void)
{
    static const struct {
        const char *s;
        uint64_t min, max;
        int rc;
        uint64_t want;
    } u64[] = {
        {"0", 0, 10, 0, 0},
        {"10", 0, 10, 0, 10},
        {"11", 0, 10, -1, 0},
        {"18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX},
        {"18446744073709551616", 0, UINT64_MAX, -1, 0},
        {"", 0, 10, -1, 0},
        {" 1", 0, 10, -1, 0},
        {"1 ", 0, 10, -1, 0},
        {"-1", 0, 10, -1, 0},
        {"+1", 0, 10, -1, 0},
        {"1x", 0, 10, -1, 0},
        {"0x10", 0, 100, -1, 0},
        {"5", 6, 10, -1, 0},
    };
    static const struct {
        const char *s;
        uint64_t min, max;
        int rc;
        uint64_t want;
    } sizes[] = {
        {"64", 0, 1 << 30, 0, 64},
        {"64B", 0, 1 << 30, 0, 64},
        {"4k", 0, 1 << 30, 0, 4096},
        {"4K", 0, 1 << 30, 0, 4096},
        {"4KiB", 0, 1 << 30, 0, 4096},
        {"2M", 0, 1 << 30, 0, 2 << 20},
        {"64MiB", 0, 64 << 20, 0, 64 << 20},
        {"65M", 0, 64 << 20, -1, 0},
        {"4kb", 0, 1 << 30, -1, 0},
        {"k", 0, 1 << 30, -1, 0},
        {"-4k", 0, 1 << 30, -1, 0},
        {"1.5k", 0, 1 << 30, -1, 0},
        {"99999999999999999999k", 0, UINT64_MAX, -1, 0},
    };
    static const struct {
        const char *s;
        double min, max;
        int rc;
        double want;
    } dbl[] = {
        {"0.5", 0, 10, 0, 0.5},   {"5", 0, 10, 0, 5},         {"1e1", 0, 10, 0, 10},
        {"10.1", 0, 10, -1, 0},   {"-1", 0, 10, -1, 0},       {"nan", 0, 10, -1, 0},
        {"inf", 0, 1e308, -1, 0}, {"1e999", 0, 1e308, -1, 0}, {"", 0, 10, -1, 0},
        {"1s", 0, 10, -1, 0},     {" 1", 0, 10, -1, 0},
    };
    size_t i;
    uint64_t u;
    unsigned uv;
    double d;

    for (i = 0; i < sizeof(u64) / sizeof(u64[0]); i++) {
        u = 777;
        CHECK_MSG(num_parse_u64(u64[i].s, u64[i].min, u64[i].max, &u) == u64[i].rc, "u64 '%s'",
                  u64[i].s);
        CHECK_MSG(u == (u64[i].rc == 0 ? u64[i].want : 777), "u64 '%s' value", u64[i].s);
    }
    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        u = 777;
        CHECK_MSG(num_parse_size(sizes[i].s, sizes[i].min, sizes[i].max, &u) == sizes[i].rc,
                  "size '%s'", sizes[i].s);
        CHECK_MSG(u == (sizes[i].rc == 0 ? sizes[i].want : 777), "size '%s' value", sizes[i].s);
    }
    for (i = 0; i < sizeof(dbl) / sizeof(dbl[0]); i++) {
        d = 777;
        CHECK_MSG(num_parse_double(dbl[i].s, dbl[i].min, dbl[i].max, &d) == dbl[i].rc,
                  "double '%s'", dbl[i].s);
        CHECK_MSG(d == (dbl[i].rc == 0 ? dbl[i].want : 777), "double '%s' value", dbl[i].s);
    }
    CHECK(num_parse_uint("4294967295", 0, 4294967295u, &uv) == 0 && uv == 4294967295u);
    CHECK(num_parse_uint("4294967296", 0, 4294967295u, &uv) == -1);
    CHECK(num_parse_u64(NULL, 0, 1, &u) == -1);
    CHECK(num_parse_size(NULL, 0, 1, &u) == -1);
    return T_DONE();
}
