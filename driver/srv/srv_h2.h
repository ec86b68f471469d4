/* The reference HTTP server's HTTP/2 side (srv_h2.c), framed with nghttp2's server session:
 * srv_http.c hands it a connection whose first bytes are the HTTP/2 client preface (h2c with
 * prior knowledge, or h2 after ALPN over TLS). It answers as the HTTP/1.1 side does: GET and
 * HEAD the `payload` bytes of the shared pattern, POST and PUT the echo of their body, other
 * methods 405; every answer with content-length and "server: pairbench". */
#ifndef PAIRBENCH_SRV_H2_H
#define PAIRBENCH_SRV_H2_H

#include <stddef.h>
#include <sys/types.h>

#include "buf.h"

#define SRV_H2_PREFACE "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
#define SRV_H2_PREFACE_LEN 24

struct srv_h2;

/* A connection's HTTP/2 state. body: the GET answer (payload bytes, not owned: must outlive
 * the connection); max_body: the largest request body echoed (a larger one is reset with
 * REFUSED_STREAM). NULL when out of memory. */
struct srv_h2 *srv_h2_new(const char *body, size_t payload, size_t max_body);
void srv_h2_free(struct srv_h2 *h);

/* srv_proto.feed (srvproto.h) for an HTTP/2 connection: consumes the preface or one frame,
 * so that at most one request completes per call (*replied = SRV_REPLY_REQUEST when one
 * did), and appends what the session sends to out. 0 = need more, SRV_CLOSE on a
 * connection error. */
ssize_t srv_h2_feed(struct srv_h2 *h, const char *p, size_t n, struct buf *out, int *replied,
                    int *close_after);

/* srv_proto.more: what the session still has to send (DATA held for lack of room); 1 when
 * it appended some, 0 none, SRV_CLOSE on a session error. */
int srv_h2_more(struct srv_h2 *h, struct buf *out);

#endif
