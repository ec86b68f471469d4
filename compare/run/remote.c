/* remote: one run's session with `driver agent` on the server host (see remote.h). */
#include "run/remote.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "util/words.h"

#define REMOTE_ARGV_MAX 40

/* Starts ssh on h running remote_cmd; stdin a pipe when in_fd is not NULL. */
static int ssh_start(struct proc *p, const struct server_host *h, const char *remote_cmd,
                     const char *log, int *in_fd, char *err, size_t errlen)
{
    char *argv[REMOTE_ARGV_MAX], storage[4096];
    struct proc_spec ps = {0};
    int pfd[2] = {-1, -1}, rc;

    if (sshhost_argv(h, remote_cmd, argv, REMOTE_ARGV_MAX, storage, sizeof(storage)) < 0) {
        snprintf(err, errlen, "server_host '%s': the ssh command is too long", h->url);
        return -1;
    }
    if (in_fd && pipe2(pfd, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    ps.argv = argv;
    ps.stderr_path = log;
    ps.capture_stdout = 1;
    ps.no_secrets = 1; /* the host gets no credentials meant for the driver */
    ps.stdin_fd = pfd[0];
    rc = proc_start(p, &ps, err, errlen);
    if (pfd[0] >= 0)
        close(pfd[0]);
    if (rc < 0) {
        if (pfd[1] >= 0)
            close(pfd[1]);
        return -1;
    }
    if (in_fd)
        *in_fd = pfd[1];
    return 0;
}

int remote_open(struct remote *rm, const struct server_host *h, const char *log, char *err,
                size_t errlen)
{
    char cmd[2200], q[2100];

    memset(rm, 0, sizeof(*rm));
    rm->h = h;
    rm->ssh.pid = -1;
    rm->ssh.out_fd = -1;
    rm->in_fd = -1;
    pthread_mutex_init(&rm->mu, NULL);
    snprintf(rm->log, sizeof(rm->log), "%s", log);
    snprintf(cmd, sizeof(cmd), "%s agent", words_quote(h->driver, q, sizeof(q)));
    return ssh_start(&rm->ssh, h, cmd, log, &rm->in_fd, err, errlen);
}

/* The session has ended: why, in ssh's words. */
static void session_ended(struct remote *rm)
{
    char st[64], tail[600];
    int i;

    for (i = 0; i < 100 && proc_running(&rm->ssh); i++)
        usleep(10000); /* ssh exits right after its output ends */
    proc_file_tail(rm->log, 400, tail, sizeof(tail));
    if (proc_running(&rm->ssh))
        snprintf(st, sizeof(st), "%s", "still running");
    else
        proc_describe_status(rm->ssh.status, st, sizeof(st));
    snprintf(rm->ended, sizeof(rm->ended), "the ssh session to %.300s ended (ssh: %s%s%s)",
             rm->h->url, st, tail[0] ? "; " : "", tail);
}

/* One line of reply into line (NUL-terminated, without the newline). Returns 0, -1 with err. */
static int read_line(struct remote *rm, char *line, size_t linelen, double timeout_s, char *err,
                     size_t errlen)
{
    uint64_t deadline = clock_now_ns() + (uint64_t)(timeout_s * 1e9);

    for (;;) {
        char *nl = memchr(rm->buf, '\n', rm->used);
        struct pollfd pfd = {.fd = rm->ssh.out_fd, .events = POLLIN};
        uint64_t now = clock_now_ns();
        ssize_t n;

        if (nl) {
            size_t len = (size_t)(nl - rm->buf);
            snprintf(line, linelen, "%.*s", (int)len, rm->buf);
            rm->used -= len + 1;
            memmove(rm->buf, nl + 1, rm->used);
            return 0;
        }
        if (rm->used == sizeof(rm->buf) || now >= deadline) {
            snprintf(err, errlen, "the agent on %s gave no reply within %.0f s", rm->h->url,
                     timeout_s);
            return -1;
        }
        if (poll(&pfd, 1, (int)((deadline - now) / 1000000 + 1)) < 0 && errno != EINTR) {
            snprintf(err, errlen, "poll: %s", strerror(errno));
            return -1;
        }
        if (!(pfd.revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        n = read(rm->ssh.out_fd, rm->buf + rm->used, sizeof(rm->buf) - rm->used);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0) {
            session_ended(rm);
            snprintf(err, errlen, "%s", rm->ended);
            return -1;
        }
        rm->used += (size_t)n;
    }
}

/* Whether boot_id (the agent's) is this kernel's: the host is a network namespace of this
 * machine, whose /proc/stat is this machine's, the driver's CPU in it. */
static int same_kernel(const char *boot_id)
{
    char here[64];
    ssize_t n;

    if (!boot_id)
        return 0; /* most replies carry none: no file read for them */
    n = ptree_read_small("/proc/sys/kernel/random/boot_id", here, sizeof(here));
    return n > 0 && strncmp(here, boot_id, strcspn(here, "\n")) == 0 &&
           strlen(boot_id) == strcspn(here, "\n");
}

/* The host's clock from a reply sent at t0 and read at t1 (this clock) that says when the
 * agent read the request and wrote the reply (its clock): the offset is the mean of the two
 * differences, as NTP takes it, kept when its round trip is the shortest yet. The stamps are
 * taken out of the reply. */
static void clock_learn(struct remote *rm, uint64_t t0, uint64_t t1, json_t *rep)
{
    json_int_t in = json_integer_value(json_object_get(rep, "t_in_ns"));
    json_int_t out = json_integer_value(json_object_get(rep, "t_out_ns"));
    int64_t trip;

    (void)json_object_del(rep, "t_in_ns"); /* the session's, not the records' */
    (void)json_object_del(rep, "t_out_ns");
    if (rm->clock_trip_ns == 1 && rm->clock_offset_ns == 0)
        return; /* one kernel, one clock */
    if (same_kernel(json_string_value(json_object_get(rep, "boot_id")))) {
        rm->clock_offset_ns = 0;
        rm->clock_trip_ns = 1;
        return;
    }
    if (in <= 0 || out < in)
        return; /* an agent that does not say */
    trip = (int64_t)(t1 - t0) - (int64_t)(out - in);
    if (trip < 0)
        trip = 0;
    if (rm->clock_trip_ns && (uint64_t)trip >= rm->clock_trip_ns)
        return;
    rm->clock_offset_ns = ((int64_t)in - (int64_t)t0 + (int64_t)out - (int64_t)t1) / 2;
    rm->clock_trip_ns = (uint64_t)trip + 1;
}

json_t *remote_call(struct remote *rm, json_t *req, double timeout_s, char *err, size_t errlen)
{
    char *text = req ? json_dumps(req, JSON_COMPACT) : NULL, line[sizeof(rm->buf)];
    json_t *rep = NULL;
    uint64_t t0;
    json_error_t je;
    size_t len, off = 0;

    json_decref(req);
    pthread_mutex_lock(&rm->mu);
    if (rm->ended[0] || rm->in_fd < 0) {
        snprintf(err, errlen, "%s", rm->ended[0] ? rm->ended : "no session with the agent");
        goto out;
    }
    if (!text) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    len = strlen(text);
    text[len++] = '\n'; /* json_dumps' NUL becomes the line's end */
    t0 = clock_now_ns();
    while (off < len) {
        ssize_t n = write(rm->in_fd, text + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            session_ended(rm);
            snprintf(err, errlen, "%s", rm->ended);
            goto out;
        }
        off += (size_t)n;
    }
    if (read_line(rm, line, sizeof(line), timeout_s, err, errlen) < 0)
        goto out;
    clock_learn(rm, t0, clock_now_ns(), rep = json_loads(line, 0, &je));
    if (!json_is_true(json_object_get(rep, "ok"))) {
        const char *e = json_string_value(json_object_get(rep, "error"));
        snprintf(err, errlen, "the agent on %s: %s", rm->h->url,
                 e ? e : "a reply that is not the agent's (is 'driver' this pairbench's?)");
        json_decref(rep);
        rep = NULL;
    }
out:
    pthread_mutex_unlock(&rm->mu);
    free(text);
    return rep;
}

int remote_sample(void *arg, struct tree_sample *out, struct sys_sample *host, long *host_hz)
{
    struct remote *rm = arg;
    char err[512];
    json_t *rep = remote_call(rm, json_pack("{s:s}", "op", "sample"), 5.0, err, sizeof(err));
    int rc = -1;

    memset(out, 0, sizeof(*out));
    if (rep && json_is_true(json_object_get(rep, "running"))) {
        out->cpu_s = json_number_value(json_object_get(rep, "cpu_s"));
        out->sched_s = json_number_value(json_object_get(rep, "sched_s"));
        out->n_sched = (unsigned)json_integer_value(json_object_get(rep, "n_sched"));
        out->n_procs = (unsigned)json_integer_value(json_object_get(rep, "n_procs"));
        out->syscr = (unsigned long long)json_integer_value(json_object_get(rep, "syscr"));
        out->syscw = (unsigned long long)json_integer_value(json_object_get(rep, "syscw"));
        out->vcsw = (unsigned long long)json_integer_value(json_object_get(rep, "vcsw"));
        out->nivcsw = (unsigned long long)json_integer_value(json_object_get(rep, "nivcsw"));
        out->faults = (unsigned long long)json_integer_value(json_object_get(rep, "faults"));
        out->migrations =
            (unsigned long long)json_integer_value(json_object_get(rep, "migrations"));
        out->n_migr = (unsigned)json_integer_value(json_object_get(rep, "n_migr"));
        if (host && host_hz) /* the host's own CPU, when it is another kernel's */
            *host_hz = json_is_string(json_object_get(rep, "stat")) &&
                               !same_kernel(json_string_value(json_object_get(rep, "boot_id"))) &&
                               interference_parse_stat(
                                   json_string_value(json_object_get(rep, "stat")), host) == 0
                           ? (long)json_integer_value(json_object_get(rep, "hz"))
                           : 0;
        rc = 0;
    }
    json_decref(rep);
    return rc;
}

int remote_running(struct remote *rm, char *why, size_t whylen)
{
    json_t *rep = remote_call(rm, json_pack("{s:s}", "op", "sample"), 5.0, why, whylen);
    int running = rep && json_is_true(json_object_get(rep, "running"));

    if (rep && !running) {
        const char *log = json_string_value(json_object_get(rep, "log"));
        snprintf(why, whylen, "ended with %s%s%s on %s",
                 json_string_value(json_object_get(rep, "status")),
                 log && log[0] ? "; its log: " : "", log ? log : "", rm->h->url);
    }
    json_decref(rep);
    return running;
}

void remote_trace_begin(struct remote *rm)
{
    json_t *rep = remote_call(rm, json_pack("{s:s,s:s}", "op", "trace", "do", "start"), 30.0,
                              rm->trace_why, sizeof(rm->trace_why));

    rm->tracing = rep != NULL;
    json_decref(rep);
}

void remote_on_mark(void *arg, int which, uint64_t at_ns)
{
    struct remote *rm = arg;
    char why[512];

    json_t *req;

    if (!rm || !rm->tracing)
        return;
    req = json_pack("{s:s,s:s}", "op", "trace", "do", which == 0 ? "open" : "close");
    if (req && rm->clock_trip_ns) /* the window thread calls at the mark */
        json_object_set_new(req, "at_ns",
                            json_integer((json_int_t)at_ns + (json_int_t)rm->clock_offset_ns));
    json_decref(remote_call(rm, req, 5.0, why, sizeof(why)));
}

void remote_trace_attach(struct remote *rm, json_t *swin, int marks_seen)
{
    char why[600];
    json_t *rep;

    if (!json_is_object(swin) || (!rm->tracing && !rm->trace_why[0]))
        return; /* not a counted run of system calls */
    if (!rm->tracing) {
        json_object_set_new(swin, "syscalls_error", json_string(rm->trace_why));
        return;
    }
    if (!marks_seen) {
        json_object_set_new(swin, "syscalls_error",
                            json_string("the driver wrote no window marks (the system calls are "
                                        "counted between them)"));
        return;
    }
    rep = remote_call(rm, json_pack("{s:s,s:s}", "op", "trace", "do", "counts"), 10.0, why,
                      sizeof(why));
    if (rep)
        json_object_set(swin, "syscalls", json_object_get(rep, "counts"));
    else
        json_object_set_new(swin, "syscalls_error", json_string(why));
    json_decref(rep);
}

void remote_close(struct remote *rm, double grace_s)
{
    char err[512];
    int i;

    if (rm->ssh.pid <= 0)
        return;
    if (rm->server_pid > 0 && !rm->ended[0] && !rm->stopped)
        rm->stopped = remote_call(rm, json_pack("{s:s,s:f}", "op", "stop", "grace_s", grace_s),
                                  grace_s + 5.0, err, sizeof(err));
    if (rm->in_fd >= 0) {
        close(rm->in_fd); /* the agent's stdin ends: it stops what is left and exits */
        rm->in_fd = -1;
    }
    for (i = 0; i < (int)(grace_s * 100) + 300 && proc_running(&rm->ssh); i++)
        usleep(10000);
    proc_stop(&rm->ssh, 1.0);
    if (rm->ssh.out_fd >= 0) {
        close(rm->ssh.out_fd);
        rm->ssh.out_fd = -1;
    }
    rm->ssh.pid = -1;
    pthread_mutex_destroy(&rm->mu);
}

/* `ssh HOST DRIVER --version`: its first line must be this build's version. */
static int check_version(const struct server_host *h, const char *log, char *got, size_t gotlen,
                         char *err, size_t errlen)
{
    char cmd[2200], q[2100], mine[128], why[512], tail[600];
    struct proc p;
    struct proc_result res;
    int rc = -1;

    snprintf(cmd, sizeof(cmd), "%s --version", words_quote(h->driver, q, sizeof(q)));
    snprintf(mine, sizeof(mine), "pairbench %s (%s)", PAIRBENCH_RELEASE, PAIRBENCH_VERSION);
    if (ssh_start(&p, h, cmd, log, NULL, err, errlen) < 0)
        return -1;
    if (proc_wait(&p, 20.0, 1.0, NULL, &res, why, sizeof(why)) < 0) {
        snprintf(err, errlen, "server_host '%s': %s", h->url, why);
        proc_stop(&p, 0.5);
        return -1;
    }
    snprintf(got, gotlen, "%.*s", (int)strcspn(res.out, "\r\n"), res.out);
    proc_file_tail(log, 400, tail, sizeof(tail));
    proc_describe_status(res.status, why, sizeof(why));
    if (res.timed_out || !WIFEXITED(res.status) || WEXITSTATUS(res.status) == 255)
        snprintf(err, errlen, "server_host '%s': ssh failed (%s)%s%s", h->url, why,
                 tail[0] ? ": " : "", tail);
    else if (WEXITSTATUS(res.status) != 0)
        snprintf(err, errlen,
                 "server_host '%s': '%s --version' failed there (%s)%s%s (expected this "
                 "pairbench's driver in the host's PATH, or driver=PATH in the URL)",
                 h->url, h->driver, why, tail[0] ? ": " : "", tail);
    else if (strcmp(got, mine) != 0)
        snprintf(err, errlen,
                 "server_host '%s': the driver there is '%s', expected '%s' (install this build's "
                 "driver on the host)",
                 h->url, got, mine);
    else
        rc = 0;
    proc_result_release(&res);
    proc_stop(&p, 0.5);
    return rc;
}

int remote_preflight(const struct server_host *h, const char *work_dir, json_t **meta, char *err,
                     size_t errlen)
{
    char log[4200], version[256], why[1024];
    struct remote rm;
    json_t *hello = NULL, *rtt;

    *meta = NULL;
    snprintf(log, sizeof(log), "%s/ssh-preflight.log", work_dir);
    if (check_version(h, log, version, sizeof(version), err, errlen) < 0)
        return -1;
    if (remote_open(&rm, h, log, err, errlen) < 0)
        return -1;
    hello = remote_call(&rm, json_pack("{s:s}", "op", "hello"), 20.0, why, sizeof(why));
    remote_close(&rm, 1.0);
    if (!hello) {
        snprintf(err, errlen, "server_host '%s': %s", h->url, why);
        return -1;
    }
    rtt = sshhost_rtt(h, 21, why, sizeof(why));
    if (!rtt) {
        snprintf(err, errlen, "server_host '%s': measuring the round trip: %s", h->url, why);
        json_decref(hello);
        return -1;
    }
    *meta =
        json_pack("{s:s,s:s,s:I,s:s,s:s,s:O,s:o,s:f}", "url", h->url, "address", h->host, "port",
                  (json_int_t)h->port, "driver", h->driver, "version", version, "machine",
                  json_object_get(hello, "machine"), "rtt_before", rtt, "rtt_limit", h->rtt_limit);
    json_decref(hello);
    (void)unlink(log);
    return *meta ? 0 : -1;
}
