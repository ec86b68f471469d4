/* opts: flags and --config parsing, validation and rendering, table-driven: good values
 * land in the right fields, bad ones fail with a message naming the flag/key and value. */
#include <stdlib.h>
#include <unistd.h>

#include "opts.h"
#include "t.h"

/* Parses a space-separated command line after the protocol word. */
static int parse_line(struct drv_opts *o, enum drv_mode mode, enum drv_proto proto,
                      const char *line, char *err, size_t errlen)
{
    char buf[1024], *argv[64], *p;
    int argc = 0;

    snprintf(buf, sizeof(buf), "%s", line);
    opts_defaults(o, mode, proto);
    for (p = buf; *p;) {
        while (*p == ' ')
            *p++ = '\0';
        if (!*p)
            break;
        argv[argc++] = p;
        while (*p && *p != ' ')
            p++;
    }
    err[0] = '\0';
    if (opts_parse(o, argc, argv, err, errlen) < 0)
        return -1;
    return opts_validate(o, err, errlen);
}

static const char *write_tmp(const char *text)
{
    static char path[64];
    FILE *f;

    snprintf(path, sizeof(path), "/tmp/test_opts.%d.json", (int)getpid());
    f = fopen(path, "w");
    if (!f)
        return NULL;
    fputs(text, f);
    fclose(f);
    return path;
}

