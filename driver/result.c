/* Rendering of one measurement as the pairbench.result/1 JSON object (see result.h). */
#include "result.h"

#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>

#include <hiredis/hiredis.h>
#include <nghttp2/nghttp2.h>
#include <openssl/crypto.h>

#include "engine/arrival.h"

#define STR2(x) #x
#define STR(x) STR2(x)

#ifndef PAIRBENCH_VERSION
#define PAIRBENCH_VERSION "unknown"
#endif
#ifndef PAIRBENCH_CFLAGS
#define PAIRBENCH_CFLAGS ""
#endif

int result_init(struct drv_result *r, const char *unit)
{
    *r = (struct drv_result){0};
    r->unit = unit;
    r->hist = hist_new();
    return r->hist ? 0 : -1;
}

void result_release(struct drv_result *r)
{
    hist_free(r->hist);
    r->hist = NULL;
    json_decref(r->extra);
    r->extra = NULL;
    json_decref(r->series);
    r->series = NULL;
}

static double tv_s(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

void result_cpu_now(struct drv_cpu *c)
{
    struct rusage ru;

    if (getrusage(RUSAGE_SELF, &ru) < 0) {
        c->user_s = c->sys_s = 0;
        c->nivcsw = 0;
        return;
    }
    c->user_s = tv_s(&ru.ru_utime);
    c->sys_s = tv_s(&ru.ru_stime);
    c->nivcsw = ru.ru_nivcsw;
}

void result_cpu_delta(struct drv_result *r, const struct drv_cpu *start, const struct drv_cpu *end)
{
    r->cpu.user_s = end->user_s - start->user_s;
    r->cpu.sys_s = end->sys_s - start->sys_s;
    r->cpu.nivcsw = end->nivcsw - start->nivcsw;
}

/* Length of the valid UTF-8 sequence at p[0..n), or 0 when it is not one. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
    size_t len, i;
    unsigned c = p[0];

    if (c < 0x80)
        return 1;
    len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    for (i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    /* overlong 3- and 4-byte forms, UTF-16 surrogates, code points past U+10FFFF */
    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) || (c == 0xf0 && p[1] < 0x90) ||
        (c == 0xf4 && p[1] >= 0x90))
        return 0;
    return len;
}

void result_note_error(struct drv_result *r, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t n = strlen(text), i = 0, out = 0, k;

    if (r->first_error[0] || n == 0)
        return;
    while (i < n) {
        k = utf8_seq(p + i, n - i);
        if (out + (k ? k : 1) > RESULT_ERRTEXT_MAX)
            break;
        if (k == 0) {
            r->first_error[out++] = '?';
            i++;
            continue;
        }
        if (k == 1 && (p[i] < 0x20 || p[i] == 0x7f))
            r->first_error[out++] = ' ';
        else
            memcpy(r->first_error + out, p + i, k), out += k;
        i += k;
    }
    r->first_error[out] = '\0';
}

/* Appends "; " and one to r->reason (cut to fit). */
static void reason_add(struct drv_result *r, const char *one)
{
    size_t len = strlen(r->reason);

    snprintf(r->reason + len, sizeof(r->reason) - len, "%s%s", len ? "; " : "", one);
}

int result_judge(struct drv_result *r, double error_limit_pct)
{
    unsigned long long errs = r->err_connect + r->err_io + r->err_protocol + r->err_verify;
    unsigned long long ops = r->ops;
    char one[160];

    r->reason[0] = '\0';
    if (ops == 0)
        reason_add(r, "no successful operation in the measured window");
    if (ops == 0 && r->no_batch[0])
        reason_add(r, r->no_batch);
    if (r->conns_held < r->conns_configured) {
        snprintf(one, sizeof(one), "held %u of %u connections", r->conns_held, r->conns_configured);
        reason_add(r, one);
    }
    if (r->err_timeout) {
        snprintf(one, sizeof(one), "%llu requests timed out", (unsigned long long)r->err_timeout);
        reason_add(r, one);
    }
    if (ops > 0 && errs + r->err_timeout > ops) {
        snprintf(one, sizeof(one), "%llu errors outnumber the %llu successful operations",
                 errs + r->err_timeout, ops);
        reason_add(r, one);
    } else if (ops > 0 && (double)errs > (double)ops * error_limit_pct / 100.0) {
        snprintf(one, sizeof(one),
                 "%llu connect/io/protocol/verify errors exceed the error limit (%g%% of %llu "
                 "successful operations)",
                 errs, error_limit_pct, ops);
        reason_add(r, one);
    }
    r->failed = r->reason[0] != '\0';
    return r->failed;
}

