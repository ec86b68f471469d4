/* validate: the checks that decide whether a driver run is `ok` (see validate.h). */
#include "run/validate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "run/proc.h"

#include "util/jobs_util.h"

double validate_grace(const json_t *eff, double spec_grace)
{
    const json_t *t = json_object_get(eff, "timeout");
    double drv = json_is_number(t) && json_number_value(t) > 0 ? json_number_value(t)
                                                               : VALIDATE_DRIVER_TIMEOUT_S;

    return spec_grace > drv + VALIDATE_GRACE_MARGIN_S ? spec_grace : drv + VALIDATE_GRACE_MARGIN_S;
}

/* Appends "; what" (or "what" first) to reason. */
static void add(char *reason, size_t len, const char *what)
{
    size_t used = strlen(reason);

    if (used + 3 < len)
        snprintf(reason + used, len - used, "%s%s", used ? "; " : "", what);
}

static void check_errors(const json_t *result, double ops, char *reason, size_t len)
{
    static const char *const kinds[] = {"connect", "io", "protocol", "verify"};
    const json_t *errs = json_object_get(result, "errors");
    double total = 0, timeouts = ju_num(errs, "timeout", 0);
    char what[512], parts[256] = "";
    size_t k, o = 0;

    if (timeouts > 0) {
        snprintf(what, sizeof(what),
                 "%.0f timeouts (a server that stopped answering; none allowed)", timeouts);
        add(reason, len, what);
    }
    for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        double n = ju_num(errs, kinds[k], 0);
        if (n <= 0)
            continue;
        total += n;
        if (o < sizeof(parts))
            o += (size_t)snprintf(parts + o, sizeof(parts) - o, "%s%s %.0f", o ? ", " : "",
                                  kinds[k], n);
    }
    if (total > 0 && total > VALIDATE_ERROR_SHARE * (ops > 0 ? ops : 0)) {
        const char *first = json_string_value(json_object_get(result, "first_error"));
        snprintf(what, sizeof(what),
                 "%.0f errors (%s) in %.0f operations, more than the %.0f%% limit%s%s", total,
                 parts, ops > 0 ? ops : 0, VALIDATE_ERROR_SHARE * 100, first ? "; first: " : "",
                 first ? first : "");
        add(reason, len, what);
    }
}

/* A fixed-rate run that fell behind its schedule by more than VALIDATE_RATE_BEHIND_SHARE. */
static void check_rate(const json_t *result, char *reason, size_t len)
{
    const json_t *rate = json_object_get(result, "rate");
    double target = ju_num(rate, "target", 0), achieved = ju_num(rate, "achieved", 0);
    double sent = ju_num(rate, "sent", 0), late = ju_num(rate, "late", 0);
    char what[400];

    if (!json_is_object(rate) || !(target > 0))
        return;
    if (achieved >= (1 - VALIDATE_RATE_BEHIND_SHARE) * target)
        return;
    snprintf(what, sizeof(what),
             "the schedule was not kept: %.6g of the --rate %.6g requests/s achieved (%.1f%%, "
             "at least %.0f%% expected; %.0f of %.0f requests sent more than %.0f us late): its "
             "latency is not the latency at that rate",
             achieved, target, 100 * achieved / target, (1 - VALIDATE_RATE_BEHIND_SHARE) * 100,
             late, sent, ju_num(rate, "late_after_us", 1000));
    add(reason, len, what);
}

