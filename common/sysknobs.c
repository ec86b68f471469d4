/* sysknobs: the host knobs that matter to a measurement, read and written (sysknobs.h). */
#include "sysknobs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CPU_DIR "/sys/devices/system/cpu"
#define HALTPOLL_DIR "/sys/module/haltpoll/parameters"

int sysknobs_read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    int rc = -1;

    if (!f)
        return -1;
    if (fgets(buf, (int)len, f)) {
        buf[strcspn(buf, "\n")] = '\0';
        rc = 0;
    } else {
        buf[0] = '\0';
        rc = ferror(f) ? -1 : 0;
    }
    fclose(f);
    return rc;
}

int sysknobs_write(const char *path, const char *value, char *err, size_t errlen)
{
    char line[160];
    int fd = open(path, O_WRONLY | O_CLOEXEC), rc = -1;
    int n = snprintf(line, sizeof(line), "%s\n", value);

    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (n < 0 || (size_t)n >= sizeof(line))
        snprintf(err, errlen, "%s: value '%s' too long", path, value);
    else if (write(fd, line, (size_t)n) != n)
        snprintf(err, errlen, "%s: writing '%s': %s", path, value, strerror(errno));
    else
        rc = 0;
    if (close(fd) != 0 && rc == 0) {
        snprintf(err, errlen, "%s: writing '%s': %s", path, value, strerror(errno));
        rc = -1;
    }
    return rc;
}

/* 1 when the space-separated list in file `list` holds word. */
static int offers(const char *list, const char *word)
{
    char buf[512];
    const char *p = buf;
    size_t wl = strlen(word);

    if (sysknobs_read_line(list, buf, sizeof(buf)) != 0)
        return 0;
    while (*p) {
        size_t l = strcspn(p, " ");

        if (l == wl && strncmp(p, word, wl) == 0)
            return 1;
        p += l;
        p += strspn(p, " ");
    }
    return 0;
}

/* Adds a knob (nothing when k is full: the static one stands in) and returns it. */
static struct sysknob *add(struct sysknob *k, size_t max, size_t *n, const char *name,
                           const char *path, const char *quiet, const char *why)
{
    static struct sysknob full;
    struct sysknob *x;

    if (*n >= max)
        return &full;
    x = &k[(*n)++];
    memset(x, 0, sizeof(*x));
    snprintf(x->name, sizeof(x->name), "%s", name);
    snprintf(x->path, sizeof(x->path), "%s", path);
    snprintf(x->quiet, sizeof(x->quiet), "%s", quiet ? quiet : "");
    x->why = why;
    x->present = sysknobs_read_line(path, x->value, sizeof(x->value)) == 0;
    if (!x->present)
        x->value[0] = '\0';
    x->kind = SYSKNOB_UINT;
    x->max = 1;
    return x;
}

/* A knob that takes one of the words its list file offers. */
static void words(struct sysknob *x, const char *list)
{
    x->kind = SYSKNOB_WORD;
    snprintf(x->offered, sizeof(x->offered), "%s", list);
}

/* One scaling_governor per CPU that has cpufreq; one absent entry when none has. */
static void governors(struct sysknob *k, size_t max, size_t *n)
{
    static const char why[] = "the CPU runs at its highest frequency, not one that follows load";
    long cpus = sysconf(_SC_NPROCESSORS_CONF), i;
    size_t before = *n;

    for (i = 0; i < cpus && i < 64; i++) {
        char name[64], path[160], avail[160];

        snprintf(path, sizeof(path), CPU_DIR "/cpu%ld/cpufreq/scaling_governor", i);
        if (access(path, F_OK) != 0)
            continue;
        snprintf(avail, sizeof(avail), CPU_DIR "/cpu%ld/cpufreq/scaling_available_governors", i);
        snprintf(name, sizeof(name), "cpufreq.governor.cpu%ld", i);
        words(add(k, max, n, name, path, offers(avail, "performance") ? "performance" : NULL, why),
              avail);
    }
    if (*n == before)
        words(add(k, max, n, "cpufreq.governor", CPU_DIR "/cpu0/cpufreq/scaling_governor",
                  "performance", why),
              CPU_DIR "/cpu0/cpufreq/scaling_available_governors");
}

