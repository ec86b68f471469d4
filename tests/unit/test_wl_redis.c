/* wl_redis: the table driven directly, no sockets. Batches are what hiredis would format,
 * keys follow redis-benchmark's naming, handshakes carry AUTH/HELLO and the LRANGE prefill,
 * replies are tallied, secrets come from env or file and never show in messages. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "wl/secret.h"
#include "t.h"
#include "wl/workload.h"

static void opts_init(struct drv_opts *o, const char *command, size_t payload, unsigned pipeline)
{
    memset(o, 0, sizeof(*o));
    o->mode = MODE_CLIENT;
    o->protocol = PROTO_REDIS;
    snprintf(o->host, sizeof(o->host), "127.0.0.1");
    o->port = 6379;
    o->connections = 1;
    o->workers = 1;
    o->pipeline = pipeline;
    o->window = 1;
    o->payload = payload;
    o->resp = 2;
    snprintf(o->command, sizeof(o->command), "%s", command);
}

struct fixture {
    void *shared;
    void *conn;
    struct buf hello;
    char err[256];
};

static int fixture_open(struct fixture *f, const struct drv_opts *o)
{
    memset(f, 0, sizeof(*f));
    if (buf_init(&f->hello, 1 << 20) < 0)
        return -1;
    if (wl_redis.setup(o, &f->shared, f->err, sizeof(f->err)) < 0)
        return -1;
    f->conn = wl_redis.conn_new(f->shared, 0, 42);
    return f->conn ? 0 : -1;
}

static void fixture_close(struct fixture *f)
{
    if (f->conn)
        wl_redis.conn_free(f->conn);
    if (f->shared)
        wl_redis.teardown(f->shared);
    buf_release(&f->hello);
}

static int contains(const char *hay, size_t n, const char *needle)
{
    return memmem(hay, n, needle, strlen(needle)) != NULL;
}

static void test_echo_batches(void)
{
    struct drv_opts o;
    struct fixture f;
    const char *data;
    size_t len;
    struct wl_tally t = {0};
    const char *one = "*2\r\n$4\r\nECHO\r\n$5\r\nabcde\r\n";

    opts_init(&o, "ECHO", 5, 4);
    CHECK(fixture_open(&f, &o) == 0);
    CHECK(wl_redis.hello(f.conn, &f.hello) == 0);
    CHECK(wl_redis.batch(f.conn, 1, &data, &len) == 0);
    CHECK(len == strlen(one) && memcmp(data, one, len) == 0);
    CHECK(wl_redis.batch(f.conn, 4, &data, &len) == 0);
    CHECK(len == 4 * strlen(one));
    for (int i = 0; i < 4; i++)
        CHECK(memcmp(data + i * strlen(one), one, strlen(one)) == 0);
    CHECK(wl_redis.batch(f.conn, 5, &data, &len) == -1);
    CHECK(wl_redis.batch(f.conn, 0, &data, &len) == -1);

    const char *replies = "$5\r\nabcde\r\n$5\r\nabcdX\r\n-ERR x\r\n$5\r\nab";
    CHECK(wl_redis.feed(f.conn, replies, strlen(replies), &t, NULL) == (ssize_t)strlen(replies));
    CHECK(t.replies == 3 && t.ok == 1 && t.verify == 1 && t.protocol == 1);
    CHECK(wl_redis.feed(f.conn, "cde\r\n", 5, &t, NULL) == 5);
    CHECK(t.replies == 4 && t.ok == 2);
    CHECK(wl_redis.feed(f.conn, "?bad\r\n", 6, &t, NULL) == -1);
    fixture_close(&f);
}

/* Every suite command formats and accepts its typical reply. */
static void test_suite(void)
{
    static const struct {
        const char *cmd, *needle, *reply;
    } cmds[] = {
        {"PING", "PING", "+PONG\r\n"},
        {"SET", "key:__rand_int__", "+OK\r\n"},
        {"GET", "key:__rand_int__", "$-1\r\n"},
        {"INCR", "counter:__rand_int__", ":1\r\n"},
        {"LPUSH", "mylist", ":1\r\n"},
        {"RPUSH", "mylist", ":2\r\n"},
        {"LPOP", "mylist", "$3\r\nabc\r\n"},
        {"RPOP", "mylist", "$-1\r\n"},
        {"SADD", "element:__rand_int__", ":1\r\n"},
        {"HSET", "myhash", ":0\r\n"},
        {"SPOP", "myset", "$20\r\nelement:__rand_int__\r\n"},
        {"ZADD", "myzset", ":1\r\n"},
        {"ZPOPMIN", "myzset", "*2\r\n$1\r\na\r\n$2\r\n10\r\n"},
        {"MSET", "*21\r\n$4\r\nMSET", "+OK\r\n"},
        {"mset", "*21\r\n$4\r\nMSET", "+OK\r\n"},
    };
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        struct drv_opts o;
        struct fixture f;
        const char *data;
        size_t len;
        struct wl_tally t = {0};

        opts_init(&o, cmds[i].cmd, 3, 1);
        CHECK_MSG(fixture_open(&f, &o) == 0, "%s: %s", cmds[i].cmd, f.err);
        if (f.conn == NULL) {
            fixture_close(&f);
            continue;
        }
        CHECK(wl_redis.batch(f.conn, 1, &data, &len) == 0);
        CHECK_MSG(contains(data, len, cmds[i].needle), "%s: '%.*s'", cmds[i].cmd, (int)len, data);
        CHECK(wl_redis.feed(f.conn, cmds[i].reply, strlen(cmds[i].reply), &t, NULL) > 0);
        CHECK_MSG(t.replies == 1 && t.ok == 1, "%s: reply not accepted", cmds[i].cmd);
        fixture_close(&f);
    }
}

