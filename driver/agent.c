/* agent: `driver agent`, a run's server on a server host (see agent.h). */
#include "agent.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netdb.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "agent_count.h"
#include "clock.h"
#include "num.h"
#include "sysknobs.h"
#include "ptree.h"

#define AGENT_LINE_MAX (1024 * 1024)

struct agent {
    pid_t pid; /* the server, also its process group; 0 = none */
    int reaped, status;
    struct rusage ru;
    char dir[4096];
};

static volatile sig_atomic_t agent_stop;

static void on_signal(int sig)
{
    (void)sig;
    agent_stop = 1;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !agent_stop)
        ;
}

/* "exit 1", "signal 9 (Killed)". */
static void describe(int status, char *out, size_t outlen)
{
    if (WIFEXITED(status))
        snprintf(out, outlen, "exit %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(out, outlen, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(out, outlen, "status %d", status);
}

/* Reaps the server when it has ended. Returns whether it still runs. */
static int server_running(struct agent *a)
{
    pid_t got;

    if (a->pid <= 0 || a->reaped)
        return 0;
    do
        got = wait4(a->pid, &a->status, WNOHANG, &a->ru);
    while (got < 0 && errno == EINTR);
    if (got == a->pid || (got < 0 && errno == ECHILD))
        a->reaped = 1;
    return !a->reaped;
}

/* SIGTERM to the server's group, SIGKILL after grace_s, reaped; then the rest of the group. */
static void server_stop(struct agent *a, double grace_s)
{
    int waited_ms = 0;

    if (a->pid <= 0)
        return;
    if (server_running(a)) {
        (void)kill(-a->pid, SIGTERM);
        while (server_running(a) && waited_ms < (int)(grace_s * 1000)) {
            sleep_ms(10);
            waited_ms += 10;
        }
        if (server_running(a)) {
            (void)kill(-a->pid, SIGKILL);
            while (!a->reaped && wait4(a->pid, &a->status, 0, &a->ru) < 0 && errno == EINTR)
                ;
            a->reaped = 1;
        }
    }
    (void)kill(-a->pid, SIGKILL); /* whatever the server left in its group */
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    (void)remove(path);
    return 0;
}

/* Writes o, stamped with when its request arrived and when it leaves (this host's
 * CLOCK_MONOTONIC, ns): compare puts its marks' times in this clock from them (remote.h). */
static void reply(json_t *o, uint64_t t_in)
{
    char *s;

    if (json_is_object(o)) {
        json_object_set_new(o, "t_in_ns", json_integer((json_int_t)t_in));
        json_object_set_new(o, "t_out_ns", json_integer((json_int_t)clock_now_ns()));
    }
    s = o ? json_dumps(o, JSON_COMPACT) : NULL;

    if (s) {
        printf("%s\n", s);
        fflush(stdout);
    }
    free(s);
    json_decref(o);
}

/* The reply to a request that failed: the text says what and why. */
static json_t *fail(const char *text)
{
    return json_pack("{s:b,s:s}", "ok", 0, "error", text);
}

/* fail() with the text "WHAT: A: B" (B may be ""). */
static json_t *fail3(const char *what, const char *a, const char *b)
{
    char text[1024];

    snprintf(text, sizeof(text), "%s: %s%s%s", what, a, b[0] ? ": " : "", b);
    return fail(text);
}

static json_t *op_hello(void)
{
    struct utsname u;
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    char version[128], boot[64];
    json_t *m, *o;

    snprintf(version, sizeof(version), "pairbench %s (%s)", PAIRBENCH_RELEASE, PAIRBENCH_VERSION);
    if (uname(&u) < 0)
        memset(&u, 0, sizeof(u));
    m = json_pack("{s:s,s:s,s:s,s:I,s:I,s:o}", "hostname", u.nodename, "kernel", u.release, "arch",
                  u.machine, "cpus", (json_int_t)sysconf(_SC_NPROCESSORS_ONLN), "memory_kib",
                  (json_int_t)(pages > 0 && psize > 0 ? pages / 1024 * psize : 0), "knobs",
                  sysknobs_json()); /* meta.json records both machines' */
    o = json_pack("{s:b,s:s,s:o}", "ok", 1, "version", version, "machine", m);
    /* the kernel's boot: compare knows from it that this host's clock is its own */
    if (o && ptree_read_small("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) > 0)
        json_object_set_new(o, "boot_id", json_stringn(boot, strcspn(boot, "\n")));
    return o;
}

/* A free port on host (bind to port 0, as compare does on loopback), and the server's
 * directory made once. */
static json_t *op_place(struct agent *a, const json_t *req)
{
    const char *host = json_string_value(json_object_get(req, "host"));
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICSERV | AI_PASSIVE};
    struct addrinfo *ai = NULL;
    union {
        struct sockaddr sa;
        struct sockaddr_in in4;
        struct sockaddr_in6 in6;
    } u;
    socklen_t sl = sizeof(u);
    const char *tmp = getenv("TMPDIR");
    unsigned port = 0;
    int fd = -1, rc;

    if (!host)
        return fail("place: no \"host\"");
    if ((rc = getaddrinfo(host, "0", &hints, &ai)) != 0)
        return fail3("place: address", host, gai_strerror(rc));
    memset(&u, 0, sizeof(u));
    fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && getsockname(fd, &u.sa, &sl) == 0)
        port = ntohs(u.sa.sa_family == AF_INET6 ? u.in6.sin6_port : u.in4.sin_port);
    rc = errno;
    if (fd >= 0)
        close(fd);
    freeaddrinfo(ai);
    if (!port)
        return fail3("place: no free port on", host, strerror(rc));
    if (!a->dir[0]) {
        snprintf(a->dir, sizeof(a->dir), "%s/pairbench-agent-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(a->dir)) {
            rc = errno;
            a->dir[0] = '\0';
            return fail3("place: cannot make a directory under", tmp && *tmp ? tmp : "/tmp",
                         strerror(rc));
        }
    }
    return json_pack("{s:b,s:I,s:s}", "ok", 1, "port", (json_int_t)port, "dir", a->dir);
}

/* The child's side of op_start: its own group, dies with the agent, output to the log. */
static void start_child(struct agent *a, char **argv, const json_t *env, const json_t *unset,
                        const cpu_set_t *cpus, pid_t parent, int errw)
{
    char log[4200];
    const char *k;
    json_t *v;
    size_t i;
    int fd, e;

    (void)setpgid(0, 0);
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    if (cpus && sched_setaffinity(0, sizeof(*cpus), cpus) < 0) {
        e = -errno; /* negative: the pinning failed, not the exec */
        (void)!write(errw, &e, sizeof(e));
        _exit(127);
    }
    snprintf(log, sizeof(log), "%s/server.log", a->dir);
    fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd >= 0) {
        (void)dup2(fd, 1);
        (void)dup2(fd, 2);
    }
    fd = open("/dev/null", O_RDONLY);
    if (fd >= 0)
        (void)dup2(fd, 0);
    json_object_foreach((json_t *)env, k, v)
    {
        if (json_is_string(v))
            (void)setenv(k, json_string_value(v), 1);
    }
    json_array_foreach((json_t *)unset, i, v)
    {
        if (json_is_string(v))
            (void)unsetenv(json_string_value(v));
    }
    signal(SIGPIPE, SIG_DFL);
    execvp(argv[0], argv);
    e = errno;
    (void)!write(errw, &e, sizeof(e));
    _exit(127);
}

