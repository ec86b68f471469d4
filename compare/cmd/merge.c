/* compare merge --out DIR [--accept-modified] [--unverified] SHARD_DIR...: joins the run
 * directories of `run --shard K/N` into one. Here argv only; the engine is
 * run/merge_shards.c. */
#include <stdio.h>

#include "cmd/cmds.h"
#include "cmd/flags.h"
#include "run/merge_shards.h"

static int merge_flag(void *ctx, struct flags *f, int id)
{
    struct merge_cli *cli = ctx;

    if (id == 0)
        cli->out_dir = f->value;
    else if (id == 1)
        cli->accept_modified = 1;
    else if (id == 2)
        cli->unverified = 1;
    else if (cli->n >= MERGE_MAX_SHARDS)
        return flags_fail(f, "more than %d shard directories", MERGE_MAX_SHARDS);
    else
        cli->sh[cli->n++].dir = f->value;
    return 0;
}

static const char usage[] =
    "usage: compare merge --out DIR [--accept-modified] [--unverified] SHARD_DIR...\n"
    "  joins the run directories of `compare run --shard K/N` (all N of them) into one\n"
    "  run directory and renders its reports; each shard's runs.jsonl must be what its\n"
    "  meta.json recorded, unless --accept-modified (the merged reports then say so first);\n"
    "  a shard whose meta.json holds no dataset record needs --unverified (said first too)\n";

static const struct flag_def merge_flags[] = {
    {"--out", 1, 0}, {"--accept-modified", 0, 1}, {"--unverified", 0, 2}};
static const struct flags_cmd merge_cmd = {
    "compare merge", usage, {FLAGS_TABLE(merge_flags)}, 1, merge_flag};

int cmd_merge(int argc, char **argv)
{
    struct merge_cli cli = {0};
    int rc = flags_parse(&merge_cmd, &cli, argc, argv);

    if (rc >= 0)
        return rc;
    if (!cli.out_dir || cli.n == 0) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    return merge_shards(&cli, argc, argv);
}
