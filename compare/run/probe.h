/* probe: is a freshly started server ready? One real protocol exchange, bounded in time:
 * redis PING (AUTH first when the configuration asks for it), a TCP echo round trip, an HTTP
 * GET that must answer a status line, a WebSocket upgrade that must answer 101 — plain or TLS
 * (OpenSSL; the certificate is verified against cacert unless insecure). Also asks a redis
 * server its version (INFO server). */
#ifndef PAIRBENCH_PROBE_H
#define PAIRBENCH_PROBE_H

#include <stddef.h>

struct probe_target {
    const char *protocol; /* redis, tcp, http, ws */
    const char *host;
    unsigned port;
    int tls;
    const char *cacert; /* or NULL: the system's trust store */
    const char *sni;    /* or NULL: host */
    int insecure;       /* no certificate verification */
    const char *path;   /* http/ws request path, NULL = "/" */
    int auth;           /* redis: AUTH with user/password first */
    const char *user, *password;
};

/* One attempt within timeout_s. Returns 0 when the server answered as expected, -1 with err
 * saying why not (e.g. "connect '127.0.0.1:6379': Connection refused"), -2 with err saying
 * where it was waiting when the attempt ran out of time ("read '127.0.0.1:6379': timed
 * out"), -3 with err when the answer is final and asking again cannot help: a password
 * refused or missing (AUTH error, PING answered NOAUTH), a certificate that failed
 * verification. */
int probe_once(const struct probe_target *t, double timeout_s, char *err, size_t errlen);

/* Redis: the server's version from INFO server ("valkey 8.0.1", "redis 7.0.15"). Returns 0,
 * or -1 with out left empty. */
int probe_redis_version(const struct probe_target *t, double timeout_s, char *out, size_t outlen);

/* Redis: what the server holds now: its keys (DBSIZE) and used_memory in bytes (INFO memory; -1
 * when it does not say). Returns 0, or -1 (both -1) when it did not answer DBSIZE. */
int probe_redis_state(const struct probe_target *t, double timeout_s, long long *keys,
                      long long *used_memory);

#endif
