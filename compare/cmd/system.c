/* system: `compare system show | tune | reset`. show (any user) prints the host knobs of
 * run/sysknobs.h, their values here (absent where this host has no such file) and the quiet
 * value; tune (root) writes the quiet values and records in a state file what it changed and
 * what was there before; reset (root) writes those earlier values back, reads each one back,
 * and removes the state file. The state file is --state FILE, else $PAIRBENCH_SYSTEM_STATE,
 * else /var/lib/pairbench/system-tune.json; a second tune keeps the first one's earlier
 * values, so reset always restores the machine as it was before the first. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd/cmds.h"
#include "sysknobs.h"
#include "run/remote.h"
#include "run/sshhost.h"
#include "run/sysknobs_state.h"
#include "util/atomic.h"
#include "util/jobs_util.h"

#define STATE_DEFAULT "/var/lib/pairbench/system-tune.json"

static const char usage[] =
    "usage: compare system show [--json] [--state FILE] [--server-host URL]\n"
    "       compare system tune [--state FILE]     (root)\n"
    "       compare system reset [--state FILE]    (root)\n"
    "  show: the host knobs that move measurements (guest halt polling, the cpuidle and\n"
    "  cpufreq governors, boost, ASLR, net.core.busy_poll), their values and the quiet ones;\n"
    "  with --server-host, those of the server host (read by its agent over ssh);\n"
    "  tune: sets the quiet values and writes what it changed to the state file\n"
    "  (--state, else $PAIRBENCH_SYSTEM_STATE, else " STATE_DEFAULT ");\n"
    "  reset: restores exactly what tune changed, then removes the state file\n"
    "exit: 0 done, 2 bad usage or not root, 3 a knob could not be written or read back\n";

struct sys_cli {
    const char *verb, *state, *server_host;
    int json;
};

static int parse(struct sys_cli *c, int argc, char **argv)
{
    int i;

    memset(c, 0, sizeof(*c));
    c->state = getenv("PAIRBENCH_SYSTEM_STATE");
    if (!c->state || !*c->state)
        c->state = STATE_DEFAULT;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--json") == 0) {
            c->json = 1;
        } else if (strcmp(argv[i], "--state") == 0) {
            if (i + 1 >= argc || !*argv[i + 1]) {
                fprintf(stderr, "compare system: --state: expected a file path\n%s", usage);
                return EXIT_USAGE;
            }
            c->state = argv[++i];
        } else if (strcmp(argv[i], "--server-host") == 0) {
            if (i + 1 >= argc || !*argv[i + 1]) {
                fprintf(stderr, "compare system: --server-host: expected an ssh:// URL\n%s", usage);
                return EXIT_USAGE;
            }
            c->server_host = argv[++i];
        } else if (!c->verb && (strcmp(argv[i], "show") == 0 || strcmp(argv[i], "tune") == 0 ||
                                strcmp(argv[i], "reset") == 0)) {
            c->verb = argv[i];
        } else {
            fprintf(stderr,
                    "compare system: unknown argument '%s' (expected show, tune or "
                    "reset, --json, --state FILE)\n%s",
                    argv[i], usage);
            return EXIT_USAGE;
        }
    }
    if (!c->verb) {
        fprintf(stderr, "compare system: expected show, tune or reset\n%s", usage);
        return EXIT_USAGE;
    }
    if (c->server_host && strcmp(c->verb, "show") != 0) {
        fprintf(stderr,
                "compare system %s: --server-host: only show reads another host; %s writes "
                "this machine's knobs (run `compare system %s` on the server host itself)\n",
                c->verb, c->verb, c->verb);
        return EXIT_USAGE;
    }
    return -1;
}

/* The state file, checked against this host's knobs k[0..n) (run/sysknobs_state.h), or NULL
 * when it does not exist (*rc 0) or cannot be read or is refused (*rc exit code). */
