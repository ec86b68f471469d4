/* sshhost: the server host's URL (accepted and refused shapes), the ssh command built from it
 * (batch mode and the host-key check always on, the named files used) and a password kept out
 * of messages. */
#include <stdio.h>
#include <string.h>

#include "run/sshhost.h"
#include "t.h"

static void test_parse_ok(void)
{
    struct server_host h;
    char why[512];

    CHECK(sshhost_parse("ssh://bench@10.0.0.2", &h, why, sizeof(why)) == 0);
    CHECK_STR(h.user, "bench");
    CHECK_STR(h.host, "10.0.0.2");
    CHECK(h.port == 22);
    CHECK_STR(h.driver, "driver");
    CHECK(h.rtt_limit == 0.5);
    CHECK(h.keyfile[0] == '\0' && h.known_hosts[0] == '\0');
    CHECK(sshhost_parse("ssh://srv.example:2222/", &h, why, sizeof(why)) == 0);
    CHECK(h.user[0] == '\0' && h.port == 2222);
    CHECK_STR(h.host, "srv.example");
    CHECK(sshhost_parse("ssh://u@[fd00::2]:2200?keyfile=/k/id&known_hosts=/k/kh&driver=/opt/"
                        "pb/driver&rtt_limit=0.25",
                        &h, why, sizeof(why)) == 0);
    CHECK_STR(h.host, "fd00::2");
    CHECK(h.port == 2200);
    CHECK_STR(h.keyfile, "/k/id");
    CHECK_STR(h.known_hosts, "/k/kh");
    CHECK_STR(h.driver, "/opt/pb/driver");
    CHECK(h.rtt_limit == 0.25);
}

static void test_parse_refused(void)
{
    static const struct {
        const char *url, *why;
    } bad[] = {
        {"rsh://h", "expected ssh://"}, /* another scheme */
        {"h", "expected ssh://"},
        {"ssh://", "no host"},
        {"ssh://u:pw@h", "a password in the URL is refused"},
        {"ssh://u@h:0", "port '0': expected 1 to 65535"},
        {"ssh://u@h:99999", "port '99999'"},
        {"ssh://u@h/path", "a path is not expected"},
        {"ssh://u;rm@h", "user 'u;rm'"},
        {"ssh://u@h$x", "host 'h$x'"},
        {"ssh://u@h?keyfile", "query parameter 'keyfile': expected KEY=VALUE"},
        {"ssh://u@h?password=x", "unknown query parameter 'password'"},
        {"ssh://u@h?rtt_limit=0", "rtt_limit '0'"},
        {"ssh://u@[zz]", "expected [IPv6 address]"},
    };
    struct server_host h;
    char why[512];
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        why[0] = '\0';
        CHECK_MSG(sshhost_parse(bad[i].url, &h, why, sizeof(why)) == -1, "%s", bad[i].url);
        CHECK_MSG(strstr(why, bad[i].why) != NULL, "%s: '%s'", bad[i].url, why);
    }
}

static void test_argv(void)
{
    struct server_host h;
    char why[512], store[2048], *argv[40], line[4096] = "";
    int n, i;
    size_t o = 0;

    CHECK(sshhost_parse("ssh://u@10.1.1.1:2222?keyfile=/k/id&known_hosts=/k/kh", &h, why,
                        sizeof(why)) == 0);
    n = sshhost_argv(&h, "driver agent", argv, 40, store, sizeof(store));
    CHECK(n > 0 && argv[n] == NULL);
    for (i = 0; i < n; i++)
        o += (size_t)snprintf(line + o, sizeof(line) - o, "%s%s", i ? " " : "", argv[i]);
    CHECK_STR(line, "ssh -T -o BatchMode=yes -o StrictHostKeyChecking=yes -o ConnectTimeout=10 "
                    "-o ServerAliveInterval=2 -o ServerAliveCountMax=3 -o LogLevel=ERROR -p 2222 "
                    "-o UserKnownHostsFile=/k/kh -o IdentitiesOnly=yes -i /k/id u@10.1.1.1 -- "
                    "driver agent");
    CHECK(sshhost_argv(&h, "driver agent", argv, 10, store, sizeof(store)) == -1);
    CHECK(sshhost_argv(&h, "driver agent", argv, 40, store, 8) == -1);
}

static void test_mask(void)
{
    char out[256];

    sshhost_mask("ssh://u:secret@h:22", out, sizeof(out));
    CHECK_STR(out, "ssh://u:***@h:22");
    sshhost_mask("ssh://u@h:22", out, sizeof(out));
    CHECK_STR(out, "ssh://u@h:22");
}

int main(void)
{
    test_parse_ok();
    test_parse_refused();
    test_argv();
    test_mask();
    return T_DONE();
}
