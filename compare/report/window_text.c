/* window_text: interference and server accounting in words (see window_text.h). */
#include "report/window_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/interference_rule.h"
#include "analysis/summary.h"

/* "15.2 → 15.9 µs/op (+4.6%, ~)" for metric of row, baseline → first candidate. */
static void per_op(char *out, size_t len, const json_t *row, const char *metric, const char *unit,
                   const char *base, const char *cand, int decimals)
{
    const json_t *b = summary_values(row, metric, base), *c = summary_values(row, metric, cand);
    const json_t *vs = summary_vs(row, metric, cand);

    if (!b || !c) {
        snprintf(out, len, "unknown");
        return;
    }
    snprintf(out, len, "%.*f → %.*f %s (%+.1f%%, %s)", decimals, summary_num(b, "median", 0),
             decimals, summary_num(c, "median", 0), unit, summary_num(vs, "change", 0) * 100,
             summary_str(vs, "verdict", "~"));
}

static void accounting(const json_t *summary, void (*put)(void *, int, const char *), void *ctx)
{
    const json_t *rows = json_object_get(summary, "rows"), *row, *vers;
    const char *base, *cand;
    char line[1024], a[160], b[160], c[160];
    int marks = 0, process = 0;
    size_t i;

    json_array_foreach(rows, i, row)
    {
        const char *src = summary_str(json_object_get(row, "server_window"), "source", "");

        marks |= strcmp(src, "marks") == 0 || strcmp(src, "mixed") == 0;
        process |= strcmp(src, "process") == 0 || strcmp(src, "mixed") == 0;
    }
    if (!marks && !process)
        return;
    put(ctx, 0,
        marks && !process
            ? "Server accounting: the driver marked its measured window, so server CPU, "
              "read/write system calls and context switches per operation cover that window "
              "only (the server's whole process tree: every thread and child)."
        : !marks ? "Server accounting: whole process. The driver wrote no window marks, so "
                   "server CPU, system calls and context switches per operation cover the "
                   "driver's whole life, warm-up included, and overstate the per-operation cost."
                 : "Server accounting: mixed. Some runs' drivers marked the measured window, "
                   "others did not (their figures include the warm-up).");
    vers = json_object_get(summary, "versions");
    base = json_string_value(json_array_get(vers, 0));
    cand = json_string_value(json_array_get(vers, 1));
    if (!base || !cand)
        return;
    json_array_foreach(rows, i, row)
    {
        if (!summary_metric(row, "server_cpu_us"))
            continue;
        per_op(a, sizeof(a), row, "server_cpu_us", "µs/op", base, cand, 2);
        per_op(b, sizeof(b), row, SUMMARY_SERVER_SYSCALLS, "per op", base, cand, 3);
        per_op(c, sizeof(c), row, SUMMARY_SERVER_CTXSW, "per op", base, cand, 3);
        snprintf(line, sizeof(line),
                 "%s: server CPU %s; read/write system calls %s; context switches %s "
                 "(%s → %s).",
                 summary_str(row, "label", "?"), a, b, c, base, cand);
        put(ctx, 1, line);
    }
    put(ctx, 0,
        "System calls are the kernel's read/write counts (/proc/PID/io syscr + syscw): "
        "send/recv on sockets are not among them.");
}

static void disturbed(const json_t *summary, const json_t *meta,
                      void (*put)(void *, int, const char *), void *ctx)
{
    const json_t *rows = json_object_get(summary, "rows"), *row, *d, *lim;
    const json_t *again = json_object_get(meta, "disturbed_runs");
    char line[1024];
    size_t i, k, n = 0, any_interf = 0;
    int clean;

    lim = json_object_get(meta, "interference_limits");
    json_array_foreach(rows, i, row)
    {
        const json_t *in = json_object_get(row, "interference");

        any_interf += in != NULL;
        n += json_array_size(json_object_get(in, "disturbed")) +
             json_array_size(json_object_get(in, "outliers"));
    }
    if (!any_interf)
        return;
    clean = n == 0 && json_array_size(again) == 0;
    snprintf(line, sizeof(line),
             clean ? "No run was disturbed: in every measured window other processes used at "
                     "most %.2f CPU cores and steal stayed at most %.1f%%, and no throughput "
                     "was an order of magnitude from its row's median."
                   : "Disturbed runs: other processes used more than %.2f CPU cores, or steal "
                     "took more than %.1f%%, during the run's measured window. Its round was "
                     "run again (at most 2 per row); a row's verdict rests on its clean rounds "
                     "when at least 3 remain.",
             summary_num(lim, "other_cpu_cores", INTERFERENCE_OTHER_CORES),
             summary_num(lim, "steal_pct", INTERFERENCE_STEAL_PCT));
    put(ctx, 0, line);
    if (clean)
        return;
    json_array_foreach(again, k, d)
    {
        snprintf(line, sizeof(line),
                 "%s · %s · round %d: other processes %.2f cores, steal %.1f%% — round run again",
                 summary_str(d, "label", "?"), summary_str(d, "version", "?"),
                 (int)summary_num(d, "round", 0), summary_num(d, "other_cpu_cores", 0),
                 summary_num(d, "steal_pct", 0));
        put(ctx, 1, line);
    }
    json_array_foreach(rows, i, row)
    {
        const json_t *in = json_object_get(row, "interference");

        json_array_foreach(json_object_get(in, "disturbed"), k, d)
        {
            snprintf(line, sizeof(line),
                     "%s · %s · round %d: other processes %.2f cores, steal %.1f%%, %d "
                     "involuntary context switches of the driver — %s",
                     summary_str(row, "label", "?"), summary_str(d, "version", "?"),
                     (int)summary_num(d, "round", 0), summary_num(d, "other_cpu_cores", 0),
                     summary_num(d, "steal_pct", 0), (int)summary_num(d, "nivcsw", 0),
                     json_is_true(json_object_get(d, "excluded"))
                         ? "left out of the verdict"
                         : "kept (fewer than 3 clean rounds in the row)");
            put(ctx, 1, line);
        }
        json_array_foreach(json_object_get(in, "outliers"), k, d)
        {
            snprintf(line, sizeof(line),
                     "%s · %s · round %d: throughput %.4g against a median of %.4g, more than "
                     "%.0f× away — not a measurement of the same thing; left out of the "
                     "verdict",
                     summary_str(row, "label", "?"), summary_str(d, "version", "?"),
                     (int)summary_num(d, "round", 0), summary_num(d, "throughput", 0),
                     summary_num(d, "median", 0), INTERFERENCE_OUTLIER_FACTOR);
            put(ctx, 1, line);
        }
    }
}

void window_text(const json_t *summary, const json_t *meta,
                 void (*put)(void *ctx, int item, const char *text), void *ctx)
{
    accounting(summary, put, ctx);
    disturbed(summary, meta, put, ctx);
}
