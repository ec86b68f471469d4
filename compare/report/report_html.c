/* report_html: report.html, one self-contained page (inline CSS and SVG, no script, no
 * external URL) with the summary, completeness, one chart per metric, the tables, the
 * environment, the provenance and the command to reproduce. English or Chinese. Everything
 * taken from the dataset is escaped; nothing depends on the time of rendering, so the same
 * summary and meta give the same bytes. The tables live in report_html_tables.c, the charts
 * in report_html_svg.c. */
#include "util/fmt.h"
#include "report/report_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/jobs_util.h"
#include "analysis/metrics.h"
#include "report/report_html_int.h"
#include "report/report_html_svg.h"

/* ---- shared helpers (report_html_int.h) ---- */

void html_esc(const struct html_ctx *c, const char *s)
{
    svg_escape(c->f, s);
}

void html_say(const struct html_ctx *c, enum i18n_msg id, ...)
{
    va_list ap;

    va_start(ap, id);
    i18n_vwrite(c->f, HT(c, id), ap);
    va_end(ap);
}

void html_text(const struct html_ctx *c, const char *s)
{
    int code = 0;
    char one[2] = {0, 0};

    for (; s && *s; s++) {
        if (*s == '`') {
            fputs(code ? "</code>" : "<code>", c->f);
            code = !code;
            continue;
        }
        one[0] = *s;
        escape_html(c->f, one);
    }
    if (code)
        fputs("</code>", c->f);
}

const json_t *html_values(const json_t *row, const char *metric, const char *version)
{
    const json_t *m = json_object_get(json_object_get(row, "metrics"), metric);

    return json_object_get(json_object_get(m, "values"), version);
}

const json_t *html_vs(const json_t *row, const char *metric, const char *version)
{
    const json_t *m = json_object_get(json_object_get(row, "metrics"), metric);

    return json_object_get(json_object_get(m, "vs_baseline"), version);
}

char *html_fmt_range(const json_t *values, double scale, int decimals, char *out, size_t len)
{
    char med[48], lo[48], hi[48];

    if (!json_is_object(values)) {
        snprintf(out, len, "%s", FMT_MISSING);
        return out;
    }
    /* the md writer's figures: the one formatter, the same missing mark */
    snprintf(out, len, "%s [%s\xe2\x80\x93%s]",
             fmt_fixed(ju_num(values, "median", NAN) / scale, decimals, med, sizeof(med)),
             fmt_fixed(ju_num(values, "min", NAN) / scale, decimals, lo, sizeof(lo)),
             fmt_fixed(ju_num(values, "max", NAN) / scale, decimals, hi, sizeof(hi)));
    return out;
}

char *html_fmt_change(double change, char *out, size_t len)
{
    return fmt_change(change, out, len);
}

/* How each verdict looks: its CSS class and its colour in the forest plot; the last entry
 * (no verdict, "~" or any other word) is the default. */
static const struct {
    const char *verdict, *css_class, *color;
} verdict_styles[] = {
    {"regressed", "v-regressed", "#c62828"},
    {"improved", "v-improved", "#2e7d32"},
    {"undecided", "v-undecided", "#d08c00"},
    {"failed", "v-failed", "#8a8a8a"},
    {NULL, "v-same", "#3a5f8f"},
};

static size_t verdict_style(const char *verdict)
{
    size_t i;

    for (i = 0; verdict_styles[i].verdict; i++)
        if (verdict && strcmp(verdict, verdict_styles[i].verdict) == 0)
            break;
    return i;
}

const char *html_verdict_class(const char *verdict)
{
    return verdict_styles[verdict_style(verdict)].css_class;
}

const char *html_verdict_color(const char *verdict)
{
    return verdict_styles[verdict_style(verdict)].color;
}

/* ---- the page ---- */

