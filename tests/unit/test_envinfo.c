/* envinfo: the warnings' exact sentences (loaded machine, governor, halt polling) from
 * hand-made environments, the CPU identity from /proc/cpuinfo texts, and envinfo_collect()
 * on this machine: every key present, counts that agree with sysconf(3), libraries named. */
#include <unistd.h>

#include "run/envinfo.h"
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

/* /proc/cpuinfo texts: the first CPU's block is read, "model" is not "model name" */
static const struct {
    const char *text;
    const char *id; /* NULL: none */
} cpuinfos[] = {
    {"processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
     "model name\t: AMD EPYC\nstepping\t: 1\n\nprocessor\t: 1\ncpu family\t: 26\n",
     "x86 family 25 model 17 stepping 1"},
    {"model name\t: Intel(R) Xeon(R) CPU\ncpu family\t: 6\nmodel\t\t: 106\n",
     "x86 family 6 model 106 stepping unknown"},
    {"processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU architecture: 8\n"
     "CPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n",
     "arm implementer 0x41 part 0xd0c variant 0x3 revision 1"},
    /* a field of the second CPU does not count */
    {"processor\t: 0\nmodel name\t: X\n\ncpu family\t: 6\nmodel\t\t: 1\n", NULL},
    {"model name\t: only a name\nmodel names\t: 3\ncpu family\t: 6\n", NULL},
    {"cpu family:\nmodel\t: 5\n", NULL},
    {"", NULL},
};

int main(void)
{
    char id[160];
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
    for (i = 0; i < sizeof(cpuinfos) / sizeof(cpuinfos[0]); i++) {
        int rc = envinfo_cpu_id(cpuinfos[i].text, id, sizeof(id));
        CHECK_MSG(rc == (cpuinfos[i].id ? 0 : -1), "cpuinfo %zu", i);
        if (cpuinfos[i].id && rc == 0)
            CHECK_STR(id, cpuinfos[i].id);
    }

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
#if defined(__x86_64__) || defined(__i386__)
    CHECK(strncmp(json_string_value(json_object_get(env, "cpu_id")), "x86 family ", 11) == 0);
#endif
    json_decref(env);

    w = envinfo_loadavg();
    CHECK(json_is_array(w) && json_array_size(w) == 3);
    json_decref(w);
    return T_DONE();
}
