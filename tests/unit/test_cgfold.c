/* cgfold: folded stacks from callgrind arcs: a path's cost split by its function's self and
 * callee shares, recursion cut, the stacks sum to the total, the folded text format, and bad
 * input refused with its line. */
#include <stdlib.h>
#include <string.h>

#include "analysis/cgfold.h"
#include "t.h"

/* main (self 10) calls handle (incl 90: self 30, calls write 60 incl); handle recurses once
 * (an arc to itself, cut and counted in handle's frame) */
static const char text[] = "# callgrind format\n"
                           "positions: line\n"
                           "events: Ir Dr\n"
                           "fn=(1) main\n"
                           "0 10 1\n"
                           "cfn=(2) handle\n"
                           "calls=1 0\n"
                           "0 90 4\n"
                           "fn=(2)\n"
                           "+1 30\n"
                           "cfn=(3) write\n"
                           "calls=2 0\n"
                           "0 60\n"
                           "fn=(3)\n"
                           "* 60\n"
                           "totals: 100\n";

static double stack(const json_t *s, const char *k)
{
    return json_number_value(json_object_get(s, k));
}

int main(void)
{
    struct cgfold *f = cgfold_new();
    char err[256] = "";
    json_t *s;
    FILE *tmp;
    char buf[512] = "";
    size_t n;
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"events: Ir\n0 5\n", "line 2: a cost line before any \"fn=\""},
        {"events: Ir\nfn=(3)\n", "line 2: a name id used before it is defined"},
        {"fn=a\n0 5\n", "line 2: a cost line before \"events:\" names Ir"},
        {"events: Ir\nfn=a\ncalls=1 0\n0 4\n", "line 4: \"calls=\" without \"cfn=\""},
    };

    CHECK(f != NULL);
    CHECK(cgfold_parse(f, text, sizeof(text) - 1, "cg.1", err, sizeof(err)) == 0);
    CHECK(cgfold_total(f) == 100);
    s = cgfold_stacks(f, 0.5, 0);
    CHECK(s != NULL);
    CHECK(stack(s, "main") == 5);
    CHECK(stack(s, "main;handle") == 15);
    CHECK(stack(s, "main;handle;write") == 30);
    CHECK(json_object_size(s) == 3);
    tmp = tmpfile();
    CHECK(tmp && cgfold_write(s, tmp) == 0);
    if (tmp) {
        rewind(tmp);
        n = fread(buf, 1, sizeof(buf) - 1, tmp);
        buf[n] = '\0';
        fclose(tmp);
    }
    CHECK(strstr(buf, "main;handle;write 30\n") != NULL);
    CHECK(strstr(buf, "main 5\n") != NULL);
    json_decref(s);
    /* a path under min_cost is folded into its caller */
    s = cgfold_stacks(f, 1, 70);
    CHECK(s && stack(s, "main;handle") == 90 && !json_object_get(s, "main;handle;write"));
    json_decref(s);
    cgfold_free(f);
    for (n = 0; n < sizeof(bad) / sizeof(bad[0]); n++) {
        f = cgfold_new();
        err[0] = '\0';
        CHECK(cgfold_parse(f, bad[n].text, strlen(bad[n].text), "x", err, sizeof(err)) == -1);
        CHECK(strstr(err, bad[n].want) != NULL);
        if (!strstr(err, bad[n].want))
            fprintf(stderr, "got: %s\n", err);
        cgfold_free(f);
    }
    return T_DONE();
}
