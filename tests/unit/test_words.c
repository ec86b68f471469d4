/* words: shell-like splitting, quotes, placeholders, refusals. */
#include <stdlib.h>

#include "t.h"
#include "util/words.h"

static void expect_words(const char *cmd, const struct words_vars *vars, const char *const *want,
                         size_t nwant)
{
    char **argv = NULL, err[512] = "";
    size_t argc = 0, i;
    int rc = words_split(cmd, vars, &argv, &argc, err, sizeof(err));

    CHECK_MSG(rc == 0, "'%s': %s", cmd, err);
    if (rc != 0)
        return;
    CHECK_MSG(argc == nwant, "'%s': %zu words, want %zu", cmd, argc, nwant);
    for (i = 0; i < argc && i < nwant; i++)
        CHECK_STR(argv[i], want[i]);
    CHECK(argv[argc] == NULL);
    words_free(argv);
}

static void expect_error(const char *cmd, const struct words_vars *vars, const char *msg)
{
    char **argv = NULL, err[512] = "";
    size_t argc = 0;
    int rc = words_split(cmd, vars, &argv, &argc, err, sizeof(err));

    CHECK_MSG(rc == -1, "'%s' should fail", cmd);
    CHECK_STR(err, msg);
    words_free(argv);
}

/* A template: known placeholders expanded, every other brace left as written. */
static void test_render(void)
{
    struct words_vars v = {.port = "8080", .dir = "/d", .conf = "/d/nginx.conf"};
    char err[256] = "", *out;

    out = words_render("http { server { listen 127.0.0.1:{port}; root {dir}/www; }\n"
                       "location ~ ^/a{3}$ { return 200 \"{x}{}{\"; } } # {conf}",
                       &v, err, sizeof(err));
    CHECK_STR(out ? out : err, "http { server { listen 127.0.0.1:8080; root /d/www; }\n"
                               "location ~ ^/a{3}$ { return 200 \"{x}{}{\"; } } # /d/nginx.conf");
    free(out);
    out = words_render("ssl_certificate {cert};", &v, err, sizeof(err));
    CHECK(out == NULL);
    CHECK_STR(err, "placeholder '{cert}' has no value here");
    out = words_render("", &v, err, sizeof(err));
    CHECK(out && out[0] == '\0');
    free(out);
}

int main(void)
{
    test_render();
    struct words_vars v = {.port = "6380", .host = "127.0.0.1", .dir = "/tmp/x y", .tree = "/w/t"};
    char q[128];

    {
        const char *w[] = {"redis-server", "--port", "6380", "--save", "", "--appendonly", "no"};
        expect_words("redis-server --port {port} --save '' --appendonly no", &v, w, 7);
    }
    {
        const char *w[] = {"a b", "c\"d", "e f", "g'h", "x\\y"};
        expect_words("'a b' \"c\\\"d\" e\\ f \"g'h\" 'x\\y'", &v, w, 5);
    }
    {
        const char *w[] = {"--dir", "/tmp/x y", "--bind=127.0.0.1:6380"};
        expect_words("  --dir {dir}\t--bind={host}:{port}  ", &v, w, 3);
    }
    {
        const char *w[] = {"/w/t/bin/server", "{port}", "{}", "{a b}"};
        expect_words("{tree}/bin/server '{port}' {} '{a b}'", &v, w, 4);
    }
    {
        const char *w[] = {"echo", "{\"a\":1}"};
        expect_words("echo '{\"a\":1}'", &v, w, 2);
    }
    {
        const char *w[] = {"x", "6380"};
        expect_words("x \"{port}\"", &v, w, 2);
    }
    {
        /* checking only: known names pass without values */
        const char *w[] = {"s", "{cert}"};
        expect_words("s {cert}", NULL, w, 2);
    }
    expect_error("server --port {prot}", &v,
                 "unknown placeholder '{prot}' (expected one of {port} {host} {cert} {key} "
                 "{cacert} {dir} {tree} {conf} {port2})");
    expect_error("server --cert {cert}", &v, "placeholder '{cert}' has no value here");
    expect_error("server 'oops", &v, "unterminated single quote at offset 7");
    expect_error("server \"oops", &v, "unterminated double quote at offset 7");
    expect_error("server | tee x", &v,
                 "shell syntax '|' at offset 7 is not supported (commands run without a shell; "
                 "quote it to pass it literally)");
    expect_error("server $HOME", &v,
                 "shell syntax '$' at offset 7 is not supported (commands run without a shell; "
                 "quote it to pass it literally)");
    expect_error("   ", &v, "empty command");
    expect_error("a \\", &v, "trailing backslash");

    CHECK_STR(words_quote("plain-word_1.2", q, sizeof(q)), "plain-word_1.2");
    CHECK_STR(words_quote("", q, sizeof(q)), "''");
    CHECK_STR(words_quote("a b", q, sizeof(q)), "'a b'");
    CHECK_STR(words_quote("it's", q, sizeof(q)), "'it'\\''s'");
    return T_DONE();
}
