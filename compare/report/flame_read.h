/* flame_read: the folded call stacks a counted run wrote (DIR/flame/<configuration
 * id>.<version>.folded, run/cost_fold.h), read back for report.html's differential flame graph. The
 * only I/O of the flame graph: report_html_flame.c draws from what this returns. */
#ifndef PAIRBENCH_FLAME_READ_H
#define PAIRBENCH_FLAME_READ_H

#include <stddef.h>

#include <jansson.h>

/* The largest folded file read (bigger ones are left out with a warning). */
#define FLAME_READ_MAX_BYTES (64u << 20)

/* {"<configuration id>.<version>": {"a;b;c": instructions per operation, ...}, ...} of the
 * folded files under dir/flame; an empty object when there are none. A file that cannot be
 * read or holds a line not "path count" is left out with a warning on stderr naming it and the
 * line (the report goes on without its picture). NULL only when out of memory. */
json_t *flame_read_dir(const char *dir);

/* Parses one folded file's text into a new object {path: count}; -1 with err naming name, the
 * line and what was expected. */
int flame_read_text(const char *text, size_t len, const char *name, json_t **out, char *err,
                    size_t errlen);

#endif
