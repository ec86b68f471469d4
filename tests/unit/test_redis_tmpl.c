/* Redis templates (common/rcmd.c, driver/wl/redis_tmpl.c): every built-in re-expressed as a
 * template puts the same bytes on the wire, batch after batch; placeholders, key patterns,
 * mixes and setup expand as documented; bad templates are refused with the value named. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "run/grid.h"
#include "rcmd.h"
#include "analysis/summary_row.h"
#include "analysis/summary_workload.h"
#include "report/sentences.h"
#include "report/steps.h"
#include "t.h"
#include "wl/workload.h"

static struct drv_opts o_mem;

static struct drv_opts *opts_for(const char *command, uint64_t keyspace, unsigned pipeline)
{
    struct drv_opts *o = &o_mem;

    opts_defaults(o, MODE_CLIENT, PROTO_REDIS);
    o->pipeline = pipeline;
    o->keyspace = keyspace;
    snprintf(o->command, sizeof(o->command), "%s", command);
    return o;
}

/* The first nb batches of pipeline n of one connection (seed 42), concatenated. */
static char *batches(const char *command, uint64_t keyspace, unsigned n, unsigned nb, size_t *len)
{
    struct rcmd_out out = {0};
    void *sh = NULL, *c = NULL;
    char err[512];
    const char *d;
    size_t l;

    *len = 0;
    if (wl_redis.setup(opts_for(command, keyspace, n), &sh, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s: %s\n", command, err);
        return NULL;
    }
    c = wl_redis.conn_new(sh, 0, 42);
    for (unsigned i = 0; c && i < nb; i++)
        if (wl_redis.batch(c, n, &d, &l) < 0 || rcmd_out_put(&out, d, l) < 0)
            break;
    wl_redis.conn_free(c);
    wl_redis.teardown(sh);
    *len = out.len;
    return out.p;
}

static void test_same_bytes(void)
{
    static const struct {
        const char *builtin, *tmpl;
    } cases[] = {
        {"PING", "PING"},
        {"ECHO", "ECHO __data__"},
        {"SET", "SET key:__rand_int__ __data__"},
        {"GET", "GET key:__rand_int__"},
        {"INCR", "INCR counter:__rand_int__"},
        {"LPUSH", "LPUSH mylist __data__"},
        {"RPOP", "RPOP mylist"},
        {"SADD", "SADD myset element:__rand_int__"},
        {"HSET", "HSET myhash element:__rand_int__ __data__"},
        {"SPOP", "SPOP myset"},
        {"ZPOPMIN", "ZPOPMIN myzset"},
        {"ZADD", "ZADD myzset __rand_score__ element:__rand_int__"},
        {"RPUSH", "RPUSH mylist __data__"},
        {"LPOP", "LPOP mylist"},
        {"LRANGE_100", "LRANGE mylist 0 99"},
        {"LRANGE_600", "LRANGE mylist 0 599"},
        {"MSET", "MSET key:__rand_int__ __data__ key:__rand_int__ __data__ key:__rand_int__ "
                 "__data__ key:__rand_int__ __data__ key:__rand_int__ __data__ key:__rand_int__ "
                 "__data__ key:__rand_int__ __data__ key:__rand_int__ __data__ key:__rand_int__ "
                 "__data__ key:__rand_int__ __data__"},
    };
    static const uint64_t spaces[] = {0, 1000};
    static const unsigned pipes[] = {1, 16};

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        for (size_t k = 0; k < 2; k++)
            for (size_t p = 0; p < 2; p++) {
                size_t la, lb;
                char *a = batches(cases[i].builtin, spaces[k], pipes[p], 200, &la);
                char *b = batches(cases[i].tmpl, spaces[k], pipes[p], 200, &lb);

                CHECK_MSG(a && b && la == lb && la > 0 && memcmp(a, b, la) == 0,
                          "%s vs '%s', keyspace %llu, pipeline %u", cases[i].builtin, cases[i].tmpl,
                          (unsigned long long)spaces[k], pipes[p]);
                free(a);
                free(b);
            }
}

static void test_refusals(void)
{
    static const struct {
        const char *command, *commands, *key_pattern, *setup, *want;
    } cases[] = {
        {"HDEL h __foo__", "", "", "", "--command 'HDEL h __foo__': unknown placeholder '__foo__'"},
        {"   ", "", "", "", "--command '   ': empty command"},
        {"SET 'a b", "", "", "", "unterminated single quote"},
        {"SET a__i__ b", "", "", "", "misplaced placeholder '__i__'"},
        {"GET a", "[{\"command\": \"GET a\", \"weight\": -1}]", "", "",
         "[0].weight: expected a positive number, got -1"},
        {"GET a", "[{\"command\": \"\", \"weight\": 1}]", "", "", "[0].command: empty command"},
        {"GET a", "[]", "", "", "expected an array of 1 to 64"},
        {"GET __key__", "", "zipf:0", "", "--key-pattern: expected uniform, sequential"},
        {"GET __key__", "", "pareto", "", "got 'pareto'"},
        {"PING", "", "", "[{\"command\": \"HSET h f__j__ v\", \"count\": 3}]",
         "[0].command: unknown placeholder '__j__'"},
        {"PING", "", "", "[{\"command\": \"HSET h f v\", \"count\": 0}]",
         "[0]: expected a generator"},
        {"PING", "", "", "\"/nonexistent/setup.txt\"", "file '/nonexistent/setup.txt'"},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct drv_opts *o = opts_for(cases[i].command, 10, 1);
        void *sh = NULL;
        char err[1024] = "";

        snprintf(o->commands, sizeof(o->commands), "%s", cases[i].commands);
        snprintf(o->key_pattern, sizeof(o->key_pattern), "%s", cases[i].key_pattern);
        snprintf(o->setup, sizeof(o->setup), "%s", cases[i].setup);
        CHECK_MSG(wl_redis.setup(o, &sh, err, sizeof(err)) == -1 && sh == NULL &&
                      strstr(err, cases[i].want) != NULL,
                  "case %zu: '%s'", i, err);
    }
}

static size_t fill_fixed(void *ctx, unsigned ph, const char **p)
{
    (void)ctx;
    *p = ph == RCMD_DATA ? "DATA" : "7";
    return strlen(*p);
}

static void test_split_and_encode(void)
{
    struct rcmd c;
    struct rcmd_out out = {0};
    char err[256];
    json_t *arr = json_pack("[s,s,s]", "SET", "a b", "x__data__y");

    CHECK(rcmd_parse_str(&c, "SET \"a b\" 'c d'  e\\ f __data__-__i__",
                         RCMD_USES(RCMD_DATA) | RCMD_USES(RCMD_I), err, sizeof(err)) == 0);
    CHECK(c.argc == 5);
    CHECK(rcmd_encode(&c, fill_fixed, NULL, &out) == 0);
    CHECK(
        out.len ==
            strlen("*5\r\n$3\r\nSET\r\n$3\r\na b\r\n$3\r\nc d\r\n$3\r\ne f\r\n$6\r\nDATA-7\r\n") &&
        memcmp(out.p, "*5\r\n$3\r\nSET\r\n$3\r\na b\r\n$3\r\nc d\r\n$3\r\ne f\r\n$6\r\nDATA-7\r\n",
               out.len) == 0);
    rcmd_free(&c);
    out.len = 0;
    CHECK(rcmd_parse(&c, arr, RCMD_USES(RCMD_DATA), err, sizeof(err)) == 0);
    CHECK(rcmd_encode(&c, fill_fixed, NULL, &out) == 0);
    CHECK(out.len == 34 &&
          memcmp(out.p, "*3\r\n$3\r\nSET\r\n$3\r\na b\r\n$6\r\nxDATAy\r\n", 34) == 0);
    rcmd_free(&c);
    rcmd_out_free(&out);
    json_decref(arr);
}

static void test_key_patterns(void)
{
    struct rcmd_keypat kp;
    uint64_t rng = 1, seq = 5, hot = 0, mid = 0;
    char err[256];

    CHECK(rcmd_keypat_parse("sequential", &kp, err, sizeof(err)) == 0);
    CHECK(rcmd_key_next(&kp, 10, &rng, &seq) == 5 && rcmd_key_next(&kp, 10, &rng, &seq) == 6);
    CHECK(rcmd_keypat_parse("zipf:1.2", &kp, err, sizeof(err)) == 0 && kp.exp == 1.2);
    for (int i = 0; i < 10000; i++) {
        uint64_t k = rcmd_key_next(&kp, 1000, &rng, &seq);
        CHECK(k < 1000);
        hot += k < 10;
    }
    CHECK(hot > 5000); /* the ten hottest keys of 1000 take most draws at exponent 1.2 */
    CHECK(rcmd_keypat_parse("gaussian", &kp, err, sizeof(err)) == 0);
    for (int i = 0; i < 10000; i++) {
        uint64_t k = rcmd_key_next(&kp, 1000, &rng, &seq);
        CHECK(k < 1000);
        mid += k >= 333 && k < 667; /* within one standard deviation (1000 / 6) */
    }
    CHECK(mid > 6000 && mid < 7400);
}

static void test_setup_expand(void)
{
    json_t *v = json_loads("[\"SET a __data__\", [\"DEL\", \"b c\"], "
                           "{\"command\": \"HSET h f__i__ v__i__\", \"count\": 3}]",
                           0, NULL);
    struct rcmd_out out = {0};
    uint64_t n = 0;
    char err[256], shown[64], path[] = "/tmp/pairbench-rcmd-XXXXXX";
    int fd;

    CHECK(rcmd_setup_expand(v, "xy", 2, &out, &n, err, sizeof(err)) == 0 && n == 5);
    rcmd_resp_show(out.p, out.len, 4, shown, sizeof(shown));
    CHECK_STR(shown, "HSET h f2 v2");
    rcmd_resp_show(out.p, out.len, 1, shown, sizeof(shown));
    CHECK_STR(shown, "DEL b c");
    json_decref(v);
    /* a RESP file and an inline file of the same commands give the same bytes */
    fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, out.p, out.len) == (ssize_t)out.len && close(fd) == 0);
    {
        struct rcmd_out again = {0};
        json_t *f = json_string(path);
        FILE *fp;

        CHECK(rcmd_setup_expand(f, "xy", 2, &again, &n, err, sizeof(err)) == 0 && n == 5);
        CHECK(again.len == out.len && memcmp(again.p, out.p, out.len) == 0);
        fp = fopen(path, "w");
        CHECK(fp &&
              fputs("# data\nSET a xy\n\nDEL \"b c\"\r\nHSET h f0 v0\nHSET h f1 v1\n"
                    "HSET h f2 v2\n",
                    fp) >= 0 &&
              fclose(fp) == 0);
        again.len = 0;
        CHECK(rcmd_setup_expand(f, "xy", 2, &again, &n, err, sizeof(err)) == 0 && n == 5);
        CHECK(again.len == out.len && memcmp(again.p, out.p, out.len) == 0);
        rcmd_out_free(&again);
        json_decref(f);
    }
    unlink(path);
    rcmd_out_free(&out);
}