int main(void)
{
    static const struct {
        enum drv_mode mode;
        enum drv_proto proto;
        const char *line;
        int rc;
        const char *msg1, *msg2; /* substrings the error must contain */
    } cases[] = {
        {MODE_CLIENT, PROTO_TCP, "", 0, NULL, NULL},
        {MODE_CLIENT, PROTO_TCP, "--connections 8 --workers 4 --pipeline 16 --window 4", 0, NULL,
         NULL},
        {MODE_CLIENT, PROTO_TCP, "--connections=8 --workers=2", 0, NULL, NULL},
        {MODE_CLIENT, PROTO_TCP, "--payload 4k --duration 0.5 --warmup 0", 0, NULL, NULL},
        {MODE_CLIENT, PROTO_REDIS, "--command lrange_100 --resp 3 --auth --keyspace 1000", 0, NULL,
         NULL},
        {MODE_CLIENT, PROTO_HTTP, "--http-version 2 --method post --path /x", 0, NULL, NULL},
        {MODE_CLIENT, PROTO_TCP, "--connections 0", -1, "'--connections'", "'0'"},
        {MODE_CLIENT, PROTO_TCP, "--connections 10001", -1, "'--connections'", "1..10000"},
        {MODE_CLIENT, PROTO_TCP, "--window abc", -1, "'--window'", "'abc'"},
        {MODE_CLIENT, PROTO_TCP, "--window=0", -1, "'--window'", "'0'"},
        {MODE_CLIENT, PROTO_TCP, "--pipeline 100001", -1, "'--pipeline'", "'100001'"},
        {MODE_CLIENT, PROTO_TCP, "--payload 65M", -1, "'--payload'", "'65M'"},
        {MODE_CLIENT, PROTO_TCP, "--payload 0", -1, "--payload", "'0'"},
        {MODE_CLIENT, PROTO_TCP, "--duration 0", -1, "'--duration'", "'0'"},
        {MODE_CLIENT, PROTO_TCP, "--duration 86401", -1, "'--duration'", "'86401'"},
        {MODE_CLIENT, PROTO_TCP, "--warmup -1", -1, "'--warmup'", "'-1'"},
        {MODE_CLIENT, PROTO_TCP, "--workers 2", -1, "--workers", "--connections"},
        {MODE_CLIENT, PROTO_TCP, "--bogus 1", -1, "unknown flag", "'--bogus'"},
        {MODE_CLIENT, PROTO_TCP, "--window", -1, "'--window'", "needs a value"},
        {MODE_CLIENT, PROTO_TCP, "--transport udp", -1, "'--transport'", "'udp'"},
        {MODE_CLIENT, PROTO_TCP, "--command GET", -1, "'--command'", "'driver redis'"},
        {MODE_CLIENT, PROTO_REDIS, "--resp 4", -1, "'--resp'", "'4'"},
        {MODE_CLIENT, PROTO_HTTP, "--path nope", -1, "'--path'", "'nope'"},
        {MODE_CLIENT, PROTO_HTTP, "--method TRACE", -1, "'--method'", "'TRACE'"},
        {MODE_CLIENT, PROTO_HTTP, "--method PUT --body x --paths [{\"path\":\"/a\"}]", 0, NULL,
         NULL},
        {MODE_CLIENT, PROTO_HTTP, "--http-version 2 --method PUT", -1, "'2'", "not yet"},
        {MODE_CLIENT, PROTO_TCP, "--headers {}", -1, "'--headers'", "'driver http' only"},
        {MODE_CLIENT, PROTO_TCP, "--http-version 2", -1, "--http-version", "'2'"},
        {MODE_CLIENT, PROTO_TCP, "--port 0", -1, "--port", "'0'"},
        {MODE_CLIENT, PROTO_TCP, "--port 65536", -1, "'--port'", "'65536'"},
        {MODE_CLIENT, PROTO_TCP, "--cert a.pem", -1, "--cert", "both"},
        {MODE_CLIENT, PROTO_REDIS, "--serve", -1, "--serve", "redis"},
        {MODE_CLIENT, PROTO_TCP, "--protocol tcp", -1, "unknown flag", "'--protocol'"},
        {MODE_SERVE, PROTO_TCP, "--port 0 --workers 2 --delay-us 2000", 0, NULL, NULL},
        {MODE_SERVE, PROTO_TCP, "--pipeline 4", -1, "'--pipeline'", "not used"},
        {MODE_SERVE, PROTO_TCP, "--transport tls", -1, "--cert", "--key"},
        {MODE_SERVE, PROTO_TCP, "--delay-us 10000001", -1, "'--delay-us'", "'10000001'"},
        {MODE_SERVE, PROTO_TCP, "--work 100000001", -1, "'--work'", "'100000001'"},
        {MODE_SERVE, PROTO_TCP, "--work 5000", 0, NULL, NULL},
        {MODE_CLIENT, PROTO_TCP, "--delay-us 100", -1, "--delay-us '100'", "--serve"},
        {MODE_CLIENT, PROTO_TCP, "--work 100", -1, "--work '100'", "--serve"},
        {MODE_CLIENT, PROTO_TCP, "--serve --work 100 --delay-us 5", 0, NULL, NULL},
        {MODE_CLIENT, PROTO_REDIS, "--busy-poll-us 50", 0, NULL, NULL},
        {MODE_CLIENT, PROTO_TCP, "--busy-poll-us 1001", -1, "'--busy-poll-us'", "0..1000"},
        {MODE_CLIENT, PROTO_TCP, "--busy-poll-us -5", -1, "'--busy-poll-us'", "'-5'"},
        {MODE_SERVE, PROTO_TCP, "--busy-poll-us 5", -1, "'--busy-poll-us'", "not used"},
        /* decimal seconds only: strtod would also take hex, inf and nan */
        {MODE_CLIENT, PROTO_TCP, "--duration 0x10", -1, "'--duration'", "'0x10'"},
        {MODE_CLIENT, PROTO_TCP, "--warmup inf", -1, "'--warmup'", "'inf'"},
        {MODE_CLIENT, PROTO_TCP, "--timeout nan", -1, "'--timeout'", "'nan'"},
        {MODE_CLIENT, PROTO_TCP, "--duration 1e-1 --warmup .5 --timeout 2.", 0, NULL, NULL},
        {MODE_CLIENT, PROTO_TCP, "--duration 1e", -1, "'--duration'", "'1e'"},
        /* flags of another protocol are refused, not ignored */
        {MODE_CLIENT, PROTO_TCP, "--command SET", -1, "'--command'", "'driver redis' only"},
        {MODE_CLIENT, PROTO_WS, "--resp 3", -1, "'--resp'", "'driver ws'"},
        {MODE_CLIENT, PROTO_TCP, "--method POST", -1, "'--method'", "'driver http' only"},
        {MODE_CLIENT, PROTO_WS, "--path /ws", 0, NULL, NULL},
        {MODE_CLIENT, PROTO_HTTP, "--no-prefill", -1, "'--no-prefill'", "'driver redis' only"},
        {MODE_CLIENT, PROTO_REDIS, "--command LRANGE_100 --no-prefill", 0, NULL, NULL},
        {MODE_SERVE, PROTO_TCP, "--no-prefill", -1, "'--no-prefill'", "not used by"},
        /* one wording for the port range, client and serve */
        {MODE_CLIENT, PROTO_TCP, "--port 0", -1, "'0'", "1..65535"},
        {MODE_CLIENT, PROTO_TCP, "--port 65536", -1, "'65536'", "1..65535"},
        {MODE_SERVE, PROTO_TCP, "--port 70000", -1, "'70000'", "1..65535"},
        /* the error limit */
        {MODE_CLIENT, PROTO_TCP, "--error-limit 0.5", 0, NULL, NULL},
        {MODE_CLIENT, PROTO_TCP, "--error-limit 101", -1, "'--error-limit'", "0..100"},
        {MODE_SERVE, PROTO_TCP, "--error-limit 1", -1, "'--error-limit'", "not used"},
    };
    struct drv_opts o, o2;
    char err[512];
    const char *path;
    json_t *j;
    size_t i;
    int rc;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        rc = parse_line(&o, cases[i].mode, cases[i].proto, cases[i].line, err, sizeof(err));
        CHECK_MSG(rc == cases[i].rc, "'%s': rc %d (%s)", cases[i].line, rc, err);
        if (cases[i].msg1)
            CHECK_MSG(strstr(err, cases[i].msg1) != NULL, "'%s': message '%s' lacks %s",
                      cases[i].line, err, cases[i].msg1);
        if (cases[i].msg2)
            CHECK_MSG(strstr(err, cases[i].msg2) != NULL, "'%s': message '%s' lacks %s",
                      cases[i].line, err, cases[i].msg2);
    }

    /* values land in their fields */
    CHECK(parse_line(&o, MODE_CLIENT, PROTO_REDIS,
                     "--host ::1 --port 7000 --connections 8 --workers 4 --pipeline 16 "
                     "--window 4 --payload 1k --warmup 0.25 --duration 2 --requests 500 "
                     "--command lrange_600 --resp 3 --auth --transport tls --insecure "
                     "--timeout 1.5 --sni example.org",
                     err, sizeof(err)) == 0);
    CHECK_STR(o.host, "::1");
    CHECK(o.port == 7000 && o.connections == 8 && o.workers == 4 && o.pipeline == 16);
    CHECK(o.window == 4 && o.payload == 1024 && o.warmup_s == 0.25 && o.duration_s == 2);
    CHECK(o.requests == 500 && o.resp == 3 && o.auth == 1 && o.insecure == 1);
    CHECK(o.transport == TRANSPORT_TLS && o.timeout_s == 1.5);
    CHECK_STR(o.command, "LRANGE_600");
    CHECK_STR(o.sni, "example.org");

    /* busy polling: off by default, in the effective configuration when set */
    CHECK(parse_line(&o, MODE_CLIENT, PROTO_REDIS, "--busy-poll-us 50", err, sizeof(err)) == 0);
    CHECK(o.busy_poll_us == 50);
    j = opts_to_json(&o);
    CHECK(j && json_integer_value(json_object_get(j, "busy_poll_us")) == 50);
    opts_defaults(&o2, MODE_CLIENT, PROTO_REDIS);
    CHECK(j && opts_apply_json(&o2, j, "result", err, sizeof(err)) == 0 && o2.busy_poll_us == 50);
    json_decref(j);

    /* defaults */
    opts_defaults(&o, MODE_CLIENT, PROTO_REDIS);
    CHECK(o.busy_poll_us == 0);
    j = opts_to_json(&o);
    CHECK(j && json_object_get(j, "busy_poll_us") == NULL);
    json_decref(j);
    CHECK(o.port == 6379 && o.connections == 1 && o.workers == 1 && o.pipeline == 1);
    CHECK(o.window == 1 && o.payload == 64 && o.warmup_s == 1 && o.duration_s == 5);
    CHECK_STR(o.host, "127.0.0.1");
    opts_defaults(&o, MODE_SERVE, PROTO_TCP);
    CHECK(o.payload == 0);

    /* --config: applied first, flags override, same keys with '_' */
    path = write_tmp("{\"protocol\": \"tcp\", \"connections\": 4, \"workers\": 2, "
                     "\"pipeline\": 8, \"payload\": \"2k\", \"duration\": 0.5, "
                     "\"serve\": true, \"serve_workers\": 2, \"delay_us\": 100}");
    CHECK(path != NULL);
    if (!path)
        return T_DONE();
    {
        char line[256];
        snprintf(line, sizeof(line), "--pipeline 3 --config %s", path);
        CHECK(parse_line(&o, MODE_CLIENT, PROTO_TCP, line, err, sizeof(err)) == 0);
        CHECK(o.connections == 4 && o.workers == 2 && o.pipeline == 3 && o.payload == 2048);
        CHECK(o.duration_s == 0.5 && o.serve == 1 && o.serve_workers == 2 && o.delay_us == 100);
    }
    /* config errors name the file, the key, the value and what was expected */
    {
        static const struct {
            const char *json, *m1, *m2;
        } bad[] = {
            {"{\"conections\": 4}", "unknown key", "'conections'"},
            {"{\"connections\": \"4\"}", "'connections'", "\"4\""},
            {"{\"connections\": 0}", "'connections'", "1..10000"},
            {"{\"connections\": -3}", "'connections'", "-3"},
            {"{\"duration\": \"5\"}", "'duration'", "seconds"},
            {"{\"auth\": 1}", "'auth'", "true or false"},
            {"{\"protocol\": \"redis\"}", "'protocol'", "redis"},
            {"{\"window\": 1.5}", "'window'", "1.5"},
            {"[1, 2]", "JSON object", ""},
            {"{\"window\": ", "--config", "line"},
            {"{\"window\": 1, \"window\": 2}", "--config", "duplicate"},
        };
        for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            char line[256];
            path = write_tmp(bad[i].json);
            if (!path)
                return T_DONE();
            snprintf(line, sizeof(line), "--config %s", path);
            rc = parse_line(&o, MODE_CLIENT, PROTO_TCP, line, err, sizeof(err));
            CHECK_MSG(rc == -1, "config %s accepted", bad[i].json);
            CHECK_MSG(strstr(err, bad[i].m1) && strstr(err, bad[i].m2), "config %s: message '%s'",
                      bad[i].json, err);
            CHECK_MSG(strstr(err, path) != NULL, "config %s: message '%s' lacks the file",
                      bad[i].json, err);
        }
    }
    CHECK(parse_line(&o, MODE_CLIENT, PROTO_TCP, "--config /nonexistent/x.json", err,
                     sizeof(err)) == -1);
    CHECK(strstr(err, "/nonexistent/x.json") != NULL);
    unlink(path);

    /* opts_to_json round-trips through opts_apply_json and carries no secret */
    CHECK(parse_line(&o, MODE_CLIENT, PROTO_REDIS,
                     "--connections 4 --workers 2 --pipeline 16 --window 4 --payload 1k "
                     "--command GET --auth --resp 3 --password-file /secret/pw",
                     err, sizeof(err)) == 0);
    j = opts_to_json(&o);
    CHECK(j != NULL);
    CHECK(json_integer_value(json_object_get(j, "pipeline")) == 16);
    CHECK_STR(json_string_value(json_object_get(j, "command")), "GET");
    CHECK(json_object_get(j, "password_file") == NULL);
    opts_defaults(&o2, MODE_CLIENT, PROTO_REDIS);
    CHECK_MSG(opts_apply_json(&o2, j, "result", err, sizeof(err)) == 0, "%s", err);
    CHECK(o2.connections == 4 && o2.workers == 2 && o2.pipeline == 16 && o2.window == 4);
    CHECK(o2.payload == 1024 && o2.auth == 1 && o2.resp == 3);
    CHECK_STR(o2.command, "GET");
    json_decref(j);

    CHECK_STR(opts_proto_name(PROTO_WS), "ws");
    {
        enum drv_proto p;
        CHECK(opts_proto_parse("http", &p) == 0 && p == PROTO_HTTP);
        CHECK(opts_proto_parse("HTTP", &p) == -1);
    }
    return T_DONE();
}