/* --keyspace: keys are 12 zero-padded digits below N, varying across batches. */
static void test_keyspace(void)
{
    struct drv_opts o;
    struct fixture f;
    const char *data;
    size_t len;
    char first[64] = "";
    int differ = 0;

    opts_init(&o, "SET", 8, 2);
    o.keyspace = 1000;
    CHECK(fixture_open(&f, &o) == 0);
    for (int b = 0; b < 200; b++) {
        CHECK(wl_redis.batch(f.conn, 2, &data, &len) == 0);
        const char *k = memmem(data, len, "key:", 4);
        CHECK(k != NULL);
        if (k == NULL)
            break;
        for (int d = 0; d < 12; d++)
            CHECK(k[4 + d] >= '0' && k[4 + d] <= '9');
        CHECK(memcmp(k + 4, "000000000", 9) == 0); /* < 1000 */
        CHECK(k[16] == '\r');
        if (b == 0)
            memcpy(first, k, 16);
        else if (memcmp(first, k, 16) != 0)
            differ = 1;
    }
    CHECK(differ);
    fixture_close(&f);

    opts_init(&o, "MSET", 4, 1);
    o.keyspace = 100000;
    CHECK(fixture_open(&f, &o) == 0);
    CHECK(wl_redis.batch(f.conn, 1, &data, &len) == 0);
    CHECK(contains(data, len, "*21\r\n"));
    CHECK(!contains(data, len, "__rand_int__"));
    fixture_close(&f);

    opts_init(&o, "SET", 4, 1);
    o.keyspace = 10000000000000ULL;
    CHECK(wl_redis.setup(&o, &f.shared, f.err, sizeof(f.err)) == -1);
    CHECK(strstr(f.err, "--keyspace") != NULL);
}