const char report_html_css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI','Noto Sans','Noto Sans CJK SC',"
    "'WenQuanYi Micro Hei',sans-serif;margin:0 auto;max-width:1280px;padding:16px 24px;"
    "color:#1b1b1b;line-height:1.45}\n"
    "h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.3em;border-bottom:1px solid #ddd;"
    "padding-bottom:.2em;margin-top:1.6em}h3{font-size:1.05em;margin:.2em 0}\n"
    ".method,.note{color:#444;font-size:.92em}\n"
    "table{border-collapse:collapse;font-size:.85em;margin:.6em 0}\n"
    "th,td{border:1px solid #d6d6d6;padding:3px 7px;text-align:left;vertical-align:top}\n"
    "th{background:#f2f4f7}td.n{text-align:right;white-space:nowrap;"
    "font-variant-numeric:tabular-nums}\n"
    ".wrap{overflow-x:auto}td:first-child{min-width:15em}.rg{display:block;color:#666;font-size:."
    "85em}\n"
    ".v-regressed{background:#fbe0de;color:#8f1111;font-weight:600}\n"
    ".v-improved{background:#dff2dc;color:#1d5e1d;font-weight:600}\n"
    ".v-undecided{background:#fff1c7;color:#6b5000}\n"
    ".v-failed{background:#e4e4e4;color:#555;font-weight:600}\n"
    "ul.weak{list-style:none;padding-left:0}\n"
    ".warn{background:#fff6dc;border-left:4px solid #e0a800;padding:4px 10px;margin:.3em 0}\n"
    "figure{margin:1em 0 1.6em 0}figcaption{margin-bottom:4px}\n"
    "svg.chart{display:block;max-width:100%;height:auto;font-size:11px}\n"
    "svg .gb{fill:#e9eef5}svg .gh{font-weight:600;font-size:12px;fill:#223}\n"
    "svg .zb{fill:#f7f7f7}svg .gl{stroke:#dedede;stroke-width:1}\n"
    "svg .ax{stroke:#888;stroke-width:1}svg .tk{font-size:10px;fill:#555}\n"
    "svg .al{font-size:11px;fill:#333}svg .rl{font-size:10.5px;fill:#222}\n"
    "svg .lg{font-size:12px;fill:#222}svg .wk{stroke:#222;stroke-width:1;fill:none}\n"
    "svg .fb{fill:#dfe6ee}svg .fi{stroke-width:2}svg .fl{font-size:10.5px;fill:#222}svg "
    ".flg{font-size:12px;fill:#222}svg .fh{font-weight:600;font-size:12px;fill:#223}\n"
    "svg .vl{font-size:9px;fill:#333}svg .na{font-size:10px;fill:#999;font-style:italic}\n"
    "code,pre{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.85em}\n"
    "pre{background:#f6f8fa;padding:8px 10px;overflow-x:auto;white-space:pre-wrap;"
    "word-break:break-all}\n"
    "footer{color:#777;font-size:.8em;margin-top:2em}\n"
    "nav.toc{font-size:.9em;margin:.4em 0}nav.toc a{color:#1f5fa8;text-decoration:none}\n"
    "details.full{margin:.3em 0 .8em 0}details.full>summary{cursor:pointer;color:#1f5fa8}\n"
    "th .u{white-space:nowrap}\n"
    /* a phone: a table wider than the screen scrolls inside itself, never the page */
    "@media (max-width:760px){body{padding:8px 10px}table{display:block;overflow-x:auto;"
    "max-width:100%}td:first-child{min-width:9em}code{overflow-wrap:anywhere}}\n"
    "@media print{details{display:block}details>summary{display:none}}\n";

/* The charts, in page order; titles and axes come from the metric table (metrics.h). */
static const char *const chart_keys[] = {"throughput",         "p50_us",      "p99_us",
                                         "cpu_percent",        "rss_mib",     "cpu_efficiency",
                                         "server_cpu_percent", "instructions"};
#define N_CHARTS (sizeof(chart_keys) / sizeof(chart_keys[0]))

static const char *pget(const json_t *row, const char *key)
{
    return ju_str(json_object_get(row, "params"), key, NULL);
}

