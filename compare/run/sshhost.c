/* sshhost: the server host's URL, its ssh command, its idle round trip (see sshhost.h). */
#include "run/sshhost.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "num.h"

#define SSHHOST_DEFAULT_RTT_LIMIT 0.5

/* Whether s holds only characters of set (and is not empty). */
static int only(const char *s, size_t n, const char *set)
{
    size_t i;

    if (n == 0)
        return 0;
    for (i = 0; i < n; i++)
        if (!strchr(set, s[i]) || !s[i])
            return 0;
    return 1;
}

#define ALNUM "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/* One "key=value" of the query into h. */
static int parse_param(const char *kv, size_t n, struct server_host *h, char *why, size_t whylen)
{
    const char *eq = memchr(kv, '=', n);
    size_t kl = eq ? (size_t)(eq - kv) : n, vl = eq ? n - kl - 1 : 0;
    char val[1024];

    if (!eq || vl == 0 || vl >= sizeof(val)) {
        snprintf(why, whylen, "query parameter '%.*s': expected KEY=VALUE", (int)n, kv);
        return -1;
    }
    memcpy(val, eq + 1, vl);
    val[vl] = '\0';
    if (kl == 7 && strncmp(kv, "keyfile", 7) == 0)
        snprintf(h->keyfile, sizeof(h->keyfile), "%s", val);
    else if (kl == 11 && strncmp(kv, "known_hosts", 11) == 0)
        snprintf(h->known_hosts, sizeof(h->known_hosts), "%s", val);
    else if (kl == 6 && strncmp(kv, "driver", 6) == 0)
        snprintf(h->driver, sizeof(h->driver), "%s", val);
    else if (kl == 9 && strncmp(kv, "rtt_limit", 9) == 0) {
        if (num_parse_double(val, 0.01, 100, &h->rtt_limit) < 0) {
            snprintf(why, whylen, "rtt_limit '%s': expected a share from 0.01 to 100", val);
            return -1;
        }
    } else {
        snprintf(why, whylen,
                 "unknown query parameter '%.*s' (expected keyfile, known_hosts, driver or "
                 "rtt_limit)",
                 (int)kl, kv);
        return -1;
    }
    return 0;
}

/* USER@HOST[:PORT] (the authority, n bytes) into h. */
static int parse_authority(const char *a, size_t n, struct server_host *h, char *why, size_t whylen)
{
    const char *at = memchr(a, '@', n), *hp, *colon = NULL, *end = a + n;
    char port[16];

    if (at) {
        if (memchr(a, ':', (size_t)(at - a))) {
            snprintf(why, whylen,
                     "a password in the URL is refused (ssh runs with BatchMode: use a key, "
                     "keyfile=FILE or an ssh agent)");
            return -1;
        }
        if (!only(a, (size_t)(at - a), ALNUM "._-") || (size_t)(at - a) >= sizeof(h->user)) {
            snprintf(why, whylen, "user '%.*s': expected letters, digits, '.', '_' or '-'",
                     (int)(at - a), a);
            return -1;
        }
        memcpy(h->user, a, (size_t)(at - a));
        h->user[at - a] = '\0';
    }
    hp = at ? at + 1 : a;
    if (hp < end && *hp == '[') { /* [IPv6] */
        const char *rb = memchr(hp, ']', (size_t)(end - hp));
        if (!rb || !only(hp + 1, (size_t)(rb - hp - 1), "0123456789abcdefABCDEF:.")) {
            snprintf(why, whylen, "host '%.*s': expected [IPv6 address]", (int)(end - hp), hp);
            return -1;
        }
        snprintf(h->host, sizeof(h->host), "%.*s", (int)(rb - hp - 1), hp + 1);
        colon = rb + 1 < end && rb[1] == ':' ? rb + 1 : NULL;
        if (rb + 1 < end && !colon) {
            snprintf(why, whylen, "expected ':PORT' after the address, got '%.*s'",
                     (int)(end - rb - 1), rb + 1);
            return -1;
        }
    } else {
        colon = memchr(hp, ':', (size_t)(end - hp));
        if (!only(hp, (size_t)((colon ? colon : end) - hp), ALNUM ".-") ||
            (size_t)((colon ? colon : end) - hp) >= sizeof(h->host)) {
            snprintf(why, whylen, "host '%.*s': expected a host name or an address",
                     (int)((colon ? colon : end) - hp), hp);
            return -1;
        }
        snprintf(h->host, sizeof(h->host), "%.*s", (int)((colon ? colon : end) - hp), hp);
    }
    h->port = 22;
    if (colon) {
        snprintf(port, sizeof(port), "%.*s", (int)(end - colon - 1), colon + 1);
        if (end - colon - 1 >= (long)sizeof(port) || num_parse_uint(port, 1, 65535, &h->port) < 0) {
            snprintf(why, whylen, "port '%.*s': expected 1 to 65535", (int)(end - colon - 1),
                     colon + 1);
            return -1;
        }
    }
    return 0;
}

