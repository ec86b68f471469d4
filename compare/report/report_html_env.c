/* report_html_env: the closing sections of report.html — the measurement environment
 * (machine, CPU, cores, memory, OS, kernel, governor, load, pinning, compiler, libraries,
 * interval, rounds), the versions (refs, commits, server versions, commands), the provenance
 * (SHA-256 of the dataset, of the measured sources and of the grids) and the exact command
 * to reproduce the run, shell-quoted. Missing keys print "unknown". */
#include <stdlib.h>
#include <string.h>

#include "report/report_html_int.h"
#include "report/sentences.h"
#include "util/jobs_util.h"
#include "util/words.h"
#include "util/fmt.h"

/* "a, b, c" of a JSON array of numbers. */
static void num_list(const struct html_ctx *c, const json_t *arr)
{
    size_t i;
    const json_t *v;

    if (!json_is_array(arr)) {
        fputs(HT(c, M_UNKNOWN), c->f);
        return;
    }
    for (i = 0; i < json_array_size(arr); i++) {
        v = json_array_get(arr, i);
        fprintf(c->f, "%s%.2f", i ? ", " : "", json_number_value(v));
    }
}

static void env_row(const struct html_ctx *c, const char *label, const char *value)
{
    fputs("<tr><th>", c->f);
    html_esc(c, label);
    fputs("</th><td>", c->f);
    html_esc(c, value && *value ? value : HT(c, M_UNKNOWN));
    fputs("</td></tr>\n", c->f);
}

/* A scalar JSON value as text ("unknown" when absent). */
static const char *scalar(const json_t *v, char *buf, size_t len)
{
    if (json_is_string(v))
        return json_string_value(v);
    if (json_is_integer(v))
        snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, len, "%g", json_real_value(v));
    else if (json_is_boolean(v))
        snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no");
    else
        return NULL;
    return buf;
}

/* The machine: name, CPU, cores, memory, OS, kernel, architecture, governor, idle driver. */
/* Entry id of the string table filled with up to three figures ("%.0f", "%g", "%g") into
 * buf. */
static void env_fill(const struct html_ctx *c, char *buf, size_t len, enum i18n_msg id, double a,
                     double b, double d)
{
    char sa[32], sb[32], sd[32], *t;

    snprintf(sa, sizeof(sa), "%.0f", a);
    snprintf(sb, sizeof(sb), id == H_ENV_RUNS ? "%g" : "%.0f", b);
    snprintf(sd, sizeof(sd), "%g", d);
    t = i18n_fill(HT(c, id), sa, sb, sd, (const char *)NULL);
    snprintf(buf, len, "%s", t ? t : "");
    free(t);
}

static void env_machine(const struct html_ctx *c)
{
    const json_t *env = c->model->env.env;
    const char *model = ju_str(env, "cpu_model", NULL), *id = ju_str(env, "cpu_id", NULL);
    char buf[512];
    double x, y;

    env_row(c, HT(c, M_ENV_MACHINE), ju_str(env, "machine", NULL));
    /* the CPU's identity, where recorded: a model name may cover several generations */
    snprintf(buf, sizeof(buf), "%s%s%s%s", model ? model : HT(c, M_UNKNOWN), id ? " (" : "",
             id ? id : "", id ? ")" : "");
    env_row(c, HT(c, M_ENV_CPU), buf);
    if (ju_get_num(env, "cores_physical", &x) == 0 && ju_get_num(env, "cores_logical", &y) == 0)
        env_fill(c, buf, sizeof(buf), H_ENV_CORES, x, y, 0);
    else if (ju_get_num(env, "cores_logical", &y) == 0)
        env_fill(c, buf, sizeof(buf), H_ENV_CORES_LOGICAL, y, 0, 0);
    else
        buf[0] = '\0';
    env_row(c, HT(c, H_ENV_CPU_CORES), buf);
    if (ju_get_num(env, "memory_bytes", &x) == 0)
        snprintf(buf, sizeof(buf), "%.1f GiB", x / (1024.0 * 1024 * 1024));
    else
        buf[0] = '\0';
    env_row(c, HT(c, M_ENV_MEMORY), buf);
    env_row(c, HT(c, M_ENV_OS), ju_str(env, "os", NULL));
    env_row(c, HT(c, M_ENV_KERNEL), ju_str(env, "kernel", NULL));
    env_row(c, HT(c, H_ENV_ARCHITECTURE), ju_str(env, "arch", NULL));
    env_row(c, HT(c, H_ENV_CPU_FREQUENCY_GOVERNOR), ju_str(env, "governor", NULL));
    if (ju_str(env, "cpuidle", NULL)) { /* not in runs made before it was recorded */
        if (ju_get_num(env, "guest_halt_poll_ns", &x) == 0)
            snprintf(buf, sizeof(buf), "%s (guest_halt_poll_ns %.0f)", ju_str(env, "cpuidle", NULL),
                     x);
        else
            snprintf(buf, sizeof(buf), "%s", ju_str(env, "cpuidle", NULL));
        env_row(c, HT(c, M_ENV_CPUIDLE), buf);
    }
}

