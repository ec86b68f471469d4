/* libcurl by dlopen (see curl_dl.h). */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "engine/curl_dl.h"

#define CURL_SONAME "libcurl.so.4"

static struct curl_api api;
static int loaded;

const struct curl_api *curl_api_load(char *err, size_t errlen)
{
    static const struct {
        const char *name;
        size_t off;
    } syms[] = {
#define SYM(field) {"curl_" #field, offsetof(struct curl_api, field)}
        SYM(global_init),     SYM(global_cleanup),   SYM(easy_init),           SYM(easy_setopt),
        SYM(easy_getinfo),    SYM(easy_cleanup),     SYM(easy_strerror),       SYM(multi_init),
        SYM(multi_setopt),    SYM(multi_add_handle), SYM(multi_remove_handle), SYM(multi_perform),
        SYM(multi_info_read), SYM(multi_poll),       SYM(multi_cleanup),       SYM(slist_append),
        SYM(slist_free_all),  SYM(version_info),
#undef SYM
    };
    struct curl_api a;
    void *h;
    size_t i;

    if (loaded)
        return &api;
    h = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(err, errlen, "http/2 needs libcurl (%s): %s", CURL_SONAME, dlerror());
        return NULL;
    }
    for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
        void *f = dlsym(h, syms[i].name);

        if (!f) {
            snprintf(err, errlen, "http/2: %s has no %s", CURL_SONAME, syms[i].name);
            dlclose(h);
            return NULL;
        }
        /* POSIX: a function's address comes back from dlsym as a void * */
        memcpy((char *)&a + syms[i].off, &f, sizeof(f));
    }
    api = a;
    loaded = 1;
    return &api;
}

const char *curl_api_version(void)
{
    const curl_version_info_data *cv = loaded ? api.version_info(CURLVERSION_NOW) : NULL;

    return cv && cv->version ? cv->version : LIBCURL_VERSION;
}
