/* Posting the gate's comment with libcurl (see post.h). Three requests at most: GET the
 * list, then PATCH our comment or POST a new one. Bounded by connect and total timeouts so
 * a dead endpoint cannot hold CI; failures come back as text, never as an exit. */
#include "util/post.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>

#define POST_MAX_REPLY (8u << 20)
#define POST_MAX_PAGES 10

char *post_body_json(const char *markdown, const char *marker)
{
    json_t *o;
    char *s, *body = NULL;

    if (marker && !strstr(markdown, marker)) {
        size_t n = strlen(marker) + strlen(markdown) + 2;

        body = malloc(n);
        if (!body)
            return NULL;
        snprintf(body, n, "%s\n%s", marker, markdown);
    }
    o = json_pack("{s:s}", "body", body ? body : markdown);
    free(body);
    if (!o)
        return NULL;
    s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return s;
}

/* Length of "scheme://host[:port]" of url, or 0. */
static size_t origin_len(const char *url)
{
    const char *p = strstr(url, "://");

    if (!p)
        return 0;
    p += 3;
    while (*p && *p != '/' && *p != '?' && *p != '#')
        p++;
    return (size_t)(p - url);
}

int post_find_comment(const char *list_json, const char *list_url, const char *marker, char *out,
                      size_t outlen)
{
    json_error_t je;
    json_t *arr = json_loads(list_json, 0, &je), *c;
    size_t i;
    int rc = 0;

    if (!json_is_array(arr)) {
        json_decref(arr);
        return -1;
    }
    json_array_foreach(arr, i, c)
    {
        const char *body = json_string_value(json_object_get(c, "body"));
        const char *curl_s = json_string_value(json_object_get(c, "url"));
        json_t *id = json_object_get(c, "id");
        size_t ol = origin_len(list_url);

        if (!body || !strstr(body, marker))
            continue;
        if (curl_s && ol && origin_len(curl_s) == ol && strncmp(curl_s, list_url, ol) == 0) {
            snprintf(out, outlen, "%s", curl_s);
            rc = 1;
            break;
        }
        if (json_is_integer(id)) {
            const char *q = strstr(list_url, "/issues/");
            const char *end = strchr(list_url, '?');
            size_t pre;

            if (!q || (end && q > end))
                continue;
            pre = (size_t)(q - list_url);
            snprintf(out, outlen, "%.*s/issues/comments/%lld", (int)pre, list_url,
                     (long long)json_integer_value(id));
            rc = 1;
            break;
        }
    }
    json_decref(arr);
    return rc;
}

struct reply {
    char *data;
    size_t len;
    int toobig;
};

static size_t on_data(char *p, size_t size, size_t nmemb, void *ud)
{
    struct reply *r = ud;
    size_t n = size * nmemb;
    char *d;

    if (r->len + n + 1 > POST_MAX_REPLY) {
        r->toobig = 1;
        return 0;
    }
    d = realloc(r->data, r->len + n + 1);
    if (!d)
        return 0;
    memcpy(d + r->len, p, n);
    r->len += n;
    d[r->len] = '\0';
    r->data = d;
    return n;
}