static json_t *op_start(struct agent *a, const json_t *req)
{
    const json_t *jargv = json_object_get(req, "argv"), *env = json_object_get(req, "env");
    const char *cpu_list = json_string_value(json_object_get(req, "cpus"));
    size_t n = json_array_size(jargv), i;
    char **argv = NULL;
    int pfd[2] = {-1, -1}, e = 0;
    ssize_t got;
    pid_t pid, self = getpid();
    cpu_set_t cpus, have;
    json_t *out;

    if ((a->pid > 0 && server_running(a)) || !a->dir[0] || n == 0)
        return fail(a->dir[0] && n ? "start: a server already runs" : "start: no place or argv");
    if (cpu_list) { /* --pin-server: this host's CPUs, among those the agent may use */
        cpu_set_t both;

        if (num_parse_cpus(cpu_list, &cpus) < 0 || sched_getaffinity(0, sizeof(have), &have) < 0)
            return fail3("start: cpus", cpu_list, "expected a CPU list such as 0,2-3");
        CPU_AND(&both, &cpus, &have);
        if (!CPU_EQUAL(&both, &cpus))
            return fail3("start: cpus", cpu_list,
                         "names a CPU this host does not let the agent use");
    }
    server_stop(a, 0); /* a server that ended (a port taken meanwhile): its group too */
    memset(&a->ru, 0, sizeof(a->ru));
    a->pid = 0;
    a->reaped = 0;
    if (!(argv = calloc(n + 1, sizeof(*argv))) || pipe2(pfd, O_CLOEXEC) < 0) {
        free(argv);
        return fail3("start", strerror(errno), "");
    }
    for (i = 0; i < n; i++)
        argv[i] = (char *)json_string_value(json_array_get(jargv, i));
    pid = fork();
    if (pid == 0)
        start_child(a, argv, json_is_object(env) ? env : NULL, json_object_get(req, "unset"),
                    cpu_list ? &cpus : NULL, self, pfd[1]);
    close(pfd[1]);
    if (pid < 0) {
        out = fail3("start: fork", strerror(errno), "");
    } else {
        do
            got = read(pfd[0], &e, sizeof(e));
        while (got < 0 && errno == EINTR);
        a->pid = pid;
        if (got == (ssize_t)sizeof(e)) {
            char text[1200];
            while (wait4(pid, &a->status, 0, &a->ru) < 0 && errno == EINTR)
                ;
            a->reaped = 1;
            if (e < 0)
                snprintf(text, sizeof(text), "cannot pin the server to CPUs %.100s: %s", cpu_list,
                         strerror(-e));
            else
                snprintf(text, sizeof(text), "cannot execute '%.1000s': %s", argv[0], strerror(e));
            out = fail(text);
        } else {
            out = json_pack("{s:b,s:I}", "ok", 1, "pid", (json_int_t)pid);
        }
    }
    close(pfd[0]);
    free(argv);
    return out;
}

