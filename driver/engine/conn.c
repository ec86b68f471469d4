/* Plain TCP transport (conn_plain_ops) and the socket helpers of conn.h: non-blocking
 * connect, listen. TLS lives in tls.c behind the same table. */
#include "engine/conn.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int plain_handshake(struct conn *c)
{
    (void)c;
    return CONN_OK;
}

static ssize_t plain_read(struct conn *c, void *buf, size_t len)
{
    ssize_t n;

    for (;;) {
        /* MSG_DONTWAIT: never blocks, even on a socket the engine switched to blocking mode
         * for its one-connection read wait (loop_solo_read) */
        n = recv(c->fd, buf, len, MSG_DONTWAIT);
        if (n >= 0)
            return n;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            c->want_write = 0;
            return CONN_RETRY;
        }
        snprintf(c->err, sizeof(c->err), "read: %s", strerror(errno));
        return CONN_ERROR;
    }
}

static ssize_t plain_write(struct conn *c, const void *buf, size_t len)
{
    ssize_t n;

    for (;;) {
        n = send(c->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n >= 0)
            return n;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            c->want_write = 1;
            return CONN_RETRY;
        }
        snprintf(c->err, sizeof(c->err), "write: %s", strerror(errno));
        return CONN_ERROR;
    }
}

static size_t plain_pending(struct conn *c)
{
    (void)c;
    return 0;
}

static void plain_close(struct conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

const struct conn_ops conn_plain_ops = {
    .handshake = plain_handshake,
    .read = plain_read,
    .write = plain_write,
    .pending = plain_pending,
    .close = plain_close,
};

void conn_init_plain(struct conn *c, int fd)
{
    c->fd = fd;
    c->ops = &conn_plain_ops;
    c->tls = NULL;
    c->want_write = 0;
    c->err[0] = '\0';
}

/* host:port for messages, with brackets for IPv6 literals. */
static void addr_text(const char *host, int port, char *out, size_t n)
{
    if (strchr(host, ':'))
        snprintf(out, n, "[%s]:%d", host, port);
    else
        snprintf(out, n, "%s:%d", host, port);
}

static int resolve(const char *host, int port, int passive, struct addrinfo **res, char *err,
                   size_t errlen, const char *what)
{
    struct addrinfo hints;
    char portstr[16], at[300];
    int rc;

    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
    snprintf(portstr, sizeof(portstr), "%d", port);
    rc = getaddrinfo(host, portstr, &hints, res);
    if (rc != 0) {
        addr_text(host, port, at, sizeof(at));
        snprintf(err, errlen, "%s '%s': %s", what, at, gai_strerror(rc));
        return -1;
    }
    return 0;
}

/* The client resolves its one host once per process (10000 connections and every reconnect
 * must not each ask the resolver): the last answer is kept for the process lifetime. */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct addrinfo *cache_res;
static char cache_host[256];
static int cache_port = -1;

static int resolve_cached(const char *host, int port, struct addrinfo **res, char *err,
                          size_t errlen)
{
    struct addrinfo *fresh = NULL;
    int rc = 0;

    pthread_mutex_lock(&cache_lock);
    if (!cache_res || port != cache_port || strcmp(host, cache_host) != 0) {
        rc = resolve(host, port, 0, &fresh, err, errlen, "connect");
        if (rc == 0) {
            /* an older answer may be in use by another thread: keep it (never freed) */
            cache_res = fresh;
            cache_port = port;
            snprintf(cache_host, sizeof(cache_host), "%s", host);
        }
    }
    *res = cache_res;
    pthread_mutex_unlock(&cache_lock);
    return rc;
}

int conn_connect_start(const char *host, int port, char *err, size_t errlen)
{
    struct addrinfo *res = NULL, *ai;
    char at[300];
    int fd = -1, one = 1, saved = 0;

    if (resolve_cached(host, port, &res, err, errlen) < 0)
        return -1;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            saved = errno;
            continue;
        }
        if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0) {
            saved = errno;
            close(fd);
            fd = -1;
            continue;
        }
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 || errno == EINPROGRESS)
            break;
        saved = errno;
        close(fd);
        fd = -1;
    }
    if (fd < 0) {
        addr_text(host, port, at, sizeof(at));
        snprintf(err, errlen, "connect '%s': %s", at, strerror(saved ? saved : EINVAL));
    }
    return fd;
}

int conn_finish_connect(int fd, const char *host, int port, char *err, size_t errlen)
{
    int soerr = 0;
    socklen_t len = sizeof(soerr);
    char at[300];

    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) < 0)
        soerr = errno;
    if (soerr == 0)
        return 0;
    addr_text(host, port, at, sizeof(at));
    snprintf(err, errlen, "connect '%s': %s", at, strerror(soerr));
    return -1;
}

int conn_listen(const char *host, int port, int backlog, int *bound_port, char *err, size_t errlen)
{
    struct addrinfo *res = NULL, *ai;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    char at[300];
    int fd = -1, one = 1, saved = 0;

    memset(&ss, 0, sizeof(ss));
    if (resolve(host, port, 1, &res, err, errlen, "listen") < 0)
        return -1;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            saved = errno;
            continue;
        }
        if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0 &&
            bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, backlog) == 0)
            break;
        saved = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    addr_text(host, port, at, sizeof(at));
    if (fd < 0) {
        snprintf(err, errlen, "listen '%s': %s", at, strerror(saved ? saved : EINVAL));
        return -1;
    }
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0) {
        snprintf(err, errlen, "listen '%s': getsockname: %s", at, strerror(errno));
        close(fd);
        return -1;
    }
    if (bound_port)
        *bound_port = ss.ss_family == AF_INET6
                          ? ntohs(((struct sockaddr_in6 *)(void *)&ss)->sin6_port)
                          : ntohs(((struct sockaddr_in *)(void *)&ss)->sin_port);
    return fd;
}
