/* tls.c over real loopback TCP with certificates made by tests/certs.sh: non-blocking
 * handshakes (TLS 1.2 and 1.3), chain and identity verification and their error texts,
 * client certificates, partial writes under a full socket, SSL_pending, EOF and close. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/ssl.h>

#include "t.h"
#include "engine/tls.h"

static char dir[64];

/* OpenSSL's allocations, counted (installed before OpenSSL allocates anything). */
static unsigned long ossl_allocs;
static int ossl_counting; /* CRYPTO_set_mem_functions succeeded */

static void *count_malloc(size_t n, const char *file, int line)
{
    (void)file, (void)line;
    __atomic_add_fetch(&ossl_allocs, 1, __ATOMIC_RELAXED);
    return malloc(n);
}

static void *count_realloc(void *p, size_t n, const char *file, int line)
{
    (void)file, (void)line;
    __atomic_add_fetch(&ossl_allocs, 1, __ATOMIC_RELAXED);
    return realloc(p, n);
}

static void count_free(void *p, const char *file, int line)
{
    (void)file, (void)line;
    free(p);
}

static const char *path(const char *name)
{
    static char buf[8][256];
    static int i;
    i = (i + 1) % 8;
    snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
    return buf[i];
}

static int make_certs(void)
{
    const char *top = getenv("PAIRBENCH_TOP");
    char cmd[512];

    snprintf(dir, sizeof(dir), "/tmp/pairbench-tls.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(cmd, sizeof(cmd), "sh '%s/tests/certs.sh' '%s'", top ? top : ".", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void remove_certs(void)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
}

/* A connected non-blocking loopback pair: *cfd client end, *sfd server end. */
static int tcp_pair(int *cfd, int *sfd)
{
    struct sockaddr_in a = {.sin_family = AF_INET};
    socklen_t al = sizeof(a);
    int one = 1;
    int l = socket(AF_INET, SOCK_STREAM, 0);

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(l, 1) != 0 ||
        getsockname(l, (struct sockaddr *)&a, &al) != 0)
        return -1;
    *cfd = socket(AF_INET, SOCK_STREAM, 0);
    if (*cfd < 0 || connect(*cfd, (struct sockaddr *)&a, sizeof(a)) != 0)
        return -1;
    *sfd = accept(l, NULL, NULL);
    close(l);
    if (*sfd < 0)
        return -1;
    fcntl(*cfd, F_SETFL, O_NONBLOCK);
    fcntl(*sfd, F_SETFL, O_NONBLOCK);
    setsockopt(*cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return 0;
}

static short events_of(const struct conn *c)
{
    return c->want_write ? POLLOUT : POLLIN;
}

/* Drives both handshakes until each is done or failed (or nothing moves for 2 s).
 * *rc, *rs get CONN_OK / CONN_ERROR / CONN_RETRY (stalled). */
static void handshake_both(struct conn *cl, struct conn *sv, int *rc, int *rs)
{
    int stalls = 0;

    *rc = *rs = CONN_RETRY;
    while (stalls < 10) {
        struct pollfd p[2];
        int n = 0;
        if (*rc == CONN_RETRY)
            *rc = cl->ops->handshake(cl);
        if (*rs == CONN_RETRY)
            *rs = sv->ops->handshake(sv);
        if (*rc != CONN_RETRY && *rs != CONN_RETRY)
            return;
        if (*rc == CONN_RETRY)
            p[n++] = (struct pollfd){.fd = cl->fd, .events = events_of(cl)};
        if (*rs == CONN_RETRY)
            p[n++] = (struct pollfd){.fd = sv->fd, .events = events_of(sv)};
        if (poll(p, (nfds_t)n, 200) == 0)
            stalls++;
    }
}

struct setup {
    const char *server_cert; /* base name: server, wrongsan, unknown */
    int require_client_cert;
    const char *cacert; /* client's; NULL = none (system store) */
    const char *client_cert;
    int insecure;
    const char *name; /* identity to check */
    int colocated;    /* --serve: both ends get the same options (cert, key and cacert) */
};

struct pair {
    struct tls_ctx *cctx, *sctx;
    struct conn cl, sv;
    int rc, rs;
};

static int pair_open(struct pair *pr, const struct setup *s, int max_version)
{
    struct drv_opts co, so;
    char err[256];
    int cfd, sfd;

    memset(pr, 0, sizeof(*pr));
    memset(&co, 0, sizeof(co));
    memset(&so, 0, sizeof(so));
    if (s->cacert)
        snprintf(co.cacert, sizeof(co.cacert), "%s", path(s->cacert));
    if (s->client_cert) {
        snprintf(co.cert, sizeof(co.cert), "%s.pem", path(s->client_cert));
        snprintf(co.key, sizeof(co.key), "%s.key", path(s->client_cert));
    }
    co.insecure = s->insecure;
    snprintf(so.cert, sizeof(so.cert), "%s.pem", path(s->server_cert));
    snprintf(so.key, sizeof(so.key), "%s.key", path(s->server_cert));
    if (s->require_client_cert)
        snprintf(so.cacert, sizeof(so.cacert), "%s", path("ca.pem"));
    if (s->colocated) {
        co.serve = 1;
        snprintf(co.cert, sizeof(co.cert), "%s", so.cert);
        snprintf(co.key, sizeof(co.key), "%s", so.key);
        snprintf(so.cacert, sizeof(so.cacert), "%s", co.cacert);
        so.serve = 1;
        so.mode = MODE_SERVE;
    }
    pr->cctx = tls_client_ctx_new(&co, err, sizeof(err));
    CHECK_MSG(pr->cctx != NULL, "%s", err);
    pr->sctx = tls_server_ctx_new(&so, err, sizeof(err));
    CHECK_MSG(pr->sctx != NULL, "%s", err);
    if (!pr->cctx || !pr->sctx || tcp_pair(&cfd, &sfd) != 0)
        return -1;
    if (conn_init_tls_client(&pr->cl, cfd, pr->cctx, s->name) != 0 ||
        conn_init_tls_server(&pr->sv, sfd, pr->sctx) != 0) {
        fprintf(stderr, "init: %s %s\n", pr->cl.err, pr->sv.err);
        return -1;
    }
    if (max_version)
        SSL_set_max_proto_version(pr->cl.tls, max_version);
    handshake_both(&pr->cl, &pr->sv, &pr->rc, &pr->rs);
    return 0;
}

static void pair_close(struct pair *pr)
{
    if (pr->cl.ops)
        pr->cl.ops->close(&pr->cl);
    if (pr->sv.ops)
        pr->sv.ops->close(&pr->sv);
    tls_ctx_free(pr->cctx);
    tls_ctx_free(pr->sctx);
}

/* Reads one byte from c (waiting up to 1 s): what read() returned last. */
static ssize_t read_some(struct conn *c, char *buf, size_t len)
{
    for (int i = 0; i < 50; i++) {
        ssize_t n = c->ops->read(c, buf, len);
        struct pollfd p = {.fd = c->fd, .events = events_of(c)};
        if (n != CONN_RETRY)
            return n;
        poll(&p, 1, 20);
    }
    return CONN_RETRY;
}

static void test_verification(void)
{
    static const struct {
        struct setup s;
        int ok;
        const char *client_err; /* substring of the client's error when !ok */
    } cases[] = {
        {{"server", 0, "ca.pem", NULL, 0, "127.0.0.1", 0}, 1, NULL},
        {{"server", 0, "ca.pem", NULL, 0, "localhost", 0}, 1, NULL},
        {{"wrongsan", 0, "ca.pem", NULL, 0, "127.0.0.1", 0},
         0,
         "certificate verify failed: IP address mismatch"},
        {{"wrongsan", 0, "ca.pem", NULL, 0, "localhost", 0},
         0,
         "certificate verify failed: hostname mismatch"},
        {{"server", 0, "ca.pem", NULL, 0, "10.9.9.9", 0}, 0, "IP address mismatch"},
        {{"unknown", 0, "ca.pem", NULL, 0, "127.0.0.1", 0},
         0,
         "certificate verify failed: unable to get local issuer certificate"},
        {{"server", 0, NULL, NULL, 0, "127.0.0.1", 0}, 0, "certificate verify failed"},
        {{"wrongsan", 0, "ca.pem", NULL, 1, "127.0.0.1", 0}, 1, NULL},
        {{"unknown", 0, NULL, NULL, 1, "127.0.0.1", 0}, 1, NULL},
        {{"server", 1, "ca.pem", "client", 0, "127.0.0.1", 0}, 1, NULL},
        /* --serve: cacert is the client's trust, cert/key the server's; no client cert */
        {{"server", 0, "ca.pem", NULL, 0, "127.0.0.1", 1}, 1, NULL},
        {{"wrongsan", 0, "ca.pem", NULL, 0, "127.0.0.1", 1}, 0, "IP address mismatch"},
    };
    static const int versions[] = {0, TLS1_2_VERSION};

    for (size_t v = 0; v < sizeof(versions) / sizeof(versions[0]); v++) {
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
            struct pair pr;
            if (pair_open(&pr, &cases[i].s, versions[v]) != 0) {
                CHECK_MSG(0, "case %zu: setup failed", i);
                pair_close(&pr);
                continue;
            }
            if (cases[i].ok) {
                CHECK_MSG(pr.rc == CONN_OK && pr.rs == CONN_OK, "case %zu v%d: %d %d '%s' '%s'", i,
                          versions[v], pr.rc, pr.rs, pr.cl.err, pr.sv.err);
            } else {
                CHECK_MSG(pr.rc == CONN_ERROR, "case %zu: client %d", i, pr.rc);
                CHECK_MSG(strstr(pr.cl.err, cases[i].client_err) != NULL, "case %zu: '%s'", i,
                          pr.cl.err);
                CHECK_MSG(strncmp(pr.cl.err, "tls handshake with '127.0.0.1:", 30) == 0,
                          "case %zu: '%s'", i, pr.cl.err);
                CHECK(pr.rs != CONN_OK || pr.sv.err[0] == '\0');
            }
            if (pr.rc == CONN_OK && pr.rs == CONN_OK)
                CHECK((SSL_get0_peer_certificate(pr.sv.tls) != NULL) ==
                      (cases[i].s.client_cert != NULL));
            if (pr.rc == CONN_OK && v == 1)
                CHECK_STR(SSL_get_version(pr.cl.tls), "TLSv1.2");
            if (pr.rc == CONN_OK && v == 0)
                CHECK_STR(SSL_get_version(pr.cl.tls), "TLSv1.3");
            pair_close(&pr);
        }
    }
}

