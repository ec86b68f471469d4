/* Subcommands not built yet. Each one's owner deletes its stub here when its real
 * implementation lands in its own file; this file goes away when it is empty. */
#include <stdio.h>

#include "cmds.h"

static int pending(const char *name)
{
    fprintf(stderr, "compare: '%s' is not implemented yet\n", name);
    return EXIT_USAGE;
}

int cmd_commits(int argc, char **argv)
{
    (void)argc;
    return pending(argv[0]);
}