/* The last max bytes of the server's log as one line. */
static void log_tail(const struct agent *a, char *out, size_t outlen)
{
    char path[4200], buf[4096];
    size_t i;
    ssize_t n;

    snprintf(path, sizeof(path), "%s/server.log", a->dir);
    n = ptree_read_small(path, buf, sizeof(buf));
    out[0] = '\0';
    if (n <= 0)
        return;
    for (i = 0; i < (size_t)n; i++)
        if (buf[i] == '\n' || buf[i] == '\r')
            buf[i] = ' ';
    snprintf(out, outlen, "%.400s", buf + (n > 400 ? n - 400 : 0));
}

static json_t *op_sample(struct agent *a)
{
    struct tree_sample s;
    char st[128], tail[512], stat[512], *nl;
    ssize_t n;
    json_t *out;

    if (a->pid <= 0)
        return fail("sample: no server");
    if (!server_running(a) || ptree_sample("/proc", a->pid, sysconf(_SC_CLK_TCK), &s) < 0) {
        server_running(a);
        describe(a->status, st, sizeof(st));
        log_tail(a, tail, sizeof(tail));
        return json_pack("{s:b,s:b,s:s,s:s}", "ok", 1, "running", 0, "status",
                         a->reaped ? st : "gone", "log", tail);
    }
    out = json_pack("{s:b,s:b,s:f,s:f,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "ok", 1, "running",
                    1, "cpu_s", s.cpu_s, "sched_s", s.sched_s, "n_sched", (json_int_t)s.n_sched,
                    "n_procs", (json_int_t)s.n_procs, "syscr", (json_int_t)s.syscr, "syscw",
                    (json_int_t)s.syscw, "vcsw", (json_int_t)s.vcsw, "nivcsw", (json_int_t)s.nivcsw,
                    "faults", (json_int_t)s.faults, "migrations", (json_int_t)s.migrations,
                    "n_migr", (json_int_t)s.n_migr, "hz", (json_int_t)sysconf(_SC_CLK_TCK));
    /* the host's own CPU line, for compare's interference check of this host */
    if (out && (n = ptree_read_small("/proc/stat", stat, sizeof(stat))) > 0 &&
        (nl = memchr(stat, '\n', (size_t)n)) != NULL) {
        *nl = '\0';
        json_object_set_new(out, "stat", json_string(stat));
    }
    /* the kernel's boot: a host that is this machine's kernel (a network namespace) is told
     * apart by it */
    if (out && ptree_read_small("/proc/sys/kernel/random/boot_id", stat, sizeof(stat)) > 0)
        json_object_set_new(out, "boot_id", json_stringn(stat, strcspn(stat, "\n")));
    return out;
}

