/* report_md_env: the closing sections of the Markdown report, shared by every layout: the
 * measurement environment (meta.environment, driver_build, settings), the versions, the
 * provenance table (dataset and measured-source SHA-256) and the exact command to reproduce.
 * Whatever meta.json lacks is printed as "unknown" so older datasets still render. */
#include <stdlib.h>
#include <string.h>

#include "report/report_md_int.h"
#include "report/sentences.h"

#include "util/jobs_util.h"

static const json_t *mget(const json_t *o, const char *k)
{
    return json_is_object(o) ? json_object_get(o, k) : NULL;
}

void md_json(const struct md *m, const json_t *v)
{
    size_t i;
    const char *k;
    const json_t *x;
    int first = 1;

    if (!v || json_is_null(v) || (json_is_string(v) && !*json_string_value(v))) {
        md_put(m, md_t(m, M_UNKNOWN));
    } else if (json_is_string(v)) {
        md_cell(m, json_string_value(v));
    } else if (json_is_integer(v)) {
        fprintf(m->f, "%lld", (long long)json_integer_value(v));
    } else if (json_is_real(v)) {
        fprintf(m->f, "%g", json_real_value(v));
    } else if (json_is_boolean(v)) {
        md_put(m, md_t(m, json_is_true(v) ? M_YES : M_NO));
    } else if (json_is_array(v)) {
        if (json_array_size(v) == 0)
            md_put(m, md_t(m, M_NONE));
        json_array_foreach(v, i, x)
        {
            if (i)
                md_put(m, " / ");
            md_json(m, x);
        }
    } else if (json_is_object(v)) {
        if (json_object_size(v) == 0)
            md_put(m, md_t(m, M_NONE));
        json_object_foreach((json_t *)v, k, x)
        {
            if (!first)
                md_put(m, ", ");
            first = 0;
            md_cell(m, k);
            md_put(m, " ");
            md_json(m, x);
        }
    }
}

static void row_begin(const struct md *m, enum i18n_msg item)
{
    md_put(m, "| ");
    md_put(m, md_t(m, item));
    md_put(m, " | ");
}

static void env_row(const struct md *m, enum i18n_msg item, const json_t *v)
{
    row_begin(m, item);
    md_json(m, v);
    md_put(m, " |\n");
}

/* The first element of a load average (array [1, 5, 15] or a plain number). */
static void load1(const struct md *m, const json_t *v)
{
    if (json_is_array(v))
        v = json_array_get(v, 0);
    if (json_is_number(v))
        md_put(m, num_fixed(json_number_value(v), 2).s);
    else
        md_put(m, md_t(m, M_UNKNOWN));
}

/* o's values at keys[i][0] by md_json, each followed by the text keys[i][1]. */
static void json_seq(const struct md *m, const json_t *o, const char *const (*keys)[2], size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        md_json(m, mget(o, keys[i][0]));
        md_put(m, keys[i][1]);
    }
}

/* "| item | v |", v written by md_json, or "none" when absent or null. */
static void env_row_or_none(const struct md *m, const json_t *v)
{
    if (v && !json_is_null(v))
        md_json(m, v);
    else
        md_put(m, md_t(m, M_NONE));
}