/* The server requires a client certificate and the client has none: TLS 1.3 lets the
 * client finish first, so its failure shows on the first read; both ends fail cleanly. */
static void test_client_cert_missing(void)
{
    static const struct setup s = {"server", 1, "ca.pem", NULL, 0, "127.0.0.1", 0};
    static const int versions[] = {0, TLS1_2_VERSION};

    /* the client writes first: the server's close turns into a reset, and the error says
     * what the alert said, not just "Connection reset by peer" */
    {
        struct pair pr;
        ssize_t n = 0;
        if (pair_open(&pr, &s, 0) != 0 || pr.rc != CONN_OK || pr.rs != CONN_ERROR) {
            CHECK_MSG(0, "setup %d %d", pr.rc, pr.rs);
        } else {
            pr.sv.ops->close(&pr.sv);
            for (int i = 0; i < 100 && n != CONN_ERROR; i++) {
                n = pr.cl.ops->write(&pr.cl, "PING\r\n", 6);
                if (n != CONN_ERROR)
                    usleep(10000);
            }
            CHECK_MSG(n == CONN_ERROR, "write %zd", n);
            CHECK_MSG(strstr(pr.cl.err, "tls write to '127.0.0.1:") != NULL &&
                          strstr(pr.cl.err, "alert certificate required") != NULL,
                      "'%s'", pr.cl.err);
        }
        pair_close(&pr);
    }
    for (size_t v = 0; v < 2; v++) {
        struct pair pr;
        char buf[16];
        if (pair_open(&pr, &s, versions[v]) != 0) {
            CHECK(0);
            pair_close(&pr);
            continue;
        }
        CHECK_MSG(pr.rs == CONN_ERROR, "%d '%s'", pr.rs, pr.sv.err);
        CHECK_MSG(strstr(pr.sv.err, "peer did not return a certificate") != NULL, "'%s'",
                  pr.sv.err);
        if (pr.rc == CONN_OK) {
            ssize_t n = read_some(&pr.cl, buf, sizeof(buf));
            CHECK_MSG(n == CONN_ERROR, "read %zd", n);
        }
        CHECK_MSG(strstr(pr.cl.err, "certificate required") != NULL ||
                      strstr(pr.cl.err, "handshake failure") != NULL,
                  "'%s'", pr.cl.err);
        pair_close(&pr);
    }
}

