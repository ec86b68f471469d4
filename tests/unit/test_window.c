/* window.c's process-tree sampling on a fake /proc (a server with a worker thread, a child
 * and a grandchild, next to an unrelated process), interference.c's arithmetic on two
 * /proc/stat samples, and disturb.c's choice of the rounds a verdict rests on. */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/disturb.h"
#include "run/interference.h"
#include "t.h"
#include "run/window.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static char root[64];

static void put_file(const char *rel, const char *text)
{
    char path[512], dir[512], *slash;
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", root, rel);
    snprintf(dir, sizeof(dir), "%s", path);
    for (slash = strchr(dir + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(dir, 0755);
        *slash = '/';
    }
    f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* pid's stat with ppid and utime/stime ticks; the name holds a space and ')' */
static void put_proc(int pid, int ppid, int ut, int st, int r, int w, int vol, int nonvol)
{
    char rel[64], text[512];

    snprintf(rel, sizeof(rel), "%d/stat", pid);
    snprintf(text, sizeof(text),
             "%d (my srv) x) S %d %d %d 0 -1 4194560 100 0 0 0 %d %d 0 0 20 0 1 0 1 1 1\n", pid,
             ppid, pid, pid, ut, st);
    put_file(rel, text);
    snprintf(rel, sizeof(rel), "%d/io", pid);
    snprintf(text, sizeof(text), "rchar: 1\nwchar: 2\nsyscr: %d\nsyscw: %d\n", r, w);
    put_file(rel, text);
    snprintf(rel, sizeof(rel), "%d/task/%d/status", pid, pid);
    snprintf(text, sizeof(text),
             "Name:\tx\nvoluntary_ctxt_switches:\t%d\nnonvoluntary_ctxt_switches:\t%d\n", vol,
             nonvol);
    put_file(rel, text);
}

static void test_tree(void)
{
    struct tree_sample s;

    snprintf(root, sizeof(root), "/tmp/pairbench-window.XXXXXX");
    CHECK(mkdtemp(root) != NULL);
    put_proc(100, 1, 300, 100, 10, 20, 5, 1); /* the server: 4 s */
    put_file("100/task/101/status",           /* its worker thread */
             "voluntary_ctxt_switches:\t7\nnonvoluntary_ctxt_switches:\t2\n");
    put_proc(200, 100, 50, 50, 1, 2, 3, 4);   /* a child: 1 s */
    put_proc(300, 200, 100, 0, 100, 0, 0, 0); /* a grandchild: 1 s */
    put_proc(400, 1, 9999, 9999, 9, 9, 9, 9); /* not in the tree */
    CHECK(ptree_sample(root, 100, 100, &s) == 0);
    CHECK(NEAR(s.cpu_s, 6.0));
    CHECK(s.n_procs == 3);
    CHECK(s.syscr == 111 && s.syscw == 22);
    CHECK(s.vcsw == 15 && s.nivcsw == 7);
    CHECK(ptree_sample(root, 200, 100, &s) == 0 && NEAR(s.cpu_s, 2.0) && s.n_procs == 2);
    CHECK(s.faults == 200); /* minflt 100 of each process's stat */
    CHECK(ptree_sample(root, 555, 100, &s) == -1 && s.n_procs == 0);
    /* the threads' schedstat (on-CPU ns first): summed over every thread read */
    CHECK(ptree_sample(root, 100, 100, &s) == 0 && s.n_sched == 0);
    put_file("100/task/100/schedstat", "1500000000 20000 7\n");
    put_file("100/task/101/schedstat", "2250000001 0 3\n");
    CHECK(ptree_sample(root, 100, 100, &s) == 0 && s.n_sched == 2);
    CHECK_MSG(NEAR(s.sched_s, 3.750000001), "sched_s %.9f", s.sched_s);
    /* every process's ticks between two edges: the server's tree gains 100, the unrelated
     * process 50, a process born between the edges counts whole (30), one that ended is
     * missed */
    {
        struct window_watch w;
        char err[128];

        CHECK(window_open(&w, 100, err, sizeof(err)) == 0);
        w.proc_root = root;
        close(w.rd); /* no mark thread */
        w.rd = -1;
        window_after_exec(&w, 200);
        put_proc(100, 1, 350, 150, 10, 20, 5, 1);
        put_proc(400, 1, 10049, 9999, 9, 9, 9, 9);
        put_proc(500, 1, 20, 10, 0, 0, 0, 0);
        {
            char cmd[600];

            snprintf(cmd, sizeof(cmd), "rm -rf '%s/300'", root);
            CHECK(system(cmd) == 0);
        }
        window_finish(&w);
        CHECK_MSG(window_all_ticks(&w.proc[0], &w.proc[1]) == 180, "got %llu",
                  window_all_ticks(&w.proc[0], &w.proc[1]));
        /* the same listing gave the server's tree: 5 s + the child's 1 s, the grandchild gone */
        CHECK(w.proc[1].have_server && NEAR(w.proc[1].server.cpu_s, 6.0));
        window_close(&w);
    }
    {
        char cmd[128];

        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
        CHECK(system(cmd) == 0);
    }
}

static void test_interference(void)
{
    struct sys_sample a, b;
    struct interference in;
    struct interference_limits lim;

    interference_limits_default(&lim);
    CHECK(interference_parse_stat("cpu  1000 0 500 9000 0 0 0 0 0 0\ncpu0 1 2 3 4\n", &a) == 0);
    CHECK(a.busy == 1500 && a.total == 10500 && a.steal == 0);
    /* 1 s on 2 cores (200 ticks at 100 Hz): 150 busy ticks, 10 of steal */
    CHECK(interference_parse_stat("intr 5\ncpu  1100 0 550 9030 0 0 0 10 0 0\n", &b) == 0);
    /* own processes used 0.5 s of the 1.5 s busy: others 1.0 core */
    interference_compute(&a, &b, 0.5, 1.0, 100, 42, 0, &lim, &in);
    CHECK(NEAR(in.other_cpu_cores, 1.0));
    CHECK(NEAR(in.steal_pct, 10.0 / 190 * 100));
    CHECK(in.nivcsw == 42 && in.disturbed);
    /* the run itself used everything: no one else, not disturbed */
    interference_compute(&a, &b, 1.6, 1.0, 100, 0, 0, &lim, &in);
    CHECK(in.other_cpu_cores == 0 && in.steal_pct > 5 && in.disturbed); /* steal alone */
    b.steal = 0;
    interference_compute(&a, &b, 1.6, 1.0, 100, 0, 0, &lim, &in);
    CHECK(!in.disturbed);
    /* a 50 ms window: the figures are recorded, but ticks cannot call it disturbed */
    b.steal = 10;
    interference_compute(&a, &b, 0.01, 0.05, 100, 0, 0, &lim, &in);
    CHECK(in.other_cpu_cores > 1 && in.steal_pct > 5 && !in.disturbed);
    /* A TCP echo run as a tick-based kernel without irq time accounting accounts it:
     * 1 s, 355 ticks user + system and 150 softirq, of which our processes' utime + stime
     * hold 480 (their share of the softirq included), and a busy loop's 20 ticks. */
    CHECK(interference_parse_stat("cpu  1000 0 500 9000 0 0 0 0 0 0\n", &a) == 0);
    CHECK(interference_parse_stat("cpu  1071 0 784 9002 0 0 150 0 0 0\n", &b) == 0);
    CHECK(b.irq == 150 && a.irq == 0);
    CHECK(interference_irq_in_tasks(&a, &b, 4.80, 100));
    interference_compute(&a, &b, 4.80, 1.0, 100, 0, 0, &lim, &in);
    CHECK(in.other_cpu_cores == 0); /* busy alone hides the loop: 355 - 480 < 0 */
    interference_compute(&a, &b, 4.80, 1.0, 100, 0, 1, &lim, &in);
    /* the loop's 0.25 less the irq ticks' idle share: 150 × 2 idle of 507 ticks */
    CHECK(NEAR(in.other_cpu_cores, (355 + 150 * (1 - 2.0 / 507) - 480) / 100));
    CHECK(in.other_cpu_cores > 0.24 && in.disturbed);
    /* A latency-bound run (a server holding each reply 300 µs): 1 s on 2 cores, 10 ticks
     * user + system, 20 of irq, 170 idle; our processes hold 18 (8 of the irq). The other 12
     * irq ticks came while the CPUs idled: no other process, not disturbed (before the idle
     * share was taken off it read 0.12 cores, and up to 0.47 over 0.3 s windows). */
    CHECK(interference_parse_stat("cpu  1000 0 500 9000 0 0 0 0 0 0\n", &a) == 0);
    CHECK(interference_parse_stat("cpu  1005 0 505 9170 0 0 20 0 0 0\n", &b) == 0);
    CHECK(b.idle - a.idle == 170);
    interference_compute(&a, &b, 0.18, 1.0, 100, 0, 1, &lim, &in);
    CHECK(in.other_cpu_cores == 0 && !in.disturbed);
    /* the same run beside a busy loop of half a core: it shows in full */
    CHECK(interference_parse_stat("cpu  1030 0 530 9120 0 0 20 0 0 0\n", &b) == 0);
    interference_compute(&a, &b, 0.18, 1.0, 100, 0, 1, &lim, &in);
    CHECK(NEAR(in.other_cpu_cores, (60 + 20 * (1 - 120.0 / 200) - 18) / 100) && in.disturbed);
    CHECK(interference_parse_stat("cpu  1071 0 784 9002 0 0 150 0 0 0\n", &b) == 0);
    /* with irq time accounting our processes fit inside busy: no evidence either way */
    CHECK(!interference_irq_in_tasks(&a, &b, 3.30, 100));
    /* nor when there is too little irq time to tell, or our processes exceed busy only by
     * the samples' skew */
    b.irq = 3;
    CHECK(!interference_irq_in_tasks(&a, &b, 4.80, 100));
    b.irq = 150;
    CHECK(!interference_irq_in_tasks(&a, &b, 3.58, 100));
    CHECK(interference_parse_stat("nothing here\n", &a) == -1);
    CHECK(interference_is_outlier(1.1, 60000) && !interference_is_outlier(55000, 60000));
    CHECK(interference_is_outlier(700000, 60000) && !interference_is_outlier(5, 0));
}

static json_t *run(double tput, int disturbed)
{
    return json_pack("{s:{s:f}, s:{s:f, s:f, s:i, s:b}}", "result", "throughput", tput,
                     "interference", "other_cpu_cores", disturbed ? 1.2 : 0.01, "steal_pct", 0.0,
                     "nivcsw", 3, "disturbed", disturbed);
}

static void test_disturb(void)
{
    json_t *versions = json_pack("[s, s]", "base", "cand"), *row = json_object();
    const json_t *cells[2 * 5];
    json_t *own[10];
    unsigned char ex[5];
    size_t i;

    /* round 2 disturbed (cand), round 4 an outlier (base 1.1 ops/s) */
    for (i = 0; i < 5; i++) {
        own[i] = run(i == 3 ? 1.1 : 60000 + (double)i, 0);
        own[5 + i] = run(59000 + (double)i, i == 1);
        cells[i] = own[i];
        cells[5 + i] = own[5 + i];
    }
    disturb_row(row, cells, versions, 5, ex);
    CHECK(!ex[0] && ex[1] && !ex[2] && ex[3] && !ex[4]);
    CHECK(json_integer_value(
              json_object_get(json_object_get(row, "interference"), "clean_rounds")) == 3);
    CHECK(json_array_size(json_object_get(json_object_get(row, "interference"), "outliers")) == 1);
    /* with only two clean rounds left, disturbed rounds stay (outliers never do) */
    json_decref(own[5 + 2]);
    own[5 + 2] = run(59000, 1);
    cells[5 + 2] = own[5 + 2];
    disturb_row(row, cells, versions, 5, ex);
    CHECK(!ex[1] && !ex[2] && ex[3]);
    CHECK(json_is_false(json_object_get(
        json_array_get(json_object_get(json_object_get(row, "interference"), "disturbed"), 0),
        "excluded")));
    /* two groups, not an outlier: three of five base runs 30x slower are all kept */
    for (i = 0; i < 5; i++) {
        json_decref(own[i]);
        json_decref(own[5 + i]);
        own[i] = run(i % 2 ? 60000 : 2000, 0);
        own[5 + i] = run(59000 + (double)i, 0);
        cells[i] = own[i];
        cells[5 + i] = own[5 + i];
    }
    disturb_row(row, cells, versions, 5, ex);
    CHECK(!ex[0] && !ex[1] && !ex[2] && !ex[3] && !ex[4]);
    CHECK(json_array_size(json_object_get(json_object_get(row, "interference"), "outliers")) == 2);
    CHECK(json_is_false(json_object_get(
        json_array_get(json_object_get(json_object_get(row, "interference"), "outliers"), 0),
        "excluded")));
    for (i = 0; i < 10; i++)
        json_decref(own[i]);
    json_decref(row);
    json_decref(versions);
}

static int far_server(void *arg, struct tree_sample *out, struct sys_sample *host, long *hz)
{
    (void)arg, (void)out, (void)host, (void)hz;
    return 0;
}

/* A server on its own host: the host's /proc/stat, less the server's CPU there, is checked as
 * this machine's is; a busy host makes the run disturbed, "where" says which machine. */
static void test_host_interference(void)
{
    struct window_watch w;
    struct interference_limits lim;
    json_t *swin = NULL, *in = NULL;

    memset(&w, 0, sizeof(w));
    interference_limits_default(&lim);
    w.hz = 100;
    w.marks = 2;
    w.sample_server = far_server;
    for (int i = 0; i < 2; i++) {
        w.mark[i].t_s = 10 + i;
        w.mark[i].have_server = w.mark[i].have_driver = 1;
        w.mark[i].server.cpu_s = 0.1 + 0.5 * i; /* 0.5 s of the host's CPU */
        w.mark[i].driver.cpu_s = 0.2 + 0.3 * i; /* 0.3 s of this one's */
        CHECK(interference_parse_stat(i ? "cpu  1030 0 0 9170 0 0 0 0 0 0\n"
                                        : "cpu  1000 0 0 9000 0 0 0 0 0 0\n",
                                      &w.mark[i].sys) == 0);
        /* the host: 1.5 s busy over the second, 0.5 of it the server's */
        CHECK(interference_parse_stat(i ? "cpu  5150 0 0 7050 0 0 0 0 0 0\n"
                                        : "cpu  5000 0 0 7000 0 0 0 0 0 0\n",
                                      &w.mark[i].host_sys) == 0);
        w.mark[i].host_hz = 100;
    }
    window_json(&w, 0.3, 0, &lim, &swin, &in);
    CHECK(in && NEAR(json_real_value(json_object_get(in, "other_cpu_cores")), 0.0));
    CHECK(NEAR(json_real_value(json_object_get(json_object_get(in, "host"), "other_cpu_cores")),
               1.0));
    CHECK(json_is_true(json_object_get(json_object_get(in, "host"), "disturbed")));
    CHECK(json_is_true(json_object_get(in, "disturbed")));
    CHECK(json_string_value(json_object_get(in, "where")) &&
          strcmp(json_string_value(json_object_get(in, "where")), "server host") == 0);
    json_decref(swin);
    json_decref(in);
    /* the host this machine's kernel (no host figures): only this machine is checked */
    w.mark[0].host_hz = w.mark[1].host_hz = 0;
    window_json(&w, 0.3, 0, &lim, &swin, &in);
    CHECK(in && !json_object_get(in, "host") && json_is_false(json_object_get(in, "disturbed")));
    json_decref(swin);
    json_decref(in);
}

/* The driver's mark lines: bare (now), with its time, or with a time that is not of the last
 * 10 s (now); anything else is not the mark. */
static void test_mark_line(void)
{
    uint64_t at = 0, now = 50000000000ull;

    CHECK(window_mark_line("start", "start", now, &at) == 1 && at == now);
    CHECK(window_mark_line("start 49000000000", "start", now, &at) == 1 && at == 49000000000ull);
    CHECK(window_mark_line("end 50000000000", "end", now, &at) == 1 && at == now);
    CHECK(window_mark_line("end 50000000001", "end", now, &at) == 1 && at == now); /* future */
    CHECK(window_mark_line("end 39000000000", "end", now, &at) == 1 && at == now); /* 11 s ago */
    CHECK(window_mark_line("end 4900x", "end", now, &at) == 1 && at == now);
    CHECK(window_mark_line("started", "start", now, &at) == 0);
    CHECK(window_mark_line("end", "start", now, &at) == 0);
    CHECK(window_mark_line("", "end", now, &at) == 0);
}

int main(void)
{
    test_mark_line();
    test_tree();
    test_interference();
    test_host_interference();
    test_disturb();
    return T_DONE();
}