int sshhost_parse(const char *url, struct server_host *h, char *why, size_t whylen)
{
    const char *auth, *q, *p;
    size_t an;

    memset(h, 0, sizeof(*h));
    h->rtt_limit = SSHHOST_DEFAULT_RTT_LIMIT;
    snprintf(h->driver, sizeof(h->driver), "%s", "driver");
    if (strlen(url) >= sizeof(h->url) || strncmp(url, "ssh://", 6) != 0) {
        snprintf(why, whylen,
                 "expected ssh://[USER@]HOST[:PORT][?keyfile=F&known_hosts=F&driver=P]");
        return -1;
    }
    snprintf(h->url, sizeof(h->url), "%s", url);
    auth = url + 6;
    q = strchr(auth, '?');
    an = q ? (size_t)(q - auth) : strlen(auth);
    if (an > 0 && auth[an - 1] == '/') /* "ssh://host/" is the host too */
        an--;
    if (memchr(auth, '/', an)) {
        snprintf(why, whylen, "a path is not expected after the host (got '%.*s')", (int)an, auth);
        return -1;
    }
    if (an == 0 || parse_authority(auth, an, h, why, whylen) < 0) {
        if (an == 0)
            snprintf(why, whylen, "no host (expected ssh://[USER@]HOST[:PORT])");
        return -1;
    }
    for (p = q ? q + 1 : NULL; p && *p;) {
        size_t n = strcspn(p, "&");
        if (parse_param(p, n, h, why, whylen) < 0)
            return -1;
        p += n + (p[n] == '&');
    }
    return 0;
}

void sshhost_mask(const char *url, char *out, size_t outlen)
{
    const char *auth = strstr(url, "://"), *at, *colon;

    auth = auth ? auth + 3 : url;
    at = strchr(auth, '@');
    colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
    if (colon)
        snprintf(out, outlen, "%.*s:***%s", (int)(colon - url), url, at);
    else
        snprintf(out, outlen, "%s", url);
}

int sshhost_argv(const struct server_host *h, const char *remote_cmd, char **argv, size_t max,
                 char *storage, size_t storelen)
{
    size_t n = 0, o = 0;
    int w;

#define ADD(s) (n + 1 < max ? (argv[n++] = (char *)(s), 1) : 0)
/* a built word in storage */
#define ADDF(...)                                                                                  \
    ((w = snprintf(storage + o, storelen - o, __VA_ARGS__)) >= 0 && (size_t)w < storelen - o       \
         ? (ADD(storage + o) ? (o += (size_t)w + 1, 1) : 0)                                        \
         : 0)
    if (!ADD("ssh") || !ADD("-T") || !ADD("-o") || !ADD("BatchMode=yes") || !ADD("-o") ||
        !ADD("StrictHostKeyChecking=yes") || !ADD("-o") || !ADD("ConnectTimeout=10") ||
        !ADD("-o") || !ADD("ServerAliveInterval=2") || !ADD("-o") ||
        !ADD("ServerAliveCountMax=3") || !ADD("-o") || !ADD("LogLevel=ERROR") || !ADD("-p") ||
        !ADDF("%u", h->port))
        return -1;
    if (h->known_hosts[0] && (!ADD("-o") || !ADDF("UserKnownHostsFile=%s", h->known_hosts)))
        return -1;
    if (h->keyfile[0] &&
        (!ADD("-o") || !ADD("IdentitiesOnly=yes") || !ADD("-i") || !ADD(h->keyfile)))
        return -1;
    if (!(h->user[0] ? ADDF("%s@%s", h->user, h->host) : ADD(h->host)) || !ADD("--") ||
        !ADD(remote_cmd))
        return -1;
#undef ADD
#undef ADDF
    argv[n] = NULL;
    return (int)n;
}

