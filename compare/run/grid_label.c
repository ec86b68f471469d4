/* Row labels name every axis that varies: the keys grid_config_label() leaves out (host,
 * port, certificates, timeouts, server threads, warm-up, duration) are appended as
 * "key value" to the labels of a grid's configurations when an axis of that grid varies them.
 * Also what a percentage "rate" says, a size in words and the label of one configuration
 * (grid_config_label). Pure logic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/grid.h"

#include "util/jobs_util.h"

/* The keys grid_config_label() always shows when they matter. */
static int label_shows(const char *key)
{
    static const char *const shown[] = {
        "protocol",     "transport",   "command",  "payload",      "pipeline", "window",
        "workers",      "connections", "path",     "http_version", "method",   "resp",
        "auth",         "keyspace",    "requests", "serve",        "commands", "delay_us",
        "busy_poll_us", "insecure",    "rate",     "arrival"};
    size_t i;

    for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
        if (strcmp(key, shown[i]) == 0)
            return 1;
    return 0;
}

static void append_key(struct grid_config *c, const char *key)
{
    const json_t *v = json_object_get(c->params, key);
    char val[80];
    size_t n = strlen(c->label);

    if (!v)
        return;
    if (json_is_string(v))
        snprintf(val, sizeof(val), "%s", json_string_value(v));
    else
        grid_show_value(v, val, sizeof(val));
    if (n < sizeof(c->label) - 1)
        snprintf(c->label + n, sizeof(c->label) - n, "%s%s %s", n ? " · " : "", key, val);
}

void grid_label_axes(struct grid_config *configs, size_t n, const char *const *axis_key,
                     json_t *const *axis_val, size_t n_axes)
{
    size_t a, i;

    for (a = 0; a < n_axes; a++) {
        if (json_array_size(axis_val[a]) < 2 || label_shows(axis_key[a]))
            continue;
        for (i = 0; i < n; i++)
            append_key(&configs[i], axis_key[a]);
    }
}

double grid_rate_percent(const json_t *v)
{
    const char *s = json_string_value(v);
    char *end = NULL;
    double d;

    if (!s)
        return 0;
    /* digits, an optional fraction, '%': no sign, exponent, spaces or hex */
    if (!(s[0] >= '0' && s[0] <= '9') || strspn(s, "0123456789.") != strlen(s) - 1)
        return -1;
    d = strtod(s, &end);
    if (end != s + strlen(s) - 1 || *end != '%' || !isfinite(d) || d < 1 || d > 100)
        return -1;
    return d;
}

void grid_format_size(unsigned long long b, char *out, size_t outlen)
{
    if (b >= 1048576 && b % 1048576 == 0)
        snprintf(out, outlen, "%llu MiB", b / 1048576);
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(out, outlen, "%llu KiB", b / 1024);
    else
        snprintf(out, outlen, "%llu B", b);
}

static void add_part(char *out, size_t outlen, const char *part)
{
    size_t n = strlen(out);

    if (n >= outlen - 1)
        return;
    snprintf(out + n, outlen - n, "%s%s", n ? " · " : "", part);
}

void grid_config_label(const json_t *p, char *out, size_t outlen)
{
    char part[96];
    const char *proto = ju_str(p, "protocol", "?");
    const char *cmd = ju_str(p, "command", "ECHO");
    char cmdtext[160];
    int is_redis = strcmp(proto, "redis") == 0,
        is_web = !strcmp(proto, "http") || !strcmp(proto, "ws");
    long long conns = ju_int(p, "connections", 1), workers = ju_int(p, "workers", 1);

    out[0] = '\0';
    add_part(out, outlen, proto);
    if (strcmp(ju_str(p, "transport", "tcp"), "tls") == 0)
        add_part(out, outlen, "tls");
    if (is_redis) {
        grid_redis_label(p, cmdtext, sizeof(cmdtext));
        add_part(out, outlen, cmdtext);
    }
    if (!is_redis || strcmp(cmd, "ECHO") == 0 || strcmp(cmd, "SET") == 0 ||
        json_object_get(p, "payload")) {
        grid_format_size((unsigned long long)ju_int(p, "payload", 64), part, sizeof(part));
        add_part(out, outlen, part);
    }
    if (is_redis || ju_int(p, "pipeline", 1) != 1) {
        snprintf(part, sizeof(part), "pipeline%lld", ju_int(p, "pipeline", 1));
        add_part(out, outlen, part);
    }
    snprintf(part, sizeof(part), "window%lld", ju_int(p, "window", 1));
    add_part(out, outlen, part);
    if (workers > 1 && workers != conns) {
        snprintf(part, sizeof(part), "%lld workers", workers);
        add_part(out, outlen, part);
    }
    snprintf(part, sizeof(part), "%lld client%s", conns, conns == 1 ? "" : "s");
    add_part(out, outlen, part);
    if (is_web && strcmp(ju_str(p, "path", "/"), "/") != 0)
        add_part(out, outlen, ju_str(p, "path", "/"));
    if (is_web && strcmp(ju_str(p, "http_version", "1.1"), "2") == 0)
        add_part(out, outlen, "HTTP/2");
    if (is_web && strcmp(ju_str(p, "method", "GET"), "GET") != 0)
        add_part(out, outlen, ju_str(p, "method", "GET"));
    grid_http_label(p, part, sizeof(part));
    if (part[0])
        add_part(out, outlen, part);
    if (ju_int(p, "resp", 0) == 3)
        add_part(out, outlen, "RESP3");
    if (json_is_true(json_object_get(p, "auth")))
        add_part(out, outlen, "auth");
    if (json_object_get(p, "keyspace")) {
        snprintf(part, sizeof(part), "keyspace %lld", ju_int(p, "keyspace", 0));
        add_part(out, outlen, part);
    }
    if (json_object_get(p, "requests")) {
        snprintf(part, sizeof(part), "%lld requests", ju_int(p, "requests", 0));
        add_part(out, outlen, part);
    }
    if (json_is_true(json_object_get(p, "serve")))
        add_part(out, outlen, "colocated");
    if (ju_int(p, "delay_us", 0) > 0) {
        snprintf(part, sizeof(part), "delay %lld µs", ju_int(p, "delay_us", 0));
        add_part(out, outlen, part);
    }
    if (ju_int(p, "busy_poll_us", 0) > 0) {
        snprintf(part, sizeof(part), "busy-poll %lld µs", ju_int(p, "busy_poll_us", 0));
        add_part(out, outlen, part);
    }
    if (grid_rate_percent(json_object_get(p, "rate")) > 0) {
        snprintf(part, sizeof(part), "rate %g%% of saturation%s",
                 grid_rate_percent(json_object_get(p, "rate")),
                 strcmp(ju_str(p, "arrival", "uniform"), "poisson") == 0 ? " poisson" : "");
        add_part(out, outlen, part);
    }
    if (json_number_value(json_object_get(p, "rate")) > 0) {
        snprintf(part, sizeof(part), "rate %g/s%s", json_number_value(json_object_get(p, "rate")),
                 strcmp(ju_str(p, "arrival", "uniform"), "poisson") == 0 ? " poisson" : "");
        add_part(out, outlen, part);
    }
    if (json_is_true(json_object_get(p, "insecure")))
        add_part(out, outlen, "insecure");
}
