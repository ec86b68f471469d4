/* envinfo: the warnings' exact sentences (loaded machine, governor, halt polling) from
 * hand-made environments, and envinfo_collect() on this machine: every key present, counts
 * that agree with sysconf(3), libraries named. */
#include <unistd.h>

#include "envinfo.h"
#include "t.h"

static const struct {
    const char *env;   /* JSON */
    int count;         /* warnings appended */
    const char *first; /* first warning, or NULL */
} cases[] = {
    {"{\"loadavg\": [3.1, 2.0, 1.0], \"cores_logical\": 2, \"governor\": \"performance\"}", 1,
     "the machine was loaded at start: load average 3.1 on 2 CPUs"},
    {"{\"loadavg\": [1.0, 2.0, 1.0], \"cores_logical\": 2, \"governor\": \"performance\"}", 0,
     NULL},
    {"{\"loadavg\": [1.01, 0, 0], \"cores_logical\": 2, \"governor\": \"unknown\"}", 1,
     "the machine was loaded at start: load average 1.01 on 2 CPUs"},
    {"{\"loadavg\": [0.1, 0, 0], \"cores_logical\": 4, \"governor\": \"powersave\"}", 1,
     "CPU frequency governor is 'powersave', not 'performance'"},
    {"{\"loadavg_start\": [2.3, 1, 1], \"loadavg_end\": [0.2, 0, 0], \"cores_logical\": 4}", 1,
     "the machine was loaded at start: load average 2.3 on 4 CPUs"},
    {"{\"loadavg_start\": [0.2, 1, 1], \"loadavg_end\": [5.5, 0, 0], \"cores_logical\": 1}", 1,
     "the machine was loaded at end: load average 5.5 on 1 CPU"},
    {"{\"loadavg\": null, \"cores_logical\": null, \"governor\": \"schedutil\"}", 1,
     "CPU frequency governor is 'schedutil', not 'performance'"},
    {"{\"loadavg\": [12.5, 0, 0], \"cores_logical\": 2}", 1,
     "the machine was loaded at start: load average 12.5 on 2 CPUs"},
    {"{\"loadavg\": [4, 0, 0], \"cores_logical\": 2}", 1,
     "the machine was loaded at start: load average 4 on 2 CPUs"},
    {"{\"cpuidle\": \"haltpoll\", \"guest_halt_poll_ns\": 0}", 1,
     "idle CPUs halt without polling first (cpuidle 'haltpoll', guest_halt_poll_ns 0): each "
     "wake-up is an exit to the host, which slows rows that wait on single round trips"},
    {"{\"cpuidle\": \"haltpoll\", \"guest_halt_poll_ns\": 200000}", 0, NULL},
    {"{\"cpuidle\": \"intel_idle\"}", 0, NULL},
    {"{}", 0, NULL},
};

int main(void)
{
    static const char *const keys[] = {
        "machine", "cpu_model", "cores_physical", "cores_logical", "memory_bytes",
        "os",      "kernel",    "arch",           "governor",      "cpuidle",
        "loadavg", "affinity",  "compiler",       "libraries"};
    size_t i;
    json_t *env, *w, *libs;
    json_error_t je;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        env = json_loads(cases[i].env, 0, &je);
        w = json_array();
        CHECK_MSG(env != NULL, "case %zu: %s", i, je.text);
        CHECK_MSG(envinfo_warnings(env, w) == cases[i].count, "case %zu", i);
        CHECK_MSG(json_array_size(w) == (size_t)cases[i].count, "case %zu", i);
        if (cases[i].first && json_array_size(w) > 0)
            CHECK_STR(json_string_value(json_array_get(w, 0)), cases[i].first);
        json_decref(env);
        json_decref(w);
    }
    CHECK(envinfo_warnings(NULL, NULL) == -1);

    env = envinfo_collect();
    CHECK(env != NULL);
    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        CHECK_MSG(json_object_get(env, keys[i]) != NULL, "key '%s' missing", keys[i]);
    CHECK(json_integer_value(json_object_get(env, "cores_logical")) ==
          sysconf(_SC_NPROCESSORS_ONLN));
    CHECK(json_integer_value(json_object_get(env, "cores_physical")) >= 1);
    CHECK(json_integer_value(json_object_get(env, "cores_physical")) <=
          json_integer_value(json_object_get(env, "cores_logical")));
    CHECK(json_integer_value(json_object_get(env, "memory_bytes")) > 0);
    CHECK(json_array_size(json_object_get(env, "loadavg")) == 3);
    libs = json_object_get(env, "libraries");
    CHECK_STR(json_string_value(json_object_get(libs, "hiredis")), "1.2.0");
    CHECK(json_string_value(json_object_get(libs, "openssl")) != NULL &&
          json_string_value(json_object_get(libs, "openssl"))[0] == '3');
    CHECK(json_string_value(json_object_get(libs, "jansson")) != NULL);
    CHECK(json_string_value(json_object_get(libs, "libcurl")) != NULL);
    CHECK(strncmp(json_string_value(json_object_get(env, "compiler")), "gcc ", 4) == 0 ||
          strncmp(json_string_value(json_object_get(env, "compiler")), "clang ", 6) == 0);
    CHECK(strchr(json_string_value(json_object_get(env, "affinity")), '0') != NULL);
    /* guest_halt_poll_ns is read with the haltpoll idle driver only (a KVM guest) */
    CHECK((json_object_get(env, "guest_halt_poll_ns") != NULL) ==
          (strcmp(json_string_value(json_object_get(env, "cpuidle")), "haltpoll") == 0));
    json_decref(env);

    w = envinfo_loadavg();
    CHECK(json_is_array(w) && json_array_size(w) == 3);
    json_decref(w);
    return T_DONE();
}
