/* validate: a driver result is `ok` only when it measured what its configuration says —
 * operations counted, every configured connection held, no timeout, errors within 1%, the
 * whole window measured — whatever the driver's exit; the result is kept when it fails. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "num.h"
#include "run/proc.h"
#include "t.h"
#include "run/validate.h"

static json_t *J(const char *s)
{
    json_t *j = json_loads(s, 0, NULL);
    if (!j) {
        fprintf(stderr, "bad test JSON: %s\n", s);
        exit(2);
    }
    return j;
}

static const char *ok_result = "{\"ops\": 20000, \"throughput\": 10000, \"elapsed_s\": 2.0,"
                               " \"errors\": {\"connect\": 0, \"io\": 0, \"protocol\": 0,"
                               " \"verify\": 0, \"timeout\": 0}}";

/* reason from validate_result on result text against eff text; returns the failed flag */
static int judge(const char *result, const char *eff, char *reason, size_t len)
{
    json_t *r = J(result), *e = J(eff);
    int failed = validate_result(r, e, reason, len);
    json_decref(r);
    json_decref(e);
    return failed;
}

static void test_checks(void)
{
    char why[1024];
    const char *eff = "{\"duration\": 2, \"connections\": 4}";

    CHECK(judge(ok_result, eff, why, sizeof(why)) == 0 && why[0] == '\0');
    /* item 3: nothing measured */
    CHECK(judge("{\"ops\": 0, \"throughput\": 0, \"elapsed_s\": 2}", eff, why, sizeof(why)) == 1);
    CHECK_MSG(strstr(why, "nothing measured: 0 operations") != NULL, "%s", why);
    CHECK(judge("{\"ops\": 10, \"throughput\": -5, \"elapsed_s\": 2}", eff, why, sizeof(why)) == 1);
    CHECK(judge("{\"throughput\": 5, \"elapsed_s\": 2}", eff, why, sizeof(why)) == 1);
    /* item 1: a stall that ended the window at 0.3 s of 2 s; 4 timeouts */
    CHECK(judge("{\"ops\": 16000, \"throughput\": 53000, \"elapsed_s\": 0.3,"
                " \"errors\": {\"timeout\": 4}}",
                eff, why, sizeof(why)) == 1);
    CHECK_MSG(strstr(why, "4 timeouts") && strstr(why, "measured 0.30 s of the configured 2.00 s"),
              "%s", why);
    /* a driver of the new contract states its window: judged against it */
    CHECK(judge("{\"status\": \"ok\", \"ops\": 16000, \"throughput\": 53000, \"elapsed_s\": 0.3,"
                " \"window_s\": 2}",
                eff, why, sizeof(why)) == 1);
    CHECK_MSG(strstr(why, "measured 0.30 s of the configured 2.00 s"), "%s", why);
    /* ... and one that states none ran a count (a wrapped tool's -n 2000): not a stall */
    CHECK(judge("{\"status\": \"ok\", \"ops\": 2000, \"throughput\": 40000, \"elapsed_s\": 0.05}",
                eff, why, sizeof(why)) == 0);
    /* requests instead of a duration: the window is as long as it takes */
    CHECK(judge("{\"ops\": 100, \"throughput\": 1000, \"elapsed_s\": 0.1}",
                "{\"duration\": 2, \"requests\": 100}", why, sizeof(why)) == 0);
    /* item 2: fewer connections than configured, and connect errors past 1% */
    CHECK(judge("{\"ops\": 50000, \"throughput\": 25000, \"elapsed_s\": 2,"
                " \"connections\": {\"configured\": 200, \"held\": 55},"
                " \"errors\": {\"connect\": 1740}}",
                "{\"duration\": 2, \"connections\": 200}", why, sizeof(why)) == 1);
    CHECK_MSG(strstr(why, "held 55 of 200 configured connections") &&
                  strstr(why, "1740 errors (connect 1740) in 50000 operations, more than the 1% "
                              "limit"),
              "%s", why);
    /* a fixed rate: 95% achieved is within the 10% share; 89% achieved is not kept; requests
     * late at the full rate are in the latency (counted from their due time): kept */
    CHECK(judge("{\"ops\": 1900, \"throughput\": 950, \"elapsed_s\": 2, \"rate\": {\"target\":"
                " 1000, \"achieved\": 950, \"sent\": 1900, \"late\": 95}}",
                eff, why, sizeof(why)) == 0);
    CHECK(judge("{\"ops\": 1780, \"throughput\": 890, \"elapsed_s\": 2, \"rate\": {\"target\":"
                " 1000, \"achieved\": 890, \"sent\": 1780, \"late\": 0}}",
                eff, why, sizeof(why)) == 1);
    CHECK_MSG(strstr(why, "the schedule was not kept: 890 of the --rate 1000 requests/s achieved "
                          "(89.0%, at least 90% expected; 0 of 1780 requests sent more than "
                          "1000 us late)"),
              "%s", why);
    CHECK(judge("{\"ops\": 2000, \"throughput\": 1000, \"elapsed_s\": 2, \"rate\": {\"target\":"
                " 1000, \"achieved\": 1000, \"sent\": 2000, \"late\": 220}}",
                eff, why, sizeof(why)) == 0);
    /* errors within the limit pass: 1% of 20000 is 200 */
    CHECK(judge("{\"ops\": 20000, \"throughput\": 10000, \"elapsed_s\": 2,"
                " \"errors\": {\"io\": 150, \"protocol\": 50}}",
                eff, why, sizeof(why)) == 0);
    CHECK(judge("{\"ops\": 20000, \"throughput\": 10000, \"elapsed_s\": 2,"
                " \"errors\": {\"io\": 150, \"protocol\": 51}, \"first_error\": \"-NOAUTH\"}",
                eff, why, sizeof(why)) == 1);
    CHECK_MSG(strstr(why, "201 errors (io 150, protocol 51)") && strstr(why, "first: -NOAUTH"),
              "%s", why);
    /* errors outnumbering successes */
    CHECK(judge("{\"ops\": 3, \"throughput\": 1.5, \"elapsed_s\": 2, \"errors\": {\"io\": 9}}", eff,
                why, sizeof(why)) == 1);
    /* the driver's own verdict stands, with its reason */
    CHECK(judge("{\"status\": \"failed\", \"reason\": \"held 55 of 200 connections\","
                " \"ops\": 5, \"throughput\": 5, \"elapsed_s\": 2}",
                eff, why, sizeof(why)) == 1);
    CHECK_STR(why, "the driver judged the run failed: held 55 of 200 connections");
    CHECK(judge("{\"status\": \"ok\", \"reason\": null, \"ops\": 5, \"throughput\": 5,"
                " \"elapsed_s\": 2, \"connections\": {\"configured\": 4, \"held\": 4}}",
                eff, why, sizeof(why)) == 0);
}