/* A pinning setting, or "not pinned". */
static void pin_row(const struct html_ctx *c, const char *label, const char *key)
{
    char b[64];
    const char *v = scalar(json_object_get(c->model->env.settings, key), b, sizeof(b));

    env_row(c, label, v ? v : HT(c, H_ENV_NOT_PINNED));
}

/* The placement and the build: affinity, pinning, load, compiler and flags, libraries. */
static void env_build(const struct html_ctx *c)
{
    static const char *const shown[MODEL_N_LIBS] = {"hiredis", "OpenSSL", "libcurl", "jansson"};
    const struct model_env *e = &c->model->env;
    const char *cc = json_string_value(e->cc), *cflags = json_string_value(e->cflags);
    char buf[512];
    size_t i, used = 0;
    int w;

    env_row(c, HT(c, H_ENV_CPU_AFFINITY), ju_str(e->env, "affinity", NULL));
    pin_row(c, HT(c, H_ENV_DRIVER_PINNED_TO_CPUS), "pin_driver");
    pin_row(c, HT(c, H_ENV_SERVER_PINNED_TO_CPUS), "pin_server");
    fprintf(c->f, "<tr><th>%s</th><td>", HT(c, H_ENV_LOAD_AVERAGE_AT_START));
    num_list(c, e->load_start);
    fputs(" / ", c->f);
    num_list(c, e->load_end);
    fputs("</td></tr>\n", c->f);
    snprintf(buf, sizeof(buf), "%s%s%s", cc ? cc : "", cflags ? ", " : "", cflags ? cflags : "");
    env_row(c, HT(c, H_ENV_COMPILER_AND_FLAGS), buf);
    buf[0] = '\0';
    for (i = 0; i < MODEL_N_LIBS; i++) {
        const char *ver = json_string_value(e->lib[i]);

        if (!ver)
            continue;
        w = snprintf(buf + used, sizeof(buf) - used, "%s%s %s", used ? ", " : "", shown[i], ver);
        if (w > 0 && (size_t)w < sizeof(buf) - used)
            used += (size_t)w;
    }
    env_row(c, HT(c, M_ENV_LIBS), buf);
    env_row(c, HT(c, H_ENV_DRIVER_BUILD), ju_str(e->build, "driver", NULL));
}