/* Rounds to 4 significant decimals after the point so the JSON stays readable. */
static json_t *real4(double v)
{
    return json_real((double)(long long)(v * 10000.0 + (v < 0 ? -0.5 : 0.5)) / 10000.0);
}

static json_t *real1(double v)
{
    return json_real((double)(long long)(v * 10.0 + (v < 0 ? -0.5 : 0.5)) / 10.0);
}

json_t *result_build_json(void)
{

    json_t *b = json_object();

    if (!b)
        return NULL;
    json_object_set_new(b, "driver", json_string(PAIRBENCH_VERSION));
    json_object_set_new(
        b, "hiredis",
        json_string(STR(HIREDIS_MAJOR) "." STR(HIREDIS_MINOR) "." STR(HIREDIS_PATCH)));
    json_object_set_new(b, "openssl", json_string(OpenSSL_version(OPENSSL_VERSION_STRING)));
    json_object_set_new(b, "nghttp2", json_string(nghttp2_version(0)->version_str));
    json_object_set_new(b, "jansson", json_string(JANSSON_VERSION));
#if defined(__clang__)
    json_object_set_new(b, "cc", json_string("clang " __clang_version__));
#elif defined(__GNUC__)
    json_object_set_new(b, "cc", json_string("gcc " __VERSION__));
#else
    json_object_set_new(b, "cc", json_string("unknown"));
#endif
    json_object_set_new(b, "cflags", json_string(PAIRBENCH_CFLAGS));
    return b;
}

double result_rate_achieved(const struct drv_result *r)
{
    double win = r->window_s > 0 ? r->window_s : (double)r->elapsed_ns / 1e9;

    return win > 0 ? (double)r->rate_ops / win : 0.0;
}

int result_rate_kept(const struct drv_result *r)
{
    return arrival_kept(r->rate_target, result_rate_achieved(r), r->rate_sent, r->rate_late);
}

/* The "rate" object of a --rate run: the schedule, what was achieved, and how far behind it
 * the driver fell. */
static json_t *rate_json(const struct drv_opts *o, const struct drv_result *r)
{
    json_t *j = json_object();

    if (!j)
        return NULL;
    json_object_set_new(j, "target", real1(r->rate_target));
    json_object_set_new(j, "achieved", real1(result_rate_achieved(r)));
    json_object_set_new(j, "arrival", json_string(o->arrival));
    json_object_set_new(j, "sent", json_integer((json_int_t)r->rate_sent));
    json_object_set_new(j, "late", json_integer((json_int_t)r->rate_late));
    json_object_set_new(j, "late_after_us", json_integer((json_int_t)(ARRIVAL_LATE_NS / 1000)));
    json_object_set_new(j, "max_lag_us", real1((double)r->rate_max_lag_ns / 1e3));
    json_object_set_new(j, "kept", json_boolean(result_rate_kept(r)));
    return j;
}

