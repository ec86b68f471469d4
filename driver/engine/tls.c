/* TLS transport over OpenSSL 3: client and server contexts built once at setup, and the
 * non-blocking conn_ops table (handshake, read, write, pending, close) the engine drives.
 * Everything per connection is allocated in conn_init_tls_*; read/write allocate nothing
 * themselves (OpenSSL 3.0 makes a few 40-byte allocations per record: test_tls bounds them).
 * Sockets are wrapped in a BIO that writes with MSG_NOSIGNAL, so a peer that has gone away
 * (say, during the best-effort close_notify) is an error to count, never a SIGPIPE. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "engine/tls.h"

struct tls_ctx {
    SSL_CTX *ctx;
    int insecure; /* client: no chain or identity verification */
    int need_h2;  /* client: the server must select ALPN h2 (driver http --http-version 2) */
};

/* Per connection, kept as the SSL object's app data: what error messages call the peer. */
struct tls_peer {
    char label[300]; /* "127.0.0.1:6380", "[::1]:443", or the name until connected */
    int labelled;    /* label holds the peer address (getpeername succeeded) */
    int need_h2;     /* the handshake fails unless the server selected ALPN h2 */
};

/* ---- errors ---------------------------------------------------------------------------- */

/* snprintf into c->err; a long peer label or reason is cut, never overflowed. */
__attribute__((format(printf, 2, 3))) static void set_err(struct conn *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof(c->err), fmt, ap);
    va_end(ap);
}

static void errno_text(int e, char *buf, size_t len)
{
    /* GNU strerror_r: thread-safe, returns the text (maybe not in buf). */
    const char *s = strerror_r(e, buf, len);
    if (s != buf)
        snprintf(buf, len, "%s", s);
}

/* OpenSSL's reason for the oldest queued error ("certificate verify failed"), or the full
 * "error:..." string when it has no reason text. Clears the queue. */
static void openssl_reason(char *buf, size_t len)
{
    unsigned long e = ERR_get_error();
    const char *r;

    if (e == 0) {
        snprintf(buf, len, "unknown tls error");
        return;
    }
    r = ERR_reason_error_string(e);
    if (r)
        snprintf(buf, len, "%s", r);
    else
        ERR_error_string_n(e, buf, len);
    ERR_clear_error();
}

static void ctx_err(char *err, size_t errlen, const char *what, const char *file)
{
    char why[200];
    openssl_reason(why, sizeof(why));
    if (file)
        snprintf(err, errlen, "tls: %s '%s': %s", what, file, why);
    else
        snprintf(err, errlen, "tls: %s: %s", what, why);
}

static struct tls_peer *peer_of(SSL *ssl)
{
    return SSL_get_app_data(ssl);
}

/* Fills the label from getpeername() once the socket is connected. */
static void peer_label(struct conn *c, struct tls_peer *p)
{
    struct sockaddr_storage ss = {0}; /* zeroed: a short address reads as AF_UNSPEC */
    socklen_t sl = sizeof(ss);
    char ip[INET6_ADDRSTRLEN];

    if (p->labelled || getpeername(c->fd, (struct sockaddr *)&ss, &sl) != 0)
        return;
    if (ss.ss_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;
        if (inet_ntop(AF_INET, &a->sin_addr, ip, sizeof(ip)))
            snprintf(p->label, sizeof(p->label), "%s:%u", ip, ntohs(a->sin_port));
    } else if (ss.ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;
        if (inet_ntop(AF_INET6, &a->sin6_addr, ip, sizeof(ip)))
            snprintf(p->label, sizeof(p->label), "[%s]:%u", ip, ntohs(a->sin6_port));
    } else {
        return;
    }
    p->labelled = 1;
}

/* c->err = "tls <what> '<peer>': <reason>" for a failed SSL_* call whose SSL_get_error()
 * was sslerr. A failed chain or identity check adds the verify result's text. */