void post_redact(const char *body, const char *token, size_t max_bytes, char *out, size_t outlen)
{
    size_t o = 0, tlen = token ? strlen(token) : 0;
    size_t limit = max_bytes < outlen ? max_bytes : outlen - 1;
    const char *p = body;
    unsigned char after = 0; /* the first byte left out, when cut */

    if (!outlen)
        return;
    while (*p) {
        int secret = tlen && strncmp(p, token, tlen) == 0;
        const char *piece = secret ? "***" : p;
        size_t n = secret ? 3 : 1;
        if (o + n > limit) {
            after = (unsigned char)piece[0];
            break;
        }
        memcpy(out + o, piece, n);
        o += n;
        p += secret ? tlen : 1;
    }
    if (*p && limit >= 3) {
        /* room for "...", then never end inside a multi-byte character: while the first byte
         * left out is a continuation byte (10xxxxxx), leave out the byte before it too */
        while (o + 3 > limit) {
            after = (unsigned char)out[--o];
        }
        while (o > 0 && (after & 0xC0) == 0x80)
            after = (unsigned char)out[--o];
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

/* One request; *status gets the HTTP status. Returns 0, or -1 with err (a reply body in it
 * has the token redacted). */
static int request(const char *method, const char *url, struct curl_slist *hdr, const char *body,
                   const char *token, struct reply *rep, long *status, char *err, size_t errlen)
{
    CURL *c = curl_easy_init();
    char ebuf[CURL_ERROR_SIZE] = "";
    CURLcode cc;

    if (!c) {
        snprintf(err, errlen, "post: curl_easy_init failed");
        return -1;
    }
    free(rep->data);
    memset(rep, 0, sizeof(*rep));
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    if (body)
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, rep);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, ebuf);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 30000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L); /* never carry the token elsewhere */
    cc = curl_easy_perform(c);
    if (cc != CURLE_OK) {
        snprintf(err, errlen, "post: %s '%s': %s", method, url,
                 *ebuf ? ebuf : curl_easy_strerror(cc));
        curl_easy_cleanup(c);
        return -1;
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
    curl_easy_cleanup(c);
    if (*status < 200 || *status > 299) {
        char shown[256];
        post_redact(rep->data ? rep->data : "", token, 200, shown, sizeof(shown));
        snprintf(err, errlen, "post: %s '%s': HTTP status %ld%s%s", method, url, *status,
                 rep->data ? ": " : "", shown);
        return -1;
    }
    return 0;
}

int post_comment(const char *url, const char *token, const char *markdown, const char *marker,
                 const char **action, char *err, size_t errlen)
{
    struct curl_slist *hdr = NULL, *h;
    struct reply rep = {0};
    char *body = NULL, *auth = NULL, *list_url = NULL, patch_url[2048];
    long status = 0;
    size_t n;
    int rc = -1, found = 0, page;

    *action = NULL;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(err, errlen, "post: curl_global_init failed");
        return -1;
    }
    body = post_body_json(markdown, marker);
    n = strlen(token) + 32;
    auth = malloc(n);
    n = strlen(url) + 48;
    list_url = malloc(n);
    if (!body || !auth || !list_url) {
        snprintf(err, errlen, "post: out of memory");
        goto out;
    }
    snprintf(auth, strlen(token) + 32, "Authorization: Bearer %s", token);
    h = curl_slist_append(hdr, auth);
    hdr = h ? h : hdr;
    h = curl_slist_append(hdr, "Accept: application/vnd.github+json");
    hdr = h ? h : hdr;
    h = curl_slist_append(hdr, "X-GitHub-Api-Version: 2022-11-28");
    hdr = h ? h : hdr;
    h = curl_slist_append(hdr, "User-Agent: pairbench");
    hdr = h ? h : hdr;
    h = curl_slist_append(hdr, "Content-Type: application/json");
    hdr = h ? h : hdr;
    if (!h) {
        snprintf(err, errlen, "post: out of memory");
        goto out;
    }
    /* GitHub pages comment lists (100 per page at most): look through up to POST_MAX_PAGES
     * pages for our marker; a page shorter than 100 is the last one. */
    for (page = 1, found = 0; page <= POST_MAX_PAGES && !found; page++) {
        json_t *arr;
        size_t count;

        snprintf(list_url, n, "%s%sper_page=100&page=%d", url, strchr(url, '?') ? "&" : "?", page);
        if (request("GET", list_url, hdr, NULL, token, &rep, &status, err, errlen) < 0)
            goto out;
        found =
            post_find_comment(rep.data ? rep.data : "", url, marker, patch_url, sizeof(patch_url));
        if (found < 0) {
            snprintf(err, errlen, "post: GET '%s': expected a JSON array of comments", list_url);
            goto out;
        }
        arr = json_loads(rep.data ? rep.data : "[]", 0, NULL);
        count = json_array_size(arr);
        json_decref(arr);
        if (count < 100)
            break;
    }
    if (found) {
        if (request("PATCH", patch_url, hdr, body, token, &rep, &status, err, errlen) < 0)
            goto out;
        *action = "updated";
    } else {
        if (request("POST", url, hdr, body, token, &rep, &status, err, errlen) < 0)
            goto out;
        *action = "created";
    }
    rc = 0;
out:
    if (auth) {
        memset(auth, 0, strlen(auth)); /* do not leave the token lying in freed memory */
        free(auth);
    }
    curl_slist_free_all(hdr);
    free(rep.data);
    free(body);
    free(list_url);
    curl_global_cleanup();
    return rc;
}