/* The machine: interval, machine, CPU, cores, memory, OS, kernel, governor, idle, load. */
static void env_machine(const struct md *m)
{
    const json_t *meta = m->meta, *env = m->model->env.env, *v;

    row_begin(m, M_ENV_INTERVAL);
    md_json(m, mget(meta, "started"));
    md_put(m, " – ");
    md_json(m, mget(meta, "ended"));
    md_put(m, " |\n");
    env_row(m, M_ENV_MACHINE, mget(env, "machine"));
    row_begin(m, M_ENV_CPU);
    md_json(m, mget(env, "cpu_model"));
    if ((v = mget(env, "cpu_id")) != NULL) { /* a model name may cover several generations */
        md_put(m, " (");
        md_json(m, v);
        md_put(m, ")");
    }
    md_put(m, " |\n");
    row_begin(m, M_ENV_CORES);
    md_json(m, mget(env, "cores_physical"));
    md_put(m, " / ");
    md_json(m, mget(env, "cores_logical"));
    md_put(m, " |\n");
    row_begin(m, M_ENV_MEMORY);
    v = mget(env, "memory_bytes");
    if (json_is_number(v))
        fprintf(m->f, "%s GiB", num_fixed(json_number_value(v) / (1024.0 * 1024 * 1024), 1).s);
    else
        md_put(m, md_t(m, M_UNKNOWN));
    md_put(m, " |\n");
    env_row(m, M_ENV_OS, mget(env, "os"));
    env_row(m, M_ENV_KERNEL, mget(env, "kernel"));
    env_row(m, M_ENV_GOVERNOR, mget(env, "governor"));
    if ((v = mget(env, "cpuidle")) != NULL) { /* not in runs made before it was recorded */
        row_begin(m, M_ENV_CPUIDLE);
        md_json(m, v);
        if (mget(env, "guest_halt_poll_ns")) {
            md_put(m, " (guest_halt_poll_ns ");
            md_json(m, mget(env, "guest_halt_poll_ns"));
            md_put(m, ")");
        }
        md_put(m, " |\n");
    }
    row_begin(m, M_ENV_LOAD);
    load1(m, m->model->env.load_start);
    md_put(m, " → ");
    load1(m, m->model->env.load_end);
    md_put(m, " |\n");
}

/* The build: pinning, compiler and flags, libraries, pairbench's version. */
static void env_build(const struct md *m)
{
    const struct model_env *e = &m->model->env;
    size_t i;
    int any = 0;

    row_begin(m, M_ENV_PINNING);
    env_row_or_none(m, mget(e->settings, "pin_driver"));
    md_put(m, " / ");
    env_row_or_none(m, mget(e->settings, "pin_server"));
    md_put(m, " |\n");
    row_begin(m, M_ENV_COMPILER);
    md_json(m, e->cc);
    if (json_is_string(e->cflags) && *json_string_value(e->cflags)) {
        md_put(m, ", `");
        md_cell(m, json_string_value(e->cflags));
        md_put(m, "`");
    }
    md_put(m, " |\n");
    row_begin(m, M_ENV_LIBS);
    if (json_is_object(e->build)) {
        for (i = 0; i < MODEL_N_LIBS; i++) {
            if (!e->lib[i])
                continue;
            fprintf(m->f, "%s%s ", any ? ", " : "", model_lib_keys[i]);
            md_json(m, e->lib[i]);
            any = 1;
        }
        if (!any)
            md_put(m, md_t(m, M_UNKNOWN));
    } else {
        md_json(m, e->libs);
    }
    md_put(m, " |\n");
    env_row(m, M_ENV_PAIRBENCH, mget(mget(m->meta, "pairbench"), "version"));
}

/* The run: settings, configurations, grids, spec, shard, network and scope. */
static void env_run(const struct md *m)
{
    static const char *const setting_keys[][2] = {
        {"warmup", " s / "}, {"duration", " s / "}, {"runs", " / "}, {"grace", " s |\n"}};
    const json_t *settings = m->model->env.settings, *grids = mget(m->meta, "grids"), *g, *v;
    size_t i;
    char n[32], *apart;

    row_begin(m, M_ENV_SETTINGS);
    json_seq(m, settings, setting_keys, 4);
    row_begin(m, M_ENV_CONFIGS);
    fprintf(m->f, "%zu |\n", m->nrows);
    row_begin(m, M_ENV_GRIDS);
    if (json_array_size(grids) == 0)
        md_put(m, md_t(m, M_UNKNOWN));
    json_array_foreach(grids, i, g)
    {
        md_put(m, i ? ", `" : "`");
        md_cell(m, ju_str(g, "file", ju_str(g, "name", "?")));
        md_put(m, "`");
    }
    md_put(m, " |\n");
    env_row(m, M_ENV_SPEC, mget(m->meta, "spec_file"));
    v = mget(settings, "shard");
    if (v && !json_is_null(v))
        env_row(m, M_ENV_SHARD, v);
    row_begin(m, M_ENV_NETWORK);
    if ((apart = sent_server_host(m->meta, m->lang)) != NULL)
        md_cell(m, apart);
    else
        md_put(m, md_t(m, M_ENV_NETWORK_V));
    free(apart);
    md_put(m, " |\n");
    row_begin(m, M_ENV_SCOPE);
    snprintf(n, sizeof(n), "%zu", m->nrows);
    md_tmpl(m, md_t(m, mget(m->meta, "server_host") ? M_ENV_SCOPE_APART_V : M_ENV_SCOPE_V), n,
            MD_END);
    md_put(m, " |\n\n");
}

