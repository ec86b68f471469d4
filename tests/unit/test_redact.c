/* redact: the secret-name rule; registered values replaced in text, in JSON strings (but the
 * kept identities) and in a stream cut at every byte (a value split between two reads is
 * still replaced); a short value is not registered; logcap_copy writes a log redacted. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/logcap.h"
#include "util/redact.h"
#include "t.h"

static void test_names(void)
{
    CHECK(redact_secret_name("DB_PASSWORD"));
    CHECK(redact_secret_name("db_passwd"));
    CHECK(redact_secret_name("GITHUB_TOKEN"));
    CHECK(redact_secret_name("API_KEY"));
    CHECK(redact_secret_name("AWS_SECRET_ACCESS_KEY"));
    CHECK(redact_secret_name("MY_CREDENTIALS"));
    CHECK(redact_secret_name("PAIRBENCH_REDIS_USER"));
    CHECK(!redact_secret_name("PATH"));
    CHECK(!redact_secret_name("MALLOC_CONF"));
}

static void test_text_and_json(void)
{
    char s[128] = "env: DB_PASSWORD=s3cr3t-XYZ; again s3cr3t-XYZs3cr3t-XYZ; abc";
    char *envp[] = {"PAIRBENCH_REDIS_PASSWORD=hunter22", "HOME=/root", NULL};
    json_t *env =
        json_pack("{s:s,s:s,s:s}", "DB_PASSWORD", "s3cr3t-XYZ", "PORT", "6379", "SHORT_KEY", "abc");
    json_t *line = json_pack("{s:s,s:s,s:{s:[s]}}", "version", "hunter22", "reason",
                             "auth hunter22 refused", "result", "errors", "x hunter22 y");

    redact_clear();
    CHECK(redact_add_env(env) == 0);
    CHECK(redact_add_environ(envp) == 0);
    CHECK(redact_max_len() == strlen("s3cr3t-XYZ"));
    redact_text(s);
    CHECK_STR(s, "env: DB_PASSWORD=***; again ******; abc");
    {
        const char *keep[] = {"version", NULL};
        CHECK(redact_json(line, keep) == 0);
        CHECK_STR(json_string_value(json_object_get(line, "version")), "hunter22");
        CHECK_STR(json_string_value(json_object_get(line, "reason")), "auth *** refused");
        CHECK_STR(json_string_value(json_array_get(
                      json_object_get(json_object_get(line, "result"), "errors"), 0)),
                  "x *** y");
    }
    json_decref(env);
    json_decref(line);
}

/* The stream: input cut into pieces of size step, carried as logcap_copy carries them. */
static void stream_through(const char *in, size_t step, char *out, size_t outlen)
{
    char buf[256];
    size_t held = 0, n, o = 0, i = 0, len = strlen(in);

    while (i < len) {
        size_t k = len - i < step ? len - i : step;
        memcpy(buf + held, in + i, k);
        i += k;
        n = redact_span(buf, held + k, 0, &held);
        memcpy(out + o, buf, n - held);
        o += n - held;
        memmove(buf, buf + n - held, held);
    }
    n = redact_span(buf, held, 1, &held);
    memcpy(out + o, buf, n);
    o += n;
    out[o < outlen ? o : outlen - 1] = '\0';
}

static void test_stream_every_cut(void)
{
    const char *in = "a s3cr3t-XYZ b s3cr3t-XY c hunter2 hunter22 s3cr3t-XYZ TRUE";
    char out[256];
    size_t step;

    redact_clear();
    CHECK(redact_add("s3cr3t-XYZ") == 0);
    CHECK(redact_add("hunter22") == 0);
    CHECK(redact_add("abc") == 0);  /* too short: not registered */
    CHECK(redact_add("TRUE") == 0); /* a switch: not registered */
    for (step = 1; step <= strlen(in); step++) {
        stream_through(in, step, out, sizeof(out));
        CHECK_MSG(strcmp(out, "a *** b s3cr3t-XY c hunter2 *** *** TRUE") == 0, "step %zu: '%s'",
                  step, out);
    }
}

static void test_logcap_redacts(void)
{
    char path[] = "/tmp/pairbench-redact-XXXXXX", text[256];
    int pp[2], out = mkstemp(path);
    ssize_t len;
    pid_t w;

    redact_clear();
    CHECK(redact_add("s3cr3t-XYZ") == 0);
    CHECK(out >= 0 && pipe(pp) == 0);
    w = fork();
    if (w == 0) { /* one byte a write: the value arrives cut at every byte */
        const char *msg = "DB_PASSWORD=s3cr3t-XYZ\n";
        close(pp[0]);
        for (; *msg; msg++)
            if (write(pp[1], msg, 1) != 1)
                _exit(1);
        _exit(0);
    }
    close(pp[1]);
    (void)logcap_copy(pp[0], out, 8, 8);
    close(pp[0]);
    while (waitpid(w, NULL, 0) < 0)
        ;
    len = pread(out, text, sizeof(text) - 1, 0);
    text[len > 0 ? len : 0] = '\0';
    close(out);
    unlink(path);
    CHECK_MSG(strstr(text, "s3cr3t") == NULL && strstr(text, "***") != NULL, "'%s'", text);
}

int main(void)
{
    test_names();
    test_text_and_json();
    test_stream_every_cut();
    test_logcap_redacts();
    redact_clear();
    return T_DONE();
}
