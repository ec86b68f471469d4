/* proc: the processes pairbench starts and measures — servers and drivers — exec'd directly
 * (no shell) in their own process group, with extra environment variables, optional CPU
 * pinning (sched_setaffinity before exec), stdout captured, stderr kept in a file for the
 * error messages; waiting with a timeout (SIGTERM, then SIGKILL), wait4() resource usage, and
 * the CPU time of a running process from /proc/<pid>/stat.
 *
 * The file a process writes to is bounded: its output goes through a pipe to a small capping
 * process that keeps the first PROC_LOG_HEAD and the last PROC_LOG_TAIL bytes and, between
 * them, one line saying how many bytes were dropped. A server that floods its output never
 * fills the disk. The tail reaches the file when the output ends (the process and whatever it
 * left behind exited); proc_wait, proc_running (on seeing the exit) and proc_stop wait for
 * that, briefly, so a file read after them is complete. */
#ifndef PAIRBENCH_PROC_H
#define PAIRBENCH_PROC_H

#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <jansson.h>

#define PROC_LOG_HEAD (64u * 1024u)
#define PROC_LOG_TAIL (64u * 1024u)

struct proc_spec {
    char *const *argv;       /* argv[0] is searched in PATH when it has no '/' */
    const json_t *env;       /* extra environment {name: value}, or NULL */
    const char *cpus;        /* CPU list like "0,2-3" to pin to, or NULL */
    const char *stderr_path; /* file for stderr (truncated, capped), or NULL = /dev/null */
    int capture_stdout;      /* 1: stdout through a pipe (proc_wait); 0: stdout to stderr_path */
    int no_secrets;    /* 1: PROC_SECRET_VARS removed from its environment (inherited or in env):
                        * the server under test gets no credentials meant for the driver */
    char *const *envp; /* the whole environment, NULL-ended (env and no_secrets then unused),
                        * or NULL: the inherited one with env */
    int no_aslr;       /* 1: personality(ADDR_NO_RANDOMIZE) before exec (setarch -R) */
    int valgrind;      /* 1: a server under valgrind: PROC_VALGRIND_NAME_VARS removed too */
    int stdin_fd;      /* > 0: the child's stdin (e.g. a pipe's read end); 0: /dev/null */
};

/* The variables valgrind names its vgdb FIFOs by ("…-by-USER-on-HOST"): it reads them again
 * when vgdb connects, and a server that rewrites its environment for its process title
 * (redis-server, valkey-server) has then lost them, so the name differs from the FIFO's and
 * the server dies ("vgdb FIFO cannot be opened"). Without them both names say "???". */
#define PROC_VALGRIND_NAME_VARS                                                                    \
    {                                                                                              \
        "LOGNAME", "USER"                                                                          \
    }

/* The environment variables no_secrets removes. */
#define PROC_SECRET_VARS                                                                           \
    {                                                                                              \
        "PAIRBENCH_REDIS_PASSWORD", "PAIRBENCH_REDIS_USER"                                         \
    }

struct proc {
    pid_t pid;  /* also the process group id */
    int out_fd; /* read end of the stdout pipe, or -1 */
    int reaped;
    int status;    /* wait status once reaped */
    pid_t log_pid; /* the process capping stderr_path, or 0 */
    pid_t watch;   /* set after proc_start: proc_wait stops p (as at its deadline) as soon as this
                    * other process has ended, e.g. the server a driver talks to; 0 = none */
};

struct proc_result {
    char *out; /* captured stdout, NUL-terminated (free()); capped at 16 MiB */
    size_t out_len;
    int status;       /* wait status */
    struct rusage ru; /* from wait4() */
    int timed_out;    /* the deadline passed: it got SIGTERM (then SIGKILL) */
    int interrupted;  /* *stop became non-zero: it got SIGTERM (then SIGKILL) */
    int watch_ended;  /* p->watch ended first: it got SIGTERM (then SIGKILL) */
    double elapsed_s;
};

/* Starts the process. Returns 0, or -1 with err (e.g. "cannot execute 'redis-srv': No such
 * file or directory"). */
int proc_start(struct proc *p, const struct proc_spec *ps, char *err, size_t errlen);

/* Waits for p to exit, reading its stdout, for at most timeout_s; then SIGTERM to its group,
 * kill_after_s later SIGKILL. Stops the same way early when *stop becomes non-zero (may be
 * NULL). Fills res (release with proc_result_release()). Returns 0, or -1 with err. */
int proc_wait(struct proc *p, double timeout_s, double kill_after_s, volatile sig_atomic_t *stop,
              struct proc_result *res, char *err, size_t errlen);
void proc_result_release(struct proc_result *res);

/* Whether p is still running (reaps it when it has exited; p->status then holds why). */
int proc_running(struct proc *p);

/* Whether p has ended (reaped; p->status holds why): now, or within max_s when it is dying —
 * its main thread already dead while its other threads still exit (a SIGKILLed valgrind),
 * which waitpid cannot reap yet. A live process answers at once. */
int proc_ended_within(struct proc *p, double max_s);

/* SIGTERM to p's process group, SIGKILL after grace_s, reap. Safe to call twice. */
void proc_stop(struct proc *p, double grace_s);

/* User + system CPU seconds of a live process so far (/proc/<pid>/stat), or -1. */
double proc_cpu_s(pid_t pid);

/* "exit 1", "signal 9 (Killed)" for a wait status. */
void proc_describe_status(int status, char *out, size_t outlen);

/* Rewrites reason (which may hold what was seen after it) so that it starts with how p ended,
 * the first cause: "the server ended during the run with signal 9 (Killed) (its log ends: …);
 * then <reason>". who names p; log is its log file, or NULL. */
void proc_ended_reason(const struct proc *p, const char *who, const char *log, char *reason,
                       size_t reasonlen);

/* The last max_bytes of a file as one line: newlines become " | ", trimmed; "" when empty or
 * unreadable. */
void proc_file_tail(const char *path, size_t max_bytes, char *out, size_t outlen);
/* proc_file_tail, but a line the last max_bytes start inside is kept whole when it starts
 * within the last whole bytes (a driver's message names its flag at its start). */
void proc_file_tail_line(const char *path, size_t max_bytes, size_t whole, char *out,
                         size_t outlen);

/* Splits the CPUs of have into two disjoint halves as CPU lists ("0", "2-3"): the lower
 * n/2 into first, the rest into second (the larger half when n is odd). Returns 0, or -1
 * when have holds fewer than 2 CPUs. Pure. */
int proc_split_cpus(const cpu_set_t *have, char *first, char *second, size_t len);

/* Checks that every CPU of set is one this process may run on (sched_getaffinity). Returns 0,
 * or -1 with err naming the first missing CPU and the CPUs present, e.g. "CPU 99 is not
 * available (this process may use CPUs 0-1)". */
int proc_check_cpus(const cpu_set_t *set, char *err, size_t errlen);

#endif