/* Streams 4 MiB client -> server through small socket buffers: short writes and
 * WANT_WRITE retries with the same buffer; every byte arrives in order. */
static void test_stream(void)
{
    static const struct setup s = {"server", 0, "ca.pem", NULL, 0, "localhost", 0};
    enum { TOTAL = 4 << 20, CHUNK = 256 << 10 };
    static unsigned char out[CHUNK], in[16384];
    struct pair pr;
    size_t sent = 0, got = 0, retries = 0, short_writes = 0, bad = 0;
    int small = 8192;

    for (size_t i = 0; i < sizeof(out); i++)
        out[i] = (unsigned char)(i * 7 + 3);
    if (pair_open(&pr, &s, 0) != 0 || pr.rc != CONN_OK || pr.rs != CONN_OK) {
        CHECK_MSG(0, "handshake '%s' '%s'", pr.cl.err, pr.sv.err);
        pair_close(&pr);
        return;
    }
    setsockopt(pr.cl.fd, SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
    for (int loops = 0; got < TOTAL && loops < 10000; loops++) {
        struct pollfd p[2] = {{.fd = pr.sv.fd, .events = POLLIN}, {.fd = pr.cl.fd}};
        while (sent < TOTAL) { /* write until the socket pushes back */
            size_t off = sent % CHUNK, len = CHUNK - off;
            ssize_t n;
            if (len > TOTAL - sent)
                len = TOTAL - sent;
            n = pr.cl.ops->write(&pr.cl, out + off, len);
            if (n > 0) {
                sent += (size_t)n;
                short_writes += (size_t)n < len;
                continue;
            }
            if (n == CONN_RETRY)
                retries++;
            else
                CHECK_MSG(0, "write %zd '%s'", n, pr.cl.err);
            break;
        }
        for (;;) { /* then read all that arrived */
            ssize_t n = pr.sv.ops->read(&pr.sv, in, sizeof(in));
            if (n <= 0) {
                if (n != CONN_RETRY) {
                    CHECK_MSG(0, "read %zd '%s'", n, pr.sv.err);
                    loops = 1 << 30;
                }
                break;
            }
            for (ssize_t k = 0; k < n; k++)
                bad += in[k] != (unsigned char)(((got + (size_t)k) % CHUNK) * 7 + 3);
            got += (size_t)n;
        }
        p[1].events = sent < TOTAL ? events_of(&pr.cl) : 0;
        if (got < TOTAL)
            poll(p, 2, 50);
    }
    CHECK_MSG(got == TOTAL, "got %zu of %d (sent %zu, retries %zu, want_write %d)", got, TOTAL,
              sent, retries, pr.cl.want_write);
    CHECK(bad == 0);
    CHECK_MSG(retries > 0 || short_writes > 0, "no back-pressure seen (%zu, %zu)", retries,
              short_writes);
    pair_close(&pr);
}

/* One record read through a small buffer leaves the rest in SSL_pending; close_notify and
 * a bare TCP close both read as EOF. */
static void test_pending_and_eof(void)
{
    static const struct setup s = {"server", 0, "ca.pem", NULL, 0, "127.0.0.1", 0};
    struct pair pr;
    char buf[64] = {0};
    ssize_t n;

    if (pair_open(&pr, &s, 0) != 0 || pr.rc != CONN_OK || pr.rs != CONN_OK) {
        CHECK(0);
        pair_close(&pr);
        return;
    }
    CHECK(pr.sv.ops->write(&pr.sv, "hello world", 11) == 11);
    n = read_some(&pr.cl, buf, 5);
    CHECK(n == 5 && memcmp(buf, "hello", 5) == 0);
    CHECK(pr.cl.ops->pending(&pr.cl) == 6);
    n = pr.cl.ops->read(&pr.cl, buf, sizeof(buf));
    CHECK(n == 6 && memcmp(buf, " world", 6) == 0);
    CHECK(pr.cl.ops->pending(&pr.cl) == 0);
    CHECK(pr.cl.ops->read(&pr.cl, buf, sizeof(buf)) == CONN_RETRY && pr.cl.want_write == 0);

    pr.cl.ops->close(&pr.cl); /* sends close_notify */
    CHECK(pr.cl.fd == -1 && pr.cl.tls == NULL);
    n = read_some(&pr.sv, buf, sizeof(buf));
    CHECK_MSG(n == 0, "read after close_notify: %zd '%s'", n, pr.sv.err);
    pair_close(&pr);

    /* the peer vanishes without close_notify */
    if (pair_open(&pr, &s, 0) != 0 || pr.rc != CONN_OK) {
        CHECK(0);
        pair_close(&pr);
        return;
    }
    { /* take the session tickets first: unread data would make close() send a RST */
        struct pollfd p = {.fd = pr.cl.fd, .events = POLLIN};
        poll(&p, 1, 50);
        CHECK(pr.cl.ops->read(&pr.cl, buf, sizeof(buf)) == CONN_RETRY);
    }
    close(pr.cl.fd);
    pr.cl.fd = -1;
    n = read_some(&pr.sv, buf, sizeof(buf));
    CHECK_MSG(n == 0, "read after bare close: %zd '%s'", n, pr.sv.err);
    /* writing to a vanished peer is an error, never SIGPIPE */
    for (int i = 0; i < 100 && n != CONN_ERROR; i++)
        n = pr.sv.ops->write(&pr.sv, buf, sizeof(buf));
    CHECK_MSG(n == CONN_ERROR, "write to closed peer: %zd", n);
    CHECK_MSG(strstr(pr.sv.err, "tls write to '127.0.0.1:") != NULL, "'%s'", pr.sv.err);
    pair_close(&pr);
}

/* A BIO whose writes always would block: stands in for a full socket. */
static int blocked_write(BIO *b, const char *d, int len)
{
    (void)d, (void)len;
    BIO_clear_retry_flags(b);
    BIO_set_retry_write(b);
    return -1;
}

static long blocked_ctrl(BIO *b, int cmd, long num, void *ptr)
{
    (void)num, (void)ptr;
    if (cmd == BIO_CTRL_FLUSH) {
        BIO_clear_retry_flags(b);
        BIO_set_retry_write(b);
    }
    return 0;
}

static int blocked_create(BIO *b)
{
    BIO_set_init(b, 1);
    return 1;
}

/* A read that has to write: the server asks for a TLS 1.2 renegotiation and the client's
 * read must send a ClientHello while its socket is "full": CONN_RETRY with want_write = 1.
 * Once writable again the same calls finish the renegotiation and data flows both ways. */
static void test_read_wants_write(void)
{
    static const struct setup s = {"server", 0, "ca.pem", NULL, 0, "127.0.0.1", 0};
    BIO_METHOD *m = BIO_meth_new(BIO_TYPE_SOURCE_SINK, "blocked");
    struct pair pr;
    char in[64];
    BIO *sock, *blocked;
    ssize_t n = 0;
    int saw_want_write = 0, replied = 0, done = 0;

    BIO_meth_set_write(m, blocked_write);
    BIO_meth_set_ctrl(m, blocked_ctrl);
    BIO_meth_set_create(m, blocked_create);
    if (pair_open(&pr, &s, TLS1_2_VERSION) != 0 || pr.rc != CONN_OK || pr.rs != CONN_OK) {
        CHECK(0);
        pair_close(&pr);
        BIO_meth_free(m);
        return;
    }
    CHECK(SSL_renegotiate(pr.sv.tls) == 1);
    SSL_do_handshake(pr.sv.tls); /* sends HelloRequest */
    sock = SSL_get_wbio(pr.cl.tls);
    BIO_up_ref(sock);
    blocked = BIO_new(m);
    SSL_set0_wbio(pr.cl.tls, blocked);
    for (int i = 0; i < 100 && !saw_want_write; i++) {
        struct pollfd p = {.fd = pr.cl.fd, .events = POLLIN};
        n = pr.cl.ops->read(&pr.cl, in, sizeof(in));
        if (n != CONN_RETRY)
            break;
        saw_want_write = pr.cl.want_write;
        if (!saw_want_write)
            poll(&p, 1, 10);
    }
    CHECK_MSG(saw_want_write, "read %zd want_write %d '%s'", n, pr.cl.want_write, pr.cl.err);
    SSL_set0_wbio(pr.cl.tls, sock); /* writable again */
    for (int i = 0; i < 300 && !done; i++) {
        struct pollfd p[2] = {{.fd = pr.cl.fd, .events = events_of(&pr.cl)},
                              {.fd = pr.sv.fd, .events = events_of(&pr.sv)}};
        n = pr.cl.ops->read(&pr.cl, in, sizeof(in));
        if (n > 0) {
            done = n == 11 && memcmp(in, "after reneg", 11) == 0;
            break;
        }
        CHECK_MSG(n == CONN_RETRY, "client read %zd '%s'", n, pr.cl.err);
        n = pr.sv.ops->read(&pr.sv, in, sizeof(in));
        CHECK_MSG(n == CONN_RETRY, "server read %zd '%s'", n, pr.sv.err);
        if (!replied && !SSL_renegotiate_pending(pr.sv.tls))
            replied = pr.sv.ops->write(&pr.sv, "after reneg", 11) == 11;
        poll(p, 2, 10);
    }
    CHECK_MSG(done, "replied %d", replied);
    CHECK(SSL_num_renegotiations(pr.sv.tls) == 1);
    CHECK(pr.cl.ops->write(&pr.cl, "ok", 2) == 2);
    n = read_some(&pr.sv, in, sizeof(in));
    CHECK(n == 2 && memcmp(in, "ok", 2) == 0);
    pair_close(&pr);
    BIO_meth_free(m);
}

/* Steady state: no buffers come and go per operation (SSL_MODE_RELEASE_BUFFERS stays off).
 * OpenSSL 3.0 itself allocates a 40-byte WPACKET sub-packet per record it seals (3 per
 * write) and opens (1 per read); nothing else may show up. */
static void test_no_alloc_per_op(void)
{
    static const struct setup s = {"server", 0, "ca.pem", NULL, 0, "127.0.0.1", 0};
    enum { ROUNDS = 200, LEN = 1000 };
    static char msg[LEN], in[4096];
    struct pair pr;
    unsigned long before = 0;
    int ok = 1;

    if (!ossl_counting) {
        printf("skipped: test_no_alloc_per_op: OpenSSL allocated before main\n");
        return;
    }
    if (pair_open(&pr, &s, 0) != 0 || pr.rc != CONN_OK || pr.rs != CONN_OK) {
        CHECK(0);
        pair_close(&pr);
        return;
    }
    for (int r = 0; r < ROUNDS + 5 && ok; r++) {
        struct conn *from = r % 2 ? &pr.sv : &pr.cl, *to = r % 2 ? &pr.cl : &pr.sv;
        size_t got = 0;
        if (r == 5)
            before = __atomic_load_n(&ossl_allocs, __ATOMIC_RELAXED);
        ok = from->ops->write(from, msg, LEN) == LEN;
        while (ok && got < LEN) {
            ssize_t n = read_some(to, in, sizeof(in));
            ok = n > 0;
            got += n > 0 ? (size_t)n : 0;
        }
    }
    CHECK(ok);
    unsigned long per_100 =
        (__atomic_load_n(&ossl_allocs, __ATOMIC_RELAXED) - before) * 100 / ROUNDS;
    CHECK_MSG(per_100 <= 400, "%lu OpenSSL allocations per 100 records", per_100);
    pair_close(&pr);
}

static void test_context_errors(void)
{
    struct drv_opts o;
    char err[256];
    struct tls_ctx *t;

    memset(&o, 0, sizeof(o));
    snprintf(o.cacert, sizeof(o.cacert), "%s", path("missing.pem"));
    t = tls_client_ctx_new(&o, err, sizeof(err));
    CHECK(t == NULL);
    CHECK_MSG(strstr(err, "load cacert '") != NULL && strstr(err, "missing.pem") != NULL, "'%s'",
              err);

    memset(&o, 0, sizeof(o));
    snprintf(o.cert, sizeof(o.cert), "%s", path("server.pem"));
    snprintf(o.key, sizeof(o.key), "%s", path("client.key"));
    t = tls_server_ctx_new(&o, err, sizeof(err));
    CHECK(t == NULL);
    CHECK_MSG(strstr(err, "key values mismatch") != NULL, "'%s'", err);

    memset(&o, 0, sizeof(o));
    t = tls_server_ctx_new(&o, err, sizeof(err));
    CHECK(t == NULL && strstr(err, "--cert") != NULL);

    /* the system store loads (it may be empty) */
    memset(&o, 0, sizeof(o));
    t = tls_client_ctx_new(&o, err, sizeof(err));
    CHECK_MSG(t != NULL, "'%s'", err);
    tls_ctx_free(t);
    tls_ctx_free(NULL);

    CHECK(strncmp(tls_library_version(), "OpenSSL 3", 9) == 0);
}

int main(void)
{
    ossl_counting = CRYPTO_set_mem_functions(count_malloc, count_realloc, count_free);
    if (make_certs() != 0) {
        fprintf(stderr, "test_tls: tests/certs.sh failed (openssl CLI needed)\n");
        return 1;
    }
    test_verification();
    test_client_cert_missing();
    test_stream();
    test_pending_and_eof();
    test_read_wants_write();
    test_no_alloc_per_op();
    test_context_errors();
    remove_certs();
    return T_DONE();
}
