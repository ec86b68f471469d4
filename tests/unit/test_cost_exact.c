/* cost_exact: which server programs can run with the interposer (a static binary and a setuid
 * program cannot: the reason names them), and that the interposer is found beside the
 * program when this build made it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/cost_exact.h"
#include "t.h"

int main(void)
{
    static const struct {
        const char *prog; /* skipped when absent */
        const char *want; /* a part of the reason, or "" for none */
    } cases[] = {
        {"sh", ""},                              /* dynamic, found in PATH */
        {"/sbin/ldconfig", "statically linked"}, /* Debian's is static-pie */
        {"/bin/su", "is setuid"},
        {"/no/such/program", ""}, /* left to the start, which names it */
    };
    char why[600], lib[4200];
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (cases[i].prog[0] == '/' && access(cases[i].prog, F_OK) != 0 &&
            strcmp(cases[i].prog, "/no/such/program") != 0) {
            printf("skipped: %s is not installed\n", cases[i].prog);
            continue;
        }
        cost_exact_check_program(cases[i].prog, why, sizeof(why));
        if (!cases[i].want[0])
            CHECK_STR(why, "");
        else
            CHECK_MSG(strstr(why, cases[i].want) != NULL, "%s: '%s'", cases[i].prog, why);
    }
    /* PAIRBENCH_SEED_LIB names the interposer; a missing one is an error naming it */
    setenv("PAIRBENCH_SEED_LIB", "/no/such/lib.so", 1);
    CHECK(cost_exact_find_lib(lib, sizeof(lib), why, sizeof(why)) < 0);
    CHECK(strstr(why, "/no/such/lib.so") != NULL);
    setenv("PAIRBENCH_SEED_LIB", "/bin/sh", 1);
    CHECK(cost_exact_find_lib(lib, sizeof(lib), why, sizeof(why)) == 0);
    CHECK_STR(lib, "/bin/sh");
    return T_DONE();
}