/* The run: interval, rounds, configurations, spec file. */
static void env_run(const struct html_ctx *c)
{
    const json_t *settings = c->model->env.settings;
    char buf[512];
    double runs = 0, warm = 0, dur = 0;

    snprintf(buf, sizeof(buf), "%s \xe2\x80\x93 %s",
             ju_str(c->meta, "started", NULL) ? ju_str(c->meta, "started", NULL) : "?",
             ju_str(c->meta, "ended", NULL) ? ju_str(c->meta, "ended", NULL) : "?");
    env_row(c, HT(c, H_ENV_MEASUREMENT_INTERVAL_UTC), buf);
    if (settings) {
        if (ju_get_num(settings, "runs", &runs) == 0 &&
            ju_get_num(settings, "warmup", &warm) == 0 &&
            ju_get_num(settings, "duration", &dur) == 0)
            env_fill(c, buf, sizeof(buf), H_ENV_RUNS, runs, warm, dur);
        else
            buf[0] = '\0';
        env_row(c, HT(c, H_ENV_ROUNDS), buf);
    }
    snprintf(buf, sizeof(buf), "%zu",
             json_array_size(json_object_get(c->meta, "configs"))
                 ? json_array_size(json_object_get(c->meta, "configs"))
                 : c->nrows);
    env_row(c, HT(c, M_ENV_CONFIGS), buf);
    env_row(c, HT(c, M_ENV_SPEC), ju_str(c->meta, "spec_file", NULL));
    {
        char *apart = sent_server_host(c->meta, c->zh ? "zh" : "en");
        if (apart) /* the page has said nothing of loopback: only the server host's row */
            env_row(c, HT(c, M_ENV_NETWORK), apart);
        free(apart);
    }
}

/* A version's server command(s): a string, {protocol: command}, or none. */
static void server_cell(const struct html_ctx *c, const json_t *srv)
{
    const char *key;
    const json_t *cmd;

    if (json_is_string(srv)) {
        fputs("<code>", c->f);
        html_esc(c, json_string_value(srv));
        fputs("</code>", c->f);
    } else if (json_object_size(srv)) {
        json_object_foreach((json_t *)srv, key, cmd)
        {
            fputs("<code>", c->f);
            html_esc(c, key);
            fputs(": ", c->f);
            html_esc(c, json_string_value(cmd));
            fputs("</code><br>", c->f);
        }
    } else {
        fputs(HT(c, H_ENV_NONE_DRIVER_SERVE_OR), c->f);
    }
}

/* text, or an em dash when absent, escaped. */
static void esc_or_dash(const struct html_ctx *c, const char *text)
{
    html_esc(c, text ? text : FMT_MISSING);
}

static void versions_table(const struct html_ctx *c)
{
    const json_t *v;
    char b[64];
    size_t i;

    fprintf(c->f,
            "<h3>%s</h3>\n<div class=\"wrap\"><table>\n<tr><th>%s</th><th>%s</th>"
            "<th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n",
            HT(c, M_H_VERSIONS), HT(c, M_COL_VERSION), HT(c, M_COL_REF), HT(c, M_COL_COMMIT),
            HT(c, M_COL_SERVER_VERSION), HT(c, M_COL_DRIVER), HT(c, H_ENV_SERVER_COMMAND));
    json_array_foreach(json_object_get(c->meta, "versions"), i, v)
    {
        fputs("<tr><td>", c->f);
        html_esc(c, ju_str(v, "name", NULL));
        if (i == 0 && c->nv > 1 &&
            strcmp(ju_str(v, "name", NULL) ? ju_str(v, "name", NULL) : "", "baseline") != 0)
            fputs(HT(c, H_ENV_BASELINE), c->f);
        fputs("</td><td>", c->f);
        esc_or_dash(c, ju_str(v, "ref", NULL));
        fputs("</td><td><code>", c->f);
        esc_or_dash(c, ju_str(v, "commit", NULL));
        fputs("</code></td><td>", c->f);
        esc_or_dash(c, scalar(json_object_get(v, "server_version"), b, sizeof(b)));
        fputs("</td><td><code>", c->f);
        html_esc(c, ju_str(v, "driver", NULL) ? ju_str(v, "driver", NULL) : "bin/driver");
        fputs("</code></td><td>", c->f);
        server_cell(c, json_object_get(v, "server"));
        fputs("</td></tr>\n", c->f);
    }
    fputs("</table></div>\n", c->f);
}

