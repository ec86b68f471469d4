/* merge_shards: the engine of `compare merge --out DIR SHARD_DIR...` (cmd/merge.c parses
 * its argv): joins the run directories of `run --shard K/N` into one. The shards must come from the
 * same spec, versions, grids and settings (each shard ran every version on its own machine, so
 * every comparison inside a shard stays paired), hold disjoint configurations and together all N
 * shards. runs.jsonl files are concatenated in shard order, meta.json lists the union of the
 * configurations (stable index order) and the shards, and the reports are rendered from the merged
 * dataset. */
#ifndef PAIRBENCH_MERGE_SHARDS_H
#define PAIRBENCH_MERGE_SHARDS_H

#include <stddef.h>

#include <jansson.h>

#include "data/verify.h"

#define MERGE_MAX_SHARDS 256
#define MERGE_MAX_DATASET (1u << 30)

struct shard {
    const char *dir;
    struct verify_result vr;
    json_t *meta;
    char *runs;
    size_t runs_len;
    unsigned k, n;
};

/* What the command line asked for: the output directory and the shards, in order. */
struct merge_cli {
    const char *out_dir;
    int accept_modified, unverified;
    struct shard sh[MERGE_MAX_SHARDS];
    size_t n;
};

/* Checks the shards, writes the merged run directory cli->out_dir and renders its reports;
 * argv (argc words) is recorded as meta.json's "merged_by". Returns EXIT_OK, or EXIT_USAGE /
 * EXIT_HARNESS with the reason on stderr. */
int merge_shards(struct merge_cli *cli, int argc, char **argv);

#endif
