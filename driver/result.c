/* Rendering of one measurement as the pairbench.result/1 JSON object (see result.h). */
#include "result.h"

#include <sys/resource.h>
#include <sys/time.h>

#include <hiredis/hiredis.h>
#include <openssl/crypto.h>

#include "curl_dl.h"

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
        return;
    }
    c->user_s = tv_s(&ru.ru_utime);
    c->sys_s = tv_s(&ru.ru_stime);
}

void result_cpu_delta(struct drv_result *r, const struct drv_cpu *start, const struct drv_cpu *end)
{
    r->cpu.user_s = end->user_s - start->user_s;
    r->cpu.sys_s = end->sys_s - start->sys_s;
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
    json_object_set_new(b, "libcurl", json_string(curl_api_version()));
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
    json_object_set_new(j, "ops", json_integer((json_int_t)r->ops));
    json_object_set_new(j, "batches", json_integer((json_int_t)r->batches));
    json_object_set_new(j, "elapsed_s", json_real(elapsed_s));
    json_object_set_new(j, "throughput", real1(elapsed_s > 0 ? (double)r->ops / elapsed_s : 0.0));
    json_object_set_new(j, "unit", json_string(r->unit ? r->unit : "ops/s"));

    lat = json_object();
    json_object_set_new(lat, "p50", real1(hist_percentile(r->hist, 50) / 1e3));
    json_object_set_new(lat, "p90", real1(hist_percentile(r->hist, 90) / 1e3));
    json_object_set_new(lat, "p99", real1(hist_percentile(r->hist, 99) / 1e3));
    json_object_set_new(lat, "p999", real1(hist_percentile(r->hist, 99.9) / 1e3));
    json_object_set_new(lat, "max", real1((double)hist_max(r->hist) / 1e3));
    json_object_set_new(lat, "mean", real1(hist_mean(r->hist) / 1e3));
    json_object_set_new(lat, "samples", json_integer((json_int_t)hist_count(r->hist)));
    json_object_set_new(j, "latency_us", lat);

    err = json_object();
    json_object_set_new(err, "connect", json_integer((json_int_t)r->err_connect));
    json_object_set_new(err, "io", json_integer((json_int_t)r->err_io));
    json_object_set_new(err, "protocol", json_integer((json_int_t)r->err_protocol));
    json_object_set_new(err, "verify", json_integer((json_int_t)r->err_verify));
    json_object_set_new(err, "timeout", json_integer((json_int_t)r->err_timeout));
    json_object_set_new(j, "errors", err);

    cpu = json_object();
    json_object_set_new(cpu, "user_s", real4(r->cpu.user_s));
    json_object_set_new(cpu, "sys_s", real4(r->cpu.sys_s));
    json_object_set_new(cpu, "percent", real1(elapsed_s > 0 ? cpu_s / elapsed_s * 100.0 : 0));
    json_object_set_new(j, "cpu", cpu);
    json_object_set_new(j, "rss_peak_kib", json_integer(rss));
    json_object_set_new(j, "build", result_build_json());
    if (o->transport == TRANSPORT_TLS) {
        json_t *t = json_object();
        json_object_set_new(t, "insecure", json_boolean(o->insecure));
        json_object_set_new(j, "tls", t);
    }
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
