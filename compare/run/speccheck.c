/* speccheck: load-time refusals of a spec (see speccheck.h). */
#include "run/speccheck.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "run/spec.h"
#include "analysis/gate.h"

static int same_addr(const struct sockaddr *sa, int family, const void *addr)
{
    if (!sa || sa->sa_family != family)
        return 0;
    if (family == AF_INET)
        return memcmp(&((const struct sockaddr_in *)(const void *)sa)->sin_addr, addr, 4) == 0;
    return memcmp(&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, addr, 16) == 0;
}

static int on_interface(int family, const void *addr)
{
    struct ifaddrs *ifs = NULL, *i;
    int found = 0;

    if (getifaddrs(&ifs) < 0)
        return 0;
    for (i = ifs; i && !found; i = i->ifa_next)
        found = same_addr(i->ifa_addr, family, addr);
    freeifaddrs(ifs);
    return found;
}

int speccheck_host_is_local(const char *host)
{
    unsigned char a4[4], a6[16];
    char me[256];

    if (strcasecmp(host, "localhost") == 0)
        return 1;
    if (inet_pton(AF_INET, host, a4) == 1)
        return a4[0] == 127 || on_interface(AF_INET, a4);
    if (inet_pton(AF_INET6, host, a6) == 1)
        return IN6_IS_ADDR_LOOPBACK((const struct in6_addr *)(const void *)a6) ||
               on_interface(AF_INET6, a6);
    if (gethostname(me, sizeof(me)) == 0) {
        me[sizeof(me) - 1] = '\0';
        return strcasecmp(host, me) == 0;
    }
    return 0;
}

static int check_ports(const struct spec *sp, char *err, size_t errlen)
{
    size_t v;

    for (v = 0; v < sp->n_versions; v++) {
        const char *proto;
        json_t *cmd;

        json_object_foreach(sp->versions[v].server, proto, cmd)
        {
            char path[96], got[80];
            const struct spec_version *ver = &sp->versions[v];
            if (strstr(json_string_value(cmd), "{port}"))
                continue;
            /* the port may reach the server through its configuration file */
            if (ver->config_text && strstr(ver->config_text, "{port}") &&
                strstr(json_string_value(cmd), "{conf}"))
                continue;
            snprintf(path, sizeof(path), "$.versions[%zu].server.%s", v, proto);
            grid_show_value(cmd, got, sizeof(got));
            snprintf(err, errlen,
                     "%s: %s: expected a command with the {port} placeholder, or {conf} with "
                     "{port} in the version's config template (compare starts the server on a "
                     "free port it chooses), got %s",
                     sp->path, path, got);
            return -1;
        }
    }
    return 0;
}

/* Whether compare starts a server for configuration c (some version's, or the driver's). */
static int starts_server(const struct spec *sp, const json_t *p)
{
    const char *proto = json_string_value(json_object_get(p, "protocol"));
    size_t v;

    if (json_is_true(json_object_get(p, "serve")))
        return 1;
    for (v = 0; proto && v < sp->n_versions; v++)
        if (json_object_get(sp->versions[v].server, proto))
            return 1;
    return 0;
}

static int check_hosts(const struct spec *sp, char *err, size_t errlen)
{
    size_t c;

    for (c = 0; c < sp->n_configs; c++) {
        const json_t *p = sp->configs[c].params;
        const char *host = json_string_value(json_object_get(p, "host"));

        if (!host || !starts_server(sp, p) || speccheck_host_is_local(host))
            continue;
        snprintf(err, errlen,
                 "%s: configuration '%s': key 'host' is \"%s\", not an address of this machine "
                 "(expected a loopback or local address, e.g. 127.0.0.1: compare starts the "
                 "server here, so the driver must not be sent elsewhere)",
                 sp->grids[sp->configs[c].grid].path, sp->configs[c].label, host);
        return -1;
    }
    return 0;
}

int speccheck_gate(const json_t *gate, const char *file, char *err, size_t errlen)
{
    struct gate_config gc;
    int rc;

    if (!gate)
        return 0;
    gate_config_init(&gc);
    rc = gate_parse_spec(&gc, gate, file, err, errlen);
    gate_config_release(&gc);
    return rc;
}

int speccheck_run(const struct spec *sp, char *err, size_t errlen)
{
    if (check_ports(sp, err, errlen) < 0 || check_hosts(sp, err, errlen) < 0 ||
        speccheck_gate(sp->gate, sp->path, err, errlen) < 0)
        return -1;
    return 0;
}
