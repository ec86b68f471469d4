/* spec: grid expansion counts, stable ids, labels, and the bad-input table (exact messages). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "run/spec.h"
#include "t.h"

static json_t *parse(const char *text)
{
    json_error_t je;
    json_t *j = json_loads(text, 0, &je);

    if (!j)
        fprintf(stderr, "bad test JSON: %s: %s\n", text, je.text);
    return j;
}

static size_t expand_count(const char *grid_text)
{
    json_t *g = parse(grid_text);
    struct grid_config *cfgs = NULL;
    size_t n = 0, i;
    char err[1024] = "";

    if (grid_expand(g, "g.json", &cfgs, &n, err, sizeof(err)) < 0) {
        fprintf(stderr, "expand failed: %s\n", err);
        n = (size_t)-1;
    }
    for (i = 0; n != (size_t)-1 && i < n; i++)
        json_decref(cfgs[i].params);
    free(cfgs);
    json_decref(g);
    return n;
}

static void expect_grid_error(const char *grid_text, const char *msg)
{
    json_t *g = parse(grid_text);
    struct grid_config *cfgs = NULL;
    size_t n = 0;
    char err[1024] = "";

    CHECK_MSG(grid_expand(g, "grids/x.json", &cfgs, &n, err, sizeof(err)) == -1, "should fail: %s",
              grid_text);
    CHECK_STR(err, msg);
    json_decref(g);
}

static char grid_file[64];

static void expect_spec_error(const char *spec_text, const char *msg)
{
    json_t *root = parse(spec_text);
    struct spec sp;
    const char *grids[1] = {grid_file};
    char err[1024] = "";

    CHECK_MSG(spec_load(&sp, "spec.json", root, grids, 1, err, sizeof(err)) == -1,
              "should fail: %s", spec_text);
    CHECK_STR(err, msg);
    spec_release(&sp);
    json_decref(root);
}

static void label_of(const char *params, const char *want)
{
    json_t *p = parse(params);
    char label[192];

    grid_config_label(p, label, sizeof(label));
    CHECK_STR(label, want);
    json_decref(p);
}

int main(void)
{
    char id1[9], id2[9], id3[9];

    /* expansion: axes product minus exclude plus configs */
    CHECK(expand_count("{\"defaults\":{\"protocol\":\"redis\"},\"axes\":{\"payload\":[1024,4096,"
                       "16384],\"pipeline\":[1,4,16,64],\"window\":[1,4],\"transport\":[\"tcp\","
                       "\"tls\"]}}") == 48);
    CHECK(expand_count("{\"defaults\":{\"protocol\":\"redis\"},\"axes\":{\"payload\":[1024,4096,"
                       "16384],\"window\":[1,4],\"transport\":[\"tcp\",\"tls\"]},\"exclude\":[{"
                       "\"transport\":\"tls\",\"payload\":16384,\"window\":4}]}") == 11);
    CHECK(expand_count("{\"defaults\":{\"protocol\":\"tcp\"},\"axes\":{\"payload\":[64,4096]},"
                       "\"exclude\":[{\"payload\":64}],\"configs\":[{\"payload\":1},{\"protocol\":"
                       "\"ws\",\"serve\":true}]}") == 3);
    CHECK(expand_count("{\"configs\":[{\"protocol\":\"tcp\"},{\"protocol\":\"http\",\"serve\":"
                       "true}]}") == 2);
    CHECK(expand_count("{\"defaults\":{\"protocol\":\"tcp\",\"port\":7}}") == 1);
    {
        /* order: first axis outermost; ids and labels filled */
        json_t *g = parse("{\"defaults\":{\"protocol\":\"tcp\"},\"axes\":{\"payload\":[64,"
                          "4096],\"window\":[1,16]}}");
        struct grid_config *c = NULL;
        size_t n = 0, i;
        char err[512];
        CHECK(grid_expand(g, "g", &c, &n, err, sizeof(err)) == 0 && n == 4);
        if (n == 4) {
            CHECK_STR(c[0].label, "tcp · 64 B · window1 · 1 client");
            CHECK_STR(c[1].label, "tcp · 64 B · window16 · 1 client");
            CHECK_STR(c[2].label, "tcp · 4 KiB · window1 · 1 client");
            CHECK(strlen(c[0].id) == 8 && strcmp(c[0].id, c[1].id) != 0);
        }
        for (i = 0; i < n; i++)
            json_decref(c[i].params);
        free(c);
        json_decref(g);
    }

    /* ids: stable across key order, host/port ignored, different for different configs */
    {
        json_t *a = parse("{\"protocol\":\"redis\",\"payload\":4096,\"pipeline\":16}");
        json_t *b = parse("{\"pipeline\":16,\"payload\":4096,\"protocol\":\"redis\","
                          "\"host\":\"::1\",\"port\":6379}");
        json_t *c = parse("{\"protocol\":\"redis\",\"payload\":4096,\"pipeline\":4}");
        CHECK(grid_config_id(a, id1) == 0 && grid_config_id(b, id2) == 0 &&
              grid_config_id(c, id3) == 0);
        CHECK_STR(id1, id2);
        CHECK(strcmp(id1, id3) != 0);
        json_decref(a);
        json_decref(b);
        json_decref(c);
    }

    /* labels */
    label_of("{\"protocol\":\"redis\",\"transport\":\"tls\",\"command\":\"ECHO\",\"payload\":4096,"
             "\"pipeline\":16,\"window\":1,\"connections\":4,\"workers\":4}",
             "redis · tls · ECHO · 4 KiB · pipeline16 · window1 · 4 clients");
    label_of("{\"protocol\":\"tcp\",\"payload\":64,\"window\":16,\"workers\":4,\"connections\":16}",
             "tcp · 64 B · window16 · 4 workers · 16 clients");
    label_of("{\"protocol\":\"redis\",\"command\":\"SET\",\"payload\":64,\"pipeline\":1,"
             "\"connections\":50}",
             "redis · SET · 64 B · pipeline1 · window1 · 50 clients");
    label_of("{\"protocol\":\"ws\",\"payload\":1500,\"window\":1,\"serve\":true,\"delay_us\":300}",
             "ws · 1500 B · window1 · 1 client · colocated · delay 300 µs");
    label_of("{\"protocol\":\"http\",\"payload\":1048576,\"path\":\"/big\",\"http_version\":\"2\"}",
             "http · 1 MiB · window1 · 1 client · /big · HTTP/2");

    /* an axis the label does not otherwise show is named when it varies */
    {
        json_t *g = parse("{\"defaults\":{\"protocol\":\"tcp\",\"serve\":true},"
                          "\"axes\":{\"serve_workers\":[1,2],\"timeout\":[5]}}");
        struct grid_config *c = NULL;
        size_t n = 0, i;
        char e[256];
        CHECK(grid_expand(g, "g.json", &c, &n, e, sizeof(e)) == 0);
        CHECK(n == 2);
        if (n == 2) {
            CHECK_STR(c[0].label, "tcp · 64 B · window1 · 1 client · colocated · serve_workers 1");
            CHECK_STR(c[1].label, "tcp · 64 B · window1 · 1 client · colocated · serve_workers 2");
        }
        for (i = 0; i < n; i++)
            json_decref(c[i].params);
        free(c);
        json_decref(g);
    }

    /* bad grids: the file, the JSON path, the value and what was expected */
    expect_grid_error("{\"defaults\":{\"protocol\":\"redis\"},\"axes\":{\"payload\":[64,1024,"
                      "\"4k\"]}}",
                      "grids/x.json: $.axes.payload[2]: expected a positive integer (bytes), got "
                      "\"4k\"");
    expect_grid_error("{\"defaults\":{\"protocol\":\"redis\",\"conections\":4}}",
                      "grids/x.json: $.defaults.conections: unknown configuration key "
                      "'conections' (expected one of: protocol, transport, host, port, "
                      "connections, workers, pipeline, window, payload, command, commands, "
                      "key_pattern, setup, keyspace, auth, "
                      "resp, http_version, path, serve, serve_workers, warmup, duration, "
                      "requests, method, cacert, cert, key, sni, insecure, timeout, delay_us, "
                      "busy_poll_us, rate, arrival, headers, paths, body, body_file, interval_ms)");
    expect_grid_error("{\"defaults\":{\"protocol\":\"redis\",\"connections\":0}}",
                      "grids/x.json: $.defaults.connections: expected an integer from 1 to 10000 "
                      "(connections), got 0");
    expect_grid_error("{\"defaults\":{\"protocol\":\"redis\",\"connections\":1000000}}",
                      "grids/x.json: $.defaults.connections: expected an integer from 1 to 10000 "
                      "(connections), got 1000000");
    expect_grid_error("{\"defaults\":{\"protocol\":\"redis\"},\"axes\":{\"pipeline\":[1,0]}}",
                      "grids/x.json: $.axes.pipeline[1]: expected an integer from 1 to 100000 "
                      "(commands per batch), got 0");
    expect_grid_error("{\"defaults\":{\"protocol\":\"redis\",\"payload\":0}}",
                      "grids/x.json: $.defaults.payload: expected a positive integer (bytes), got "
                      "0");
    expect_grid_error("{\"defaults\":{\"protocol\":\"smtp\"}}",
                      "grids/x.json: $.defaults.protocol: expected one of \"redis\", \"tcp\", "
                      "\"http\", \"ws\", got \"smtp\"");
    expect_grid_error(
        "{\"defaults\":{\"protocol\":\"redis\",\"command\":\"HDEL h __foo__\"}}",
        "grids/x.json: $.defaults.command: value \"HDEL h __foo__\": unknown "
        "placeholder '__foo__' (expected __rand_int__, __rand_score__, __key__ or __data__)");
    expect_grid_error("{\"defaults\":{\"protocol\":\"redis\",\"commands\":[{\"command\":"
                      "\"GET a\",\"weight\":0}]}}",
                      "grids/x.json: $.defaults.commands: value [{\"command\":\"GET a\","
                      "\"weight\":0}]: [0].weight: expected a positive number, got 0");
    expect_grid_error("{\"defaults\":{\"protocol\":\"redis\",\"auth\":\"yes\"}}",
                      "grids/x.json: $.defaults.auth: expected true or false, got \"yes\"");
    expect_grid_error("{\"defaults\":{\"protocol\":\"redis\",\"duration\":-1}}",
                      "grids/x.json: $.defaults.duration: expected a number of seconds from "
                      "0.001 to 86400, got -1");
    expect_grid_error("{\"defaults\":{\"protocol\":\"redis\",\"resp\":4}}",
                      "grids/x.json: $.defaults.resp: expected 2 or 3, got 4");
    expect_grid_error("{\"defaults\":{\"protocol\":\"http\",\"path\":\"index.html\"}}",
                      "grids/x.json: $.defaults.path: expected a request path starting with "
                      "'/', got \"index.html\"");
    expect_grid_error("{\"axes\":{\"payload\":[]}}",
                      "grids/x.json: $.axes.payload: expected a non-empty array of values, got "
                      "[]");
    expect_grid_error("{\"axes\":{\"colour\":[1]}}",
                      "grids/x.json: $.axes.colour: unknown configuration key 'colour' "
                      "(expected one of: protocol, transport, host, port, connections, workers, "
                      "pipeline, window, payload, command, commands, key_pattern, setup, keyspace, "
                      "auth, resp, http_version, "
                      "path, serve, serve_workers, warmup, duration, requests, method, cacert, "
                      "cert, key, sni, insecure, timeout, delay_us, busy_poll_us, rate, arrival, "
                      "headers, paths, body, body_file, interval_ms)");
    expect_grid_error("{\"defaults\":{\"protocol\":\"tcp\"},\"exclude\":[{\"payload\":\"x\"}]}",
                      "grids/x.json: $.exclude[0].payload: expected a positive integer (bytes), "
                      "got \"x\"");
    expect_grid_error("{\"defaults\":{\"protocol\":\"tcp\"},\"axs\":{}}",
                      "grids/x.json: $.axs: unknown key 'axs' (expected one of: name, "
                      "description, defaults, axes, exclude, configs)");
    expect_grid_error("{\"axes\":{\"payload\":[64]}}",
                      "grids/x.json: configuration '? · 64 B · window1 · 1 client': missing key "
                      "'protocol' (expected one of \"redis\", \"tcp\", \"http\", \"ws\")");
    expect_grid_error("{\"configs\":[{\"protocol\":\"tcp\",\"command\":\"GET\"}]}",
                      "grids/x.json: $.configs[0]: key 'command' applies to protocol \"redis\" "
                      "only, got protocol \"tcp\"");
    expect_grid_error("{\"configs\":[{\"protocol\":\"tcp\",\"delay_us\":300}]}",
                      "grids/x.json: $.configs[0]: key 'delay_us' needs \"serve\": true (it "
                      "slows the reference server the driver hosts)");
    expect_grid_error("{\"defaults\":{\"protocol\":\"tcp\",\"payload\":64},\"axes\":{\"payload\":"
                      "[64]},\"exclude\":[{\"payload\":64}]}",
                      "grids/x.json: $.exclude: every configuration is excluded");
    expect_grid_error("[1,2]", "grids/x.json: $: expected a grid object, got [1,2]");

    /* bad specs */
    snprintf(grid_file, sizeof(grid_file), "/tmp/pairbench-test-spec-XXXXXX");
    {
        int fd = mkstemp(grid_file);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        CHECK(f != NULL);
        if (f) {
            fputs("{\"name\":\"g\",\"defaults\":{\"protocol\":\"tcp\",\"port\":9}}\n", f);
            fclose(f);
        }
    }
    expect_spec_error("{\"versions\":[{\"name\":\"a\"},{\"name\":\"a\"}]}",
                      "spec.json: $.versions[1].name: duplicate version name \"a\" (also "
                      "$.versions[0])");
    expect_spec_error(
        "{\"versions\":[{\"name\":\"a b\"}]}",
        "spec.json: $.versions[0].name: expected a name of 1 to 64 letters, digits, '.', "
        "'_', '-', got \"a b\"");
    expect_spec_error(
        "{\"versions\":[{\"name\":\"a\",\"server\":{\"redis\":\"redis-server "
        "--port {prot}\"}}]}",
        "spec.json: $.versions[0].server.redis: unknown placeholder '{prot}' "
        "(expected one of {port} {host} {cert} {key} {cacert} {dir} {tree} {conf} {port2}), in "
        "\"redis-server --port {prot}\"");
    expect_spec_error("{\"versions\":[{\"name\":\"a\",\"server\":{\"smtp\":\"x\"}}]}",
                      "spec.json: $.versions[0].server.smtp: unknown protocol 'smtp' (expected "
                      "redis, tcp, http or ws)");
    expect_spec_error("{\"versions\":[{\"name\":\"a\"}],\"runs\":0}",
                      "spec.json: $.runs: expected an integer from 1 to 1000 (rounds), got 0");
    expect_spec_error("{\"versions\":[{\"name\":\"a\"}],\"warmup\":\"1s\"}",
                      "spec.json: $.warmup: expected a number of seconds from 0 to 3600, got "
                      "\"1s\"");
    expect_spec_error("{\"versions\":[{\"name\":\"a\"}],\"version\":1}",
                      "spec.json: $.version: unknown key 'version' (expected one of: versions, "
                      "grids, runs, warmup, duration, grace, probe_timeout, gate, hash_sources, "
                      "description, noise_limit, confirm_rounds, instructions, syscalls, "
                      "cache_sim, server_host, sequence)");
    expect_spec_error("{\"versions\":[{\"name\":\"a\"}],\"sequence\":\"grid\"}",
                      "spec.json: $.sequence: expected true (one server per version and round "
                      "through every configuration, in grid order) or false, got \"grid\"");
    expect_spec_error("{\"versions\":[]}",
                      "spec.json: $.versions: expected an array of 1 to 16 versions, got []");
    expect_spec_error("{\"grids\":[]}", "spec.json: $.versions: missing (expected an array of "
                                        "versions, the first is the baseline)");
    expect_spec_error("{\"versions\":[{\"name\":\"a\",\"env\":{\"X\":1}}]}",
                      "spec.json: $.versions[0].env.X: expected a string, got 1");
    expect_spec_error("{\"versions\":[{\"name\":\"a\",\"colour\":1}]}",
                      "spec.json: $.versions[0].colour: unknown key 'colour' (expected one of: "
                      "name, ref, driver, server, env, description, config)");
    {
        /* a good spec: versions, settings, the grid's configuration */
        json_t *root = parse("{\"versions\":[{\"name\":\"base\"},{\"name\":\"cand\",\"driver\":"
                             "\"./d --x '{tree}'\"}],\"runs\":3,\"warmup\":0.5}");
        struct spec sp;
        const char *grids[1] = {grid_file};
        char err[512] = "";
        CHECK_MSG(spec_load(&sp, "spec.json", root, grids, 1, err, sizeof(err)) == 0, "%s", err);
        CHECK(sp.n_versions == 2 && sp.n_configs == 1 && sp.runs == 3);
        CHECK(sp.warmup == 0.5 && sp.duration < 0 && sp.grace == 5 && sp.probe_timeout == 10);
        CHECK(sp.n_grids == 1 && strcmp(sp.grids[0].name, "g") == 0);
        spec_release(&sp);
        json_decref(root);
    }
    {
        /* a configuration without an endpoint for a version */
        FILE *f = fopen(grid_file, "w");
        if (f) {
            fputs("{\"name\":\"g\",\"defaults\":{\"protocol\":\"tcp\"}}\n", f);
            fclose(f);
        }
        {
            char want[512];
            snprintf(want, sizeof(want),
                     "%s: configuration 'tcp · 64 B · window1 · 1 client': version \"a\" has no "
                     "server.tcp and the configuration has no port (expected a server command "
                     "for \"tcp\" in the version, \"serve\": true, or a port)",
                     grid_file);
            expect_spec_error("{\"versions\":[{\"name\":\"a\"}]}", want);
        }
        f = fopen(grid_file, "w");
        if (f) {
            fputs("{\"name\": \"g\",\n \"defaults\": {\"protocol\": tcp}}\n", f);
            fclose(f);
        }
        {
            char want[512];
            snprintf(want, sizeof(want), "%s:2:29: malformed JSON: invalid token near 'tcp'",
                     grid_file);
            expect_spec_error("{\"versions\":[{\"name\":\"a\"}]}", want);
        }
    }
    {
        /* two configurations told apart only by worker threads: the repeated label names them */
        FILE *f = fopen(grid_file, "w");
        json_t *root = parse("{\"versions\":[{\"name\":\"a\",\"server\":{\"redis\":\"s "
                             "{port}\"}}]}");
        struct spec sp;
        const char *grids[1] = {grid_file};
        char err[512] = "";

        if (f) {
            fputs("{\"name\":\"g\",\"defaults\":{\"protocol\":\"redis\",\"command\":\"SET\","
                  "\"connections\":4},\"configs\":[{\"workers\":4},{\"workers\":1},"
                  "{\"workers\":1,\"timeout\":2}]}\n",
                  f);
            fclose(f);
        }
        CHECK_MSG(spec_load(&sp, "spec.json", root, grids, 1, err, sizeof(err)) == 0, "%s", err);
        CHECK(sp.n_configs == 3);
        if (sp.n_configs == 3) {
            CHECK_MSG(strcmp(sp.configs[1].label, "redis · SET · 64 B · pipeline1 · window1 · 4 "
                                                  "clients · 1 worker") == 0,
                      "%s", sp.configs[1].label);
            CHECK_MSG(strstr(sp.configs[2].label, sp.configs[2].id) != NULL, "%s",
                      sp.configs[2].label);
        }
        spec_release(&sp);
        json_decref(root);
    }
    unlink(grid_file);
    return T_DONE();
}