json_t *result_to_json(const struct drv_opts *o, const struct drv_result *r)
{
    json_t *j = json_object(), *lat, *err, *cpu;
    double elapsed_s = (double)r->elapsed_ns / 1e9;
    double cpu_s = r->cpu.user_s + r->cpu.sys_s;
    struct rusage ru;
    long rss = 0;

    if (!j)
        return NULL;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        rss = ru.ru_maxrss;
    json_object_set_new(j, "schema", json_string("pairbench.result/1"));
    json_object_set_new(j, "protocol", json_string(opts_proto_name(o->protocol)));
    json_object_set_new(j, "transport", json_string(o->transport == TRANSPORT_TLS ? "tls" : "tcp"));
    json_object_set_new(j, "config", opts_to_json(o));
    json_object_set_new(j, "status", json_string(r->failed ? "failed" : "ok"));
    json_object_set_new(j, "reason", r->failed ? json_string(r->reason) : json_null());
    json_object_set_new(j, "ops", json_integer((json_int_t)r->ops));
    json_object_set_new(j, "batches", json_integer((json_int_t)r->batches));
    if (r->window_s > 0)
        json_object_set_new(j, "window_s", json_real(r->window_s));
    json_object_set_new(j, "elapsed_s", json_real(elapsed_s));
    json_object_set_new(j, "throughput", real1(elapsed_s > 0 ? (double)r->ops / elapsed_s : 0.0));
    json_object_set_new(j, "unit", json_string(r->unit ? r->unit : "ops/s"));

    lat = json_object();
    json_object_set_new(lat, "p50", real1(hist_percentile(r->hist, 50) / 1e3));
    json_object_set_new(lat, "p90", real1(hist_percentile(r->hist, 90) / 1e3));
    json_object_set_new(lat, "p99", real1(hist_percentile(r->hist, 99) / 1e3));
    json_object_set_new(lat, "p999", real1(hist_percentile(r->hist, 99.9) / 1e3));
    json_object_set_new(lat, "p9999", real1(hist_percentile(r->hist, 99.99) / 1e3));
    json_object_set_new(lat, "max", real1((double)hist_max(r->hist) / 1e3));
    json_object_set_new(lat, "mean", real1(hist_mean(r->hist) / 1e3));
    json_object_set_new(lat, "samples", json_integer((json_int_t)hist_count(r->hist)));
    json_object_set_new(lat, "rel_error", json_real(RESULT_LATENCY_REL_ERROR));
    json_object_set_new(j, "latency_us", lat);
    if (r->rate_target > 0)
        json_object_set_new(j, "rate", rate_json(o, r));

    err = json_object();
    json_object_set_new(err, "connect", json_integer((json_int_t)r->err_connect));
    json_object_set_new(err, "io", json_integer((json_int_t)r->err_io));
    json_object_set_new(err, "protocol", json_integer((json_int_t)r->err_protocol));
    json_object_set_new(err, "verify", json_integer((json_int_t)r->err_verify));
    json_object_set_new(err, "timeout", json_integer((json_int_t)r->err_timeout));
    json_object_set_new(j, "errors", err);
    json_object_set_new(j, "connections",
                        json_pack("{s:I,s:I,s:I,s:I}", "configured",
                                  (json_int_t)r->conns_configured, "held",
                                  (json_int_t)r->conns_held, "reopened", (json_int_t)r->reopened,
                                  "reopened_max", (json_int_t)r->reopened_max));
    json_object_set_new(j, "first_error",
                        r->first_error[0] ? json_string(r->first_error) : json_null());

    cpu = json_object();
    json_object_set_new(cpu, "user_s", real4(r->cpu.user_s));
    json_object_set_new(cpu, "sys_s", real4(r->cpu.sys_s));
    json_object_set_new(cpu, "percent", real1(elapsed_s > 0 ? cpu_s / elapsed_s * 100.0 : 0));
    json_object_set_new(cpu, "nivcsw", json_integer((json_int_t)r->cpu.nivcsw));
    json_object_set_new(j, "cpu", cpu);
    json_object_set_new(j, "rss_peak_kib", json_integer(rss));
    json_object_set_new(j, "build", result_build_json());
    if (o->transport == TRANSPORT_TLS) {
        json_t *t = json_object();
        json_object_set_new(t, "insecure", json_boolean(o->insecure));
        json_object_set_new(j, "tls", t);
    }
    if (r->series) {
        json_object_set_new(j, "stall_ms", real1((double)r->stall_ns / 1e6));
        json_object_set_new(j, "stall_at_s", real4((double)r->stall_at_ns / 1e9));
        json_object_set(j, "series", r->series);
    }
    if (r->extra)
        json_object_update(j, r->extra);
    return j;
}

int result_print(FILE *f, const struct drv_opts *o, const struct drv_result *r)
{
    json_t *j = result_to_json(o, r);
    int rc = -1;

    if (!j)
        return -1;
    if (json_dumpf(j, f, JSON_COMPACT | JSON_REAL_PRECISION(10)) == 0 && fputc('\n', f) != EOF &&
        fflush(f) == 0)
        rc = 0;
    json_decref(j);
    return rc;
}