/* A summary row's per-command medians and setup facts from synthetic runs. */
static void test_summary_workload(void)
{
    json_t *latest = json_object(), *versions = json_pack("[s,s]", "a", "b"), *row = json_object();
    const char *ver[] = {"a", "b"};
    char key[512], label[200];
    json_t *p;

    for (int v = 0; v < 2; v++)
        for (int r = 1; r <= 3; r++) {
            json_t *run = json_pack(
                "{s:s, s:{s:[{s:s, s:f, s:f, s:{s:f}}, {s:s, s:f, s:f, s:{s:f}}], s:{s:s, s:i}}}",
                "status", "ok", "result", "commands", "command", "SET __key__", "weight", 1.0,
                "throughput", 100.0 * r + v, "latency_us", "p99", 10.0 * r, "command",
                "GET __key__", "weight", 3.0, "throughput", 300.0 * r, "latency_us", "p99", 5.0,
                "setup", "sha256", v == 1 && r == 3 ? "other" : "same", "keys", 7);

            summary_run_key(key, sizeof(key), "cfg", ver[v], r);
            json_object_set_new(latest, key, run);
        }
    summary_row_workload(row, "cfg", latest, versions, 3);
    CHECK(json_real_value(json_object_get(
              json_array_get(json_object_get(json_object_get(row, "commands"), "b"), 0),
              "throughput")) == 201.0);
    CHECK(json_real_value(json_object_get(
              json_array_get(json_object_get(json_object_get(row, "commands"), "a"), 0),
              "p99_us")) == 20.0);
    CHECK(json_is_false(json_object_get(json_object_get(row, "setup"), "same_data")));
    CHECK(json_array_size(
              json_object_get(json_object_get(json_object_get(row, "setup"), "b"), "sha256")) == 2);
    /* labels: a long template is cut, a mix is listed with its weights */
    p = json_pack("{s:s, s:s}", "protocol", "redis", "command",
                  "HDEL test_HGET f157 f3 f9 f41 f88 f120 f7 f199 f64");
    grid_redis_label(p, label, sizeof(label));
    CHECK_STR(label, "HDEL test_HGET f157 f3 f9 f41 f88 f12...");
    json_decref(p);
    p = json_loads("{\"commands\": [{\"command\": \"SET __key__ __data__\", \"weight\": 1}, "
                   "{\"command\": [\"GET\", \"__key__\"], \"weight\": 10}]}",
                   0, NULL);
    grid_redis_label(p, label, sizeof(label));
    CHECK_STR(label, "SET __key__ __data__ ×1 + [\"GET\",\"__key__\"] ×10");
    json_decref(p);
    json_decref(row);
    json_decref(latest);
    json_decref(versions);
}

