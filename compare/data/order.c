/* order: the alternating run order (order.h). */
#include "data/order.h"

size_t sched_version_at(size_t n_versions, unsigned round, unsigned position)
{
    if (n_versions == 0)
        return 0;
    return ((size_t)(round - 1) + (size_t)(position - 1)) % n_versions;
}

/* The 0-based position of version v in round: the inverse of sched_version_at. */
static size_t position_of(size_t n_versions, unsigned round, size_t v)
{
    return (v + n_versions - (size_t)(round - 1) % n_versions) % n_versions;
}

int sched_runs_after(size_t n_versions, unsigned round, size_t a, size_t b)
{
    if (n_versions == 0)
        return 0;
    return position_of(n_versions, round, b) > position_of(n_versions, round, a);
}
