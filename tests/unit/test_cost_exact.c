/* cost_exact: which server programs can run with the interposer (a static binary and a setuid
 * program cannot: the reason names them), that the interposer is found beside the program
 * when this build made it, and how the idle phase is scaled to the window (by the marked
 * wake-ups, once, or by time). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/cost_exact.h"
#include "t.h"

/* A profile whose only functions are the interposer's markers (one instruction a call) and
 * some work. */
static struct cgprof *profile(unsigned wakeups, unsigned waits, unsigned work)
{
    struct cgprof *p = cgprof_new();
    char text[512], err[128];

    snprintf(text, sizeof(text), "events: Ir\nfn=%s\n0 %u\nfn=%s\n0 %u\nfn=aeProcessEvents\n0 %u\n",
             COST_WAKE_FN, wakeups, COST_WAIT_FN, waits, work);
    CHECK(p && cgprof_parse(p, text, strlen(text), "t", err, sizeof(err)) == 0);
    return p;
}

static void test_idle(void)
{
    static const struct {
        unsigned idle_wakeups, idle_waits, win_wakeups, idle_work;
        double idle_s, win_s, scale;
        const char *method;
    } cases[] = {
        {5, 6, 2, 1000, 0.5, 8.0, 0.4, "wakeups"}, /* 2 of the idle phase's 5: time not in it */
        {0, 2, 0, 1000, 0.5, 8.0, 1.0, "phase"},   /* waited, never woken by time */
        {0, 2, 0, 20000, 0.5, 2.0, 0.0, "none"},   /* the idle phase polled: window whole */
        {0, 0, 0, 1000, 0.5, 2.0, 4.0, "time"},    /* no interposer */
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct cgprof *idle =
            profile(cases[i].idle_wakeups, cases[i].idle_waits, cases[i].idle_work);
        struct cgprof *win = profile(cases[i].win_wakeups, 40, 90000);
        struct cost_idle ci;
        cost_exact_idle(idle, win, cases[i].idle_s, cases[i].win_s, &ci);
        CHECK_STR(ci.method, cases[i].method);
        CHECK_MSG(ci.scale > cases[i].scale - 1e-9 && ci.scale < cases[i].scale + 1e-9,
                  "case %zu: scale %g", i, ci.scale);
        CHECK(ci.window_waits == 40);
        cgprof_free(idle);
        cgprof_free(win);
    }
}

/* The counted window's configuration: the setup goes (the warm-up sent it); a built-in
 * LRANGE_N gets no_prefill when the driver takes it; nothing else changes. */
static void test_window_config(void)
{
    static const struct {
        const char *eff;
        int no_prefill;
        const char *want; /* NULL: eff used as it is */
    } cases[] = {
        {"{\"protocol\": \"redis\", \"command\": \"GET\"}", 1, NULL},
        {"{\"protocol\": \"redis\", \"command\": \"GET\", \"setup\": [\"SET a 1\"]}", 1,
         "{\"protocol\": \"redis\", \"command\": \"GET\"}"},
        {"{\"protocol\": \"redis\", \"command\": \"LRANGE_100\"}", 1,
         "{\"protocol\": \"redis\", \"command\": \"LRANGE_100\", \"no_prefill\": true}"},
        {"{\"protocol\": \"redis\", \"command\": \"lrange_600\", \"setup\": [\"SET a 1\"]}", 1,
         "{\"protocol\": \"redis\", \"command\": \"lrange_600\", \"no_prefill\": true}"},
        {"{\"protocol\": \"redis\", \"command\": \"LRANGE_100\"}", 0, NULL}, /* old driver */
        {"{\"protocol\": \"redis\", \"command\": \"LRANGE mylist 0 99\"}", 1, NULL},
        {"{\"protocol\": \"tcp\", \"command\": \"LRANGE_100\"}", 1, NULL},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *eff = json_loads(cases[i].eff, 0, NULL), *out = (json_t *)1, *want;
        CHECK(eff && cost_exact_window_config(eff, cases[i].no_prefill, &out) == 0);
        if (!cases[i].want) {
            CHECK_MSG(out == NULL, "case %zu: changed", i);
        } else {
            want = json_loads(cases[i].want, 0, NULL);
            CHECK_MSG(out && json_equal(out, want), "case %zu", i);
            json_decref(want);
        }
        json_decref(out);
        json_decref(eff);
    }
}

int main(void)
{
    static const struct {
        const char *prog; /* skipped when absent */
        const char *want; /* a part of the reason, or "" for none */
    } cases[] = {
        {"sh", ""},                              /* dynamic, found in PATH */
        {"/sbin/ldconfig", "statically linked"}, /* Debian's is static-pie */
        {"/bin/su", "is setuid"},
        {"/no/such/program", ""}, /* left to the start, which names it */
    };
    char why[600], lib[4200];
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (cases[i].prog[0] == '/' && access(cases[i].prog, F_OK) != 0 &&
            strcmp(cases[i].prog, "/no/such/program") != 0) {
            printf("skipped: %s is not installed\n", cases[i].prog);
            continue;
        }
        cost_exact_check_program(cases[i].prog, why, sizeof(why));
        if (!cases[i].want[0])
            CHECK_STR(why, "");
        else
            CHECK_MSG(strstr(why, cases[i].want) != NULL, "%s: '%s'", cases[i].prog, why);
    }
    /* PAIRBENCH_SEED_LIB names the interposer; a missing one is an error naming it */
    setenv("PAIRBENCH_SEED_LIB", "/no/such/lib.so", 1);
    CHECK(cost_exact_find_lib(lib, sizeof(lib), why, sizeof(why)) < 0);
    CHECK(strstr(why, "/no/such/lib.so") != NULL);
    setenv("PAIRBENCH_SEED_LIB", "/bin/sh", 1);
    CHECK(cost_exact_find_lib(lib, sizeof(lib), why, sizeof(why)) == 0);
    CHECK_STR(lib, "/bin/sh");
    test_idle();
    test_window_config();
    return T_DONE();
}
