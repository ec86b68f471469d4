/* Builds the HTTP/1.1 requests of a client run (see http_req.h): the request line of each
 * path, Host, the user's headers in the order given, and the body with its Content-Length. */
#include "wl/http_req.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "proto/http_parse.h"
#include "rcmd.h"

#define HTTP_REQ_MAX_HEAD 16384

static int is_tchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static int name_ok(const char *s)
{
    if (!*s || strlen(s) > 256)
        return 0;
    for (; *s; s++)
        if (!is_tchar((unsigned char)*s))
            return 0;
    return 1;
}

static int value_ok(const char *s)
{
    for (; *s; s++)
        if (((unsigned char)*s < ' ' && *s != '\t') || *s == 0x7f)
            return 0;
    return 1;
}

/* Appends "Name: value\r\n" of every header in the JSON object text; bit 1 of *given when
 * the user gave a Host, bit 2 a Content-Type. */
static int add_headers(const char *text, char *head, size_t cap, size_t *hl, int *given, char *err,
                       size_t errlen)
{
    json_error_t je;
    json_t *h = NULL, *v;
    const char *k;
    int rc = -1;

    *given = 0;
    if (!text[0])
        return 0;
    h = json_loads(text, JSON_DECODE_ANY, &je);
    if (!json_is_object(h)) {
        snprintf(err, errlen,
                 "--headers '%.64s': expected a JSON object of header names and "
                 "string values, such as {\"X-Trace\": \"1\"}",
                 text);
        goto out;
    }
    json_object_foreach(h, k, v)
    {
        const char *s = json_string_value(v);
        if (!name_ok(k)) {
            snprintf(err, errlen,
                     "--headers name '%.64s': expected a header name (letters, "
                     "digits and !#$%%&'*+-.^_`|~)",
                     k);
            goto out;
        }
        if (!s || !value_ok(s)) {
            snprintf(err, errlen,
                     "--headers '%.64s' value: expected a string without control "
                     "characters",
                     k);
            goto out;
        }
        if (!strcasecmp(k, "Content-Length") || !strcasecmp(k, "Transfer-Encoding")) {
            snprintf(err, errlen,
                     "--headers '%s': expected no framing header (the driver sets "
                     "Content-Length from the body)",
                     k);
            goto out;
        }
        *given |= (!strcasecmp(k, "Host") ? 1 : 0) | (!strcasecmp(k, "Content-Type") ? 2 : 0);
        int w = snprintf(head + *hl, cap - *hl, "%s: %s\r\n", k, s);
        if (w < 0 || (size_t)w >= cap - *hl) {
            snprintf(err, errlen, "--headers: expected at most %d bytes of headers",
                     HTTP_REQ_MAX_HEAD);
            goto out;
        }
        *hl += (size_t)w;
    }
    rc = 0;
out:
    json_decref(h);
    return rc;
}

static int read_body(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    long sz;
    int rc = -1;

    if (!f) {
        snprintf(err, errlen, "--body-file '%s': %s", path, strerror(errno));
        return -1;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        snprintf(err, errlen, "--body-file '%s': expected a regular file", path);
        goto out;
    }
    if ((size_t)sz > HTTP_REQ_MAX_BODY) {
        snprintf(err, errlen, "--body-file '%s': %ld bytes, expected at most 64 MiB", path, sz);
        goto out;
    }
    *out = malloc(sz ? (size_t)sz : 1);
    if (!*out || fread(*out, 1, (size_t)sz, f) != (size_t)sz) {
        snprintf(err, errlen, "--body-file '%s': reading failed", path);
        goto out;
    }
    *len = (size_t)sz;
    rc = 0;
out:
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, errlen, "--body-file '%s': %s", path, strerror(errno));
        rc = -1;
    }
    return rc;
}

/* The body: --body, --body-file, or for POST and PUT without either, payload bytes of the
 * shared pattern (what the reference server echoes). */
static int body_build(const struct drv_opts *o, struct http_reqs *r, char *err, size_t errlen)
{
    int echo = !strcmp(o->method, "POST") || !strcmp(o->method, "PUT");

    if (o->body[0] && o->body_file[0]) {
        snprintf(err, errlen, "--body '%.32s' --body-file '%s': expected one of them", o->body,
                 o->body_file);
        return -1;
    }
    if (o->body_file[0])
        return read_body(o->body_file, &r->body, &r->body_len, err, errlen);
    if (o->body[0] || echo) {
        r->body_len = o->body[0] ? strlen(o->body) : o->payload;
        r->body = malloc(r->body_len ? r->body_len : 1);
        if (!r->body) {
            snprintf(err, errlen, "http: out of memory");
            return -1;
        }
        if (o->body[0])
            memcpy(r->body, o->body, r->body_len);
        else
            http_pattern(r->body, r->body_len, 0);
    }
    return 0;
}

