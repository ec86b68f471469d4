/* cgprof: self costs per function from callgrind and cachegrind text, name compression,
 * call lines excluded, unresolved names summed as "unknown (OBJECT)" by their object file, totals
 * checked, bad input refused with the line. */
#include <stdlib.h>
#include <string.h>

#include "analysis/cgprof.h"
#include "t.h"

static const char callgrind_text[] = "# callgrind format\n"
                                     "version: 1\n"
                                     "creator: callgrind-3.19.0\n"
                                     "pid: 42\n"
                                     "cmd:  redis-server --port 1\n"
                                     "part: 2\n"
                                     "\n"
                                     "desc: Trigger: dump\n"
                                     "\n"
                                     "positions: line\n"
                                     "events: Ir\n"
                                     "summary: 1060\n"
                                     "\n"
                                     "ob=(1) /usr/bin/redis-server\n"
                                     "fl=(1) ???\n"
                                     "fn=(1) lookupKey\n"
                                     "0 400\n"
                                     "+2 100\n"
                                     "cob=(2) /usr/lib/libc.so.6\n"
                                     "cfi=(2) ???\n"
                                     "cfn=(2) 0x0000000000064da0\n"
                                     "calls=3 0\n"
                                     "0 9999\n"
                                     "* 10\n"
                                     "ob=(2)\n"
                                     "fn=(2)\n"
                                     "0 50\n"
                                     "fn=(3) dictFind(dict*, void const*)\n"
                                     "-1 300\n"
                                     "fn=(1)\n"
                                     "0 200\n"
                                     "\n"
                                     "totals: 1060\n";

static const char cachegrind_text[] = "desc: I1 cache: 32768 B\n"
                                      "cmd: nginx\n"
                                      "events: Ir I1mr\n"
                                      "fl=src/a.c\n"
                                      "fn=ngx_http_process_request\n"
                                      "10 70 1\n"
                                      "11 30\n"
                                      "fn=???\n"
                                      "5 8 0\n"
                                      "summary: 108 1\n";

static json_int_t fn_cost(const json_t *o, const char *name)
{
    return json_integer_value(json_object_get(o, name));
}

