/* envinfo: the measurement environment for meta.json — what a reviewer needs to judge whether
 * two datasets are comparable (machine, CPU, cores, memory, OS, kernel, governor, idle
 * driver, load, affinity, compiler, libraries). Everything is read from /proc, /sys,
 * /etc/os-release and uname(2); a value that cannot be read becomes "unknown" (or null for
 * numbers) rather than an error, because a container or VM often hides some of them. */
#include "run/envinfo.h"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <curl/curl.h>
#include <hiredis.h>
#include <openssl/crypto.h>

#include "sysknobs.h"
#include "util/sha256.h"

/* Read the first line of a small file into buf, trailing whitespace removed. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "re");
    size_t n;

    if (!f)
        return -1;
    if (!fgets(buf, (int)len, f)) {
        fclose(f);
        return -1;
    }
    fclose(f);
    n = strlen(buf);
    while (n > 0 && isspace((unsigned char)buf[n - 1]))
        buf[--n] = '\0';
    return n > 0 ? 0 : -1;
}

/* Whether the first "flags" line of /proc/cpuinfo lists flag. */
static int cpu_flag(const char *flag)
{
    FILE *f = fopen("/proc/cpuinfo", "re");
    char line[4096], *p;
    size_t n = strlen(flag);
    int found = 0;

    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        for (p = strstr(line, flag); p && !found; p = strstr(p + 1, flag))
            found = p[-1] == ' ' && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0');
        break;
    }
    fclose(f);
    return found;
}

static json_t *machine_model(void)
{
    char vendor[128], product[128], both[260];
    int hv = read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor)) == 0;
    int hp = read_line("/sys/class/dmi/id/product_name", product, sizeof(product)) == 0;

    if (hv && hp) {
        snprintf(both, sizeof(both), "%s %s", vendor, product);
        return json_string(both);
    }
    if (hp)
        return json_string(product);
    if (hv)
        return json_string(vendor);
    /* device tree platforms (Arm boards) name themselves here */
    if (read_line("/proc/device-tree/model", product, sizeof(product)) == 0)
        return json_string(product);
    /* a VM that hides its DMI tables still says it runs under a hypervisor */
    return json_string(cpu_flag("hypervisor") ? "unknown (virtual machine)" : "unknown");
}

static json_t *cpu_model(void)
{
    FILE *f = fopen("/proc/cpuinfo", "re");
    char line[512], *v;
    json_t *out = NULL;

    if (!f)
        return json_string("unknown");
    while (!out && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "model name", 10) != 0 && strncmp(line, "Model", 5) != 0)
            continue;
        v = strchr(line, ':');
        if (!v)
            continue;
        v++;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\n")] = '\0';
        if (*v)
            out = json_string(v);
    }
    fclose(f);
    return out ? out : json_string("unknown");
}

/* The value of a "key : value" line of /proc/cpuinfo whose key is exactly `key`, into out;
 * 0, or -1 when the text has no such line before the first blank line (the first CPU). */
static int cpuinfo_value(const char *text, const char *key, char *out, size_t len)
{
    size_t klen = strlen(key), n;
    const char *line, *v, *end;

    for (line = text; *line && *line != '\n'; line = *end ? end + 1 : end) {
        end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        if (strncmp(line, key, klen) != 0)
            continue;
        /* the key, padded with tabs or spaces, then ':' ("model" is not "model name") */
        for (v = line + klen; v < end && (*v == ' ' || *v == '\t'); v++)
            ;
        if (v == end || *v != ':')
            continue;
        for (v++; v < end && (*v == ' ' || *v == '\t'); v++)
            ;
        n = (size_t)(end - v);
        if (n == 0 || n >= len)
            continue;
        memcpy(out, v, n);
        out[n] = '\0';
        return 0;
    }
    return -1;
}