const char *report_html_protocol_name(const char *p)
{
    static const char *const names[][2] = {
        {"redis", "Redis"}, {"tcp", "TCP echo"}, {"http", "HTTP"}, {"ws", "WebSocket"}};
    size_t i;

    for (i = 0; p && i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(p, names[i][0]) == 0)
            return names[i][1];
    return p;
}

static void fmt_bytes(json_int_t b, char *out, size_t len)
{
    if (b >= 1024 && b % 1024 == 0)
        snprintf(out, len, "%lld KiB", (long long)(b / 1024));
    else
        snprintf(out, len, "%lld B", (long long)b);
}

/* "Redis · TLS · 4 KiB" from the row's params; "" when it has none of them. */
static void group_name(const json_t *row, char *out, size_t len)
{
    const json_t *params = json_object_get(row, "params");
    const char *proto = report_html_protocol_name(ju_str(params, "protocol", NULL));
    const char *tr = ju_str(params, "transport", NULL);
    const json_t *pl = json_object_get(params, "payload");
    char pay[32] = "";
    size_t used = 0;
    int w;

    out[0] = '\0';
    if (json_is_integer(pl))
        fmt_bytes(json_integer_value(pl), pay, sizeof(pay));
    if (proto) {
        w = snprintf(out + used, len - used, "%s", proto);
        used += w > 0 && (size_t)w < len - used ? (size_t)w : 0;
    }
    if (tr) {
        w = snprintf(out + used, len - used, "%s%s", used ? " \xc2\xb7 " : "",
                     strcmp(tr, "tls") == 0   ? "TLS"
                     : strcmp(tr, "tcp") == 0 ? "TCP"
                                              : tr);
        used += w > 0 && (size_t)w < len - used ? (size_t)w : 0;
    }
    if (*pay)
        snprintf(out + used, len - used, "%s%s", used ? " \xc2\xb7 " : "", pay);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether params key has the same value (or is absent) in every row. */
static int key_constant(const struct html_ctx *c, const char *key)
{
    const json_t *v0 = json_object_get(json_object_get(json_array_get(c->rows, 0), "params"), key);
    size_t r;

    for (r = 1; r < c->nrows; r++) {
        const json_t *v =
            json_object_get(json_object_get(json_array_get(c->rows, r), "params"), key);
        if ((v0 == NULL) != (v == NULL) || (v0 && !json_equal((json_t *)v0, (json_t *)v)))
            return 0;
    }
    return 1;
}

/* The param keys (other than the grouping ones) whose values differ between rows — keys of
 * any row, so a key only some protocols have counts — with the usual grid axes first, then
 * the others sorted. Returns how many (at most cap). */
static size_t varying_keys(const struct html_ctx *c, const char **keys, size_t cap)
{
    static const char *const first[] = {"command",      "pipeline", "window",
                                        "connections",  "workers",  "resp",
                                        "http_version", "path",     "keyspace"};
    const char *rest[64] = {NULL}, *constant[64] = {NULL};
    size_t n = 0, nrest = 0, nconst = 0, i, k, r;
    const char *key;
    const json_t *val;

    for (i = 0; i < sizeof(first) / sizeof(first[0]) && n < cap; i++)
        if (!key_constant(c, first[i]))
            keys[n++] = first[i];
    for (r = 0; r < c->nrows; r++) {
        json_object_foreach(json_object_get(json_array_get(c->rows, r), "params"), key, val)
        {
            int seen = 0;

            (void)val;
            if (!strcmp(key, "protocol") || !strcmp(key, "transport") || !strcmp(key, "payload") ||
                !strcmp(key, "host") || !strcmp(key, "port"))
                continue;
            for (i = 0; i < sizeof(first) / sizeof(first[0]); i++)
                seen |= strcmp(key, first[i]) == 0;
            for (k = 0; k < nrest; k++)
                seen |= strcmp(key, rest[k]) == 0;
            for (k = 0; k < nconst; k++) /* asked once per key, not once per row */
                seen |= strcmp(key, constant[k]) == 0;
            if (seen || nrest >= 64)
                continue;
            if (!key_constant(c, key))
                rest[nrest++] = key;
            else if (nconst < 64)
                constant[nconst++] = key;
        }
    }
    qsort(rest, nrest, sizeof(rest[0]), cmp_str);
    for (i = 0; i < nrest && n < cap; i++)
        keys[n++] = rest[i];
    return n;
}

/* A short label from the varying params ("pipeline16 · window1 · 4 clients"); the full
 * label when nothing varies or the row has no params. */
static void short_label(const struct html_ctx *c, const json_t *row, const char **keys,
                        size_t nkeys, char *out, size_t len)
{
    const json_t *params = json_object_get(row, "params");
    size_t used = 0, i;
    char val[96];
    int w;

    out[0] = '\0';
    for (i = 0; i < nkeys && params; i++) {
        const json_t *v = json_object_get(params, keys[i]);
        const char *k = keys[i];

        if (!v)
            continue;
        if (json_is_integer(v))
            snprintf(val, sizeof(val), "%lld", (long long)json_integer_value(v));
        else if (json_is_real(v))
            snprintf(val, sizeof(val), "%g", json_real_value(v));
        else if (json_is_string(v))
            snprintf(val, sizeof(val), "%s", json_string_value(v));
        else if (json_is_boolean(v) && json_is_true(v))
            snprintf(val, sizeof(val), "%s", "on");
        else
            continue; /* a switch that is off says nothing worth the room */
        if (json_is_boolean(v))
            w = snprintf(out + used, len - used, "%s%s", used ? " \xc2\xb7 " : "",
                         !strcmp(k, "serve") ? HT(c, H_COLOCATED) : k);
        else if (!strcmp(k, "pipeline") || !strcmp(k, "window"))
            w = snprintf(out + used, len - used, "%s%s%s", used ? " \xc2\xb7 " : "", k, val);
        else if (!strcmp(k, "connections"))
            w = snprintf(out + used, len - used, "%s%s%s", used ? " \xc2\xb7 " : "", val,
                         HT(c, H_CLIENTS));
        else if (!strcmp(k, "workers"))
            w = snprintf(out + used, len - used, "%s%s%s", used ? " \xc2\xb7 " : "", val,
                         strcmp(val, "1") == 0 ? HT(c, H_WORKER) : HT(c, H_WORKERS));
        else if (!strcmp(k, "command"))
            w = snprintf(out + used, len - used, "%s%s", used ? " \xc2\xb7 " : "", val);
        else if (!strcmp(k, "resp"))
            w = snprintf(out + used, len - used, "%sRESP%s", used ? " \xc2\xb7 " : "", val);
        else
            w = snprintf(out + used, len - used, "%s%s=%s", used ? " \xc2\xb7 " : "", k, val);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
    if (!used)
        snprintf(out, len, "%s", ju_str(row, "label", NULL) ? ju_str(row, "label", NULL) : "?");
}

/* The throughput unit for the axis, from the protocols present. */
static const char *throughput_unit(const struct html_ctx *c)
{
    size_t r, redis = 0, other = 0;
    const char *unit = NULL;
    int same = 1;

    /* summary rows carry the driver's unit; one shared unit is the axis label */
    for (r = 0; r < c->nrows && same; r++) {
        const char *u = ju_str(json_array_get(c->rows, r), "unit", NULL);
        if (!u || (unit && strcmp(unit, u) != 0))
            same = 0;
        unit = u;
    }
    if (same && unit) {
        if (strcmp(unit, "commands/s") == 0)
            return HT(c, H_UNIT_COMMANDS);
        if (strcmp(unit, "round trips/s") == 0)
            return HT(c, H_UNIT_TRIPS);
        return unit;
    }
    for (r = 0; r < c->nrows; r++) {
        const char *p = pget(json_array_get(c->rows, r), "protocol");
        if (p && strcmp(p, "redis") == 0)
            redis++;
        else
            other++;
    }
    if (redis && !other)
        return HT(c, H_UNIT_COMMANDS);
    if (other && !redis)
        return HT(c, H_UNIT_TRIPS);
    return HT(c, H_UNIT_MIXED);
}

int html_has_metric(const struct html_ctx *c, const char *metric)
{
    size_t r;

    for (r = 0; r < c->nrows; r++)
        if (json_object_get(json_object_get(json_array_get(c->rows, r), "metrics"), metric))
            return 1;
    return 0;
}

/* One chart per metric, the configurations grouped by protocol · transport · payload. */
static int charts(const struct html_ctx *c)
{
    struct svg_row *rows = NULL;
    struct svg_bar *bars = NULL;
    struct svg_group *groups = NULL;
    char(*labels)[160] = NULL, (*gnames)[96] = NULL;
    const char *keys[16];
    size_t nkeys, r, v, m, ngroups = 0;
    int rc = -1;

    rows = calloc(c->nrows + 1, sizeof(*rows));
    bars = calloc((c->nrows + 1) * c->nv, sizeof(*bars));
    groups = calloc(c->nrows + 1, sizeof(*groups));
    labels = calloc(c->nrows + 1, sizeof(*labels));
    gnames = calloc(c->nrows + 1, sizeof(*gnames));
    if (!rows || !bars || !groups || !labels || !gnames)
        goto out;
    nkeys = varying_keys(c, keys, 16);
    /* Rows keep the dataset's order; a new band starts whenever the group changes. */
    for (r = 0; r < c->nrows; r++) {
        const json_t *row = json_array_get(c->rows, r);

        group_name(row, gnames[r], sizeof(gnames[r]));
        short_label(c, row, keys, nkeys, labels[r], sizeof(labels[r]));
        rows[r].label = labels[r];
        rows[r].title = ju_str(row, "label", NULL);
        rows[r].bars = bars + r * c->nv;
        if (ngroups == 0 || strcmp(groups[ngroups - 1].name, gnames[r]) != 0) {
            groups[ngroups].name = gnames[r];
            groups[ngroups].first = r;
            groups[ngroups].count = 0;
            ngroups++;
        }
        groups[ngroups - 1].count++;
    }

    fprintf(c->f, "<section id=\"charts\">\n<h2>%s</h2>\n<p class=\"note\">%s</p>\n",
            HT(c, H_CHARTS), HT(c, H_CHARTS_NOTE));
    for (m = 0; m < N_CHARTS; m++) {
        const struct metric_def *d = metric_def_by_key(chart_keys[m]);
        struct svg_chart ch;
        const char *title = L(c, d->title_en, d->title_zh);

        if ((strcmp(d->key, "server_cpu_percent") == 0 || strcmp(d->key, "instructions") == 0) &&
            !html_has_metric(c, d->key))
            continue; /* only known when pairbench started the server */
        for (r = 0; r < c->nrows; r++)
            for (v = 0; v < c->nv; v++) {
                const json_t *val = html_values(json_array_get(c->rows, r), d->key, c->versions[v]);
                struct svg_bar *b = &rows[r].bars[v];

                b->present = ju_get_num(val, "median", &b->median) == 0 &&
                             ju_get_num(val, "min", &b->min) == 0 &&
                             ju_get_num(val, "max", &b->max) == 0;
            }
        memset(&ch, 0, sizeof(ch));
        ch.metric = d->key;
        ch.title = title;
        ch.axis_label = d->axis_en ? L(c, d->axis_en, d->axis_zh) : throughput_unit(c);
        ch.no_value = HT(c, H_NO_VALUE);
        ch.versions = c->versions;
        ch.nversions = c->nv;
        ch.rows = rows;
        ch.nrows = c->nrows;
        ch.groups = groups;
        ch.ngroups = ngroups;
        fprintf(c->f, "<figure id=\"chart-%s\">\n<figcaption><h3>", d->key);
        html_esc(c, title);
        fprintf(c->f, "</h3><span class=\"note\">%s \xc2\xb7 ",
                d->higher_better ? HT(c, H_HIGHER_BETTER) : HT(c, H_LOWER_BETTER));
        html_esc(c, ch.axis_label);
        fputs("</span></figcaption>\n", c->f);
        if (svg_chart_write(c->f, &ch) != 0)
            goto out;
        fputs("</figure>\n", c->f);
    }
    fputs("</section>\n", c->f);
    rc = 0;
out:
    free(rows);
    free(bars);
    free(groups);
    free(labels);
    free(gnames);
    return rc;
}

/* Links to the sections and to each chart: the page is long with many configurations. */
static void nav(const struct html_ctx *c)
{
    static const struct {
        const char *id;
        enum i18n_msg name;
    } sections[] = {{"summary", M_H_SUMMARY},           {"tables", H_NAV_TABLES},
                    {"completeness", M_H_COMPLETENESS}, {"charts", H_CHARTS},
                    {"environment", H_NAV_ENV},         {"provenance", H_NAV_PROVENANCE},
                    {"reproduce", M_H_REPRODUCE}};
    size_t i, m;

    fputs("<nav class=\"toc\">", c->f);
    for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
        fprintf(c->f, "%s<a href=\"#%s\">%s</a>", i ? " \xc2\xb7 " : "", sections[i].id,
                HT(c, sections[i].name));
        if (strcmp(sections[i].id, "charts") != 0)
            continue;
        fputs(HT(c, H_PAREN_OPEN), c->f);
        for (m = 0; m < N_CHARTS; m++) {
            const struct metric_def *d = metric_def_by_key(chart_keys[m]);

            if ((strcmp(d->key, "server_cpu_percent") == 0 ||
                 strcmp(d->key, "instructions") == 0) &&
                !html_has_metric(c, d->key))
                continue;
            fprintf(c->f, "%s<a href=\"#chart-%s\">%s</a>", m ? HT(c, M_LIST_SEP) : "", d->key,
                    L(c, d->title_en, d->title_zh));
        }
        fputs(HT(c, H_PAREN_CLOSE), c->f);
        if (c->model->n_series_rows > 0) /* report_html_series.c */
            fprintf(c->f, " \xc2\xb7 <a href=\"#series\">%s</a>", HT(c, M_SERIES_H));
    }
    fputs("</nav>\n", c->f);
}

static int write_page(const struct html_ctx *c, char *err, size_t errlen);

int report_html_write(FILE *f, const json_t *summary, const json_t *meta, const char *lang,
                      char *err, size_t errlen)
{
    return report_html_write_flame(f, summary, meta, NULL, lang, err, errlen);
}

int report_html_write_flame(FILE *f, const json_t *summary, const json_t *meta, const json_t *flame,
                            const char *lang, char *err, size_t errlen)
{
    struct html_ctx ctx;
    struct report_model model;
    const json_t *vs, *v;
    size_t i;
    int rc;

    memset(&ctx, 0, sizeof(ctx));
    ctx.f = f;
    ctx.zh = lang && strcmp(lang, "zh") == 0;
    ctx.summary = summary;
    ctx.meta = meta;
    ctx.flame = flame;
    if (!json_is_object(summary)) {
        snprintf(err, errlen, "report_html: summary: expected an object");
        return -1;
    }
    ctx.rows = json_object_get(summary, "rows");
    if (!json_is_array(ctx.rows)) {
        snprintf(err, errlen, "report_html: summary: 'rows': expected an array");
        return -1;
    }
    ctx.nrows = json_array_size(ctx.rows);
    for (i = 0; i < ctx.nrows && !ctx.server_cpu; i++)
        ctx.server_cpu = json_object_get(json_object_get(json_array_get(ctx.rows, i), "metrics"),
                                         "server_cpu_percent") != NULL;
    vs = json_object_get(summary, "versions");
    json_array_foreach((json_t *)vs, i, v)
    {
        if (!json_is_string(v)) {
            snprintf(err, errlen, "report_html: summary: 'versions[%zu]': expected a string", i);
            return -1;
        }
        if (ctx.nv < HTML_MAX_VERSIONS)
            ctx.versions[ctx.nv++] = json_string_value(v);
    }
    if (ctx.nv == 0) /* older summaries: take the names from meta.versions */
        json_array_foreach(json_object_get(meta, "versions"), i, v)
        {
            if (ju_str(v, "name", NULL) && ctx.nv < HTML_MAX_VERSIONS)
                ctx.versions[ctx.nv++] = ju_str(v, "name", NULL);
        }
    if (ctx.nv == 0) {
        snprintf(err, errlen, "report_html: summary: 'versions': expected at least one name");
        return -1;
    }
    if (report_model_build(&model, summary, meta) < 0) {
        snprintf(err, errlen, "report_html: out of memory");
        return -1;
    }
    ctx.model = &model;
    rc = write_page(&ctx, err, errlen);
    report_model_release(&model);
    return rc;
}

static int write_page(const struct html_ctx *c, char *err, size_t errlen)
{
    FILE *f = c->f;
    const json_t *meta = c->meta;
    size_t i;

    fprintf(f,
            "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>",
            c->zh ? "zh" : "en");
    fputs("pairbench: ", f);
    for (i = 0; i < c->nv; i++) {
        if (i)
            fputs(" vs ", f);
        html_esc(c, c->versions[i]);
    }
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", report_html_css);
    if (ju_str(json_object_get(c->summary, "dataset"), "modified", NULL)) {
        /* judged with --accept-modified: the first thing the page says */
        fputs("<p class=\"modified\" role=\"alert\"><strong>", f);
        html_esc(c, ju_str(json_object_get(c->summary, "dataset"), "modified", NULL));
        fputs("</strong></p>\n", f);
    }
    fputs("<header>\n<h1>", f);
    if (c->nv == 1) {
        fputs(HT(c, H_TITLE_ONE), f);
        html_esc(c, c->versions[0]);
    } else {
        fputs(HT(c, H_TITLE_CMP), f);
        for (i = 0; i < c->nv; i++) {
            if (i)
                fputs(" vs ", f);
            html_esc(c, c->versions[i]);
        }
    }
    fputs("</h1>\n<p class=\"method\">", f);
    {
        const json_t *st = json_object_get(meta, "settings");
        double runs = 5, warm = 1, dur = 5;
        char sr[32], sw[32], sd[32];

        ju_get_num(st, "runs", &runs);
        ju_get_num(st, "warmup", &warm);
        ju_get_num(st, "duration", &dur);
        snprintf(sr, sizeof(sr), "%.0f", runs);
        snprintf(sw, sizeof(sw), "%g", warm);
        snprintf(sd, sizeof(sd), "%g", dur);
        i18n_write(f, HT(c, c->nv > 1 ? H_METHOD : H_METHOD_ONE), sr, sw, sd, (const char *)NULL);
    }
    fputs("</p>\n", f);
    nav(c);
    fputs("</header>\n", f);

    fprintf(f, "<section id=\"summary\">\n<h2>%s</h2>\n", HT(c, M_H_SUMMARY));
    if (c->nv > 1)
        html_summary_multi(c);
    else
        html_summary_single(c);
    fputs("</section>\n", f);
    /* the answer first: what was decided, then the tables of changes; then how complete
     * the measurement was, the pictures, and the details */
    html_tables(c);
    html_completeness(c);
    html_steps(c);
    html_forest(c);
    if (charts(c) != 0) {
        snprintf(err, errlen, "report_html: out of memory or write error");
        return -1;
    }
    html_load(c);
    html_series(c);
    html_evidence(c);
    html_instructions(c);
    html_flame(c);
    html_full_cost(c);
    html_environment(c);
    html_provenance(c);
    html_reproduce(c);
    fputs("<footer>", f);
    fputs(HT(c, H_FOOTER), f);
    if (ju_str(json_object_get(meta, "pairbench"), "version", NULL)) {
        fputc(' ', f);
        html_esc(c, ju_str(json_object_get(meta, "pairbench"), "version", NULL));
    }
    fprintf(f, "%s</footer>\n</body>\n</html>\n", HT(c, M_PERIOD));
    if (ferror(f)) {
        snprintf(err, errlen, "report_html: write failed");
        return -1;
    }
    return 0;
}
