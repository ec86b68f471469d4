/* One connection's transport: plain TCP or TLS behind a small operations table (the wrk
 * pattern). The engine never calls read()/write()/SSL_* itself; it calls these. */
#ifndef PAIRBENCH_CONN_H
#define PAIRBENCH_CONN_H

#include <stddef.h>
#include <sys/types.h>

enum {
    CONN_OK = 0,     /* done */
    CONN_ERROR = -1, /* failed; c->err says why */
    CONN_RETRY = -2, /* would block: wait for readiness (c->want_write says which) */
};

struct conn;

struct conn_ops {
    /* Completes the transport handshake (TLS) on a connected socket. CONN_OK, CONN_RETRY or
     * CONN_ERROR (with OpenSSL's reason in c->err). Plain TCP returns CONN_OK at once. */
    int (*handshake)(struct conn *c);
    /* > 0 bytes read, 0 orderly EOF, CONN_RETRY, CONN_ERROR. */
    ssize_t (*read)(struct conn *c, void *buf, size_t len);
    /* > 0 bytes written (may be short), CONN_RETRY, CONN_ERROR. */
    ssize_t (*write)(struct conn *c, const void *buf, size_t len);
    /* Bytes already decrypted and buffered (SSL_pending): read them before epoll_wait. */
    size_t (*pending)(struct conn *c);
    /* Releases transport state (SSL object); closes the fd. */
    void (*close)(struct conn *c);
};

struct conn {
    int fd;
    const struct conn_ops *ops;
    void *tls;      /* SSL * when TLS */
    int want_write; /* after CONN_RETRY: 1 = wait for EPOLLOUT, 0 = EPOLLIN */
    char err[160];
};

extern const struct conn_ops conn_plain_ops;

/* Starts a non-blocking connect to host:port (numeric IPv4/IPv6 or a name resolved once at
 * setup). Returns the fd (connect may be in progress: EPOLLOUT then conn_finish_connect), or
 * -1 with err set: "connect '127.0.0.1:6379': Connection refused". */
int conn_connect_start(const char *host, int port, char *err, size_t errlen);
/* After EPOLLOUT on a connecting fd: 0 connected, -1 failed with err set. */
int conn_finish_connect(int fd, const char *host, int port, char *err, size_t errlen);
/* Binds and listens (SO_REUSEADDR, non-blocking). port 0 picks one; *bound_port gets it. */
int conn_listen(const char *host, int port, int backlog, int *bound_port, char *err, size_t errlen);

/* Initialises c over fd as plain TCP. */
void conn_init_plain(struct conn *c, int fd);

#endif