int envinfo_cpu_id(const char *cpuinfo, char *out, size_t len)
{
    char fam[32], model[32], step[32], impl[32], var[32], part[32], rev[32];

    if (cpuinfo_value(cpuinfo, "cpu family", fam, sizeof(fam)) == 0 &&
        cpuinfo_value(cpuinfo, "model", model, sizeof(model)) == 0) {
        if (cpuinfo_value(cpuinfo, "stepping", step, sizeof(step)) != 0)
            snprintf(step, sizeof(step), "unknown");
        snprintf(out, len, "x86 family %s model %s stepping %s", fam, model, step);
        return 0;
    }
    if (cpuinfo_value(cpuinfo, "CPU implementer", impl, sizeof(impl)) == 0 &&
        cpuinfo_value(cpuinfo, "CPU part", part, sizeof(part)) == 0) {
        if (cpuinfo_value(cpuinfo, "CPU variant", var, sizeof(var)) != 0)
            snprintf(var, sizeof(var), "unknown");
        if (cpuinfo_value(cpuinfo, "CPU revision", rev, sizeof(rev)) != 0)
            snprintf(rev, sizeof(rev), "unknown");
        snprintf(out, len, "arm implementer %s part %s variant %s revision %s", impl, part, var,
                 rev);
        return 0;
    }
    return -1;
}

/* The first CPU's block of /proc/cpuinfo, as envinfo_cpu_id() reads it; NULL when there is
 * none. */
static json_t *cpu_id(void)
{
    FILE *f = fopen("/proc/cpuinfo", "re");
    char text[8192], id[160];
    size_t n;

    if (!f)
        return NULL;
    n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    return envinfo_cpu_id(text, id, sizeof(id)) == 0 ? json_string(id) : NULL;
}

/* Physical cores: distinct (package, core) pairs among the online CPUs' topology. */
static json_t *cores_physical(long logical)
{
    long pairs[1024][2];
    long n = 0, cpu, i, pkg, core;
    char path[128], buf[64];

    for (cpu = 0; cpu < 4096 && n < 1024; cpu++) {
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/topology/core_id", cpu);
        if (read_line(path, buf, sizeof(buf)) != 0) {
            if (cpu >= logical)
                break;
            continue;
        }
        core = strtol(buf, NULL, 10);
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/topology/physical_package_id",
                 cpu);
        pkg = read_line(path, buf, sizeof(buf)) == 0 ? strtol(buf, NULL, 10) : 0;
        for (i = 0; i < n; i++)
            if (pairs[i][0] == pkg && pairs[i][1] == core)
                break;
        if (i == n) {
            pairs[n][0] = pkg;
            pairs[n][1] = core;
            n++;
        }
    }
    return n > 0 ? json_integer(n) : json_null();
}

static json_t *os_name(void)
{
    FILE *f = fopen("/etc/os-release", "re");
    char line[512], *v;
    size_t n;
    json_t *out = NULL;

    if (!f)
        return json_string("unknown");
    while (!out && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "PRETTY_NAME=", 12) != 0)
            continue;
        v = line + 12;
        v[strcspn(v, "\n")] = '\0';
        n = strlen(v);
        if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
            v[n - 1] = '\0';
            v++;
        }
        if (*v)
            out = json_string(v);
    }
    fclose(f);
    return out ? out : json_string("unknown");
}

/* "0-3,6" style list of the CPUs this process may run on. */
static json_t *affinity(void)
{
    cpu_set_t set;
    char buf[512];
    size_t used = 0;
    int cpu, start = -1, w;

    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return json_string("unknown");
    buf[0] = '\0';
    for (cpu = 0; cpu <= CPU_SETSIZE; cpu++) {
        int in = cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set);

        if (in && start < 0)
            start = cpu;
        if (!in && start >= 0) {
            if (cpu - 1 == start)
                w = snprintf(buf + used, sizeof(buf) - used, "%s%d", used ? "," : "", start);
            else
                w = snprintf(buf + used, sizeof(buf) - used, "%s%d-%d", used ? "," : "", start,
                             cpu - 1);
            if (w < 0 || (size_t)w >= sizeof(buf) - used)
                break;
            used += (size_t)w;
            start = -1;
        }
    }
    return json_string(used ? buf : "unknown");
}

json_t *envinfo_loadavg(void)
{
    char buf[256];
    double a[3];

    if (read_line("/proc/loadavg", buf, sizeof(buf)) != 0)
        return json_null();
    if (sscanf(buf, "%lf %lf %lf", &a[0], &a[1], &a[2]) != 3)
        return json_null();
    return json_pack("[f, f, f]", a[0], a[1], a[2]);
}

