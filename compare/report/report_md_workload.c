/* The report's workload section: for each row running a Redis template, a mix or a setup, the
 * full command text (labels shorten it), the setup's digest and key count per version, and a
 * mix's throughput and p99 per command per version (summary_workload.h). Nothing otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_md_int.h"

#include "util/jobs_util.h"

static const char *const builtins[] = {
    "ECHO", "PING",       "SET",        "GET",        "INCR",       "LPUSH", "RPUSH",
    "LPOP", "RPOP",       "SADD",       "HSET",       "SPOP",       "ZADD",  "ZPOPMIN",
    "MSET", "LRANGE_100", "LRANGE_300", "LRANGE_500", "LRANGE_600", NULL};

static int is_builtin(const json_t *cmd)
{
    size_t i;

    if (!json_is_string(cmd))
        return 0;
    for (i = 0; builtins[i]; i++)
        if (strcmp(builtins[i], json_string_value(cmd)) == 0)
            return 1;
    return 0;
}

static int row_has_workload(const json_t *row)
{
    const json_t *p = json_object_get(row, "params");
    const json_t *cmd = json_object_get(p, "command");

    return (cmd && !is_builtin(cmd)) || json_object_get(p, "commands") ||
           json_object_get(row, "setup") || json_object_get(row, "commands");
}

static void put_text(const struct md *m, const json_t *v)
{
    char *s = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

    md_put(m, "`");
    md_cell(m, s ? s : json_is_string(v) ? json_string_value(v) : "?");
    md_put(m, "`");
    free(s);
}

static void setup_lines(const struct md *m, const json_t *setup)
{
    size_t vi;

    for (vi = 0; vi < m->nv; vi++) {
        const json_t *s = json_object_get(setup, md_version(m, vi));

        if (!s)
            continue;
        fprintf(m->f, "- %s: %s ", md_version(m, vi), md_t(m, M_WL_SETUP_SHA));
        md_json(m, json_object_get(s, "sha256"));
        fprintf(m->f, ", %s ", md_t(m, M_WL_SETUP_KEYS));
        md_json(m, json_object_get(s, "keys"));
        md_put(m, "\n");
    }
    fprintf(m->f, "\n%s\n\n",
            md_t(m, json_is_true(json_object_get(setup, "same_data")) ? M_WL_SAME : M_WL_DIFF));
}

static void command_table(const struct md *m, const json_t *cmds)
{
    const json_t *base = json_object_get(cmds, m->base), *c;
    size_t vi, k;

    if (!json_is_array(base))
        return;
    fprintf(m->f, "| %s | %s |", md_t(m, M_WL_COL_CMD), md_t(m, M_WL_COL_WEIGHT));
    for (vi = 0; vi < m->nv; vi++)
        fprintf(m->f, " %s/s | p99 µs |", md_version(m, vi));
    md_put(m, "\n|---|---|");
    for (vi = 0; vi < m->nv; vi++)
        md_put(m, "---|---|");
    md_put(m, "\n");
    json_array_foreach(base, k, c)
    {
        md_put(m, "| ");
        put_text(m, json_object_get(c, "command"));
        md_put(m, " | ");
        md_json(m, json_object_get(c, "weight"));
        md_put(m, " |");
        for (vi = 0; vi < m->nv; vi++) {
            const json_t *e = json_array_get(json_object_get(cmds, md_version(m, vi)), k);

            fprintf(m->f, " %s | %s |", num_fixed(ju_num(e, "throughput", 0), 0).s,
                    num_fixed(ju_num(e, "p99_us", 0), 1).s);
        }
        md_put(m, "\n");
    }
    md_put(m, "\n");
}

void md_section_workloads(const struct md *m)
{
    const json_t *row;
    size_t i;
    int started = 0;

    json_array_foreach(m->rows, i, row)
    {
        const json_t *p = json_object_get(row, "params");

        if (!row_has_workload(row))
            continue;
        if (!started)
            fprintf(m->f, "## %s\n\n%s\n\n", md_t(m, M_H_WORKLOADS), md_t(m, M_WL_INTRO));
        started = 1;
        fprintf(m->f, "**%s**: ", md_row_label(row));
        if (json_object_get(p, "commands"))
            put_text(m, json_object_get(p, "commands"));
        else if (json_object_get(p, "command"))
            put_text(m, json_object_get(p, "command"));
        md_put(m, "\n\n");
        if (json_object_get(p, "setup")) {
            fprintf(m->f, "%s ", md_t(m, M_WL_SETUP));
            put_text(m, json_object_get(p, "setup"));
            md_put(m, "\n\n");
        }
        if (json_object_get(row, "setup"))
            setup_lines(m, json_object_get(row, "setup"));
        if (json_object_get(row, "commands"))
            command_table(m, json_object_get(row, "commands"));
    }
}
