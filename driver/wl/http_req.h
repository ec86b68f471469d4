/* The HTTP/1.1 requests a client run sends, as users call their service: a method, extra
 * headers, a body (inline or from a file) and one or several paths with weights. Each path's
 * request is built once, whole, at setup; a connection draws the next path from its own
 * seeded stream, so the order is fixed per seed. */
#ifndef PAIRBENCH_HTTP_REQ_H
#define PAIRBENCH_HTTP_REQ_H

#include <stddef.h>
#include <stdint.h>

#include "opts.h"

#define HTTP_REQ_MAX_PATHS 64
#define HTTP_REQ_MAX_BODY ((size_t)64 << 20)

struct http_reqs {
    unsigned n;                     /* paths (1 when --paths is not given) */
    char *req[HTTP_REQ_MAX_PATHS];  /* the whole request of path i */
    size_t len[HTTP_REQ_MAX_PATHS]; /* its bytes */
    double cum[HTTP_REQ_MAX_PATHS]; /* cumulative weights */
    size_t max_len;                 /* the longest request */
    char *body;                     /* the body sent (NULL = none) */
    size_t body_len;
};

/* Builds the requests from o (method, headers, body, body_file, path, paths, payload) for the
 * Host header value host. -1 with err naming the key, the bad value and what was expected. */
int http_reqs_build(const struct drv_opts *o, const char *host, struct http_reqs *r, char *err,
                    size_t errlen);
void http_reqs_free(struct http_reqs *r);

/* The index of the next path: a weighted draw from *rng. */
unsigned http_reqs_pick(const struct http_reqs *r, uint64_t *rng);

/* The request keys of o, as given, into the result's config j (credentials redacted). */
void http_req_to_json(const struct drv_opts *o, json_t *j);

/* -1 with err when o asks for what the HTTP/2 client cannot send yet. */
int http_req_validate(const struct drv_opts *o, char *err, size_t errlen);

#endif