static void test_lrange_prefill(void)
{
    struct drv_opts o;
    struct fixture f;
    const char *data;
    size_t len;
    int done = 0;
    struct wl_tally t = {0};
    char reply[4096];
    size_t rl = 0;

    opts_init(&o, "LRANGE_100", 2, 1);
    CHECK(fixture_open(&f, &o) == 0);
    CHECK(wl_redis.hello(f.conn, &f.hello) > 0);
    CHECK(contains(f.hello.data, f.hello.len, "*102\r\n$5\r\nLPUSH\r\n$6\r\nmylist\r\n"));
    CHECK(
        contains(f.hello.data, f.hello.len, "$5\r\nLTRIM\r\n$6\r\nmylist\r\n$1\r\n0\r\n$2\r\n99"));
    /* replies in two pieces */
    CHECK(wl_redis.hello_feed(f.conn, ":100\r", 5, &done, f.err, sizeof(f.err)) == 5 && !done);
    CHECK(wl_redis.hello_feed(f.conn, "\n+OK\r\n", 6, &done, f.err, sizeof(f.err)) == 6 && done);
    CHECK(wl_redis.batch(f.conn, 1, &data, &len) == 0);
    CHECK(contains(data, len, "$6\r\nLRANGE\r\n$6\r\nmylist\r\n$1\r\n0\r\n$2\r\n99\r\n"));
    rl = (size_t)snprintf(reply, sizeof(reply), "*100\r\n");
    for (int i = 0; i < 100; i++)
        rl += (size_t)snprintf(reply + rl, sizeof(reply) - rl, "$2\r\nab\r\n");
    CHECK(wl_redis.feed(f.conn, reply, rl, &t, NULL) == (ssize_t)rl);
    CHECK(t.replies == 1 && t.ok == 1);
    /* 99 elements: verify */
    CHECK(wl_redis.feed(f.conn, "*1\r\n$2\r\nab\r\n", 12, &t, NULL) == 12);
    CHECK(t.replies == 2 && t.verify == 1);

    /* a failing prefill names itself */
    buf_release(&f.hello);
    CHECK(buf_init(&f.hello, 1 << 20) == 0);
    CHECK(wl_redis.hello(f.conn, &f.hello) > 0);
    const char *wt = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    CHECK(wl_redis.hello_feed(f.conn, wt, strlen(wt), &done, f.err, sizeof(f.err)) == -1);
    CHECK_STR(f.err, "redis: prefill 'LPUSH mylist' failed: WRONGTYPE Operation against a key "
                     "holding the wrong kind of value");
    fixture_close(&f);

    /* --no-prefill: no handshake at all, the same LRANGE */
    o.no_prefill = 1;
    CHECK(fixture_open(&f, &o) == 0);
    CHECK(wl_redis.hello(f.conn, &f.hello) == 0 && f.hello.len == 0);
    CHECK(wl_redis.batch(f.conn, 1, &data, &len) == 0);
    CHECK(contains(data, len, "$6\r\nLRANGE\r\n$6\r\nmylist\r\n$1\r\n0\r\n$2\r\n99\r\n"));
    fixture_close(&f);
}

static void test_auth(void)
{
    struct drv_opts o;
    struct fixture f;
    int done = 0;
    const char *wp = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

    /* RESP2, password only */
    unsetenv(SECRET_ENV_USER);
    setenv(SECRET_ENV_PASSWORD, "s3cr3t-pw", 1);
    opts_init(&o, "ECHO", 3, 1);
    o.auth = 1;
    CHECK(fixture_open(&f, &o) == 0);
    CHECK(wl_redis.hello(f.conn, &f.hello) > 0);
    CHECK(f.hello.len == strlen("*2\r\n$4\r\nAUTH\r\n$9\r\ns3cr3t-pw\r\n"));
    CHECK(memcmp(f.hello.data, "*2\r\n$4\r\nAUTH\r\n$9\r\ns3cr3t-pw\r\n", f.hello.len) == 0);
    CHECK(wl_redis.hello_feed(f.conn, wp, strlen(wp), &done, f.err, sizeof(f.err)) == -1);
    CHECK_STR(f.err, "redis: AUTH failed: WRONGPASS invalid username-password pair or user is "
                     "disabled.");
    CHECK(strstr(f.err, "s3cr3t") == NULL);
    fixture_close(&f);

    /* RESP3 with an ACL user: HELLO 3 AUTH user pass, then the map reply */
    setenv(SECRET_ENV_USER, "alice", 1);
    opts_init(&o, "PING", 0, 1);
    o.auth = 1;
    o.resp = 3;
    CHECK(fixture_open(&f, &o) == 0);
    CHECK(wl_redis.hello(f.conn, &f.hello) > 0);
    CHECK(contains(f.hello.data, f.hello.len,
                   "*5\r\n$5\r\nHELLO\r\n$1\r\n3\r\n$4\r\nAUTH\r\n$5\r\nalice\r\n$9\r\ns3cr3t-pw"));
    const char *map = "%2\r\n$6\r\nserver\r\n$5\r\nredis\r\n$5\r\nproto\r\n:3\r\n";
    CHECK(wl_redis.hello_feed(f.conn, map, strlen(map), &done, f.err, sizeof(f.err)) ==
          (ssize_t)strlen(map));
    CHECK(done == 1);
    struct wl_tally t = {0};
    CHECK(wl_redis.feed(f.conn, "+PONG\r\n", 7, &t, NULL) == 7 && t.ok == 1);
    /* reconnect: hello again, wrong password this time */
    buf_release(&f.hello);
    CHECK(buf_init(&f.hello, 1 << 20) == 0);
    CHECK(wl_redis.hello(f.conn, &f.hello) > 0);
    CHECK(wl_redis.hello_feed(f.conn, wp, strlen(wp), &done, f.err, sizeof(f.err)) == -1);
    CHECK(strncmp(f.err, "redis: AUTH failed: WRONGPASS", 29) == 0);
    fixture_close(&f);

    /* RESP3 without auth against a server that does not know HELLO */
    opts_init(&o, "PING", 0, 1);
    o.resp = 3;
    CHECK(fixture_open(&f, &o) == 0);
    CHECK(wl_redis.hello(f.conn, &f.hello) > 0);
    CHECK(memcmp(f.hello.data, "*2\r\n$5\r\nHELLO\r\n$1\r\n3\r\n", f.hello.len) == 0);
    const char *unk = "-ERR unknown command 'HELLO'\r\n";
    CHECK(wl_redis.hello_feed(f.conn, unk, strlen(unk), &done, f.err, sizeof(f.err)) == -1);
    CHECK_STR(f.err, "redis: HELLO 3 failed: ERR unknown command 'HELLO'");
    /* a protected server, no --auth: the message says what to do */
    buf_release(&f.hello);
    CHECK(buf_init(&f.hello, 1 << 20) == 0);
    CHECK(wl_redis.hello(f.conn, &f.hello) > 0);
    const char *noauth = "-NOAUTH HELLO must be called with the client already authenticated\r\n";
    CHECK(wl_redis.hello_feed(f.conn, noauth, strlen(noauth), &done, f.err, sizeof(f.err)) == -1);
    CHECK(strstr(f.err, "redis: HELLO 3 failed: NOAUTH HELLO must") == f.err);
    CHECK(strstr(f.err, "(the server requires a password: use --auth)") != NULL);
    fixture_close(&f);

    /* a password file without --auth is a mistake, not something to ignore */
    opts_init(&o, "PING", 0, 1);
    snprintf(o.password_file, sizeof(o.password_file), "/nonexistent/pw");
    CHECK(wl_redis.setup(&o, &f.shared, f.err, sizeof(f.err)) == -1);
    CHECK_STR(f.err, "redis: --password-file '/nonexistent/pw' without --auth: add --auth to "
                     "authenticate");

    /* no password anywhere */
    unsetenv(SECRET_ENV_PASSWORD);
    unsetenv(SECRET_ENV_USER);
    opts_init(&o, "PING", 0, 1);
    o.auth = 1;
    CHECK(wl_redis.setup(&o, &f.shared, f.err, sizeof(f.err)) == -1);
    CHECK(strstr(f.err, SECRET_ENV_PASSWORD) != NULL);
}