static json_t *compiler(void)
{
    char buf[256];

#if defined(__clang__)
    snprintf(buf, sizeof(buf), "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(buf, sizeof(buf), "gcc %s", __VERSION__);
#else
    snprintf(buf, sizeof(buf), "unknown");
#endif
    return json_string(buf);
}

static json_t *libraries(void)
{
    char hiredis[32];
    const curl_version_info_data *cv = curl_version_info(CURLVERSION_NOW);

    snprintf(hiredis, sizeof(hiredis), "%d.%d.%d", HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH);
    return json_pack("{s:s, s:s, s:s, s:s}", "openssl", OpenSSL_version(OPENSSL_VERSION_STRING),
                     "libcurl", cv && cv->version ? cv->version : "unknown", "jansson",
                     jansson_version_str(), "hiredis", hiredis);
}

static json_t *hostname_hash(void)
{
    char host[256], hex[65];

    if (gethostname(host, sizeof(host)) != 0)
        return json_null();
    host[sizeof(host) - 1] = '\0';
    if (sha256_mem(host, strlen(host), hex) != 0)
        return json_null();
    hex[16] = '\0'; /* enough to tell machines apart, without naming them */
    return json_string(hex);
}

/* "cpuidle": the idle driver; with the KVM guest driver "haltpoll" also "guest_halt_poll_ns",
 * how long an idle vCPU polls before it halts (0: it halts at once, and each wake-up is an
 * exit to the host). */
static void cpuidle(json_t *env)
{
    char buf[64], *end;
    unsigned long long ns;

    if (read_line("/sys/devices/system/cpu/cpuidle/current_driver", buf, sizeof(buf)) != 0) {
        json_object_set_new(env, "cpuidle", json_string("unknown"));
        return;
    }
    json_object_set_new(env, "cpuidle", json_string(buf));
    if (strcmp(buf, "haltpoll") != 0 ||
        read_line("/sys/module/haltpoll/parameters/guest_halt_poll_ns", buf, sizeof(buf)) != 0)
        return;
    errno = 0;
    ns = strtoull(buf, &end, 10);
    if (errno == 0 && end != buf && *end == '\0')
        json_object_set_new(env, "guest_halt_poll_ns", json_integer((json_int_t)ns));
}

json_t *envinfo_collect(void)
{
    struct utsname u;
    char buf[512];
    long logical = sysconf(_SC_NPROCESSORS_ONLN);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    json_t *env = json_object();

    if (!env)
        return NULL;
    json_object_set_new(env, "machine", machine_model());
    json_object_set_new(env, "cpu_model", cpu_model());
    {
        json_t *id = cpu_id();
        if (id)
            json_object_set_new(env, "cpu_id", id);
    }
    json_object_set_new(env, "cores_physical", cores_physical(logical));
    json_object_set_new(env, "cores_logical", logical > 0 ? json_integer(logical) : json_null());
    json_object_set_new(env, "memory_bytes",
                        pages > 0 && page > 0 ? json_integer((json_int_t)pages * page)
                                              : json_null());
    json_object_set_new(env, "os", os_name());
    if (uname(&u) == 0) {
        snprintf(buf, sizeof(buf), "%s %s", u.release, u.version);
        json_object_set_new(env, "kernel", json_string(buf));
        json_object_set_new(env, "arch", json_string(u.machine));
    } else {
        json_object_set_new(env, "kernel", json_string("unknown"));
        json_object_set_new(env, "arch", json_string("unknown"));
    }
    if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof(buf)) == 0)
        json_object_set_new(env, "governor", json_string(buf));
    else
        json_object_set_new(env, "governor", json_string("unknown"));
    cpuidle(env);
    json_object_set_new(env, "knobs", sysknobs_json());
    json_object_set_new(env, "loadavg", envinfo_loadavg());
    json_object_set_new(env, "hostname_hash", hostname_hash());
    json_object_set_new(env, "affinity", affinity());
    json_object_set_new(env, "compiler", compiler());
#ifdef PAIRBENCH_CFLAGS
    json_object_set_new(env, "cflags", json_string(PAIRBENCH_CFLAGS));
#else
    json_object_set_new(env, "cflags", json_string("unknown"));
#endif
    json_object_set_new(env, "libraries", libraries());
    return env;
}
