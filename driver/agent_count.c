/* agent_count: the agent's requests for a counted run (see agent_count.h). */
#include "agent_count.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "clock.h"
#include "ptree.h"
#include "syscount.h"

#define COUNT_MAX_PIDS 64
#define VGDB_TRIES 3
#define VGDB_TRY_MS 10000

static json_t *count_fail(const char *text)
{
    return json_pack("{s:b,s:s}", "ok", 0, "error", text);
}

static void nap_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    (void)nanosleep(&ts, NULL);
}

/* Starts argv with stdout to out_fd (or errpath) and stderr to errpath. Returns the pid or -1. */
static pid_t spawn(char *const *argv, int out_fd, const char *errpath)
{
    pid_t parent = getpid(), pid = fork();

    if (pid == 0) {
        int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), nul;

        (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        nul = open("/dev/null", O_RDONLY);
        if (nul >= 0)
            (void)dup2(nul, 0);
        if (fd >= 0) {
            (void)dup2(out_fd >= 0 ? out_fd : fd, 1);
            (void)dup2(fd, 2);
        }
        signal(SIGPIPE, SIG_DFL);
        /* vgdb names valgrind's shared memory file by LOGNAME or USER: without them, as the
         * server was started ("unset"), both say "???" (compare/run/proc.h) */
        (void)unsetenv("LOGNAME");
        (void)unsetenv("USER");
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

/* Waits up to ms for child; kills and reaps it after. 0 exited (*status), -2 timed out, -3
 * watched ended first, -4 stopped. */
static int wait_child(pid_t child, int *status, int ms, pid_t watched, volatile sig_atomic_t *stop)
{
    int waited = 0, rc = -2;

    for (;;) {
        pid_t got = waitpid(child, status, WNOHANG);

        if (got == child)
            return 0;
        if (got < 0 && errno != EINTR)
            return -4;
        if (stop && *stop) {
            rc = -4;
            break;
        }
        if (watched > 0 && ptree_ended(watched)) {
            rc = -3;
            break;
        }
        if (waited >= ms)
            break;
        nap_ms(10);
        waited += 10;
    }
    (void)kill(child, SIGKILL);
    while (waitpid(child, status, 0) < 0 && errno == EINTR)
        ;
    return rc;
}

json_t *agent_count_tools(void)
{
    char *argv[] = {"valgrind", "--version", NULL}, buf[128] = "";
    int pfd[2], status = 0;
    pid_t pid;
    ssize_t n = 0, k;

    if (pipe2(pfd, O_CLOEXEC) < 0)
        return count_fail("tools: pipe failed");
    pid = spawn(argv, pfd[1], "/dev/null");
    close(pfd[1]);
    while (
        pid > 0 && (size_t)n < sizeof(buf) - 1 &&
        ((k = read(pfd[0], buf + n, sizeof(buf) - 1 - (size_t)n)) > 0 || (k < 0 && errno == EINTR)))
        n += k > 0 ? k : 0;
    close(pfd[0]);
    buf[n] = '\0';
    buf[strcspn(buf, "\r\n")] = '\0';
    if (pid < 0 || wait_child(pid, &status, 10000, 0, NULL) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0 || strncmp(buf, "valgrind-", 9) != 0)
        buf[0] = '\0';
    return json_pack("{s:b,s:s}", "ok", 1, "valgrind", buf);
}

/* The last line of path (at most outlen - 1 bytes) into out. */
static void last_line(const char *path, char *out, size_t outlen)
{
    char buf[2048], *nl;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

    if (fd >= 0)
        close(fd);
    out[0] = '\0';
    if (n <= 0)
        return;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        n--;
    buf[n] = '\0';
    nl = strrchr(buf, '\n');
    snprintf(out, outlen, "%.*s", (int)(outlen - 1), nl ? nl + 1 : buf);
}

/* vgdb CMD to one process: VGDB_TRIES tries (a try that times out is made again with a fresh
 * vgdb, as compare does locally). NULL when it answered, else the failure reply. */
static json_t *vgdb_one(pid_t pid, const char *dir, const char *cmd, volatile sig_atomic_t *stop)
{
    char prefix[4200], pidarg[32], errpath[4300], last[300], text[1200];
    char *argv[] = {"vgdb", prefix, pidarg, (char *)cmd, NULL};
    int k, rc = -2, status = 0;

    snprintf(prefix, sizeof(prefix), "--vgdb-prefix=%s/vgdb", dir);
    snprintf(pidarg, sizeof(pidarg), "--pid=%ld", (long)pid);
    snprintf(errpath, sizeof(errpath), "%s/vgdb.%ld.err", dir, (long)pid);
    for (k = 0; k < VGDB_TRIES && rc == -2; k++) {
        pid_t child = spawn(argv, -1, errpath);

        if (child < 0)
            return count_fail("vgdb: fork failed");
        rc = wait_child(child, &status, VGDB_TRY_MS, pid, stop);
    }
    last_line(errpath, last, sizeof(last));
    if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return NULL;
    if (rc == -3)
        snprintf(text, sizeof(text), "vgdb: process %ld ended while its valgrind was asked to '%s'",
                 (long)pid, cmd);
    else if (rc == -4)
        snprintf(text, sizeof(text), "vgdb: the agent was stopped while valgrind was asked to '%s'",
                 cmd);
    else if (rc == -2)
        snprintf(text, sizeof(text),
                 "vgdb: valgrind's gdbserver in process %ld did not answer '%s' in %d tries over "
                 "%d s%s%.300s",
                 (long)pid, cmd, VGDB_TRIES, VGDB_TRIES * VGDB_TRY_MS / 1000,
                 last[0] ? "; vgdb said: " : "", last);
    else
        snprintf(text, sizeof(text), "vgdb --pid=%ld %s failed%s%.300s", (long)pid, cmd,
                 last[0] ? ": " : "", last);
    return count_fail(text);
}

json_t *agent_count_vgdb(pid_t pgid, const char *dir, const json_t *req,
                         volatile sig_atomic_t *stop)
{
    const char *cmd = json_string_value(json_object_get(req, "cmd"));
    pid_t pids[COUNT_MAX_PIDS];
    size_t n, i;

    /* only the two requests a count makes: nothing else reaches valgrind's gdbserver */
    if (!cmd || (strcmp(cmd, "zero") != 0 && strcmp(cmd, "dump") != 0))
        return count_fail("vgdb: expected \"cmd\": \"zero\" or \"dump\"");
    if (pgid <= 0 || !dir[0])
        return count_fail("vgdb: no server");
    if ((n = ptree_group_live(pgid, pids, COUNT_MAX_PIDS)) == 0)
        return count_fail("vgdb: the server's processes are gone");
    for (i = 0; i < n; i++) {
        json_t *bad = vgdb_one(pids[i], dir, cmd, stop);
        if (bad)
            return bad;
    }
    return json_pack("{s:b,s:I}", "ok", 1, "processes", (json_int_t)n);
}

/* A profile's name: "cg." and no path. */
static int profile_name(const char *name)
{
    return name && strncmp(name, "cg.", 3) == 0 && !strchr(name, '/') && strlen(name) < 256;
}

json_t *agent_count_files(const char *dir)
{
    json_t *files = json_object();
    DIR *d = dir[0] ? opendir(dir) : NULL;
    struct dirent *e;

    if (!d) {
        json_decref(files);
        return count_fail("files: no run directory");
    }
    while ((e = readdir(d))) {
        char path[4400];
        struct stat st;

        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (profile_name(e->d_name) && lstat(path, &st) == 0 && S_ISREG(st.st_mode))
            json_object_set_new(files, e->d_name, json_integer((json_int_t)st.st_size));
    }
    closedir(d);
    return json_pack("{s:b,s:o}", "ok", 1, "files", files);
}

json_t *agent_count_fetch(const char *dir, const json_t *req)
{
    const char *name = json_string_value(json_object_get(req, "name"));
    json_int_t off = json_integer_value(json_object_get(req, "offset"));
    unsigned char raw[AGENT_FETCH_MAX];
    char path[4400], *b64 = NULL;
    struct stat st;
    json_t *out;
    ssize_t n;
    int fd;

    if (!profile_name(name) || off < 0 || !dir[0])
        return count_fail("fetch: expected a \"name\" from \"files\" and an \"offset\" >= 0");
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0 || fstat(fd, &st) < 0 ||
        !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return count_fail("fetch: no such profile");
    }
    do
        n = pread(fd, raw, sizeof(raw), (off_t)off);
    while (n < 0 && errno == EINTR);
    close(fd);
    if (n < 0 || !(b64 = malloc(((size_t)n + 2) / 3 * 4 + 1)))
        return count_fail("fetch: read failed");
    EVP_EncodeBlock((unsigned char *)b64, raw, (int)n);
    out = json_pack("{s:b,s:s,s:b}", "ok", 1, "data", b64, "eof",
                    (off_t)off + n >= st.st_size || n == 0);
    free(b64);
    return out;
}

static struct syscount agent_sc = {.tracer = -1};

json_t *agent_count_trace(pid_t pid, const json_t *req)
{
    const char *what = json_string_value(json_object_get(req, "do"));
    char why[600];
    json_t *counts;

    if (!what)
        return count_fail("trace: expected \"do\": \"start\", \"open\", \"close\" or \"counts\"");
    if (strcmp(what, "start") == 0) {
        if (pid <= 0)
            return count_fail("trace: no server");
        agent_count_trace_end();
        if (syscount_start(&agent_sc, "/proc", pid, why, sizeof(why)) < 0)
            return count_fail(why);
        return json_pack("{s:b}", "ok", 1);
    }
    if (strcmp(what, "open") == 0 || strcmp(what, "close") == 0) {
        /* the mark's time in this host's clock when compare knows it (remote.h), else now */
        json_int_t at = json_integer_value(json_object_get(req, "at_ns"));

        syscount_mark_at(&agent_sc, strcmp(what, "open") == 0 ? 0 : 1,
                         at > 0 ? (uint64_t)at : clock_now_ns());
        return json_pack("{s:b}", "ok", 1);
    }
    if (strcmp(what, "counts") == 0) {
        if (!(counts = syscount_json(&agent_sc, why, sizeof(why))))
            return count_fail(why);
        return json_pack("{s:b,s:o}", "ok", 1, "counts", counts);
    }
    return count_fail("trace: expected \"do\": \"start\", \"open\", \"close\" or \"counts\"");
}

void agent_count_trace_end(void)
{
    if (agent_sc.tracer > 0 || agent_sc.sh)
        syscount_stop(&agent_sc);
}
