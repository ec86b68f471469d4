/* order: the alternating run order (order.h). */
#include "analysis/order.h"

size_t sched_version_at(size_t n_versions, unsigned round, unsigned position)
{
    if (n_versions == 0)
        return 0;
    return ((size_t)(round - 1) + (size_t)(position - 1)) % n_versions;
}
