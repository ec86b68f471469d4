/* probe: readiness probes over plain TCP or TLS (see probe.h). */
#include "run/probe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "clock.h"

struct chan {
    int fd;
    SSL_CTX *ctx;
    SSL *ssl;
    uint64_t deadline;
    int timed_out; /* a wait ran out of the attempt's time */
    int final;     /* the server's answer will not change by asking again */
};

static int remaining_ms(const struct chan *c)
{
    uint64_t now = clock_now_ns();
    return now >= c->deadline ? 0 : (int)((c->deadline - now) / 1000000 + 1);
}

static void chan_close(struct chan *c)
{
    if (c->ssl)
        SSL_free(c->ssl);
    if (c->ctx)
        SSL_CTX_free(c->ctx);
    if (c->fd >= 0)
        close(c->fd);
    c->ssl = NULL;
    c->ctx = NULL;
    c->fd = -1;
}

static void ssl_error(char *err, size_t errlen, const char *what, const struct probe_target *t)
{
    unsigned long e = ERR_get_error();
    char buf[256] = "unknown error";

    if (e)
        ERR_error_string_n(e, buf, sizeof(buf));
    ERR_clear_error();
    snprintf(err, errlen, "tls %s '%s:%u': %s", what, t->host, t->port, buf);
}

/* Waits for fd to be readable/writable until the deadline. 1 ready, 0 timeout, -1 error. */
static int wait_fd(struct chan *c, short events)
{
    for (;;) {
        struct pollfd p = {.fd = c->fd, .events = events};
        int ms = remaining_ms(c), n;
        if (ms <= 0) {
            c->timed_out = 1;
            return 0;
        }
        n = poll(&p, 1, ms);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0)
            c->timed_out = 1;
        return n < 0 ? -1 : n > 0;
    }
}

/* TLS: the server name sent (SNI, not for an address) and, unless insecure, checked against
 * the certificate. */
static int chan_peer_name(struct chan *c, const struct probe_target *t, char *err, size_t errlen)
{
    const char *name = t->sni ? t->sni : t->host;
    X509_VERIFY_PARAM *vp = SSL_get0_param(c->ssl);
    struct in6_addr a6;
    struct in_addr a4;
    int is_ip = inet_pton(AF_INET, name, &a4) == 1 || inet_pton(AF_INET6, name, &a6) == 1;
    if (!is_ip)
        SSL_set_tlsext_host_name(c->ssl, name);
    if (!t->insecure) {
        if (is_ip ? X509_VERIFY_PARAM_set1_ip_asc(vp, name) != 1
                  : X509_VERIFY_PARAM_set1_host(vp, name, 0) != 1) {
            ssl_error(err, errlen, "peer name", t);
            return -1;
        }
    }
    return 0;
}

