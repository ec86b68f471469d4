/* window: the driver's window marks and the process-tree samples taken at them (see
 * window.h). */
#include "run/window.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "run/counters.h"

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_pid(const void *a, const void *b)
{
    long x = ((const struct pinfo *)a)->pid, y = ((const struct pinfo *)b)->pid;

    return (x > y) - (x < y);
}

unsigned long long window_all_ticks(const struct window_edge *a, const struct window_edge *b)
{
    const struct pinfo *va = a->all, *vb = b->all;
    unsigned long long sum = 0;
    size_t i = 0, k;

    if (!va || !vb)
        return 0;
    for (k = 0; k < b->n_all; k++) {
        while (i < a->n_all && va[i].pid < vb[k].pid)
            i++;
        if (i < a->n_all && va[i].pid == vb[k].pid)
            sum += vb[k].ticks > va[i].ticks ? vb[k].ticks - va[i].ticks : 0;
        else
            sum += vb[k].ticks; /* born inside the window: all its time is in it */
    }
    return sum;
}

/* One listing of the processes serves the server's tree, the driver's and, sorted by pid and
 * kept in the edge, the sum of every process's time (window_all_ticks). */
static void sample_edge(const struct window_watch *w, struct window_edge *e, int with_driver)
{
    char path[4200], buf[8192];
    struct pinfo *v;
    size_t n = 0;

    free(e->all);
    memset(e, 0, sizeof(*e));
    e->t_s = now_s();
    if (w->sample_server)
        e->have_server =
            w->sample_server(w->server_arg, &e->server, &e->host_sys, &e->host_hz) == 0;
    snprintf(path, sizeof(path), "%s/stat", w->proc_root);
    if (ptree_read_small(path, buf, sizeof(buf)) > 0)
        interference_parse_stat(buf, &e->sys);
    if (!(v = ptree_list(w->proc_root, &n)))
        return;
    if (w->server_pid > 0)
        e->have_server = ptree_sample_in(w->proc_root, v, n, w->server_pid, w->hz, &e->server) == 0;
    if (with_driver && w->driver_pid > 0)
        e->have_driver = ptree_sample_in(w->proc_root, v, n, w->driver_pid, w->hz, &e->driver) == 0;
    qsort(v, n, sizeof(*v), by_pid);
    e->all = v;
    e->n_all = n;
}

