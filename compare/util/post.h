/* post: the gate's pull-request comment through libcurl, in the shape of GitHub's
 * issue-comment API: list the comments (GET URL), update our own earlier comment in place
 * (PATCH its url) when one carries the hidden marker, else create one (POST URL); JSON
 * {"body": ...}; a bearer token taken from the environment by the caller, never argv. The
 * body and marker logic is pure; post_comment does the network I/O. */
#ifndef PAIRBENCH_POST_H
#define PAIRBENCH_POST_H

#include <stddef.h>

/* The request body {"body": markdown} with marker prepended when the markdown does not
 * already contain it. malloc'd (free()), or NULL. */
char *post_body_json(const char *markdown, const char *marker);

/* Given the JSON array returned by GET url (GitHub: [{id, url, body}, ...]), finds the first
 * comment whose body contains marker and writes the URL to PATCH into out: the comment's
 * "url" when it is on the same scheme://host[:port] as list_url (the token is never sent to
 * another host), else list_url's ".../issues/N/comments" turned into
 * ".../issues/comments/ID". Returns 1 found, 0 none, -1 when list_json is not such an array. */
int post_find_comment(const char *list_json, const char *list_url, const char *marker, char *out,
                      size_t outlen);

/* A receiver's reply body made fit for stderr: every occurrence of token replaced by "***"
 * (a server that echoes the request's Authorization header must not print the token), then
 * cut to at most max_bytes at a UTF-8 character boundary ("..." appended when cut). Writes
 * into out (always NUL-terminated). */
void post_redact(const char *body, const char *token, size_t max_bytes, char *out, size_t outlen);

/* Creates or updates the comment. Returns 0, or -1 with err (network failure, HTTP status,
 * bad reply); *action gets "created" or "updated" on success. The token is sent only in the
 * Authorization header. */
int post_comment(const char *url, const char *token, const char *markdown, const char *marker,
                 const char **action, char *err, size_t errlen);

#endif