static int chan_open(struct chan *c, const struct probe_target *t, double timeout_s, char *err,
                     size_t errlen)
{
    struct addrinfo hints, *res = NULL, *ai;
    char portstr[16];
    int rc, soerr = 0;
    socklen_t sl = sizeof(soerr);

    memset(c, 0, sizeof(*c));
    c->fd = -1;
    c->deadline = clock_now_ns() + (uint64_t)(timeout_s * 1e9);
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(portstr, sizeof(portstr), "%u", t->port);
    rc = getaddrinfo(t->host, portstr, &hints, &res);
    if (rc != 0) {
        snprintf(err, errlen, "resolve '%s': %s", t->host, gai_strerror(rc));
        return -1;
    }
    for (ai = res; ai; ai = ai->ai_next) {
        c->fd =
            socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
        if (c->fd < 0)
            continue;
        if (connect(c->fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        if (errno == EINPROGRESS) {
            int w = wait_fd(c, POLLOUT);
            if (w > 0 && getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == 0 && soerr == 0)
                break;
            errno = w == 0 ? ETIMEDOUT : (soerr ? soerr : errno);
        }
        snprintf(err, errlen, "connect '%s:%u': %s", t->host, t->port, strerror(errno));
        close(c->fd);
        c->fd = -1;
    }
    freeaddrinfo(res);
    if (c->fd < 0)
        return -1;
    if (!t->tls)
        return 0;
    c->ctx = SSL_CTX_new(TLS_client_method());
    if (!c->ctx) {
        ssl_error(err, errlen, "setup", t);
        return -1;
    }
    if (t->insecure) {
        SSL_CTX_set_verify(c->ctx, SSL_VERIFY_NONE, NULL);
    } else {
        SSL_CTX_set_verify(c->ctx, SSL_VERIFY_PEER, NULL);
        if ((t->cacert ? SSL_CTX_load_verify_locations(c->ctx, t->cacert, NULL)
                       : SSL_CTX_set_default_verify_paths(c->ctx)) != 1) {
            ssl_error(err, errlen, "ca certificates", t);
            return -1;
        }
    }
    c->ssl = SSL_new(c->ctx);
    if (!c->ssl || SSL_set_fd(c->ssl, c->fd) != 1) {
        ssl_error(err, errlen, "setup", t);
        return -1;
    }
    if (chan_peer_name(c, t, err, errlen) < 0)
        return -1;
    for (;;) {
        int r = SSL_connect(c->ssl), e, w;
        if (r == 1)
            return 0;
        e = SSL_get_error(c->ssl, r);
        if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
            w = wait_fd(c, e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT);
            if (w > 0)
                continue;
            snprintf(err, errlen, "tls handshake '%s:%u': %s", t->host, t->port,
                     w == 0 ? "timed out" : strerror(errno));
            return -1;
        }
        if (SSL_get_verify_result(c->ssl) != X509_V_OK) {
            snprintf(err, errlen, "tls handshake '%s:%u': certificate verification failed: %s",
                     t->host, t->port,
                     X509_verify_cert_error_string(SSL_get_verify_result(c->ssl)));
            c->final = 1;
        } else
            ssl_error(err, errlen, "handshake", t);
        return -1;
    }
}

static int chan_write(struct chan *c, const struct probe_target *t, const char *p, size_t n,
                      char *err, size_t errlen)
{
    while (n > 0) {
        ssize_t w;
        if (c->ssl) {
            int r = SSL_write(c->ssl, p, (int)n), e;
            if (r > 0) {
                w = r;
            } else {
                e = SSL_get_error(c->ssl, r);
                if ((e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) &&
                    wait_fd(c, e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT) > 0)
                    continue;
                ssl_error(err, errlen, "write", t);
                return -1;
            }
        } else {
            w = write(c->fd, p, n);
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                if (errno == EAGAIN && wait_fd(c, POLLOUT) > 0)
                    continue;
                snprintf(err, errlen, "write '%s:%u': %s", t->host, t->port,
                         errno == EAGAIN ? "timed out" : strerror(errno));
                return -1;
            }
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Reads until `done(buf, len)` says the reply is complete, the peer closes, or the deadline. */
static int chan_read_until(struct chan *c, const struct probe_target *t, char *buf, size_t cap,
                           size_t *len, int (*done)(const char *, size_t, const void *),
                           const void *arg, char *err, size_t errlen)
{
    *len = 0;
    buf[0] = '\0';
    while (*len + 1 < cap) {
        ssize_t r;
        if (done(buf, *len, arg))
            return 0;
        if (c->ssl) {
            int n = SSL_read(c->ssl, buf + *len, (int)(cap - *len - 1)), e;
            if (n > 0) {
                r = n;
            } else {
                e = SSL_get_error(c->ssl, n);
                if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
                    int w = wait_fd(c, e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT);
                    if (w > 0)
                        continue;
                    snprintf(err, errlen, "read '%s:%u': timed out", t->host, t->port);
                    return -1;
                }
                if (e == SSL_ERROR_ZERO_RETURN)
                    r = 0;
                else {
                    ssl_error(err, errlen, "read", t);
                    return -1;
                }
            }
        } else {
            r = read(c->fd, buf + *len, cap - *len - 1);
            if (r < 0) {
                if (errno == EINTR)
                    continue;
                if (errno == EAGAIN) {
                    int w = wait_fd(c, POLLIN);
                    if (w > 0)
                        continue;
                    snprintf(err, errlen, "read '%s:%u': timed out", t->host, t->port);
                    return -1;
                }
                snprintf(err, errlen, "read '%s:%u': %s", t->host, t->port, strerror(errno));
                return -1;
            }
        }
        if (r == 0) {
            if (done(buf, *len, arg))
                return 0;
            snprintf(err, errlen, "'%s:%u' closed the connection before answering", t->host,
                     t->port);
            return -1;
        }
        *len += (size_t)r;
        buf[*len] = '\0';
    }
    return done(buf, *len, arg) ? 0 : -1;
}

static int has_crlf(const char *b, size_t n, const void *arg)
{
    (void)arg;
    return n >= 2 && memmem(b, n, "\r\n", 2) != NULL;
}

static int has_headers_end(const char *b, size_t n, const void *arg)
{
    (void)arg;
    return memmem(b, n, "\r\n\r\n", 4) != NULL ||
           (n >= 12 && memmem(b, n, "\r\n", 2) && strncmp(b, "HTTP/", 5) != 0);
}

static int has_n(const char *b, size_t n, const void *arg)
{
    (void)b;
    return n >= *(const size_t *)arg;
}

/* A whole RESP bulk string reply ($<len>\r\n<data>\r\n) or a one-line reply. */
static int has_bulk(const char *b, size_t n, const void *arg)
{
    const char *nl;
    long len;
    (void)arg;
    if (n < 3 || !(nl = memmem(b, n, "\r\n", 2)))
        return 0;
    if (b[0] != '$' && b[0] != '=')
        return 1;
    len = strtol(b + 1, NULL, 10);
    return len < 0 || (size_t)(nl - b) + 2 + (size_t)len + 2 <= n;
}

static void clip_line(const char *b, char *out, size_t outlen)
{
    size_t i;

    for (i = 0; b[i] && b[i] != '\r' && b[i] != '\n' && i + 1 < outlen && i < 80; i++)
        out[i] = (b[i] < 0x20 || b[i] > 0x7e) ? '?' : b[i];
    out[i] = '\0';
}

static int redis_cmd(struct chan *c, const struct probe_target *t, const char *const *args,
                     size_t nargs, char *reply, size_t cap, int bulk, char *err, size_t errlen)
{
    char req[1024];
    size_t o, i, len;

    o = (size_t)snprintf(req, sizeof(req), "*%zu\r\n", nargs);
    for (i = 0; i < nargs && o < sizeof(req); i++)
        o += (size_t)snprintf(req + o, sizeof(req) - o, "$%zu\r\n%s\r\n", strlen(args[i]), args[i]);
    if (o >= sizeof(req)) {
        snprintf(err, errlen, "redis request too long");
        return -1;
    }
    if (chan_write(c, t, req, o, err, errlen) < 0)
        return -1;
    return chan_read_until(c, t, reply, cap, &len, bulk ? has_bulk : has_crlf, NULL, err, errlen);
}

static int redis_auth(struct chan *c, const struct probe_target *t, char *err, size_t errlen)
{
    char reply[512], line[96];
    const char *args[3] = {"AUTH", NULL, NULL};
    size_t n = 0;

    if (!t->auth)
        return 0;
    if (!t->password) {
        snprintf(err, errlen, "redis auth: PAIRBENCH_REDIS_PASSWORD is not set");
        c->final = 1;
        return -1;
    }
    if (t->user)
        args[++n] = t->user;
    args[++n] = t->password;
    if (redis_cmd(c, t, args, n + 1, reply, sizeof(reply), 0, err, errlen) < 0)
        return -1;
    if (strncmp(reply, "+OK", 3) != 0) {
        clip_line(reply, line, sizeof(line));
        snprintf(err, errlen, "redis AUTH on '%s:%u' answered '%s'", t->host, t->port, line);
        c->final = strncmp(reply, "-LOADING", 8) != 0; /* a wrong password stays wrong */
        return -1;
    }
    return 0;
}

int probe_once(const struct probe_target *t, double timeout_s, char *err, size_t errlen)
{
    struct chan c;
    char buf[4096], line[96], req[1024];
    size_t len;
    int rc = -1;

    if (chan_open(&c, t, timeout_s, err, errlen) < 0)
        goto out;
    if (strcmp(t->protocol, "redis") == 0) {
        const char *ping[1] = {"PING"};
        if (redis_auth(&c, t, err, errlen) < 0 ||
            redis_cmd(&c, t, ping, 1, buf, sizeof(buf), 0, err, errlen) < 0)
            goto out;
        if (strncmp(buf, "-NOAUTH", 7) == 0) {
            clip_line(buf, line, sizeof(line));
            snprintf(err, errlen,
                     "redis PING on '%s:%u' answered '%s' (the server wants a password: "
                     "set \"auth\": true and PAIRBENCH_REDIS_PASSWORD)",
                     t->host, t->port, line);
            c.final = 1;
            goto out;
        }
        /* only +PONG (or another status reply) is ready: -LOADING, -ERR, -MISCONF ... are
         * not, and the reply is the reason when the probe times out */
        if (buf[0] != '+') {
            clip_line(buf, line, sizeof(line));
            snprintf(err, errlen, "redis PING on '%s:%u' answered '%s'", t->host, t->port, line);
            goto out;
        }
    } else if (strcmp(t->protocol, "tcp") == 0) {
        static const char msg[] = "pairbench-probe\n";
        size_t want = sizeof(msg) - 1;
        if (chan_write(&c, t, msg, want, err, errlen) < 0 ||
            chan_read_until(&c, t, buf, sizeof(buf), &len, has_n, &want, err, errlen) < 0)
            goto out;
        if (len < want || memcmp(buf, msg, want) != 0) {
            snprintf(err, errlen, "tcp echo on '%s:%u' did not echo the probe", t->host, t->port);
            goto out;
        }
    } else {
        int ws = strcmp(t->protocol, "ws") == 0;
        int n = snprintf(req, sizeof(req),
                         "GET %s HTTP/1.1\r\nHost: %s:%u\r\nUser-Agent: pairbench-probe\r\n%s\r\n",
                         t->path ? t->path : "/", t->host, t->port,
                         ws ? "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: "
                              "13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                            : "Connection: close\r\n");
        if (n < 0 || (size_t)n >= sizeof(req)) {
            snprintf(err, errlen, "request path too long");
            goto out;
        }
        if (chan_write(&c, t, req, (size_t)n, err, errlen) < 0 ||
            chan_read_until(&c, t, buf, sizeof(buf), &len, has_headers_end, NULL, err, errlen) < 0)
            goto out;
        if (strncmp(buf, "HTTP/1.", 7) != 0 || len < 12 ||
            (ws && strncmp(buf + 9, "101", 3) != 0)) {
            clip_line(buf, line, sizeof(line));
            snprintf(err, errlen, "%s on '%s:%u' answered '%s' (expected %s)",
                     ws ? "websocket upgrade" : "http GET", t->host, t->port, line,
                     ws ? "HTTP/1.1 101" : "an HTTP/1.x status line");
            goto out;
        }
        /* a proxy in front of a backend that is not up yet answers 502, 503 or 504: not
         * ready, asked again until the probe's time is out */
        if (!ws && (strncmp(buf + 9, "502", 3) == 0 || strncmp(buf + 9, "503", 3) == 0 ||
                    strncmp(buf + 9, "504", 3) == 0)) {
            clip_line(buf, line, sizeof(line));
            snprintf(err, errlen,
                     "http GET on '%s:%u' answered '%s' (a gateway whose backend is not ready)",
                     t->host, t->port, line);
            goto out;
        }
    }
    rc = 0;
out:
    if (rc < 0 && c.final)
        rc = -3;
    else if (rc < 0 && c.timed_out)
        rc = -2;
    chan_close(&c);
    return rc;
}

int probe_redis_version(const struct probe_target *t, double timeout_s, char *out, size_t outlen)
{
    struct chan c;
    char buf[16384], err[256];
    const char *args[2] = {"INFO", "server"};
    const char *keys[2] = {"valkey_version:", "redis_version:"};
    const char *names[2] = {"valkey", "redis"};
    int rc = -1, i;

    out[0] = '\0';
    if (chan_open(&c, t, timeout_s, err, sizeof(err)) < 0 ||
        redis_auth(&c, t, err, sizeof(err)) < 0 ||
        redis_cmd(&c, t, args, 2, buf, sizeof(buf), 1, err, sizeof(err)) < 0)
        goto out;
    for (i = 0; i < 2; i++) {
        const char *p = strstr(buf, keys[i]);
        if (p) {
            char v[64];
            clip_line(p + strlen(keys[i]), v, sizeof(v));
            snprintf(out, outlen, "%s %s", names[i], v);
            rc = 0;
            break;
        }
    }
out:
    chan_close(&c);
    return rc;
}

/* The integer after key in an INFO reply, or -1. */
static long long info_num(const char *buf, const char *key)
{
    const char *p = strstr(buf, key);

    return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

int probe_redis_state(const struct probe_target *t, double timeout_s, long long *keys,
                      long long *used_memory)
{
    struct chan c;
    char buf[16384], err[256];
    const char *dbsize[1] = {"DBSIZE"}, *info[2] = {"INFO", "memory"};
    int rc = -1;

    *keys = *used_memory = -1;
    if (chan_open(&c, t, timeout_s, err, sizeof(err)) < 0 ||
        redis_auth(&c, t, err, sizeof(err)) < 0 ||
        redis_cmd(&c, t, dbsize, 1, buf, sizeof(buf), 0, err, sizeof(err)) < 0 || buf[0] != ':')
        goto out;
    *keys = strtoll(buf + 1, NULL, 10);
    if (redis_cmd(&c, t, info, 2, buf, sizeof(buf), 1, err, sizeof(err)) == 0)
        *used_memory = info_num(buf, "used_memory:");
    rc = 0;
out:
    chan_close(&c);
    return rc;
}