static void expect_error(const char *text, const char *want)
{
    struct cgprof *p = cgprof_new();
    char err[256] = "";

    CHECK_MSG(cgprof_parse(p, text, strlen(text), "f", err, sizeof(err)) == -1, "'%s'", text);
    CHECK_MSG(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
    cgprof_free(p);
}

/* Allocations: calls into allocator entry points from outside the allocator, per caller;
 * malloc's own call of je_malloc is not another allocation; recursion marks ("'2") match. */
static const char alloc_text[] = "events: Ir\n"
                                 "fn=(1) handle\n"
                                 "0 10\n"
                                 "cfn=(2) malloc\n"
                                 "calls=7 0\n"
                                 "0 70\n"
                                 "cfn=(3) free'2\n"
                                 "calls=5 0\n"
                                 "0 50\n"
                                 "cfn=(4) strlen\n"
                                 "calls=9 0\n"
                                 "0 9\n"
                                 "fn=(2)\n"
                                 "0 40\n"
                                 "cfn=(5) je_malloc\n"
                                 "calls=7 0\n"
                                 "0 30\n"
                                 "fn=(6) reply\n"
                                 "0 5\n"
                                 "cfn=(7) je_calloc\n"
                                 "calls=2 0\n"
                                 "0 4\n";

static void test_allocs(void)
{
    struct cgprof *p = cgprof_new();
    char err[256];
    json_t *o;

    CHECK(cgprof_is_allocator("malloc") && cgprof_is_allocator("free'3") &&
          cgprof_is_allocator("je_sdallocx") && !cgprof_is_allocator("mallocx_hook") &&
          !cgprof_is_allocator("zmalloc"));
    CHECK(p && cgprof_parse(p, alloc_text, strlen(alloc_text), "a", err, sizeof(err)) == 0);
    CHECK(cgprof_allocs(p) == 14);
    o = cgprof_allocs_json(p, 1);
    CHECK(json_integer_value(json_object_get(o, "handle")) == 12);
    CHECK(json_integer_value(json_object_get(o, "(other)")) == 2);
    CHECK(!json_object_get(o, "malloc"));
    json_decref(o);
    cgprof_free(p);
}

/* --cache-sim's events: self costs summed per event, the call lines' inclusive costs left
 * out, trailing zero columns absent, and none of them in an Ir-only file. */
static const char cache_text[] = "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
                                 "fn=a\n"
                                 "1 100 40 20 3 2 1 1 1\n"
                                 "cfn=b\n"
                                 "calls=1 0\n"
                                 "2 900 900 900 900 900 900 900 900 900\n"
                                 "fn=b\n"
                                 "3 50 10\n";

static void test_cache_events(void)
{
    struct cgprof *p = cgprof_new();
    char err[256];

    CHECK(cgprof_parse(p, cache_text, sizeof(cache_text) - 1, "c", err, sizeof(err)) == 0);
    CHECK(cgprof_total(p) == 150);
    CHECK(cgprof_has_event(p, CGPROF_DLMW) && cgprof_event_total(p, CGPROF_IR) == 150);
    CHECK(cgprof_event_total(p, CGPROF_DR) == 50 && cgprof_event_total(p, CGPROF_DW) == 20);
    CHECK(cgprof_event_total(p, CGPROF_I1MR) == 3 && cgprof_event_total(p, CGPROF_D1MR) == 2);
    CHECK(cgprof_event_total(p, CGPROF_DLMR) == 1 && cgprof_event_total(p, CGPROF_ILMR) == 1);
    CHECK(cgprof_event_total(p, CGPROF_DLMW) == 0); /* its column left out: zero */
    cgprof_free(p);
    p = cgprof_new();
    CHECK(cgprof_parse(p, "events: Ir\nfn=a\n1 7\n", 20, "i", err, sizeof(err)) == 0);
    CHECK(cgprof_has_event(p, CGPROF_IR) && !cgprof_has_event(p, CGPROF_DR));
    CHECK(cgprof_event_total(p, CGPROF_IR) == 7 && cgprof_event_total(p, CGPROF_D1MR) == 0);
    cgprof_free(p);
}

/* Code in an object callgrind cannot name either ("ob=???") is plain "unknown", not
 * "unknown (???)". */
static void test_unknown_object(void)
{
    static const char text[] = "events: Ir\nob=???\nfn=0x0000000000001234\n1 9\n";
    struct cgprof *p = cgprof_new();
    char err[256] = "";
    json_t *f;

    CHECK_MSG(cgprof_parse(p, text, sizeof(text) - 1, "u", err, sizeof(err)) == 0, "%s", err);
    f = cgprof_functions_json(p, 0);
    CHECK(fn_cost(f, CGPROF_UNKNOWN) == 9);
    CHECK(json_object_size(f) == 1);
    json_decref(f);
    cgprof_free(p);
}

int main(void)
{
    struct cgprof *p = cgprof_new();
    char err[256] = "";
    json_t *f;

    CHECK_MSG(
        cgprof_parse(p, callgrind_text, strlen(callgrind_text), "cg.42.2", err, sizeof(err)) == 0,
        "%s", err);
    CHECK(cgprof_total(p) == 1060);
    f = cgprof_functions_json(p, 0);
    CHECK(fn_cost(f, "lookupKey") == 710); /* 400 + 100 + 10 + 200; the call line excluded */
    CHECK(cgprof_cost_of(p, "lookupKey") == 710 && cgprof_cost_of(p, "absent") == 0);
    /* an unnamed function is grouped by its object (ob=(2): the id cob= defined) */
    CHECK(fn_cost(f, CGPROF_UNKNOWN " (libc.so.6)") == 50);
    CHECK(fn_cost(f, "dictFind(dict*, void const*)") == 300);
    CHECK(json_object_size(f) == 3);
    json_decref(f);
    /* a second file adds to the same profile */
    CHECK_MSG(
        cgprof_parse(p, cachegrind_text, strlen(cachegrind_text), "cg.out", err, sizeof(err)) == 0,
        "%s", err);
    CHECK(cgprof_total(p) == 1168);
    CHECK(cgprof_files(p) == 2);
    f = cgprof_functions_json(p, 2);
    CHECK(json_object_size(f) == 3);
    CHECK(fn_cost(f, "lookupKey") == 710);
    CHECK(fn_cost(f, "dictFind(dict*, void const*)") == 300);
    CHECK(fn_cost(f, "(other)") == 100 + 58);
    json_decref(f);
    cgprof_free(p);

    expect_error("events: Ir\nfn=a\n5 10\ntotals: 11\n", "line 4: \"totals:\" differs");
    expect_error("events: Dr\n", "line 1: no \"Ir\" event");
    expect_error("fn=a\n", "no \"events:\" line");
    expect_error("events: Ir\n5 10\n", "line 2: a cost line before any \"fn=\"");
    expect_error("events: Ir\nfn=(7)\n", "line 2: refers to a name id that was never defined");
    expect_error("events: Ir\nfn=a\n5 x\n", "line 3: expected a count");
    expect_error("events: Ir\nfn=a\n5 99999999999999999999999\n", "line 3: expected a count");
    expect_error("events: Ir\n?? what\n", "line 2: expected a header");
    test_allocs();
    test_cache_events();
    test_unknown_object();
    return T_DONE();
}
