/* proc: fork/exec without a shell, capture, timeouts, resource usage (see proc.h). */
#include "run/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "num.h"
#include "ptree.h"
#include "run/logcap.h"

#define OUT_CAP (16u << 20)

/* In the child: report errno through the pipe and leave. Only async-signal-safe calls. */
static void child_fail(int fd, int code)
{
    ssize_t w = write(fd, &code, sizeof(code));
    (void)w;
    _exit(127);
}

/* "0-1,4" for a CPU set. */
static void format_cpus(const cpu_set_t *set, char *out, size_t outlen)
{
    size_t o = 0;
    int c = 0;

    out[0] = '\0';
    while (c < CPU_SETSIZE && o < outlen) {
        int end;
        if (!CPU_ISSET(c, set)) {
            c++;
            continue;
        }
        for (end = c; end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set); end++)
            ;
        if (end > c)
            o += (size_t)snprintf(out + o, outlen - o, "%s%d-%d", o ? "," : "", c, end);
        else
            o += (size_t)snprintf(out + o, outlen - o, "%s%d", o ? "," : "", c);
        c = end + 1;
    }
}

int proc_split_cpus(const cpu_set_t *have, char *first, char *second, size_t len)
{
    cpu_set_t a, b;
    int c, n = CPU_COUNT(have), seen = 0;

    if (n < 2)
        return -1;
    CPU_ZERO(&a);
    CPU_ZERO(&b);
    for (c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, have))
            continue;
        if (seen++ < n / 2)
            CPU_SET(c, &a);
        else
            CPU_SET(c, &b);
    }
    format_cpus(&a, first, len);
    format_cpus(&b, second, len);
    return 0;
}

int proc_check_cpus(const cpu_set_t *set, char *err, size_t errlen)
{
    cpu_set_t have;
    char shown[256];
    int c;

    if (sched_getaffinity(0, sizeof(have), &have) < 0) {
        snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno));
        return -1;
    }
    for (c = 0; c < CPU_SETSIZE; c++) {
        if (CPU_ISSET(c, set) && !CPU_ISSET(c, &have)) {
            format_cpus(&have, shown, sizeof(shown));
            snprintf(err, errlen, "CPU %d is not available (this process may use CPUs %s)", c,
                     shown);
            return -1;
        }
    }
    return 0;
}

/* In the child: removes names[0..n) from the environment, or fails it (child_fail). */
static void unset_all(const char *const *names, size_t n, int failfd)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (unsetenv(names[i]) < 0)
            child_fail(failfd, errno);
}

/* In the child after fork: detach, reset signals, wire stdin/stdout/stderr, set the
 * environment, CPUs and ASLR, exec. Never returns: a failure goes to failfd (child_fail). */
static void child_exec(const struct proc_spec *ps, const cpu_set_t *cpus, int outfd, int errfd,
                       int failfd, pid_t parent)
{
    sigset_t none;
    int nul = open("/dev/null", O_RDONLY);
    const char *k;
    json_t *v;

    (void)setpgid(0, 0);
    /* if compare itself dies (even by SIGKILL), take the child with it: no orphans */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
        child_fail(failfd, ECHILD);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGCHLD, SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (nul < 0 || dup2(ps->stdin_fd > 0 ? ps->stdin_fd : nul, 0) < 0)
        child_fail(failfd, errno);
    if (dup2(ps->capture_stdout ? outfd : errfd, 1) < 0 || dup2(errfd, 2) < 0)
        child_fail(failfd, errno);
    if (ps->env && !ps->envp) {
        json_object_foreach((json_t *)ps->env, k, v)
        {
            if (setenv(k, json_string_value(v), 1) < 0)
                child_fail(failfd, errno);
        }
    }
    if (ps->no_secrets && !ps->envp) {
        static const char *const secrets[] = PROC_SECRET_VARS;
        unset_all(secrets, sizeof(secrets) / sizeof(secrets[0]), failfd);
    }
    if (ps->valgrind && !ps->envp) {
        static const char *const names[] = PROC_VALGRIND_NAME_VARS;
        unset_all(names, sizeof(names) / sizeof(names[0]), failfd);
    }
    if (ps->cpus && sched_setaffinity(0, sizeof(*cpus), cpus) < 0)
        child_fail(failfd, errno);
    if (ps->no_aslr && personality(ADDR_NO_RANDOMIZE) < 0)
        child_fail(failfd, errno);
    if (ps->envp)
        execvpe(ps->argv[0], ps->argv, ps->envp);
    else
        execvp(ps->argv[0], ps->argv);
    child_fail(failfd, errno);
}