/* A sequence's state after each step: the medians per version, same_keys, and the Step by
 * step sentence naming the first step after which the versions held different keys. */
static void test_state_after(void)
{
    json_t *versions = json_pack("[s,s]", "a", "b"), *rows = json_array();
    /* keys per step, version and round: step 2's b holds a third more */
    static const double keys[2][2][3] = {{{0, 0, 0}, {0, 0, 0}},
                                         {{900, 1000, 1010}, {1330, 1340, 1290}}};
    size_t idx[2] = {0, 1};
    struct steps st = {2, idx};
    char *s;

    for (int step = 0; step < 2; step++) {
        json_t *latest = json_object(), *row = json_pack("{s:s}", "label", step ? "SET" : "PING");
        char key[512];

        for (int v = 0; v < 2; v++)
            for (int r = 1; r <= 3; r++) {
                summary_run_key(key, sizeof(key), "cfg", v ? "b" : "a", r);
                json_object_set_new(latest, key,
                                    json_pack("{s:s, s:{s:{s:f, s:f, s:f, s:f}}}", "status", "ok",
                                              "sequence", "state", "keys", keys[step][v][r - 1],
                                              "used_memory", 1e6 + r, "rss_kib", 9000.0 + v,
                                              "sockets", 1.0));
            }
        summary_row_workload(row, "cfg", latest, versions, 3);
        json_array_append_new(rows, row);
        json_decref(latest);
    }
    CHECK(json_is_true(
        json_object_get(json_object_get(json_array_get(rows, 0), "state_after"), "same_keys")));
    CHECK(json_is_false(
        json_object_get(json_object_get(json_array_get(rows, 1), "state_after"), "same_keys")));
    CHECK(json_real_value(json_object_get(
              json_object_get(json_object_get(json_array_get(rows, 1), "state_after"), "b"),
              "keys")) == 1330.0);
    s = sent_steps_state(rows, &st, "a", "b", "en");
    CHECK_MSG(s && strstr(s, "after step 2, SET, the server held 1000 keys under `a` and 1330 "
                             "under `b`"),
              "%s", s ? s : "(null)");
    free(s);
    st.n = 1; /* only the first step: no difference */
    s = sent_steps_state(rows, &st, "a", "b", "en");
    CHECK_MSG(s && strstr(s, "left the same number of keys after every step"), "%s",
              s ? s : "(null)");
    free(s);
    /* a fresh-server run beside the steps: step 2 regressed through the sequence only, then
     * with fresh servers too */
    st.n = 2;
    json_object_set_new(json_array_get(rows, 1), "metrics",
                        json_pack("{s:{s:{s:{s:f,s:s}}}}", "throughput", "vs_baseline", "b",
                                  "change", -0.4, "verdict", "regressed"));
    s = sent_steps_fresh(rows, &st, "a", "b", "en");
    CHECK(s == NULL); /* no fresh figures */
    free(s);
    json_object_set_new(json_array_get(rows, 1), "fresh_server",
                        json_pack("{s:{s:{s:{s:f,s:s}}}}", "throughput", "vs_baseline", "b",
                                  "change", 0.003, "verdict", "~"));
    s = sent_steps_fresh(rows, &st, "a", "b", "en");
    CHECK_MSG(s && strstr(s, "step 2, SET, is \xe2\x88\x92"
                             "40.00% through the sequence and +0.30% (~) "
                             "with a fresh server per run: the change builds up"),
              "%s", s ? s : "(null)");
    free(s);
    json_object_set_new(json_array_get(rows, 1), "fresh_server",
                        json_pack("{s:{s:{s:{s:f,s:s}}}}", "throughput", "vs_baseline", "b",
                                  "change", -0.38, "verdict", "regressed"));
    s = sent_steps_fresh(rows, &st, "a", "b", "en");
    CHECK_MSG(s && strstr(s, "is regressed with a fresh server per run too"), "%s",
              s ? s : "(null)");
    free(s);
    json_decref(rows);
    json_decref(versions);
}

int main(void)
{
    test_summary_workload();
    test_state_after();
    test_same_bytes();
    test_refusals();
    test_split_and_encode();
    test_key_patterns();
    test_setup_expand();
    return T_DONE();
}
