/* libcurl, loaded at run time for HTTP/2 only. Linking it would map libcurl and the two
 * dozen libraries it needs into every driver process (about 4.5 MiB of peak RSS and most of
 * the dynamic loader's start-up work) although only --http-version 2 uses it. */
#ifndef PAIRBENCH_CURL_DL_H
#define PAIRBENCH_CURL_DL_H

#include <stddef.h>

#include <curl/curl.h>

struct curl_api {
    CURLcode (*global_init)(long flags);
    void (*global_cleanup)(void);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *e, CURLoption opt, ...);
    CURLcode (*easy_getinfo)(CURL *e, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *e);
    const char *(*easy_strerror)(CURLcode rc);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_setopt)(CURLM *m, CURLMoption opt, ...);
    CURLMcode (*multi_add_handle)(CURLM *m, CURL *e);
    CURLMcode (*multi_remove_handle)(CURLM *m, CURL *e);
    CURLMcode (*multi_perform)(CURLM *m, int *running);
    CURLMsg *(*multi_info_read)(CURLM *m, int *queued);
    CURLMcode (*multi_poll)(CURLM *m, struct curl_waitfd *fds, unsigned nfds, int timeout_ms,
                            int *numfds);
    CURLMcode (*multi_cleanup)(CURLM *m);
    struct curl_slist *(*slist_append)(struct curl_slist *l, const char *s);
    void (*slist_free_all)(struct curl_slist *l);
    curl_version_info_data *(*version_info)(CURLversion v);
};

/* Loads libcurl (once; thread-unsafe: call before starting workers). The table, or NULL
 * with the reason in err (the library or a symbol is missing). */
const struct curl_api *curl_api_load(char *err, size_t errlen);

/* The libcurl version for the result's build record: the loaded library's, else the one
 * the driver was built against. */
const char *curl_api_version(void);

#endif
