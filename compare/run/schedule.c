/* schedule: run order, shards, resume (see schedule.h). */
#include "run/schedule.h"

#include <stdlib.h>
#include <string.h>

#include "num.h"

int sched_parse_shard(const char *s, unsigned *k, unsigned *n)
{
    const char *slash;
    char kbuf[16];
    size_t klen;
    unsigned kv, nv;

    if (!s || !(slash = strchr(s, '/')))
        return -1;
    klen = (size_t)(slash - s);
    if (klen == 0 || klen >= sizeof(kbuf))
        return -1;
    memcpy(kbuf, s, klen);
    kbuf[klen] = '\0';
    if (num_parse_uint(kbuf, 1, 10000, &kv) < 0 || num_parse_uint(slash + 1, 1, 10000, &nv) < 0)
        return -1;
    if (kv > nv)
        return -1;
    *k = kv;
    *n = nv;
    return 0;
}

int sched_in_shard(size_t index, unsigned k, unsigned n)
{
    if (n == 0)
        return 1;
    return index % n == (size_t)(k - 1);
}

size_t sched_plan(size_t n_configs, size_t n_versions, unsigned runs, unsigned shard_k,
                  unsigned shard_n, sched_done_fn done, void *ctx, struct sched_run **out,
                  size_t *n_total)
{
    size_t c, cap = 0, n = 0, total = 0;
    unsigned r, p;
    struct sched_run *plan = NULL;

    *out = NULL;
    for (c = 0; c < n_configs; c++)
        if (sched_in_shard(c, shard_k, shard_n))
            cap += (size_t)runs * n_versions;
    /* always an allocation, even for an empty shard: the fill loop below never meets NULL */
    plan = malloc((cap ? cap : 1) * sizeof(*plan));
    if (!plan)
        return (size_t)-1;
    for (c = 0; c < n_configs; c++) {
        if (!sched_in_shard(c, shard_k, shard_n))
            continue;
        for (r = 1; r <= runs; r++) {
            for (p = 1; p <= n_versions; p++) {
                size_t v = sched_version_at(n_versions, r, p);
                total++;
                if (done && done(ctx, c, v, r))
                    continue;
                plan[n].config = c;
                plan[n].version = v;
                plan[n].round = r;
                plan[n].position = p;
                n++;
            }
        }
    }
    if (n_total)
        *n_total = total;
    *out = plan;
    return n;
}

/* Whether every step of version v's round r is recorded. */
static int sequence_done(size_t n_configs, size_t v, unsigned r, sched_done_fn done, void *ctx)
{
    size_t c;

    if (!done)
        return 0;
    for (c = 0; c < n_configs; c++)
        if (!done(ctx, c, v, r))
            return 0;
    return 1;
}

size_t sched_plan_sequence(size_t n_configs, size_t n_versions, unsigned runs, sched_done_fn done,
                           void *ctx, struct sched_run **out, size_t *n_total)
{
    size_t c, n = 0, cap = (size_t)runs * n_versions * n_configs;
    unsigned r, p;
    struct sched_run *plan = malloc((cap ? cap : 1) * sizeof(*plan));

    *out = NULL;
    if (!plan)
        return (size_t)-1;
    for (r = 1; r <= runs; r++) {
        for (p = 1; p <= n_versions; p++) {
            size_t v = sched_version_at(n_versions, r, p);

            if (sequence_done(n_configs, v, r, done, ctx))
                continue;
            for (c = 0; c < n_configs; c++) {
                plan[n] = (struct sched_run){.config = c,
                                             .version = v,
                                             .round = r,
                                             .position = p,
                                             .step = (unsigned)c + 1,
                                             .steps = (unsigned)n_configs};
                n++;
            }
        }
    }
    if (n_total)
        *n_total = cap;
    *out = plan;
    return n;
}