static void conn_err(struct conn *c, const char *what, int sslerr, int saved_errno)
{
    SSL *ssl = c->tls;
    struct tls_peer *p = peer_of(ssl);
    char why[256];

    if (sslerr == SSL_ERROR_SYSCALL) {
        unsigned long e = ERR_peek_error();
        if (e != 0)
            openssl_reason(why, sizeof(why));
        else if (saved_errno != 0)
            errno_text(saved_errno, why, sizeof(why));
        else
            snprintf(why, sizeof(why), "connection closed by peer");
    } else if (sslerr == SSL_ERROR_SSL) {
        unsigned long e = ERR_peek_error();
        openssl_reason(why, sizeof(why));
        if (ERR_GET_REASON(e) == SSL_R_CERTIFICATE_VERIFY_FAILED) {
            long v = SSL_get_verify_result(ssl);
            size_t n = strlen(why);
            if (v != X509_V_OK && n < sizeof(why))
                snprintf(why + n, sizeof(why) - n, ": %s", X509_verify_cert_error_string(v));
        }
    } else if (sslerr == SSL_ERROR_ZERO_RETURN) {
        snprintf(why, sizeof(why), "connection closed by peer");
    } else {
        snprintf(why, sizeof(why), "unexpected ssl error %d", sslerr);
    }
    ERR_clear_error();
    set_err(c, "tls %s '%s': %s", what, p ? p->label : "?", why);
}

/* ---- a socket BIO that never raises SIGPIPE -------------------------------------------- */

static BIO_METHOD *nosig_method;
static pthread_once_t nosig_once = PTHREAD_ONCE_INIT;

