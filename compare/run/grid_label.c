/* Row labels name every axis that varies: the keys grid_config_label() leaves out (host,
 * port, certificates, timeouts, server threads, warm-up, duration) are appended as
 * "key value" to the labels of a grid's configurations when an axis of that grid varies them.
 * Also what a percentage "rate" says. Pure logic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/grid.h"

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