/* The paths and weights: --paths, else --path with weight 1. */
static int paths_load(const struct drv_opts *o, json_t **paths, char *err, size_t errlen)
{
    json_error_t je;
    size_t i;
    json_t *e;

    if (!o->paths[0]) {
        *paths = json_pack("[{s:s, s:i}]", "path", o->path, "weight", 1);
        return *paths ? 0 : -1;
    }
    if (strcmp(o->path, "/") != 0) {
        snprintf(err, errlen, "--path '%.64s' --paths: expected one of them", o->path);
        return -1;
    }
    *paths = json_loads(o->paths, JSON_DECODE_ANY, &je);
    if (!json_is_array(*paths) || json_array_size(*paths) == 0 ||
        json_array_size(*paths) > HTTP_REQ_MAX_PATHS) {
        snprintf(err, errlen,
                 "--paths '%.64s': expected a JSON array of 1..%d "
                 "{\"path\": \"/...\", \"weight\": W}",
                 o->paths, HTTP_REQ_MAX_PATHS);
        return -1;
    }
    json_array_foreach(*paths, i, e)
    {
        json_t *p = json_object_get(e, "path"), *w = json_object_get(e, "weight");
        if (!json_is_string(p) || !http_path_ok(json_string_value(p), 1024)) {
            snprintf(err, errlen,
                     "--paths[%zu].path: expected a request path starting with '/' "
                     "without spaces or control characters",
                     i);
            return -1;
        }
        if (json_object_size(e) != (w ? 2u : 1u) || (w && !json_is_number(w)) ||
            (w && !(json_number_value(w) > 0 && json_number_value(w) < 1e9))) {
            char *s = w ? json_dumps(w, JSON_ENCODE_ANY) : NULL;
            snprintf(err, errlen,
                     "--paths[%zu].weight '%s': expected a positive number (and "
                     "no keys but path and weight)",
                     i, s ? s : "?");
            free(s);
            return -1;
        }
    }
    return 0;
}

static int req_one(struct http_reqs *r, unsigned i, const char *line, const char *head, size_t hl,
                   char *err, size_t errlen)
{
    size_t ll = strlen(line);

    r->len[i] = ll + hl + r->body_len;
    r->req[i] = malloc(r->len[i]);
    if (!r->req[i]) {
        snprintf(err, errlen, "http: out of memory");
        return -1;
    }
    memcpy(r->req[i], line, ll);
    memcpy(r->req[i] + ll, head, hl);
    if (r->body && r->body_len)
        memcpy(r->req[i] + ll + hl, r->body, r->body_len);
    if (r->len[i] > r->max_len)
        r->max_len = r->len[i];
    return 0;
}

int http_reqs_build(const struct drv_opts *o, const char *host, struct http_reqs *r, char *err,
                    size_t errlen)
{
    char head[HTTP_REQ_MAX_HEAD + 512], line[1200];
    size_t hl = 0, i;
    json_t *paths = NULL, *e;
    int given = 0, rc = -1;
    double sum = 0;

    memset(r, 0, sizeof(*r));
    if (add_headers(o->headers, head, HTTP_REQ_MAX_HEAD, &hl, &given, err, errlen) < 0 ||
        body_build(o, r, err, errlen) < 0 || paths_load(o, &paths, err, errlen) < 0)
        goto out;
    /* Host first, then the user's headers, then the framing */
    char user[HTTP_REQ_MAX_HEAD];
    memcpy(user, head, hl);
    int w = (given & 1) ? 0 : snprintf(head, sizeof(head), "Host: %s\r\n", host);
    memcpy(head + w, user, hl);
    hl += (size_t)w;
    if (r->body) {
        const char *ct = (given & 2) ? "" : "Content-Type: application/octet-stream\r\n";
        w = snprintf(head + hl, sizeof(head) - hl, "%sContent-Length: %zu\r\n", ct, r->body_len);
        hl += (size_t)w;
    }
    head[hl++] = '\r';
    head[hl++] = '\n';
    json_array_foreach(paths, i, e)
    {
        json_t *wt = json_object_get(e, "weight");
        snprintf(line, sizeof(line), "%s %s HTTP/1.1\r\n", o->method,
                 json_string_value(json_object_get(e, "path")));
        sum += wt ? json_number_value(wt) : 1;
        r->cum[i] = sum;
        if (req_one(r, (unsigned)i, line, head, hl, err, errlen) < 0)
            goto out;
        r->n = (unsigned)i + 1;
    }
    rc = 0;
out:
    json_decref(paths);
    if (rc < 0)
        http_reqs_free(r);
    return rc;
}

void http_reqs_free(struct http_reqs *r)
{
    for (unsigned i = 0; i < r->n; i++)
        free(r->req[i]);
    free(r->body);
    memset(r, 0, sizeof(*r));
}

unsigned http_reqs_pick(const struct http_reqs *r, uint64_t *rng)
{
    unsigned k = 0;
    if (r->n < 2)
        return 0;
    double u = (double)(rcmd_rng_next(rng) >> 11) / 9007199254740992.0 * r->cum[r->n - 1];
    while (k + 1 < r->n && u >= r->cum[k])
        k++;
    return k;
}

/* The request keys of http as given, credentials (Authorization, Cookie) shown redacted. */
void http_req_to_json(const struct drv_opts *o, json_t *j)
{
    static const char *const hidden[] = {"authorization", "proxy-authorization", "cookie"};
    json_t *h = o->headers[0] ? json_loads(o->headers, JSON_DECODE_ANY, NULL) : NULL;
    const char *k;
    json_t *v;

    json_object_foreach(h, k, v)
    {
        for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++)
            if (strcasecmp(k, hidden[i]) == 0)
                json_object_set_new(h, k, json_string("(redacted)"));
    }
    if (h)
        json_object_set_new(j, "headers", h);
    if (o->body[0])
        json_object_set_new(j, "body", json_string(o->body));
    if (o->body_file[0])
        json_object_set_new(j, "body_file", json_string(o->body_file));
    if (o->paths[0])
        json_object_set_new(j, "paths", json_loads(o->paths, JSON_DECODE_ANY, NULL));
}

int http_req_validate(const struct drv_opts *o, char *err, size_t errlen)
{
    if (strcmp(o->http_version, "2") == 0 &&
        (o->headers[0] || o->body[0] || o->body_file[0] || o->paths[0] ||
         (strcmp(o->method, "GET") != 0 && strcmp(o->method, "POST") != 0))) {
        snprintf(err, errlen,
                 "--http-version '2': --headers, --body, --body-file, --paths "
                 "and methods other than GET and POST are not yet supported "
                 "over HTTP/2 (use 1.1)");
        return -1;
    }
    return 0;
}