int proc_start(struct proc *p, const struct proc_spec *ps, char *err, size_t errlen)
{
    int outp[2] = {-1, -1}, errp[2] = {-1, -1}, errfd = -1, code = 0;
    cpu_set_t cpus;
    pid_t pid, parent;
    ssize_t r;

    memset(p, 0, sizeof(*p));
    p->pid = -1;
    p->out_fd = -1;
    if (ps->cpus && num_parse_cpus(ps->cpus, &cpus) < 0) {
        snprintf(err, errlen, "bad CPU list '%s' (expected e.g. 0,2-3)", ps->cpus);
        return -1;
    }
    if (ps->stderr_path) {
        if (logcap_start(ps->stderr_path, PROC_LOG_HEAD, PROC_LOG_TAIL, &errfd, &p->log_pid, err,
                         errlen) < 0)
            goto fail;
    } else if ((errfd = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0) {
        snprintf(err, errlen, "cannot open '/dev/null': %s", strerror(errno));
        goto fail;
    }
    if ((ps->capture_stdout && pipe2(outp, O_CLOEXEC) < 0) || pipe2(errp, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        goto fail;
    }
    fflush(NULL);
    parent = getpid();
    pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        goto fail;
    }
    if (pid == 0)
        child_exec(ps, &cpus, outp[1], errfd, errp[1], parent);
    /* both sides set the group, so that a kill right after fork reaches it */
    (void)setpgid(pid, pid);
    p->pid = pid;
    close(errp[1]);
    errp[1] = -1;
    if (outp[1] >= 0) {
        close(outp[1]);
        outp[1] = -1;
    }
    do
        r = read(errp[0], &code, sizeof(code));
    while (r < 0 && errno == EINTR);
    close(errp[0]);
    errp[0] = -1;
    close(errfd);
    errfd = -1;
    if (r == (ssize_t)sizeof(code)) {
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        p->pid = -1;
        snprintf(err, errlen, "cannot execute '%s': %s", ps->argv[0], strerror(code));
        goto fail;
    }
    p->out_fd = outp[0];
    return 0;
fail:
    if (outp[0] >= 0)
        close(outp[0]);
    if (outp[1] >= 0)
        close(outp[1]);
    if (errp[0] >= 0)
        close(errp[0]);
    if (errp[1] >= 0)
        close(errp[1]);
    if (errfd >= 0)
        close(errfd);
    logcap_settle(&p->log_pid, 2.0, 1);
    return -1;
}

int proc_wait(struct proc *p, double timeout_s, double kill_after_s, volatile sig_atomic_t *stop,
              struct proc_result *res, char *err, size_t errlen)
{
    uint64_t start = clock_now_ns(), deadline, kill_at = 0, drain_until = 0;
    size_t cap = 4096;
    int exited = 0, termed = 0, killed = 0;

    memset(res, 0, sizeof(*res));
    res->out = malloc(cap);
    if (!res->out) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    res->out[0] = '\0';
    deadline = start + (uint64_t)(timeout_s * 1e9);
    while (!exited || p->out_fd >= 0) {
        uint64_t now = clock_now_ns();
        int wait_ms = 50;

        if (!termed && !exited && p->watch > 0 && ptree_ended(p->watch))
            res->watch_ended = 1;
        if (!termed && (now >= deadline || (stop && *stop) || res->watch_ended)) {
            if (stop && *stop)
                res->interrupted = 1;
            else if (!res->watch_ended)
                res->timed_out = 1;
            kill(-p->pid, SIGTERM);
            termed = 1;
            kill_at = now + (uint64_t)(kill_after_s * 1e9);
        }
        if (termed && !killed && now >= kill_at) {
            kill(-p->pid, SIGKILL);
            killed = 1;
        }
        if (exited && p->out_fd >= 0 && now >= drain_until) {
            /* something the process left behind keeps stdout open: stop reading */
            close(p->out_fd);
            p->out_fd = -1;
            break;
        }
        if (p->out_fd >= 0) {
            struct pollfd pfd = {.fd = p->out_fd, .events = POLLIN};
            int n = poll(&pfd, 1, wait_ms);
            if (n < 0 && errno != EINTR) {
                snprintf(err, errlen, "poll: %s", strerror(errno));
                return -1;
            }
            if (n > 0) {
                ssize_t r;
                if (res->out_len + 4096 + 1 > cap && cap < OUT_CAP) {
                    char *no = realloc(res->out, cap * 2);
                    if (!no) {
                        snprintf(err, errlen, "out of memory");
                        return -1;
                    }
                    res->out = no;
                    cap *= 2;
                }
                if (res->out_len + 1 >= cap) {
                    char sink[4096];
                    r = read(p->out_fd, sink, sizeof(sink)); /* over the cap: discard */
                } else {
                    r = read(p->out_fd, res->out + res->out_len, cap - res->out_len - 1);
                    if (r > 0) {
                        res->out_len += (size_t)r;
                        res->out[res->out_len] = '\0';
                    }
                }
                if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
                    close(p->out_fd);
                    p->out_fd = -1;
                }
            }
        } else if (!exited) {
            struct timespec ts = {0, 2 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        if (!exited) {
            pid_t w = wait4(p->pid, &res->status, WNOHANG, &res->ru);
            if (w == p->pid) {
                exited = 1;
                p->reaped = 1;
                p->status = res->status;
                /* leftovers of a finished process are not wanted; read what is in the pipe */
                kill(-p->pid, SIGKILL);
                drain_until = clock_now_ns() + 1000000000u;
            } else if (w < 0 && errno != EINTR) {
                snprintf(err, errlen, "wait4: %s", strerror(errno));
                return -1;
            }
        }
    }
    /* the group may hold more than the leader: make sure nothing of it survives */
    kill(-p->pid, SIGKILL);
    logcap_settle(&p->log_pid, 2.0, 1);
    res->elapsed_s = (double)(clock_now_ns() - start) / 1e9;
    return 0;
}

void proc_result_release(struct proc_result *res)
{
    free(res->out);
    res->out = NULL;
}

int proc_running(struct proc *p)
{
    pid_t w;

    if (p->pid <= 0 || p->reaped)
        return 0;
    do
        w = waitpid(p->pid, &p->status, WNOHANG);
    while (w < 0 && errno == EINTR);
    if (w == p->pid || w < 0) {
        p->reaped = 1;
        /* what it left behind may still hold the log open: do not wait long for the tail */
        logcap_settle(&p->log_pid, 0.5, 0);
        return 0;
    }
    return 1;
}

int proc_ended_within(struct proc *p, double max_s)
{
    uint64_t until = clock_now_ns() + (uint64_t)(max_s * 1e9);

    while (proc_running(p)) {
        if (!ptree_ended(p->pid) || clock_now_ns() >= until)
            return 0;
        (void)usleep(10000);
    }
    return 1;
}

void proc_stop(struct proc *p, double grace_s)
{
    uint64_t until;

    if (p->out_fd >= 0) {
        close(p->out_fd);
        p->out_fd = -1;
    }
    if (p->pid <= 0) {
        logcap_settle(&p->log_pid, 2.0, 1);
        return;
    }
    if (!p->reaped) {
        kill(-p->pid, SIGTERM);
        until = clock_now_ns() + (uint64_t)(grace_s * 1e9);
        while (proc_running(p) && clock_now_ns() < until) {
            struct timespec ts = {0, 2 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        if (!p->reaped) {
            kill(-p->pid, SIGKILL);
            while (waitpid(p->pid, &p->status, 0) < 0 && errno == EINTR)
                ;
            p->reaped = 1;
        }
    }
    kill(-p->pid, SIGKILL); /* anything left in its group */
    p->pid = -1;
    logcap_settle(&p->log_pid, 2.0, 1);
}

double proc_cpu_s(pid_t pid)
{
    char path[64], buf[1024], *s;
    unsigned long long ut, st;
    long hz = sysconf(_SC_CLK_TCK);
    FILE *f;
    size_t n;
    int field;

    snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
    f = fopen(path, "re");
    if (!f)
        return -1;
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    s = strrchr(buf, ')'); /* the command name may hold spaces */
    if (!s || hz <= 0)
        return -1;
    s++;
    /* after ')': field 3 (state) ... field 14 utime, 15 stime */
    for (field = 2; field < 13 && s; field++)
        s = strchr(s + 1, ' ');
    if (!s || sscanf(s, " %llu %llu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) / (double)hz;
}

void proc_describe_status(int status, char *out, size_t outlen)
{
    if (WIFEXITED(status))
        snprintf(out, outlen, "exit %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(out, outlen, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(out, outlen, "status %d", status);
}

/* The last max_bytes of path, or with whole > max_bytes the line that holds them read
 * whole as far back as whole bytes go, as one line (see proc_file_tail). */
static void file_tail(const char *path, size_t max_bytes, size_t whole, char *out, size_t outlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    size_t span = whole > max_bytes ? whole : max_bytes;
    char *buf = NULL;
    off_t size;
    ssize_t n;
    size_t i, o = 0, from = 0;
    int space = 0;

    if (outlen)
        out[0] = '\0';
    if (fd < 0)
        return;
    size = lseek(fd, 0, SEEK_END);
    if (size <= 0 || !(buf = malloc(span + 1)))
        goto out;
    if ((size_t)size > span)
        lseek(fd, size - (off_t)span, SEEK_SET);
    else
        lseek(fd, 0, SEEK_SET);
    n = read(fd, buf, span);
    if (n <= 0)
        goto out;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\r'))
        n--;
    if ((size_t)n > max_bytes) { /* from max_bytes before the end, or its line's start */
        from = (size_t)n - max_bytes;
        while (whole > max_bytes && from > 0 && buf[from - 1] != '\n')
            from--;
    }
    for (i = from; i < (size_t)n && o + 4 < outlen; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == '\n') {
            if (o > 0 && !space) {
                memcpy(out + o, " | ", 3);
                o += 3;
            }
            space = 1;
            continue;
        }
        space = 0;
        out[o++] = (c < 0x20 && c != '\t') ? '?' : (char)c;
    }
    out[o] = '\0';
out:
    free(buf);
    close(fd);
}

void proc_file_tail(const char *path, size_t max_bytes, char *out, size_t outlen)
{
    file_tail(path, max_bytes, 0, out, outlen);
}

void proc_file_tail_line(const char *path, size_t max_bytes, size_t whole, char *out, size_t outlen)
{
    file_tail(path, max_bytes, whole, out, outlen);
}

void proc_ended_reason(const struct proc *p, const char *who, const char *log, char *reason,
                       size_t reasonlen)
{
    char st[64], tail[400], then[1200];

    proc_describe_status(p->status, st, sizeof(st));
    tail[0] = '\0';
    if (log)
        proc_file_tail(log, 300, tail, sizeof(tail));
    snprintf(then, sizeof(then), "%s", reason);
    snprintf(reason, reasonlen, "%s ended during the run with %s%s%s%s%s%s", who, st,
             tail[0] ? " (its log ends: " : "", tail, tail[0] ? ")" : "", then[0] ? "; then " : "",
             then);
}
