/* render_dir(): skeleton until the summary and report writers land. */
#include <stdio.h>

#include "render.h"

int render_dir(const char *dir, const struct render_opts *ro, json_t **summary_out, char *err,
               size_t errlen)
{
    (void)ro;
    if (summary_out)
        *summary_out = NULL;
    snprintf(err, errlen, "render '%s': not implemented yet", dir);
    return -1;
}
