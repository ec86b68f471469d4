/* flame_read: folded stacks back from text — "path count" lines, a path given twice summed,
 * blank lines and CRLF accepted, a line that is not "path count" refused naming the file and
 * the line. */
#include <jansson.h>
#include <math.h>

#include "report/flame_read.h"
#include "t.h"

static const struct {
    const char *text;
    int rc;
    size_t paths;
    const char *path;
    double count; /* of path */
    const char *err;
} cases[] = {
    {"a;b 10\na;c 5\n", 0, 2, "a;b", 10, NULL},
    {"a;b 10\r\n\na;b 2.5\r\n", 0, 1, "a;b", 12.5, NULL},
    {"operator new(unsigned long) 7\n", 0, 1, "operator new(unsigned long)", 7, NULL},
    {"", 0, 0, NULL, 0, NULL},
    {"a;b 1\nnocount\n", -1, 0, NULL, 0, "f.folded: line 2: expected \"path count\""},
    {"a;b x\n", -1, 0, NULL, 0, "f.folded: line 1: count 'x': expected a number >= 0"},
    {"a;b -3\n", -1, 0, NULL, 0, "f.folded: line 1: count '-3': expected a number >= 0"},
    {" 5\n", -1, 0, NULL, 0, "f.folded: line 1: expected \"path count\""},
};

int main(void)
{
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *o = NULL;
        char err[256] = "";
        int rc =
            flame_read_text(cases[i].text, strlen(cases[i].text), "f.folded", &o, err, sizeof(err));

        CHECK_MSG(rc == cases[i].rc, "case %zu: rc %d", i, rc);
        if (rc == 0) {
            CHECK_MSG(json_object_size(o) == cases[i].paths, "case %zu: %zu paths", i,
                      json_object_size(o));
            if (cases[i].path)
                CHECK_MSG(fabs(json_number_value(json_object_get(o, cases[i].path)) -
                               cases[i].count) < 1e-9,
                          "case %zu", i);
        } else {
            CHECK_MSG(o == NULL, "case %zu: an object on error", i);
            CHECK_STR(err, cases[i].err);
        }
        json_decref(o);
    }
    return T_DONE();
}