static json_t *op_stop(struct agent *a, const json_t *req)
{
    double grace = json_number_value(json_object_get(req, "grace_s"));
    char st[128];

    if (a->pid <= 0)
        return fail("stop: no server");
    agent_count_trace_end(); /* its tracees detached (by the kernel) before the stop */
    server_stop(a, grace > 0 ? grace : 2.0);
    describe(a->status, st, sizeof(st));
    return json_pack("{s:b,s:s,s:I,s:f}", "ok", 1, "status", st, "rss_peak_kib",
                     (json_int_t)a->ru.ru_maxrss, "cpu_s",
                     (double)a->ru.ru_utime.tv_sec + a->ru.ru_utime.tv_usec / 1e6 +
                         (double)a->ru.ru_stime.tv_sec + a->ru.ru_stime.tv_usec / 1e6);
}

static json_t *dispatch(struct agent *a, const char *line)
{
    json_error_t je;
    json_t *req = json_loads(line, 0, &je), *out;
    const char *op = json_string_value(json_object_get(req, "op"));

    if (!op)
        out = fail3("bad request", req ? "no \"op\"" : je.text, "");
    else if (strcmp(op, "hello") == 0)
        out = op_hello();
    else if (strcmp(op, "place") == 0)
        out = op_place(a, req);
    else if (strcmp(op, "start") == 0)
        out = op_start(a, req);
    else if (strcmp(op, "sample") == 0)
        out = op_sample(a);
    else if (strcmp(op, "stop") == 0)
        out = op_stop(a, req);
    else if (strcmp(op, "knobs") == 0) { /* this host's knobs, read only (compare system show) */
        struct sysknob k[SYSKNOBS_MAX];
        size_t nk = sysknobs_read(k, SYSKNOBS_MAX);

        out = json_pack("{s:b,s:o}", "ok", 1, "knobs", sysknobs_list_json(k, nk));
    } else if (strcmp(op, "tools") == 0)
        out = agent_count_tools();
    else if (strcmp(op, "vgdb") == 0) /* its own server's group only */
        out = agent_count_vgdb(a->pid > 0 && server_running(a) ? a->pid : 0, a->dir, req,
                               &agent_stop);
    else if (strcmp(op, "files") == 0)
        out = agent_count_files(a->dir);
    else if (strcmp(op, "fetch") == 0)
        out = agent_count_fetch(a->dir, req);
    else if (strcmp(op, "trace") == 0) /* its own server's tree only */
        out = agent_count_trace(a->pid > 0 && server_running(a) ? a->pid : 0, req);
    else
        out = fail3("unknown op", op,
                    "expected hello, place, start, sample, stop, knobs, tools, vgdb, files, fetch "
                    "or trace");
    json_decref(req);
    return out;
}

int agent_main(int argc, char **argv)
{
    struct agent a = {0};
    struct sigaction sa = {0};
    char *line = NULL;
    size_t cap = 0;

    (void)argv;
    if (argc > 0) {
        fprintf(stderr, "driver: agent: takes no arguments (requests come on stdin)\n");
        return 2;
    }
    sa.sa_handler = on_signal; /* no SA_RESTART: a read in progress returns EINTR */
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    /* a reply written after the session died (a long request, e.g. vgdb's) must not kill the
     * agent before it stops the server and removes the directory: EPIPE ends the loop */
    signal(SIGPIPE, SIG_IGN);
    while (!agent_stop) {
        ssize_t n = getline(&line, &cap, stdin);
        uint64_t t_in = clock_now_ns();

        if (n < 0) {
            if (errno == EINTR && !agent_stop) {
                clearerr(stdin);
                continue;
            }
            break; /* stdin ended: the session is gone */
        }
        if (n > AGENT_LINE_MAX)
            break;
        reply(dispatch(&a, line), t_in);
        if (ferror(stdout))
            break; /* nobody reads the replies any more */
    }
    free(line);
    agent_count_trace_end();
    server_stop(&a, 2.0);
    if (a.dir[0])
        (void)nftw(a.dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}