static void environment(const struct md *m)
{
    fprintf(m->f, "## %s\n\n| %s | %s |\n|---|---|\n", md_t(m, M_H_ENVIRONMENT),
            md_t(m, M_COL_ITEM), md_t(m, M_COL_VALUE));
    env_machine(m);
    env_build(m);
    env_run(m);
}

static void versions(const struct md *m)
{
    static const char *const version_keys[][2] = {
        {"ref", " | "}, {"commit", " | "}, {"driver", " | "}};
    const json_t *vs = mget(m->meta, "versions"), *v;
    size_t i;

    fprintf(m->f, "## %s\n\n| %s | %s | %s | %s | %s | %s |\n|---|---|---|---|---|---|\n",
            md_t(m, M_H_VERSIONS), md_t(m, M_COL_VERSION), md_t(m, M_COL_REF),
            md_t(m, M_COL_COMMIT), md_t(m, M_COL_DRIVER), md_t(m, M_COL_SERVER),
            md_t(m, M_COL_SERVER_VERSION));
    if (json_array_size(vs) == 0) {
        /* no meta: at least the names from the summary */
        json_array_foreach(m->versions, i, v)
        {
            md_put(m, "| `");
            md_cell(m, json_string_value(v));
            fprintf(m->f, "` | %s | %s | %s | %s | %s |\n", md_t(m, M_UNKNOWN), md_t(m, M_UNKNOWN),
                    md_t(m, M_UNKNOWN), md_t(m, M_UNKNOWN), md_t(m, M_UNKNOWN));
        }
    }
    json_array_foreach(vs, i, v)
    {
        const json_t *server = mget(v, "server");

        md_put(m, "| `");
        md_cell(m, ju_str(v, "name", "?"));
        md_put(m, "` | ");
        json_seq(m, v, version_keys, 3);
        if (!server || json_is_null(server) ||
            (json_is_object(server) && json_object_size(server) == 0))
            md_put(m, md_t(m, M_NONE));
        else if (json_is_object(server)) {
            const char *proto;
            const json_t *cmd;
            int first = 1;

            json_object_foreach((json_t *)server, proto, cmd)
            {
                fprintf(m->f, "%s%s: `", first ? "" : "; ", proto);
                md_cell(m, json_is_string(cmd) ? json_string_value(cmd) : "?");
                md_put(m, "`");
                first = 0;
            }
        } else
            md_json(m, server);
        md_put(m, " | ");
        md_json(m, mget(v, "server_version"));
        md_put(m, " |\n");
    }
    md_put(m, "\n");
}

