/* result: the run verdict (result_judge) from counts alone, known answers per rule; the
 * first error's text clipped to valid UTF-8; the JSON fields the contract names. */
#include <stdlib.h>

#include "result.h"
#include "t.h"

/* A result with ops successes and the given errors on `held` of `conf` connections. */
static void make(struct drv_result *r, uint64_t ops, uint64_t conn, uint64_t io, uint64_t prot,
                 uint64_t ver, uint64_t tmo, unsigned held, unsigned conf)
{
    r->ops = ops;
    r->err_connect = conn;
    r->err_io = io;
    r->err_protocol = prot;
    r->err_verify = ver;
    r->err_timeout = tmo;
    r->conns_held = held;
    r->conns_configured = conf;
}

int main(void)
{
    static const struct {
        uint64_t ops, conn, io, prot, ver, tmo;
        unsigned held, conf;
        double limit;
        int failed;
        const char *reason; /* substring; NULL when ok */
    } cases[] = {
        {10000, 0, 0, 0, 0, 0, 4, 4, 1, 0, NULL},
        {10000, 50, 50, 0, 0, 0, 4, 4, 1, 0, NULL}, /* 100 errors = 1%: at the limit */
        {10000, 50, 50, 1, 0, 0, 4, 4, 1, 1, "101 connect/io/protocol/verify errors exceed"},
        {10000, 0, 0, 0, 300, 0, 4, 4, 5, 0, NULL}, /* --error-limit 5 */
        {10000, 0, 0, 0, 0, 4, 4, 4, 1, 1, "4 requests timed out"},
        {8365, 720, 0, 0, 0, 0, 56, 200, 1, 1, "held 56 of 200 connections"},
        {100, 0, 0, 150, 0, 0, 1, 1, 100, 1, "150 errors outnumber the 100 successful"},
        {0, 0, 3, 0, 0, 0, 1, 1, 1, 1, "no successful operation"},
        {5, 0, 0, 0, 0, 0, 2, 1, 1, 0, NULL}, /* held >= configured */
    };
    struct drv_result r;
    char long_text[600];
    size_t i;
    json_t *j;
    struct drv_opts o;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        memset(&r, 0, sizeof(r));
        make(&r, cases[i].ops, cases[i].conn, cases[i].io, cases[i].prot, cases[i].ver,
             cases[i].tmo, cases[i].held, cases[i].conf);
        CHECK_MSG(result_judge(&r, cases[i].limit) == cases[i].failed, "case %zu: %s", i, r.reason);
        if (cases[i].reason)
            CHECK_MSG(strstr(r.reason, cases[i].reason) != NULL, "case %zu: '%s' lacks '%s'", i,
                      r.reason, cases[i].reason);
        else
            CHECK_MSG(r.reason[0] == '\0', "case %zu: reason '%s'", i, r.reason);
    }
    /* several rules: all named */
    memset(&r, 0, sizeof(r));
    make(&r, 1000, 0, 0, 0, 0, 2, 3, 4);
    CHECK(result_judge(&r, 1) == 1);
    CHECK_STR(r.reason, "held 3 of 4 connections; 2 requests timed out");

    /* first error: the first one wins; control bytes and invalid UTF-8 are replaced; the
     * cut at RESULT_ERRTEXT_MAX bytes never splits a character */
    memset(&r, 0, sizeof(r));
    result_note_error(&r, "redis: NOAUTH Authentication required.");
    result_note_error(&r, "later");
    CHECK_STR(r.first_error, "redis: NOAUTH Authentication required.");
    memset(&r, 0, sizeof(r));
    result_note_error(&r, "bad \xff\xfe byte\r\nline \xe2\x82");
    CHECK_STR(r.first_error, "bad ?? byte  line ??");
    for (i = 0; i + 3 < sizeof(long_text); i += 3)
        memcpy(long_text + i, "\xe2\x82\xac", 3); /* U+20AC, 3 bytes each */
    long_text[i] = '\0';
    memset(&r, 0, sizeof(r));
    result_note_error(&r, "x");
    memset(&r, 0, sizeof(r));
    result_note_error(&r, "ab");
    memset(&r, 0, sizeof(r));
    result_note_error(&r, long_text + 0);
    CHECK(strlen(r.first_error) == 198 && valid_utf8(r.first_error));
    memset(&r, 0, sizeof(r));
    result_note_error(&r, "\xed\xa0\x80 surrogate, \xc0\xaf overlong");
    CHECK_STR(r.first_error, "??? surrogate, ?? overlong");
    CHECK(valid_utf8(r.first_error));

    /* the JSON carries the contract's fields */
    opts_defaults(&o, MODE_CLIENT, PROTO_TCP);
    CHECK(result_init(&r, "round trips/s") == 0);
    make(&r, 1000, 0, 0, 0, 0, 4, 3, 4);
    r.elapsed_ns = 2000000000ull;
    r.window_s = 2.0;
    result_note_error(&r, "connect '127.0.0.1:1': Connection refused");
    result_judge(&r, o.error_limit);
    j = result_to_json(&o, &r);
    CHECK(j != NULL);
    CHECK_STR(json_string_value(json_object_get(j, "status")), "failed");
    CHECK_STR(json_string_value(json_object_get(j, "reason")),
              "held 3 of 4 connections; 4 requests timed out");
    CHECK(json_integer_value(json_object_get(json_object_get(j, "connections"), "held")) == 3);
    CHECK(json_integer_value(json_object_get(json_object_get(j, "connections"), "configured")) ==
          4);
    CHECK(json_real_value(json_object_get(j, "window_s")) == 2.0);
    CHECK(json_real_value(json_object_get(j, "elapsed_s")) == 2.0);
    CHECK(json_real_value(json_object_get(j, "throughput")) == 500.0);
    CHECK_STR(json_string_value(json_object_get(j, "first_error")),
              "connect '127.0.0.1:1': Connection refused");
    json_decref(j);
    /* ok: reason and first_error null; --requests: no window_s */
    r.conns_held = 4;
    r.err_timeout = 0;
    r.window_s = 0;
    r.first_error[0] = '\0';
    result_judge(&r, 1);
    j = result_to_json(&o, &r);
    CHECK_STR(json_string_value(json_object_get(j, "status")), "ok");
    CHECK(json_is_null(json_object_get(j, "reason")));
    CHECK(json_is_null(json_object_get(j, "first_error")));
    CHECK(json_object_get(j, "window_s") == NULL);
    json_decref(j);
    result_release(&r);
    return T_DONE();
}