void html_environment(const struct html_ctx *c)
{
    fprintf(c->f, "<section id=\"environment\">\n<h2>%s</h2>\n<table>\n", HT(c, M_H_ENVIRONMENT));
    env_machine(c);
    env_build(c);
    env_run(c);
    fputs("</table>\n", c->f);
    versions_table(c);
    fputs("</section>\n", c->f);
}

/* A table row of o's strings at keys[0..n-1]; bit i of code puts cell i in <code>. */
static void keys_row(const struct html_ctx *c, const json_t *o, const char *const *keys, size_t n,
                     unsigned code)
{
    size_t i;

    fputs("<tr>", c->f);
    for (i = 0; i < n; i++) {
        fputs(code & (1u << i) ? "<td><code>" : "<td>", c->f);
        html_esc(c, ju_str(o, keys[i], NULL));
        fputs(code & (1u << i) ? "</code></td>" : "</td>", c->f);
    }
    fputs("</tr>\n", c->f);
}

void html_provenance(const struct html_ctx *c)
{
    static const char *const source_keys[] = {"path", "sha256"};
    static const char *const grid_keys[] = {"file", "name", "sha256"};
    const json_t *ds = json_object_get(c->meta, "dataset"), *s;
    char *t;
    size_t i;

    fprintf(c->f, "<section id=\"provenance\">\n<h2>%s</h2>\n<p>", HT(c, H_NAV_PROVENANCE));
    t = i18n_fill(HT(c, H_ENV_DATASET_SHA),
                  ju_str(ds, "file", NULL) ? ju_str(ds, "file", NULL) : "runs.jsonl",
                  ju_str(ds, "sha256", NULL) ? ju_str(ds, "sha256", NULL) : HT(c, M_UNKNOWN),
                  (const char *)NULL);
    html_text(c, t ? t : "");
    free(t);
    fputs("</p>\n", c->f);
    fprintf(c->f, "<div class=\"wrap\"><table>\n<tr><th>%s</th><th>SHA-256</th></tr>\n",
            HT(c, M_COL_SOURCE));
    json_array_foreach(json_object_get(c->meta, "sources"), i, s) keys_row(c, s, source_keys, 2, 3);
    if (!json_array_size(json_object_get(c->meta, "sources")))
        fprintf(c->f, "<tr><td colspan=\"2\">%s</td></tr>\n", HT(c, H_ENV_NONE_NAMED_BY_THE));
    fputs("</table></div>\n", c->f);
    if (json_array_size(json_object_get(c->meta, "grids"))) {
        fprintf(c->f, "<table>\n<tr><th>%s</th><th>%s</th><th>SHA-256</th></tr>\n",
                HT(c, H_ENV_GRID_FILE), HT(c, H_ENV_NAME));
        json_array_foreach(json_object_get(c->meta, "grids"), i, s) keys_row(c, s, grid_keys, 3, 5);
        fputs("</table>\n", c->f);
    }
    fputs("</section>\n", c->f);
}

void html_reproduce(const struct html_ctx *c)
{
    const json_t *argv = json_object_get(c->meta, "command_line"), *w;
    char buf[4096];
    size_t i;

    fprintf(c->f, "<section id=\"reproduce\">\n<h2>%s</h2>\n", HT(c, M_H_REPRODUCE));
    if (!json_array_size(argv)) {
        fprintf(c->f, "<p>%s</p>\n</section>\n", HT(c, M_REPRO_UNKNOWN));
        return;
    }
    if (ju_str(c->meta, "cwd", NULL)) {
        char *t = i18n_fill(HT(c, H_REPRO_CWD), ju_str(c->meta, "cwd", NULL), (const char *)NULL);

        fputs("<p>", c->f);
        html_text(c, t ? t : "");
        fputs("</p>\n", c->f);
        free(t);
    }
    fputs("<pre><code>", c->f);
    json_array_foreach((json_t *)argv, i, w)
    {
        if (i)
            fputc(' ', c->f);
        html_esc(c,
                 words_quote(json_string_value(w) ? json_string_value(w) : "", buf, sizeof(buf)));
    }
    fputs("</code></pre>\n</section>\n", c->f);
}