int window_open(struct window_watch *w, pid_t server_pid, char *err, size_t errlen)
{
    int fds[2];

    memset(w, 0, sizeof(*w));
    w->rd = w->wr = -1;
    w->server_pid = server_pid;
    w->proc_root = "/proc";
    w->hz = sysconf(_SC_CLK_TCK);
    if (pipe2(fds, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot create the window-mark pipe: %s", strerror(errno));
        return -1;
    }
    w->rd = fds[0];
    w->wr = fds[1];
    return 0;
}

void window_fd_text(const struct window_watch *w, char *out, size_t len)
{
    if (w->wr >= 0)
        snprintf(out, len, "%d", w->wr);
    else
        snprintf(out, len, "%s", "");
}

json_t *window_env(const json_t *env, const struct window_watch *w)
{
    json_t *e = env ? json_copy((json_t *)env) : json_object();
    char fd[16];

    window_fd_text(w, fd, sizeof(fd));
    if (e && fd[0])
        json_object_set_new(e, WINDOW_ENV, json_string(fd));
    return e;
}

void window_before_exec(struct window_watch *w)
{
    if (w->wr >= 0)
        (void)fcntl(w->wr, F_SETFD, 0); /* the driver inherits it */
}

static void window_hooks(struct window_watch *w, int which, uint64_t at_ns)
{
    int i;

    for (i = 0; i < 2; i++)
        if (w->on_mark[i])
            w->on_mark[i](w->mark_arg[i], which, at_ns);
}

/* A driver of another kind may write bare marks, or a clock of its own: then the mark is now. */
int window_mark_line(const char *line, const char *what, uint64_t now_ns, uint64_t *at_ns)
{
    size_t n = strlen(what);
    unsigned long long t;
    char *end;

    if (strncmp(line, what, n) != 0 || (line[n] != '\0' && line[n] != ' '))
        return 0;
    *at_ns = now_ns;
    if (line[n] == ' ' && line[n + 1] >= '0' && line[n + 1] <= '9') {
        errno = 0;
        t = strtoull(line + n + 1, &end, 10);
        if (errno == 0 && *end == '\0' && t <= now_ns && now_ns - t < 10000000000ull)
            *at_ns = t;
    }
    return 1;
}

/* The thread: reads lines from the pipe until EOF or stop; samples at "start" and "end". */
static void *watch_main(void *arg)
{
    struct window_watch *w = arg;
    char line[64];
    size_t used = 0;

    while (!w->stop) {
        struct pollfd pfd = {.fd = w->rd, .events = POLLIN};
        ssize_t n;
        char *nl;

        if (poll(&pfd, 1, 100) <= 0)
            continue;
        n = read(w->rd, line + used, sizeof(line) - 1 - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        used += (size_t)n;
        line[used] = '\0';
        while ((nl = strchr(line, '\n')) != NULL) {
            uint64_t at;

            *nl = '\0';
            if (w->marks == 0 && window_mark_line(line, "start", clock_now_ns(), &at)) {
                if (w->ctr) /* first: the counters' edge as close to the mark as can be */
                    counters_mark(w->ctr, 0);
                window_hooks(w, 0, at);
                sample_edge(w, &w->mark[0], 1);
                w->marks = 1;
            } else if (w->marks == 1 && window_mark_line(line, "end", clock_now_ns(), &at)) {
                if (w->ctr)
                    counters_mark(w->ctr, 1);
                window_hooks(w, 1, at);
                sample_edge(w, &w->mark[1], 1);
                w->marks = 2;
            }
            used -= (size_t)(nl + 1 - line);
            memmove(line, nl + 1, used + 1);
        }
        if (used == sizeof(line) - 1)
            used = 0; /* a line too long to be a mark: dropped */
    }
    return NULL;
}

void window_after_exec(struct window_watch *w, pid_t driver_pid)
{
    if (w->wr >= 0) {
        close(w->wr);
        w->wr = -1;
    }
    w->driver_pid = driver_pid;
    sample_edge(w, &w->proc[0], 0);
    if (w->rd >= 0 && pthread_create(&w->th, NULL, watch_main, w) == 0)
        w->thread_running = 1;
}

void window_finish(struct window_watch *w)
{
    w->stop = 1;
    if (w->thread_running) {
        pthread_join(w->th, NULL);
        w->thread_running = 0;
    }
    sample_edge(w, &w->proc[1], 0);
}

void window_close(struct window_watch *w)
{
    int i;

    if (w->thread_running) {
        w->stop = 1;
        pthread_join(w->th, NULL);
        w->thread_running = 0;
    }
    for (i = 0; i < 2; i++) { /* after the join: the thread fills the marks' edges */
        free(w->mark[i].all);
        free(w->proc[i].all);
        w->mark[i].all = w->proc[i].all = NULL;
    }
    if (w->rd >= 0)
        close(w->rd);
    if (w->wr >= 0)
        close(w->wr);
    w->rd = w->wr = -1;
}

/* Set once a window shows this kernel charges irq time to processes: every process's time
 * over it (window_all_ticks) past the machine's user + nice + system by more than the
 * samples' skew and a quarter of its irq time (interference_irq_in_tasks). Kept for the
 * process's life: it is the kernel's property, not the run's, and a window whose processes
 * exited before its end can hide it. */
static int irq_in_tasks;

/* A counter's change over the window; null when it went backwards (the server, or the
 * threads /proc summed, ended inside the window): never a negative count. */
static json_t *counted_delta(long long d)
{
    return d >= 0 ? json_integer((json_int_t)d) : json_null();
}

/* A server on the server host: the same check over that host's /proc/stat, less the server's
 * own CPU there (irq ticks not counted with its processes: this side cannot tell that host's
 * kernel apart, and leaving them out can only read fewer other cores). interf gets "host":
 * {other_cpu_cores, steal_pct, disturbed}, and a disturbed host makes the run disturbed ("where":
 * "server host", or "both" with this machine). */
static void host_interference(const struct window_edge *a, const struct window_edge *b,
                              double srv_cpu, const struct interference_limits *lim, json_t *interf)
{
    struct interference h;

    if (!interf || a->host_hz <= 0 || b->host_hz <= 0 || !(b->t_s > a->t_s))
        return;
    interference_compute(&a->host_sys, &b->host_sys, srv_cpu, b->t_s - a->t_s, a->host_hz, -1, 0,
                         lim, &h);
    json_object_set_new(interf, "host",
                        json_pack("{s:f, s:f, s:b}", "other_cpu_cores", h.other_cpu_cores,
                                  "steal_pct", h.steal_pct, "disturbed", h.disturbed));
    if (h.disturbed) {
        json_object_set_new(interf, "where",
                            json_string(json_is_true(json_object_get(interf, "disturbed"))
                                            ? "both"
                                            : "server host"));
        json_object_set_new(interf, "disturbed", json_true());
    }
}

void window_json(const struct window_watch *w, double driver_cpu_s, long driver_nivcsw,
                 const struct interference_limits *lim, json_t **server_window, json_t **interf)
{
    int marks = w->marks == 2 && w->mark[1].t_s > w->mark[0].t_s;
    const struct window_edge *a = marks ? &w->mark[0] : &w->proc[0];
    const struct window_edge *b = marks ? &w->mark[1] : &w->proc[1];
    const char *source = marks ? "marks" : "process";
    int srv = a->have_server && b->have_server;
    double srv_cpu = srv ? b->server.cpu_s - a->server.cpu_s : 0, own;
    struct interference in;

    /* the same threads at both edges (none ended, whose time the ticks keep and the threads'
     * schedstat lose): their on-CPU time in ns instead of 10 ms ticks, which at a fixed rate
     * of a few thousand requests a second would quantize CPU per request by several percent */
    if (srv && a->server.n_sched && a->server.n_sched == b->server.n_sched &&
        a->server.n_procs == b->server.n_procs && b->server.sched_s >= a->server.sched_s)
        srv_cpu = b->server.sched_s - a->server.sched_s;

    *server_window = NULL;
    if (srv)
        *server_window = json_pack(
            "{s:o, s:o, s:o, s:o, s:s}", "cpu_s", srv_cpu >= 0 ? json_real(srv_cpu) : json_null(),
            "syscr", counted_delta((long long)b->server.syscr - (long long)a->server.syscr),
            "syscw", counted_delta((long long)b->server.syscw - (long long)a->server.syscw),
            "ctxsw",
            counted_delta((long long)(b->server.vcsw + b->server.nivcsw) -
                          (long long)(a->server.vcsw + a->server.nivcsw)),
            "source", source);
    /* the driver's CPU at the marks from /proc (a process's utime + stime keep its ended
     * threads'); its context switches are the caller's: /proc has them per live thread only,
     * and the driver's workers have ended by its end mark */
    own = marks && a->have_driver && b->have_driver ? b->driver.cpu_s - a->driver.cpu_s
                                                    : driver_cpu_s;
    own += w->sample_server ? 0 : srv_cpu; /* a server elsewhere uses another machine's CPU */
    if (!irq_in_tasks)
        irq_in_tasks = interference_irq_in_tasks(
            &a->sys, &b->sys, (double)window_all_ticks(a, b) / (double)w->hz, w->hz);
    interference_compute(&a->sys, &b->sys, own, b->t_s - a->t_s, w->hz, driver_nivcsw, irq_in_tasks,
                         lim, &in);
    *interf = json_pack("{s:f, s:f, s:I, s:b, s:s, s:f}", "other_cpu_cores", in.other_cpu_cores,
                        "steal_pct", in.steal_pct, "nivcsw", (json_int_t)in.nivcsw, "disturbed",
                        in.disturbed, "source", source, "window_s", b->t_s - a->t_s);
    host_interference(a, b, srv ? srv_cpu : 0, lim, *interf);
}
