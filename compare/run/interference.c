/* interference: other processes' CPU and steal over a window (see interference.h). */
#include "run/interference.h"

#include <stdio.h>
#include <string.h>

int interference_parse_stat(const char *text, struct sys_sample *out)
{
    unsigned long long v[10] = {0};
    const char *p = text;
    int n, i;

    memset(out, 0, sizeof(*out));
    while (p && strncmp(p, "cpu ", 4) != 0) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return -1;
    /* user nice system idle iowait irq softirq steal guest guest_nice */
    n = sscanf(p + 4, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
               &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
    if (n < 4)
        return -1;
    out->busy = v[0] + v[1] + v[2];
    out->irq = v[5] + v[6];
    out->idle = v[3] + v[4];
    out->steal = v[7];
    /* guest time is already inside user and nice */
    for (i = 0; i < 8; i++)
        out->total += v[i];
    return 0;
}

void interference_compute(const struct sys_sample *a, const struct sys_sample *b, double own_cpu_s,
                          double window_s, long hz, long nivcsw, int irq_in_tasks,
                          const struct interference_limits *lim, struct interference *out)
{
    double busy_s, other;
    unsigned long long total = b->total > a->total ? b->total - a->total : 0;
    unsigned long long irq = b->irq > a->irq ? b->irq - a->irq : 0;
    unsigned long long idle = b->idle > a->idle ? b->idle - a->idle : 0;

    memset(out, 0, sizeof(*out));
    out->nivcsw = nivcsw;
    if (hz <= 0 || !(window_s > 0))
        return;
    busy_s = (double)(b->busy > a->busy ? b->busy - a->busy : 0) / (double)hz;
    if (irq_in_tasks && total) /* less the share taken while idle (interference.h) */
        busy_s += (double)irq * (1.0 - (double)(idle < total ? idle : total) / (double)total) /
                  (double)hz;
    other = (busy_s - own_cpu_s) / window_s;
    /* tick accounting rounds each side: a small negative is no one */
    out->other_cpu_cores = other > 0 ? other : 0;
    out->steal_pct =
        total ? (double)(b->steal > a->steal ? b->steal - a->steal : 0) / (double)total * 100 : 0;
    /* /proc/stat counts in clock ticks: a sample can be a tick off at each end, so over a
     * short window a single tick of anything reads as a large share of a core. Only what
     * the ticks can resolve counts against the limit (a 10 ms window cannot be called
     * disturbed by one 10 ms tick; over 1 s the slack is 0.02 cores at 100 Hz). */
    if (window_s < INTERFERENCE_MIN_WINDOW_S)
        return; /* too short for ticks to tell anything: recorded, never disturbed */
    out->disturbed = other - 2.0 / (double)hz / window_s > lim->other_cpu_cores ||
                     out->steal_pct > lim->steal_pct;
}

int interference_irq_in_tasks(const struct sys_sample *a, const struct sys_sample *b,
                              double procs_cpu_s, long hz)
{
    double busy, irq, own;

    if (hz <= 0 || b->busy < a->busy || b->irq < a->irq)
        return 0;
    busy = (double)(b->busy - a->busy);
    irq = (double)(b->irq - a->irq);
    own = procs_cpu_s * (double)hz;
    return irq >= 4 && own - busy > 4 && own - busy > irq / 4;
}