static void provenance(const struct md *m)
{
    const json_t *ds = mget(m->summary, "dataset"), *g, *src;
    const json_t *grids = mget(m->meta, "grids"), *sources = mget(m->meta, "sources");
    size_t i;

    fprintf(m->f, "## %s\n\n", md_t(m, M_H_PROVENANCE));
    md_tmpl(m, md_t(m, M_PROV_DATASET), ju_str(ds, "file", "runs.jsonl"),
            ju_str(ds, "sha256", md_t(m, M_UNKNOWN)), MD_END);
    if (json_is_true(mget(ds, "matches"))) {
        md_put(m, md_t(m, M_SENT_SEP));
        md_put(m, md_t(m, M_PROV_DATASET_OK));
    } else if (json_is_false(mget(ds, "matches"))) {
        md_put(m, md_t(m, M_SENT_SEP));
        md_put(m, "**");
        md_tmpl(m, md_t(m, M_PROV_DATASET_BAD), ju_str(ds, "recorded_sha256", "?"), MD_END);
        md_put(m, "**");
    }
    md_put(m, "\n\n");
    if (json_array_size(sources) == 0) {
        md_put(m, md_t(m, M_PROV_NONE));
        md_put(m, "\n\n");
    }
    if (json_array_size(sources) == 0 && json_array_size(grids) == 0)
        return;
    fprintf(m->f, "| %s | %s |\n|---|---|\n", md_t(m, M_COL_SOURCE), md_t(m, M_COL_SHA));
    json_array_foreach(sources, i, src)
    {
        md_put(m, "| `");
        md_cell(m, ju_str(src, "path", "?"));
        md_put(m, "` | `");
        md_cell(m, ju_str(src, "sha256", md_t(m, M_UNKNOWN)));
        md_put(m, "` |\n");
    }
    json_array_foreach(grids, i, g)
    {
        md_put(m, "| ");
        md_tmpl(m, md_t(m, M_PROV_GRID), ju_str(g, "file", ju_str(g, "name", "?")), MD_END);
        md_put(m, " | `");
        md_cell(m, ju_str(g, "sha256", md_t(m, M_UNKNOWN)));
        md_put(m, "` |\n");
    }
    md_put(m, "\n");
}

/* One word for a POSIX shell: as it is when it is plainly safe, else single-quoted. */
static void shell_word(const struct md *m, const char *w)
{
    const char *p;
    int safe = *w != '\0';

    for (p = w; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-", *p))
            safe = 0;
    if (safe) {
        md_put(m, w);
        return;
    }
    fputc('\'', m->f);
    for (p = w; *p; p++) {
        if (*p == '\'')
            md_put(m, "'\\''");
        else
            fputc(*p, m->f);
    }
    fputc('\'', m->f);
}

static void reproduce(const struct md *m)
{
    const json_t *cl = mget(m->meta, "command_line"), *w;
    size_t i;

    fprintf(m->f, "## %s\n\n", md_t(m, M_H_REPRODUCE));
    if (json_array_size(cl) == 0) {
        md_put(m, md_t(m, M_REPRO_UNKNOWN));
        md_put(m, "\n\n");
    } else {
        md_tmpl(m, md_t(m, M_REPRO_CMD), ju_str(m->meta, "cwd", md_t(m, M_UNKNOWN)), MD_END);
        md_put(m, "\n\n```sh\n");
        /* a command line recorded from the subcommand on ("run", "--spec", ...) */
        w = json_array_get(cl, 0);
        if (!json_is_string(w) || !strstr(json_string_value(w), "compare"))
            md_put(m, "bin/compare ");
        json_array_foreach(cl, i, w)
        {
            if (i)
                md_put(m, " ");
            shell_word(m, json_is_string(w) ? json_string_value(w) : "?");
        }
        md_put(m, "\n```\n\n");
    }
    md_put(m, md_t(m, M_REPRO_RENDER));
    md_put(m, "\n\n```sh\n");
    /* the program as the run invoked it (older datasets: bin/compare, as they printed) */
    w = json_array_get(cl, 0);
    shell_word(m, json_is_string(w) && strstr(json_string_value(w), "compare")
                      ? json_string_value(w)
                      : "bin/compare");
    md_put(m, " report ");
    md_put(m, md_t(m, M_RUN_DIR));
    md_put(m, "\n```\n");
}

void md_env_sections(const struct md *m)
{
    environment(m);
    versions(m);
    provenance(m);
    reproduce(m);
}
