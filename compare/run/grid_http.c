/* The grid's HTTP request keys, checked before any run as the driver will read them
 * (driver/wl/http_req.c): "headers" (an object of header names and string values, no framing
 * headers), "paths" (an array of {"path": "/...", "weight": W > 0}) and the label text of a
 * configuration's request. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "run/grid.h"

int grid_http_is_key(const char *key)
{
    return strcmp(key, "headers") == 0 || strcmp(key, "paths") == 0;
}

static int bad(const char *file, const char *path, const json_t *v, const char *why, char *err,
               size_t errlen)
{
    char got[80];

    grid_show_value(v, got, sizeof(got));
    snprintf(err, errlen, "%s: %s: value %s: expected %s", file, path, got, why);
    return -1;
}

static int check_headers(const char *file, const char *path, const json_t *v, char *err,
                         size_t errlen)
{
    const char *k;
    json_t *h;

    if (!json_is_object(v) || json_object_size(v) == 0)
        return bad(file, path, v, "an object of header names and string values", err, errlen);
    json_object_foreach((json_t *)v, k, h)
    {
        if (k[0] == '\0' || strpbrk(k, " \t\r\n:") || !json_is_string(h) ||
            strpbrk(json_string_value(h), "\r\n"))
            return bad(file, path, v, "header names without spaces or ':' and one-line values", err,
                       errlen);
        if (!strcasecmp(k, "Content-Length") || !strcasecmp(k, "Transfer-Encoding"))
            return bad(file, path, v,
                       "no Content-Length or Transfer-Encoding (the driver frames the body)", err,
                       errlen);
    }
    return 0;
}

static int check_paths(const char *file, const char *path, const json_t *v, char *err,
                       size_t errlen)
{
    size_t i;
    json_t *e;

    if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > 64)
        return bad(file, path, v, "an array of 1 to 64 {\"path\": \"/...\", \"weight\": W}", err,
                   errlen);
    json_array_foreach((json_t *)v, i, e)
    {
        json_t *p = json_object_get(e, "path"), *w = json_object_get(e, "weight");
        const char *s = json_string_value(p);

        if (!s || s[0] != '/' || strpbrk(s, " \t\r\n"))
            return bad(file, path, e, "a \"path\" starting with '/' without spaces", err, errlen);
        if (json_object_size(e) != (w ? 2u : 1u) ||
            (w && !(json_is_number(w) && json_number_value(w) > 0 && json_number_value(w) < 1e9)))
            return bad(file, path, e, "a positive \"weight\" (and no other keys)", err, errlen);
    }
    return 0;
}

int grid_check_http(const char *file, const char *path, const char *key, const json_t *value,
                    char *err, size_t errlen)
{
    if (strcmp(key, "headers") == 0)
        return check_headers(file, path, value, err, errlen);
    return check_paths(file, path, value, err, errlen);
}

void grid_http_label(const json_t *params, char *out, size_t outlen)
{
    const json_t *paths = json_object_get(params, "paths");
    size_t n = json_array_size(paths);

    out[0] = '\0';
    if (n == 1)
        snprintf(out, outlen, "%s",
                 json_string_value(json_object_get(json_array_get(paths, 0), "path")));
    else if (n > 1)
        snprintf(out, outlen, "%zu paths", n);
}