static double mono_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* One timed connect (non-blocking, 2 s at most). Returns the microseconds, or -1 with errno. */
static double connect_us(const struct addrinfo *ai, char *local, size_t locallen)
{
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), e = 0;
    struct pollfd pfd;
    socklen_t el = sizeof(e);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    double t0, t1 = -1;

    if (fd < 0)
        return -1;
    t0 = mono_us();
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 && errno != EINPROGRESS)
        goto out;
    pfd.fd = fd;
    pfd.events = POLLOUT;
    if (poll(&pfd, 1, 2000) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) == 0 && !e) {
        t1 = mono_us() - t0;
        if (local && getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
            (void)getnameinfo((struct sockaddr *)&ss, sl, local, (socklen_t)locallen, NULL, 0,
                              NI_NUMERICHOST);
    } else if (e) {
        errno = e;
    } else {
        errno = ETIMEDOUT;
    }
out:
    e = errno;
    close(fd);
    errno = e;
    return t1;
}

/* The MTU of the interface holding address addr, or 0. */
static int local_mtu(const char *addr)
{
    struct ifaddrs *ifa, *i;
    char host[NI_MAXHOST];
    int mtu = 0, fd;
    struct ifreq ifr;

    if (getifaddrs(&ifa) < 0)
        return 0;
    for (i = ifa; i && !mtu; i = i->ifa_next) {
        if (!i->ifa_addr ||
            getnameinfo(i->ifa_addr,
                        i->ifa_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                                           : sizeof(struct sockaddr_in),
                        host, sizeof(host), NULL, 0, NI_NUMERICHOST) != 0 ||
            strcmp(host, addr) != 0)
            continue;
        memset(&ifr, 0, sizeof(ifr));
        snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", i->ifa_name);
        if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0) {
            if (ioctl(fd, SIOCGIFMTU, &ifr) == 0)
                mtu = ifr.ifr_mtu;
            close(fd);
        }
    }
    freeifaddrs(ifa);
    return mtu;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

json_t *sshhost_rtt(const struct server_host *h, unsigned n, char *why, size_t whylen)
{
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV}, *ai = NULL;
    char port[16], local[NI_MAXHOST] = "";
    double v[64];
    unsigned got = 0, i;
    int rc, e = 0;

    snprintf(port, sizeof(port), "%u", h->port);
    if ((rc = getaddrinfo(h->host, port, &hints, &ai)) != 0) {
        snprintf(why, whylen, "address '%s': %s", h->host, gai_strerror(rc));
        return NULL;
    }
    if (n > 64)
        n = 64;
    for (i = 0; i < n; i++) {
        double us = connect_us(ai, got ? NULL : local, sizeof(local));
        if (us >= 0)
            v[got++] = us;
        else
            e = errno;
    }
    freeaddrinfo(ai);
    if (!got) {
        snprintf(why, whylen, "cannot connect to %s port %u: %s", h->host, h->port, strerror(e));
        return NULL;
    }
    qsort(v, got, sizeof(v[0]), cmp_double);
    return json_pack("{s:f,s:f,s:f,s:I,s:s,s:o}", "median_us",
                     got % 2 ? v[got / 2] : (v[got / 2 - 1] + v[got / 2]) / 2, "min_us", v[0],
                     "max_us", v[got - 1], "n", (json_int_t)got, "local_address", local, "mtu",
                     local_mtu(local) ? json_integer(local_mtu(local)) : json_null());
}