static void test_secret_file(void)
{
    char path[] = "/tmp/pairbench-secret-XXXXXX";
    int fd = mkstemp(path);
    struct secret s;
    char err[256];

    CHECK(fd >= 0);
    if (fd < 0)
        return;
    CHECK(write(fd, "file-pw\r\n", 9) == 9);
    close(fd);
    setenv(SECRET_ENV_PASSWORD, "env-pw", 1);
    CHECK(secret_load(&s, path, err, sizeof(err)) == 0);
    CHECK_STR(s.password, "file-pw");
    CHECK(s.password_len == 7);
    CHECK(secret_load(&s, "", err, sizeof(err)) == 0);
    CHECK_STR(s.password, "env-pw");
    secret_wipe(&s);
    CHECK(s.password[0] == '\0' && s.password_len == 0);
    /* empty file */
    fd = open(path, O_WRONLY | O_TRUNC);
    CHECK(fd >= 0 && write(fd, "\n", 1) == 1);
    if (fd >= 0)
        close(fd);
    CHECK(secret_load(&s, path, err, sizeof(err)) == -1);
    CHECK(strstr(err, "--password-file") != NULL && strstr(err, "empty") != NULL);
    unlink(path);
    CHECK(secret_load(&s, path, err, sizeof(err)) == -1);
    CHECK(strstr(err, "No such file") != NULL);
    unsetenv(SECRET_ENV_PASSWORD);
}

static void test_bad_command(void)
{
    struct drv_opts o;
    void *sh = NULL;
    char err[512];

    opts_init(&o, "GET __foo__", 8, 1);
    CHECK(wl_redis.setup(&o, &sh, err, sizeof(err)) == -1);
    CHECK(sh == NULL);
    CHECK_STR(err, "redis: --command 'GET __foo__': unknown placeholder '__foo__' (expected "
                   "__rand_int__, __rand_score__, __key__ or __data__)");
}

int main(void)
{
    test_echo_batches();
    test_suite();
    test_keyspace();
    test_lrange_prefill();
    test_auth();
    test_secret_file();
    test_bad_command();
    return T_DONE();
}
