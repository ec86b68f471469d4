/* TLS for both ends: OpenSSL contexts built once at setup, non-blocking connections that
 * plug into struct conn via conn_tls_ops. Verification of the chain and of the peer identity
 * (DNS name or IP SAN) is on unless insecure is set. */
#ifndef PAIRBENCH_TLS_H
#define PAIRBENCH_TLS_H

#include <stddef.h>

#include "engine/conn.h"
#include "opts.h"

struct tls_ctx; /* wraps SSL_CTX */

/* Client context from o->cacert (system store when empty), o->cert/o->key (client
 * certificate, optional), o->insecure. NULL with err set on failure. Free with tls_ctx_free. */
struct tls_ctx *tls_client_ctx_new(const struct drv_opts *o, char *err, size_t errlen);
/* Server context from o->cert and o->key (and o->cacert: then client certificates are
 * requested and verified). */
struct tls_ctx *tls_server_ctx_new(const struct drv_opts *o, char *err, size_t errlen);
void tls_ctx_free(struct tls_ctx *t);

/* Wraps a connected fd: c->ops = &conn_tls_ops. Client side checks identity against name
 * (o->sni when set, else o->host: IP SAN for addresses, DNS name otherwise).
 * 0 or -1 with c->err set. The handshake is driven by c->ops->handshake(). */
int conn_init_tls_client(struct conn *c, int fd, struct tls_ctx *t, const char *name);
int conn_init_tls_server(struct conn *c, int fd, struct tls_ctx *t);

extern const struct conn_ops conn_tls_ops;

/* "OpenSSL 3.0.x" for the result's build section. */
const char *tls_library_version(void);

#endif
