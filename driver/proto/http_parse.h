/* Pure, incremental HTTP/1.1 scanners (no I/O, no allocation): the response head and body
 * for the client (wl_http, the WebSocket handshake in wl_ws), the request for the reference
 * servers (srv_http, srv_ws). The contract is picohttpparser's: a scanner returns the bytes
 * it consumed, HTTP_NEED_MORE (-2) when the input ends before the element does (call again
 * with the same bytes plus more), or HTTP_MALFORMED (-1). Header names and values point into
 * the caller's input and are valid as long as it is. Lines may end in CRLF or a bare LF. */
#ifndef PAIRBENCH_HTTP_PARSE_H
#define PAIRBENCH_HTTP_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum {
    HTTP_MALFORMED = -1,
    HTTP_NEED_MORE = -2,
};

#define HTTP_MAX_HEADERS 64

struct http_header {
    const char *name;
    size_t name_len;
    const char *value; /* optional whitespace around it removed */
    size_t value_len;
};

enum http_body_kind {
    HTTP_BODY_NONE,    /* no body: 1xx, 204, 304, or a request without Content-Length */
    HTTP_BODY_LENGTH,  /* Content-Length bytes */
    HTTP_BODY_CHUNKED, /* Transfer-Encoding: chunked */
    HTTP_BODY_EOF,     /* response delimited by the connection closing */
};

/* What a head says about framing and the connection (filled by both head scanners). */
struct http_framing {
    enum http_body_kind body;
    uint64_t content_length; /* HTTP_BODY_LENGTH only */
    int keep_alive;          /* 0 when the connection closes after this message */
    int upgrade;             /* "Connection: upgrade" present */
};

struct http_response {
    int minor_version; /* HTTP/1.x */
    int status;        /* 100..999 */
    const char *reason;
    size_t reason_len;
    struct http_header headers[HTTP_MAX_HEADERS];
    size_t num_headers;
    struct http_framing framing;
};

struct http_request {
    int minor_version;
    const char *method;
    size_t method_len;
    const char *path;
    size_t path_len;
    struct http_header headers[HTTP_MAX_HEADERS];
    size_t num_headers;
    struct http_framing framing; /* body: NONE or LENGTH (chunked requests are refused) */
};

/* Scans a response status line and headers from p[0..n). Returns the head's length (bytes
 * up to and including the blank line), HTTP_NEED_MORE, or HTTP_MALFORMED (also when the head
 * would exceed max_head bytes, has more than HTTP_MAX_HEADERS headers, a bad or conflicting
 * Content-Length, or a Transfer-Encoding other than chunked). */
ssize_t http_parse_response(const char *p, size_t n, size_t max_head, struct http_response *r);

/* Scans a request line and headers: same contract. A request with Transfer-Encoding is
 * malformed here (the reference servers take Content-Length bodies only). */
ssize_t http_parse_request(const char *p, size_t n, size_t max_head, struct http_request *r);

/* The first header called name (case-insensitive), or NULL. */
const struct http_header *http_header_find(const struct http_header *h, size_t num,
                                           const char *name);
/* 1 when the header's comma-separated value list holds token (case-insensitive). */
int http_header_has_token(const struct http_header *h, const char *token);

/* Incremental body decoder: one per message, so a body never has to be buffered whole. */
struct http_body {
    enum http_body_kind kind;
    uint64_t remaining; /* LENGTH: bytes left; CHUNKED: bytes left in the current chunk */
    uint64_t total;     /* data bytes delivered so far */
    int state;          /* private: chunked decoder state */
    int done;           /* set when the body is complete */
};

/* Starts decoding a body framed as f says. HTTP_BODY_NONE is done at once. */
void http_body_init(struct http_body *b, const struct http_framing *f);

/* Consumes body bytes from p[0..n): either framing (chunk size lines, CRLFs, trailers;
 * *data_len = 0) or a run of data bytes (*data, *data_len). Returns bytes consumed (0 only
 * when n == 0 or the body is done), HTTP_NEED_MORE when a chunk size or trailer line is
 * incomplete (nothing consumed), or HTTP_MALFORMED. Call in a loop until b->done or the
 * input is used up. HTTP_BODY_EOF bodies never finish: every byte is data. */
ssize_t http_body_feed(struct http_body *b, const char *p, size_t n, const char **data,
                       size_t *data_len);

/* 1 when path can be sent as a request target: starts with '/', no spaces or control
 * characters, at most max bytes. */
int http_path_ok(const char *path, size_t max);

/* The deterministic payload shared by the reference servers and the clients (HTTP bodies,
 * WebSocket messages): byte i is a printable character that depends on i, so shifted,
 * truncated or mixed-up data fails verification. Fills out[0..len) with bytes offset.. */
void http_pattern(char *out, size_t len, uint64_t offset);

#endif