size_t sysknobs_read(struct sysknob *k, size_t max)
{
    size_t n = 0, i;
    char drv[64];

    words(add(k, max, &n, "cpuidle.governor", CPU_DIR "/cpuidle/current_governor",
              offers(CPU_DIR "/cpuidle/available_governors", "haltpoll") ? "haltpoll" : NULL,
              "an idle vCPU polls before it halts (the guest haltpoll governor)"),
          CPU_DIR "/cpuidle/available_governors");
    add(k, max, &n, "haltpoll.guest_halt_poll_ns", HALTPOLL_DIR "/guest_halt_poll_ns", "200000",
        "how long an idle vCPU polls before it halts (0: each wake-up is an exit to the host)")
        ->max = 4294967295UL;
    add(k, max, &n, "haltpoll.guest_halt_poll_allow_shrink",
        HALTPOLL_DIR "/guest_halt_poll_allow_shrink", "N",
        "the polling window does not shrink back to 0 between requests")
        ->kind = SYSKNOB_YN;
    governors(k, max, &n);
    add(k, max, &n, "cpufreq.boost", CPU_DIR "/cpufreq/boost", "0",
        "no turbo boost: the frequency does not depend on the other cores' load or heat");
    add(k, max, &n, "intel_pstate.no_turbo", CPU_DIR "/intel_pstate/no_turbo", "1",
        "no turbo boost (intel_pstate)");
    add(k, max, &n, "kernel.randomize_va_space", "/proc/sys/kernel/randomize_va_space", "0",
        "no address-space randomisation: counted runs see the same addresses every time")
        ->max = 2;
    add(k, max, &n, "net.core.busy_poll", "/proc/sys/net/core/busy_poll", "50",
        "poll()/select() on sockets busy-poll up to 50 us before they sleep")
        ->max = 2147483647UL;
    /* the halt-polling knobs act only through the guest's haltpoll idle driver */
    if (sysknobs_read_line(CPU_DIR "/cpuidle/current_driver", drv, sizeof(drv)) != 0 ||
        strcmp(drv, "haltpoll") != 0)
        for (i = 0; i < n && i < 3; i++)
            k[i].why = "no effect here: the idle driver is not haltpoll (cpuidle "
                       "current_driver)";
    return n;
}

int sysknobs_value_ok(const struct sysknob *k, const char *value, char *why, size_t whylen)
{
    size_t i, len = strlen(value);
    unsigned long v = 0;

    if (k->kind == SYSKNOB_YN) {
        snprintf(why, whylen, "expected Y or N");
        return strcmp(value, "Y") == 0 || strcmp(value, "N") == 0;
    }
    if (k->kind == SYSKNOB_UINT) {
        snprintf(why, whylen, "expected an integer from 0 to %lu", k->max);
        if (len == 0 || len > 10 || (len > 1 && value[0] == '0'))
            return 0;
        for (i = 0; i < len; i++) {
            if (value[i] < '0' || value[i] > '9')
                return 0;
            v = v * 10 + (unsigned long)(value[i] - '0');
        }
        return v <= k->max;
    }
    snprintf(why, whylen, "expected a governor '%s' lists", k->offered);
    return len > 0 && len < 64 && strspn(value, "abcdefghijklmnopqrstuvwxyz0123456789_") == len &&
           offers(k->offered, value);
}

json_t *sysknobs_json(void)
{
    struct sysknob k[SYSKNOBS_MAX];
    size_t n = sysknobs_read(k, SYSKNOBS_MAX), i;
    json_t *o = json_object();

    for (i = 0; o && i < n; i++)
        json_object_set_new(o, k[i].name, k[i].present ? json_string(k[i].value) : json_null());
    return o;
}

json_t *sysknobs_list_json(const struct sysknob *k, size_t n)
{
    json_t *list = json_array();
    size_t i;

    for (i = 0; list && i < n; i++)
        json_array_append_new(
            list, json_pack("{s:s, s:s, s:o, s:o, s:b, s:s}", "name", k[i].name, "path", k[i].path,
                            "value", k[i].present ? json_string(k[i].value) : json_null(), "quiet",
                            *k[i].quiet ? json_string(k[i].quiet) : json_null(), "is_quiet",
                            k[i].present && strcmp(k[i].value, k[i].quiet) == 0, "why",
                            k[i].why ? k[i].why : ""));
    return list;
}

size_t sysknobs_from_json(const json_t *list, struct sysknob *k, size_t max)
{
    size_t i, n = 0;
    const json_t *e;

    json_array_foreach((json_t *)list, i, e)
    {
        const char *v = json_string_value(json_object_get(e, "value"));
        const char *q = json_string_value(json_object_get(e, "quiet"));

        if (n >= max || !json_is_string(json_object_get(e, "name")))
            continue;
        memset(&k[n], 0, sizeof(k[n]));
        snprintf(k[n].name, sizeof(k[n].name), "%s", json_string_value(json_object_get(e, "name")));
        snprintf(k[n].path, sizeof(k[n].path), "%s",
                 json_is_string(json_object_get(e, "path"))
                     ? json_string_value(json_object_get(e, "path"))
                     : "");
        snprintf(k[n].value, sizeof(k[n].value), "%s", v ? v : "");
        snprintf(k[n].quiet, sizeof(k[n].quiet), "%s", q ? q : "");
        k[n].present = v != NULL;
        k[n].why = json_is_string(json_object_get(e, "why"))
                       ? json_string_value(json_object_get(e, "why"))
                       : "";
        n++;
    }
    return n;
}