static int nosig_write(BIO *b, const char *data, int len)
{
    int fd = -1;
    ssize_t n;

    BIO_get_fd(b, &fd);
    BIO_clear_retry_flags(b);
    do
        n = send(fd, data, (size_t)len, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        BIO_set_retry_write(b);
    return (int)n;
}

static void nosig_init(void)
{
    const BIO_METHOD *s = BIO_s_socket();
    BIO_METHOD *m = BIO_meth_new(BIO_TYPE_SOCKET, "pairbench socket");

    if (!m)
        return;
    /* Reads, control and lifetime stay OpenSSL's socket BIO's (they keep its EOF
     * bookkeeping); only the write path changes. */
    if (!BIO_meth_set_write(m, nosig_write) || !BIO_meth_set_read(m, BIO_meth_get_read(s)) ||
        !BIO_meth_set_puts(m, BIO_meth_get_puts(s)) ||
        !BIO_meth_set_ctrl(m, BIO_meth_get_ctrl(s)) ||
        !BIO_meth_set_create(m, BIO_meth_get_create(s)) ||
        !BIO_meth_set_destroy(m, BIO_meth_get_destroy(s))) {
        BIO_meth_free(m);
        return;
    }
    nosig_method = m;
}

/* ---- contexts --------------------------------------------------------------------------- */

static struct tls_ctx *ctx_new(const SSL_METHOD *method, char *err, size_t errlen)
{
    struct tls_ctx *t = calloc(1, sizeof(*t));

    if (!t) {
        snprintf(err, errlen, "tls: out of memory");
        return NULL;
    }
    t->ctx = SSL_CTX_new(method);
    if (!t->ctx) {
        ctx_err(err, errlen, "new context", NULL);
        free(t);
        return NULL;
    }
    /* TLS 1.2 and 1.3; the hot path must not allocate, so buffers stay with the
     * connection (SSL_MODE_RELEASE_BUFFERS is off by default and stays off). A peer that
     * closes without close_notify reads as EOF: load tools do not defend against
     * truncation, they count it. */
    SSL_CTX_set_min_proto_version(t->ctx, TLS1_2_VERSION);
    SSL_CTX_set_mode(t->ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_clear_mode(t->ctx, SSL_MODE_RELEASE_BUFFERS);
    SSL_CTX_set_options(t->ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
    /* AES-128-GCM first, as browsers, curl and h2load offer it (OpenSSL's own order puts
     * AES-256-GCM first, in TLS 1.3 and 1.2 alike): the peer then does the crypto its users'
     * clients make it do, and the load costs what theirs costs. The 1.2 list keeps every
     * default cipher, AES-256 and ChaCha20 moved after the rest. */
    if (SSL_CTX_set_ciphersuites(t->ctx, "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:"
                                         "TLS_CHACHA20_POLY1305_SHA256") != 1 ||
        SSL_CTX_set_cipher_list(t->ctx, "DEFAULT:+AES256:+CHACHA20") != 1) {
        ctx_err(err, errlen, "cipher order", NULL);
        SSL_CTX_free(t->ctx);
        free(t);
        return NULL;
    }
    pthread_once(&nosig_once, nosig_init);
    if (!nosig_method) {
        snprintf(err, errlen, "tls: cannot set up the socket bio");
        SSL_CTX_free(t->ctx);
        free(t);
        return NULL;
    }
    return t;
}

/* "driver tcp --serve ...": one set of options for the in-process server and its client
 * (the server gets a copy with mode MODE_SERVE and serve still set). */
static int colocated(const struct drv_opts *o)
{
    return o->serve != 0;
}

static int load_cert_key(struct tls_ctx *t, const char *cert, const char *key, char *err,
                         size_t errlen)
{
    if (key[0] == '\0')
        key = cert; /* a PEM holding both */
    if (SSL_CTX_use_certificate_chain_file(t->ctx, cert) != 1) {
        ctx_err(err, errlen, "load certificate", cert);
        return -1;
    }
    if (SSL_CTX_use_PrivateKey_file(t->ctx, key, SSL_FILETYPE_PEM) != 1) {
        ctx_err(err, errlen, "load key", key);
        return -1;
    }
    if (SSL_CTX_check_private_key(t->ctx) != 1) {
        ctx_err(err, errlen, "key does not match certificate", cert);
        return -1;
    }
    return 0;
}

struct tls_ctx *tls_client_ctx_new(const struct drv_opts *o, char *err, size_t errlen)
{
    struct tls_ctx *t = ctx_new(TLS_client_method(), err, errlen);

    if (!t)
        return NULL;
    t->insecure = o->insecure;
    /* Every connection does a full handshake: the measured setup is the same each run. */
    SSL_CTX_set_session_cache_mode(t->ctx, SSL_SESS_CACHE_OFF);
    if (o->insecure) {
        SSL_CTX_set_verify(t->ctx, SSL_VERIFY_NONE, NULL);
    } else {
        SSL_CTX_set_verify(t->ctx, SSL_VERIFY_PEER, NULL);
        if (o->cacert[0] != '\0') {
            if (SSL_CTX_load_verify_file(t->ctx, o->cacert) != 1) {
                ctx_err(err, errlen, "load cacert", o->cacert);
                goto fail;
            }
        } else if (SSL_CTX_set_default_verify_paths(t->ctx) != 1) {
            ctx_err(err, errlen, "load the system certificate store", NULL);
            goto fail;
        }
    }
    /* HTTP/2 over TLS is negotiated by ALPN (RFC 9113, 3.2): h2 alone, so a server that
     * cannot speak it fails the handshake check instead of answering HTTP/1.1 */
    if (o->protocol == PROTO_HTTP && strcmp(o->http_version, "2") == 0) {
        static const unsigned char h2[] = {2, 'h', '2'};
        if (SSL_CTX_set_alpn_protos(t->ctx, h2, sizeof(h2)) != 0) {
            ctx_err(err, errlen, "set alpn h2", NULL);
            goto fail;
        }
        t->need_h2 = 1;
        /* many streams' records arrive together: one read(2) takes up to 64 KiB of them
         * (not a 5-byte header, then the record), and the engine reads every buffered
         * record (tls_pending) before it writes the requests they freed, one write for all
         * instead of one per response. For HTTP/2 only, so far: the other protocols'
         * figures were measured without it. */
        SSL_CTX_set_read_ahead(t->ctx, 1);
        SSL_CTX_set_default_read_buffer_len(t->ctx, 64 * 1024);
    }
    /* With --serve the certificate is the in-process server's, not a client certificate. */
    if (o->cert[0] != '\0' && !colocated(o) && load_cert_key(t, o->cert, o->key, err, errlen) != 0)
        goto fail;
    return t;
fail:
    tls_ctx_free(t);
    return NULL;
}

/* The reference HTTP server speaks h2 and HTTP/1.1 on one port (srv_http.c tells them
 * apart by the client preface): h2 when the client offers it. */
static int alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                       const unsigned char *in, unsigned inlen, void *arg)
{
    static const unsigned char ours[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
    unsigned char *sel = NULL;

    (void)ssl, (void)arg;
    if (SSL_select_next_proto(&sel, outlen, ours, sizeof(ours), in, inlen) !=
        OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_NOACK;
    *out = sel;
    return SSL_TLSEXT_ERR_OK;
}

struct tls_ctx *tls_server_ctx_new(const struct drv_opts *o, char *err, size_t errlen)
{
    static const unsigned char sid_ctx[] = "pairbench";
    struct tls_ctx *t;

    if (o->cert[0] == '\0') {
        snprintf(err, errlen, "tls: --cert is required to serve tls");
        return NULL;
    }
    t = ctx_new(TLS_server_method(), err, errlen);
    if (!t)
        return NULL;
    if (load_cert_key(t, o->cert, o->key, err, errlen) != 0)
        goto fail;
    SSL_CTX_set_session_id_context(t->ctx, sid_ctx, sizeof(sid_ctx) - 1);
    if (o->protocol == PROTO_HTTP)
        SSL_CTX_set_alpn_select_cb(t->ctx, alpn_select, NULL);
    /* Load clients connect once and never resume: no session tickets to make or to leave
     * unread in a client's socket. */
    SSL_CTX_set_num_tickets(t->ctx, 0);
    /* --cacert asks for client certificates, except with --serve, where it is what the
     * in-process client trusts. */
    if (o->cacert[0] != '\0' && !colocated(o)) {
        if (SSL_CTX_load_verify_file(t->ctx, o->cacert) != 1) {
            ctx_err(err, errlen, "load cacert", o->cacert);
            goto fail;
        }
        SSL_CTX_set_client_CA_list(t->ctx, SSL_load_client_CA_file(o->cacert));
        if (!SSL_CTX_get_client_CA_list(t->ctx)) {
            ctx_err(err, errlen, "load client ca names", o->cacert);
            goto fail;
        }
        SSL_CTX_set_verify(t->ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
    }
    return t;
fail:
    tls_ctx_free(t);
    return NULL;
}

void tls_ctx_free(struct tls_ctx *t)
{
    if (!t)
        return;
    SSL_CTX_free(t->ctx);
    free(t);
}

/* ---- connections ------------------------------------------------------------------------ */

static int is_ip_literal(const char *name)
{
    unsigned char a[sizeof(struct in6_addr)];
    return inet_pton(AF_INET, name, a) == 1 || inet_pton(AF_INET6, name, a) == 1;
}

/* SSL object over fd with our BIO and peer record; c->tls set. 0 or -1 with c->err. */
static int conn_init_common(struct conn *c, int fd, struct tls_ctx *t, const char *name, int server)
{
    struct tls_peer *p = NULL;
    SSL *ssl = NULL;
    BIO *bio = NULL;

    c->fd = fd;
    c->ops = &conn_tls_ops;
    c->tls = NULL;
    c->want_write = 0;
    c->err[0] = '\0';
    if (!t || !t->ctx) {
        snprintf(c->err, sizeof(c->err), "tls: no context");
        return -1;
    }
    p = calloc(1, sizeof(*p));
    ssl = SSL_new(t->ctx);
    bio = BIO_new(nosig_method);
    if (!p || !ssl || !bio) {
        snprintf(c->err, sizeof(c->err), "tls: out of memory for a connection");
        goto fail;
    }
    BIO_set_fd(bio, fd, BIO_NOCLOSE);
    SSL_set_bio(ssl, bio, bio); /* ssl owns bio from here */
    bio = NULL;
    snprintf(p->label, sizeof(p->label), "%s", name && name[0] ? name : "peer");
    SSL_set_app_data(ssl, p);
    c->tls = ssl;
    if (server)
        SSL_set_accept_state(ssl);
    else
        SSL_set_connect_state(ssl);
    peer_label(c, p);
    return 0;
fail:
    BIO_free(bio);
    SSL_free(ssl);
    free(p);
    ERR_clear_error();
    return -1;
}

int conn_init_tls_client(struct conn *c, int fd, struct tls_ctx *t, const char *name)
{
    SSL *ssl;
    int ip;

    if (conn_init_common(c, fd, t, name, 0) != 0)
        return -1;
    ssl = c->tls;
    peer_of(ssl)->need_h2 = t->need_h2;
    if (!name || name[0] == '\0') {
        if (t->insecure)
            return 0;
        snprintf(c->err, sizeof(c->err), "tls: no host name or address to verify");
        goto fail;
    }
    ip = is_ip_literal(name);
    /* SNI carries names only (RFC 6066 forbids address literals). */
    if (!ip && SSL_set_tlsext_host_name(ssl, name) != 1) {
        snprintf(c->err, sizeof(c->err), "tls: bad sni name '%s'", name);
        goto fail;
    }
    if (t->insecure)
        return 0;
    if (ip) {
        if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) != 1) {
            snprintf(c->err, sizeof(c->err), "tls: bad address to verify '%s'", name);
            goto fail;
        }
    } else {
        SSL_set_hostflags(ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        if (SSL_set1_host(ssl, name) != 1) {
            snprintf(c->err, sizeof(c->err), "tls: bad host name to verify '%s'", name);
            goto fail;
        }
    }
    return 0;
fail:
    ERR_clear_error();
    free(peer_of(ssl));
    SSL_free(ssl);
    c->tls = NULL;
    return -1;
}

int conn_init_tls_server(struct conn *c, int fd, struct tls_ctx *t)
{
    return conn_init_common(c, fd, t, "client", 1);
}

/* A server that rejects the client after the handshake (TLS 1.3 checks the client
 * certificate after the client has finished) sends an alert and closes; the request the
 * client wrote meanwhile makes the close a reset. The alert is usually still readable, and
 * says far more than "Connection reset by peer": read it (error path only). 1 when c->err
 * now holds the alert's reason. */
static int alert_before_reset(struct conn *c, const char *what)
{
    char scratch[256];
    size_t n = 0;
    int ret;

    ERR_clear_error();
    ret = SSL_read_ex(c->tls, scratch, sizeof(scratch), &n);
    if (ret == 1 || SSL_get_error(c->tls, ret) != SSL_ERROR_SSL) {
        ERR_clear_error();
        return 0;
    }
    conn_err(c, what, SSL_ERROR_SSL, 0);
    return 1;
}

/* Maps SSL_get_error()'s e for a failed SSL_* call (errno right after it: saved_errno) to
 * CONN_RETRY (setting want_write) or CONN_ERROR (with c->err). Every path out leaves the
 * thread's error queue empty. */
static int conn_fail(struct conn *c, int e, int saved_errno, const char *what)
{
    switch (e) {
    case SSL_ERROR_WANT_READ:
        c->want_write = 0;
        return CONN_RETRY;
    case SSL_ERROR_WANT_WRITE:
        c->want_write = 1;
        return CONN_RETRY;
    default:
        if (e == SSL_ERROR_SYSCALL && (saved_errno == ECONNRESET || saved_errno == EPIPE) &&
            alert_before_reset(c, what))
            return CONN_ERROR;
        conn_err(c, what, e, saved_errno);
        return CONN_ERROR;
    }
}

/* A client that needs h2: the server selected it, else the handshake failed. */
static int alpn_check(struct conn *c)
{
    struct tls_peer *p = peer_of(c->tls);
    const unsigned char *sel = NULL;
    unsigned len = 0;

    if (!p->need_h2)
        return CONN_OK;
    SSL_get0_alpn_selected(c->tls, &sel, &len);
    if (len == 2 && memcmp(sel, "h2", 2) == 0)
        return CONN_OK;
    set_err(c, "tls handshake with '%s': the server did not negotiate h2 (ALPN %s%.*s%s)", p->label,
            len ? "'" : "none", (int)len, sel ? (const char *)sel : "", len ? "'" : "");
    return CONN_ERROR;
}

static int tls_handshake(struct conn *c)
{
    int ret, saved_errno;

    if (!c->tls) {
        set_err(c, "tls: connection not initialised");
        return CONN_ERROR;
    }
    peer_label(c, peer_of(c->tls));
    ERR_clear_error();
    errno = 0;
    ret = SSL_do_handshake(c->tls);
    saved_errno = errno;
    if (ret == 1) {
        ERR_clear_error(); /* read/write start from an empty queue */
        c->want_write = 0;
        return alpn_check(c);
    }
    return conn_fail(c, SSL_get_error(c->tls, ret), saved_errno, "handshake with");
}

/* read and write do not clear the error queue first: ERR_clear_error() is a large share of
 * an unpipelined operation's instructions (docs/tls.md, "Hot path"). The queue is per
 * thread and empty here: the handshake clears it before and after, every
 * failure path leaves it empty, and nothing else on a connection's thread uses OpenSSL. */
static ssize_t tls_read(struct conn *c, void *buf, size_t len)
{
    size_t n = 0;
    int ret, e, saved_errno;

    errno = 0;
    ret = SSL_read_ex(c->tls, buf, len, &n);
    if (ret == 1)
        return (ssize_t)n;
    saved_errno = errno;
    e = SSL_get_error(c->tls, ret);
    if (e == SSL_ERROR_ZERO_RETURN)
        return 0;
    return conn_fail(c, e, saved_errno, "read from");
}

static ssize_t tls_write(struct conn *c, const void *buf, size_t len)
{
    size_t n = 0;
    int ret, saved_errno;

    if (len == 0)
        return 0;
    errno = 0;
    ret = SSL_write_ex(c->tls, buf, len, &n);
    if (ret == 1)
        return (ssize_t)n;
    saved_errno = errno;
    return conn_fail(c, SSL_get_error(c->tls, ret), saved_errno, "write to");
}

/* Decrypted bytes, or 1 when only records read ahead but not yet decrypted are buffered:
 * either way a read must come before epoll_wait, which cannot see them. */
static size_t tls_pending(struct conn *c)
{
    int n = c->tls ? SSL_pending(c->tls) : 0;
    if (n > 0)
        return (size_t)n;
    return c->tls && SSL_has_pending(c->tls) ? 1 : 0;
}

static void tls_close(struct conn *c)
{
    SSL *ssl = c->tls;

    if (ssl) {
        /* Best effort close_notify: one non-blocking attempt, errors ignored. */
        if (SSL_is_init_finished(ssl))
            SSL_shutdown(ssl);
        ERR_clear_error();
        free(peer_of(ssl));
        SSL_free(ssl);
        c->tls = NULL;
    }
    if (c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
}

const struct conn_ops conn_tls_ops = {
    .handshake = tls_handshake,
    .read = tls_read,
    .write = tls_write,
    .pending = tls_pending,
    .close = tls_close,
};

const char *tls_library_version(void)
{
    return OpenSSL_version(OPENSSL_VERSION);
}