int validate_result(const json_t *result, const json_t *eff, char *reason, size_t reasonlen)
{
    const json_t *conns = json_object_get(result, "connections");
    const char *st = json_string_value(json_object_get(result, "status"));
    double ops = ju_num(result, "ops", 0), thr = ju_num(result, "throughput", 0);
    double elapsed = ju_num(result, "elapsed_s", -1), duration = ju_num(eff, "duration", -1);
    double configured = ju_num(conns, "configured", ju_num(eff, "connections", -1));
    double held = ju_num(conns, "held", -1);
    char what[512];

    reason[0] = '\0';
    if (st && strcmp(st, "failed") == 0) {
        const char *why = json_string_value(json_object_get(result, "reason"));
        const char *first = json_string_value(json_object_get(result, "first_error"));
        /* the driver's own judgement is final; its first error is the cause behind it
         * ("held 54 of 200 connections" because of "Too many open files") */
        snprintf(reason, reasonlen, "the driver judged the run failed: %s%s%s",
                 why ? why : "no reason given", first && *first ? "; first error: " : "",
                 first && *first ? first : "");
        return 1;
    }
    if (ops <= 0 || thr <= 0) {
        snprintf(what, sizeof(what),
                 "nothing measured: %.0f operations, throughput %g (expected both above 0)", ops,
                 thr);
        add(reason, reasonlen, what);
    }
    if (held >= 0 && configured > 0 && held < configured) {
        snprintf(what, sizeof(what), "held %.0f of %.0f configured connections", held, configured);
        add(reason, reasonlen, what);
    }
    check_errors(result, ops, reason, reasonlen);
    check_rate(result, reason, reasonlen);
    /* the window to measure: the one the driver states ("window_s", printed for duration
     * runs); a driver that prints "status" but no window ran a count (--requests, a wrapped
     * tool's own count); a driver that prints neither is held to the configured duration */
    if (json_is_number(json_object_get(result, "window_s")))
        duration = ju_num(result, "window_s", -1);
    else if (st || json_is_integer(json_object_get(eff, "requests")))
        duration = -1;
    if (duration > 0 && elapsed >= 0 && elapsed < VALIDATE_MIN_WINDOW_SHARE * duration) {
        snprintf(what, sizeof(what),
                 "measured %.2f s of the configured %.2f s window (at least %.0f%% expected: "
                 "a stall ended it early)",
                 elapsed, duration, VALIDATE_MIN_WINDOW_SHARE * 100);
        add(reason, reasonlen, what);
    }
    if (reason[0] && !strstr(reason, "; first: ")) {
        /* the cause behind a shortfall ("held 54 of 200" because of "Too many open files") */
        const char *first = json_string_value(json_object_get(result, "first_error"));
        if (first && *first) {
            snprintf(what, sizeof(what), "first error: %s", first);
            add(reason, reasonlen, what);
        }
    }
    return reason[0] != '\0';
}

/* The driver's stdout as a result object with a numeric throughput, or NULL with reason. */
static json_t *parse_result(const char *out, char *reason, size_t reasonlen)
{
    json_error_t je;
    json_t *res;
    const char *p = out ? out : "";

    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    if (!*p) {
        snprintf(reason, reasonlen, "bad JSON on stdout: nothing printed");
        return NULL;
    }
    res = json_loads(p, 0, &je);
    if (!res) {
        snprintf(reason, reasonlen, "bad JSON on stdout: line %d column %d: %s", je.line, je.column,
                 je.text);
        return NULL;
    }
    if (!json_is_object(res) || !json_is_number(json_object_get(res, "throughput"))) {
        snprintf(reason, reasonlen,
                 "bad JSON on stdout: expected a result object with a "
                 "numeric \"throughput\"");
        json_decref(res);
        return NULL;
    }
    return res;
}

json_t *validate_run(int status, int timed_out, double timeout_s, const char *out,
                     const char *stderr_tail, const json_t *eff, char *reason, size_t reasonlen)
{
    char why[1024], st[64], checks[1024];
    json_t *result;
    int clean = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;

    reason[0] = '\0';
    result = parse_result(out, why, sizeof(why));
    if (result && !timed_out && WIFEXITED(status) &&
        validate_result(result, eff, checks, sizeof(checks))) {
        /* a driver that exits non-zero after printing its result says why in it */
        snprintf(reason, reasonlen, "%s", checks);
        return result;
    }
    if (timed_out)
        snprintf(reason, reasonlen, "timeout after %.1f s", timeout_s);
    else if (!clean) {
        proc_describe_status(status, st, sizeof(st));
        snprintf(reason, reasonlen, "%s%s%s", st, stderr_tail && *stderr_tail ? ": " : "",
                 stderr_tail ? stderr_tail : "");
    }
    if (!result) {
        if (clean)
            snprintf(reason, reasonlen, "%s", why);
        return NULL;
    }
    return result;
}