static json_t *load_state(const char *path, const struct sysknob *k, size_t n, int *rc)
{
    char err[1200] = "";
    json_t *st;

    *rc = 0;
    if (access(path, F_OK) != 0)
        return NULL;
    st = ju_load_json(path, err, sizeof(err));
    if (!st || sysknobs_state_check(st, k, n, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare system: state file '%s': %s (nothing written)\n", path, err);
        json_decref(st);
        *rc = EXIT_USAGE;
        return NULL;
    }
    return st;
}

/* The knobs k[0..n) of this machine (host NULL: st is its tune state, or NULL) or of the
 * server host URL host, as a table or --json. */
static void print_knobs(const struct sys_cli *c, const struct sysknob *k, size_t n,
                        const json_t *st, const char *host)
{
    size_t i;

    if (c->json && host) {
        json_t *out =
            json_pack("{s:o, s:s}", "knobs", sysknobs_list_json(k, n), "server_host", host);
        json_dumpf(out, stdout, JSON_INDENT(2));
        putchar('\n');
        json_decref(out);
    } else if (c->json) {
        json_t *out = json_pack("{s:o, s:s, s:b}", "knobs", sysknobs_list_json(k, n), "state",
                                c->state, "tuned", st != NULL);
        json_dumpf(out, stdout, JSON_INDENT(2));
        putchar('\n');
        json_decref(out);
    } else {
        printf("%-40s %-14s %-12s %s\n", "knob", "value", "quiet", "");
        for (i = 0; i < n; i++) {
            const char *mark = !k[i].present
                                   ? (host ? "absent on that host" : "absent on this host")
                               : !*k[i].quiet ? "(no quiet value offered here)"
                               : strcmp(k[i].value, k[i].quiet) == 0 ? "quiet"
                                                                     : k[i].why;
            printf("%-40s %-14s %-12s %s\n", k[i].name, k[i].present ? k[i].value : "-",
                   *k[i].quiet ? k[i].quiet : "-", mark);
        }
        if (host)
            printf("the server host %s, read by its agent: `compare system tune` and `reset` "
                   "run on that host itself\n",
                   host);
        else if (st)
            printf("tuned by `compare system tune` (%zu knobs; state '%s'): "
                   "`compare system reset` restores them\n",
                   json_array_size(json_object_get(st, "knobs")), c->state);
        else
            printf("not tuned (no state file '%s'); `compare system tune` as root sets the "
                   "quiet values\n",
                   c->state);
    }
}

/* --server-host: the agent there reads its knobs (driver agent's "knobs"). */
static int show_remote(const struct sys_cli *c)
{
    struct server_host h;
    struct remote rm;
    struct sysknob k[SYSKNOBS_MAX];
    char why[1024], shown[1100], log[] = "/tmp/pairbench-system-ssh.XXXXXX";
    json_t *rep;
    int fd;

    if (sshhost_parse(c->server_host, &h, why, sizeof(why)) < 0) {
        fprintf(stderr, "compare system show: --server-host: %s\n", why);
        return EXIT_USAGE;
    }
    sshhost_mask(c->server_host, shown, sizeof(shown));
    if ((fd = mkstemp(log)) < 0) {
        fprintf(stderr, "compare system show: %s: %s\n", log, strerror(errno));
        return EXIT_HARNESS;
    }
    close(fd);
    rep = remote_open(&rm, &h, log, why, sizeof(why)) == 0
              ? remote_call(&rm, json_pack("{s:s}", "op", "knobs"), 30.0, why, sizeof(why))
              : NULL;
    remote_close(&rm, 2.0);
    (void)unlink(log);
    if (!rep) {
        fprintf(stderr, "compare system show: --server-host %s: %s\n", shown, why);
        return EXIT_USAGE;
    }
    print_knobs(c, k, sysknobs_from_json(json_object_get(rep, "knobs"), k, SYSKNOBS_MAX), NULL,
                shown);
    json_decref(rep);
    return EXIT_OK;
}

static int cmd_show(const struct sys_cli *c)
{
    struct sysknob k[SYSKNOBS_MAX];
    size_t n;
    int rc;
    json_t *st;

    if (c->server_host)
        return show_remote(c);
    n = sysknobs_read(k, SYSKNOBS_MAX);
    st = load_state(c->state, k, n, &rc);
    if (rc)
        return rc;
    print_knobs(c, k, n, st, NULL);
    json_decref(st);
    return EXIT_OK;
}

static void drop_entry(json_t *knobs, const json_t *e)
{
    size_t i;

    for (i = 0; i < json_array_size(knobs); i++)
        if (json_array_get(knobs, i) == e) {
            json_array_remove(knobs, i);
            return;
        }
}

static int save_state(const char *path, json_t *knobs)
{
    char dir[PATH_MAX], err[1200] = "", *slash, ts[32];
    time_t now = time(NULL);
    struct tm tm;
    json_t *doc;
    int rc;

    snprintf(dir, sizeof(dir), "%s", path);
    slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (ju_mkdir_p(dir, err, sizeof(err)) < 0) {
            fprintf(stderr, "compare system: state file: %s\n", err);
            return -1;
        }
    }
    gmtime_r(&now, &tm);
    strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
    doc = json_pack("{s:s, s:s, s:O}", "schema", SYSKNOBS_STATE_SCHEMA, "tuned_at", ts, "knobs",
                    knobs);
    rc = doc ? atomic_write_json(path, doc, err, sizeof(err)) : -1;
    if (rc < 0)
        fprintf(stderr, "compare system: state file '%s': %s\n", path, *err ? err : "no memory");
    json_decref(doc);
    return rc;
}

static int need_root(const char *verb)
{
    if (geteuid() == 0)
        return 0;
    fprintf(stderr,
            "compare system %s: needs root (it writes /sys and /proc/sys); run it with sudo, "
            "or `compare system show` to only look\n",
            verb);
    return EXIT_USAGE;
}

