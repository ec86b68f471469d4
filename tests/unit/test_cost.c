/* cost: the counted channel's settings (defaults, overrides, --instructions forcing it on,
 * bad values refused with the JSON path) and the hardware-counter probe's answer. */
#include <stdlib.h>
#include <string.h>

#include "run/cost.h"
#include "t.h"

static int parse(const char *text, int force, struct cost_settings *cs, char *err, size_t n)
{
    json_t *j = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    int rc = cost_settings_parse(j, force, "s.json", cs, err, n);

    /* strings are borrowed from j: the checks below only read numbers after this */
    json_decref(j);
    return rc;
}

static void expect_error(const char *text, const char *want)
{
    struct cost_settings cs;
    char err[512] = "";

    CHECK_MSG(parse(text, 0, &cs, err, sizeof(err)) == -1, "'%s' accepted", text);
    CHECK_MSG(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
}

/* The event the counters count: instructions:u unless the test hook names another. */
static void counters_event_check(void)
{
    struct counters_event ev;
    char err[256] = "";

    unsetenv(COUNTERS_ENV);
    CHECK(counters_event_pick(&ev, err, sizeof(err)) == 0 &&
          strcmp(ev.name, "instructions:u") == 0 &&
          strcmp(ev.kernel, "PERF_COUNT_HW_INSTRUCTIONS") == 0);
    setenv(COUNTERS_ENV, "task-clock", 1);
    CHECK(counters_event_pick(&ev, err, sizeof(err)) == 0 && strcmp(ev.name, "task-clock:u") == 0 &&
          strcmp(ev.kernel, "PERF_COUNT_SW_TASK_CLOCK") == 0);
    setenv(COUNTERS_ENV, "cycles", 1);
    CHECK(counters_event_pick(&ev, err, sizeof(err)) == -1);
    CHECK_MSG(strstr(err, "PAIRBENCH_COST_EVENT: 'cycles': expected instructions or task-clock"),
              "%s", err);
    unsetenv(COUNTERS_ENV);
}

int main(void)
{
    struct cost_settings cs;
    char err[512] = "", why[256] = "";
    int have;

    CHECK(parse(NULL, 0, &cs, err, sizeof(err)) == 0 && !cs.enabled);
    CHECK(cs.runs == 3 && cs.requests == 5000 && cs.warmup_requests == 1000);
    CHECK(cs.n_exclude == 1 && strcmp(cs.exclude[0], "serverCron") == 0);
    CHECK(parse(NULL, 1, &cs, err, sizeof(err)) == 0 && cs.enabled);
    CHECK(parse("true", 0, &cs, err, sizeof(err)) == 0 && cs.enabled);
    CHECK(parse("false", 0, &cs, err, sizeof(err)) == 0 && !cs.enabled);
    CHECK(parse("{\"enabled\": false}", 1, &cs, err, sizeof(err)) == 0 && cs.enabled);
    CHECK(parse("{\"enabled\": false}", 0, &cs, err, sizeof(err)) == 0 && !cs.enabled);
    CHECK_MSG(parse("{\"runs\": 5, \"requests\": 100, \"warmup_requests\": 0, \"idle_s\": 0, "
                    "\"exclude\": [], \"match\": {\"pipeline\": 1}}",
                    0, &cs, err, sizeof(err)) == 0,
              "%s", err);
    CHECK(cs.enabled && cs.runs == 5 && cs.requests == 100 && cs.warmup_requests == 0);
    CHECK(cs.idle_s == 0 && cs.n_exclude == 0);
    expect_error("{\"runs\": 0}", "s.json: $.instructions.runs: expected an integer from 1 to 100");
    expect_error("{\"requests\": \"many\"}", "$.instructions.requests: expected an integer");
    expect_error("{\"idle_s\": -1}", "$.instructions.idle_s: expected seconds from 0 to 60");
    expect_error("{\"exclude\": [\"a b\"]}", "$.instructions.exclude: expected function names");
    expect_error("{\"match\": 1}", "$.instructions.match: expected an object");
    expect_error("{\"cache_sim\": true}", "$.instructions.cache_sim: unknown key");

    CHECK(parse("{}", 0, &cs, err, sizeof(err)) == 0 && cs.source == COST_SOURCE_AUTO);
    CHECK(parse("{\"source\": \"valgrind\"}", 0, &cs, err, sizeof(err)) == 0 &&
          cs.source == COST_SOURCE_VALGRIND);
    CHECK(parse("{\"source\": \"counters\"}", 0, &cs, err, sizeof(err)) == 0 &&
          cs.source == COST_SOURCE_COUNTERS);
    expect_error("{\"source\": \"perf\"}",
                 "$.instructions.source: expected \"auto\", \"valgrind\" or \"counters\"");
    counters_event_check();

    have = cost_perf_probe(why, sizeof(why));
    CHECK_MSG(why[0] != '\0', "the probe says nothing");
    /* where the machine has counters the probe counted our own work with them; where it has
     * none (most virtual machines: tests/skip-allow.txt) it says why, and that is a skip */
    if (have) {
        CHECK_STR(why, "hardware counters available");
    } else {
        CHECK_MSG(strncmp(why, "perf_event_open(instructions:u)", 31) == 0, "why: %s", why);
        printf("skipped: the hardware-counter path (no usable counters here): %s\n", why);
    }
    return T_DONE();
}