static void test_run(void)
{
    char why[1024];
    json_t *eff = J("{\"duration\": 2, \"connections\": 200}"), *r;
    const char *failed_json =
        "{\"status\": \"failed\", \"reason\": \"held 55 of 200 connections\", \"ops\": 900,"
        " \"throughput\": 450, \"elapsed_s\": 2}";

    /* exit 3 with a result on stdout: the result is kept, the reason is the driver's */
    r = validate_run(3 << 8, 0, 9, failed_json, "driver: held 55", eff, why, sizeof(why));
    CHECK(r != NULL && json_integer_value(json_object_get(r, "ops")) == 900);
    CHECK_STR(why, "the driver judged the run failed: held 55 of 200 connections");
    json_decref(r);
    /* exit 0, a clean result */
    r = validate_run(0, 0, 9, ok_result, "", eff, why, sizeof(why));
    CHECK(r != NULL && why[0] == '\0');
    json_decref(r);
    /* exit 1 and a result that passes every check: failed by its exit, result kept */
    r = validate_run(1 << 8, 0, 9, ok_result, "boom", eff, why, sizeof(why));
    CHECK(r != NULL);
    CHECK_STR(why, "exit 1: boom");
    json_decref(r);
    /* exit 1 with nothing printed */
    r = validate_run(1 << 8, 0, 9, "", "refusing", eff, why, sizeof(why));
    CHECK(r == NULL);
    CHECK_STR(why, "exit 1: refusing");
    /* exit 0 with garbage */
    r = validate_run(0, 0, 9, "this is not json", "", eff, why, sizeof(why));
    CHECK(r == NULL && strncmp(why, "bad JSON on stdout: line 1 column 4", 35) == 0);
    /* killed at the deadline */
    r = validate_run(SIGKILL, 1, 9.5, "", "", eff, why, sizeof(why));
    CHECK(r == NULL);
    CHECK_STR(why, "timeout after 9.5 s");
    json_decref(eff);
}

static void test_grace(void)
{
    json_t *e = J("{}"), *t1 = J("{\"timeout\": 1}"), *t20 = J("{\"timeout\": 20}");

    /* the driver's default timeout is 5 s: the grace must leave it time to report */
    CHECK(validate_grace(e, 5) > 5 + 1);
    CHECK(validate_grace(e, 5) == VALIDATE_DRIVER_TIMEOUT_S + VALIDATE_GRACE_MARGIN_S);
    CHECK(validate_grace(t1, 2.5) == 1 + VALIDATE_GRACE_MARGIN_S);
    CHECK(validate_grace(t1, 30) == 30);
    CHECK(validate_grace(t20, 5) == 20 + VALIDATE_GRACE_MARGIN_S);
    json_decref(e);
    json_decref(t1);
    json_decref(t20);
}

/* The gate's default placement: two disjoint halves of the CPUs this process may use. */
static void test_split_cpus(void)
{
    cpu_set_t set;
    char a[64], b[64];

    CHECK(num_parse_cpus("0-1", &set) == 0 && proc_split_cpus(&set, a, b, sizeof(a)) == 0);
    CHECK_MSG(strcmp(a, "0") == 0 && strcmp(b, "1") == 0, "%s %s", a, b);
    CHECK(num_parse_cpus("0-3,8", &set) == 0 && proc_split_cpus(&set, a, b, sizeof(a)) == 0);
    CHECK_MSG(strcmp(a, "0-1") == 0 && strcmp(b, "2-3,8") == 0, "%s %s", a, b);
    CHECK(num_parse_cpus("5", &set) == 0 && proc_split_cpus(&set, a, b, sizeof(a)) == -1);
}

int main(void)
{
    test_split_cpus();
    test_checks();
    test_run();
    test_grace();
    return T_DONE();
}