/* Sets every present knob that has a quiet value and differs from it. The state (the earlier
 * tune's entries kept, with their earlier values) is written before any knob is, so an
 * interrupted tune can still be reset; a knob that cannot be written is dropped from it. */
static int cmd_tune(const struct sys_cli *c)
{
    struct sysknob k[SYSKNOBS_MAX];
    size_t n, i;
    int rc = need_root("tune"), failed = 0, changed = 0;
    json_t *st, *knobs;

    if (rc)
        return rc;
    n = sysknobs_read(k, SYSKNOBS_MAX);
    st = load_state(c->state, k, n, &rc);
    if (rc)
        return rc;
    knobs = st ? json_incref(json_object_get(st, "knobs")) : json_array();
    for (i = 0; i < n; i++)
        if (k[i].present && *k[i].quiet && strcmp(k[i].value, k[i].quiet) != 0 &&
            !ju_find_by(knobs, "name", k[i].name))
            json_array_append_new(knobs,
                                  json_pack("{s:s, s:s, s:s, s:s}", "name", k[i].name, "path",
                                            k[i].path, "before", k[i].value, "after", k[i].quiet));
    if (save_state(c->state, knobs) < 0) {
        rc = EXIT_HARNESS;
        goto out;
    }
    for (i = 0; i < n; i++) {
        char err[400] = "";
        json_t *e = ju_find_by(knobs, "name", k[i].name);

        if (!k[i].present || !*k[i].quiet || strcmp(k[i].value, k[i].quiet) == 0)
            continue;
        if (sysknobs_write(k[i].path, k[i].quiet, err, sizeof(err)) < 0) {
            fprintf(stderr, "compare system tune: %s: %s (left as it was)\n", k[i].name, err);
            failed = 1;
            if (e && strcmp(json_string_value(json_object_get(e, "before")), k[i].value) == 0)
                drop_entry(knobs, e);
            continue;
        }
        changed++;
        printf("%s: %s -> %s\n", k[i].name, k[i].value, k[i].quiet);
    }
    if (failed && save_state(c->state, knobs) < 0)
        failed = 1;
    printf("%d knob%s changed; state '%s' (%zu knob%s to restore): `compare system reset` "
           "restores them\n",
           changed, changed == 1 ? "" : "s", c->state, json_array_size(knobs),
           json_array_size(knobs) == 1 ? "" : "s");
    rc = failed ? EXIT_HARNESS : EXIT_OK;
out:
    json_decref(knobs);
    json_decref(st);
    return rc;
}

/* Writes back every recorded earlier value, to the knob's own file, and reads it back;
 * removes the state file when all came back. */
static int cmd_reset(const struct sys_cli *c)
{
    struct sysknob k[SYSKNOBS_MAX];
    int rc = need_root("reset"), failed = 0;
    json_t *st, *e;
    size_t i, n;

    if (rc)
        return rc;
    n = sysknobs_read(k, SYSKNOBS_MAX);
    st = load_state(c->state, k, n, &rc);
    if (rc)
        return rc;
    if (!st) {
        printf("nothing to reset: no state file '%s' (`compare system tune` writes it)\n",
               c->state);
        return EXIT_OK;
    }
    json_array_foreach(json_object_get(st, "knobs"), i, e)
    {
        const char *name = json_string_value(json_object_get(e, "name"));
        /* checked by load_state: a knob of this host; its own file, not the state's word */
        const char *path = sysknobs_find(k, n, name)->path;
        const char *before = json_string_value(json_object_get(e, "before"));
        char err[400] = "", now[128] = "";

        if (sysknobs_write(path, before, err, sizeof(err)) < 0 ||
            sysknobs_read_line(path, now, sizeof(now)) != 0 || strcmp(now, before) != 0) {
            fprintf(stderr, "compare system reset: %s: %s\n", name,
                    *err ? err : "the value read back is not the earlier one");
            failed = 1;
            continue;
        }
        printf("%s: restored %s\n", name, before);
    }
    if (failed) {
        fprintf(stderr, "compare system reset: state file '%s' kept (not every knob restored)\n",
                c->state);
        rc = EXIT_HARNESS;
    } else if (unlink(c->state) != 0) {
        fprintf(stderr, "compare system reset: removing '%s': %s\n", c->state, strerror(errno));
        rc = EXIT_HARNESS;
    } else {
        printf("every knob restored; state '%s' removed\n", c->state);
    }
    json_decref(st);
    return rc;
}

int cmd_system(int argc, char **argv)
{
    struct sys_cli c;
    int rc = parse(&c, argc, argv);

    if (rc >= 0)
        return rc;
    if (strcmp(c.verb, "show") == 0)
        return cmd_show(&c);
    if (strcmp(c.verb, "tune") == 0)
        return cmd_tune(&c);
    return cmd_reset(&c);
}
