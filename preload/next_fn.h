/* next_fn: the interposer's way to reach the definition it wraps (seed.c, wake.c). */
#ifndef PAIRBENCH_NEXT_FN_H
#define PAIRBENCH_NEXT_FN_H

#include <dlfcn.h>

/* The next definition of name (libc's), looked up once per call site: the wrapped calls run on
 * every request (read) or every loop iteration (epoll_wait) and their instructions are
 * counted. */
#define next_fn(name)                                                                              \
    ({                                                                                             \
        static void *fn_;                                                                          \
        void *f_ = __atomic_load_n(&fn_, __ATOMIC_ACQUIRE);                                        \
        if (!f_) {                                                                                 \
            f_ = dlsym(RTLD_NEXT, name);                                                           \
            __atomic_store_n(&fn_, f_, __ATOMIC_RELEASE);                                          \
        }                                                                                          \
        f_;                                                                                        \
    })

#endif
