/* `driver http --http-version 2`: HTTP/2 over TLS (ALPN h2) through libcurl's multi
 * interface, which does not fit the byte-level workload table. `workers` threads each own a
 * multi handle and their share of `connections`; CURLPIPE_MULTIPLEX with
 * CURLMOPT_MAX_CONCURRENT_STREAMS = window and CURLMOPT_MAX_HOST_CONNECTIONS = the share
 * keeps `window` streams in flight per connection. Each stream is one GET of --path (or POST
 * of --payload bytes); it is measured like the engine's batches (pipeline must be 1): from
 * adding the transfer to its completion, warm-up first, then the measured window by
 * duration or an exact --requests count. Every response is checked: HTTP/2 negotiated,
 * status 200, and for pairbench's reference pattern the body length and bytes.
 * Cleartext h2 (prior knowledge) is refused: connection reuse is broken in libcurl 7.88. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "engine/winmark.h"
#include "engine/client.h"
#include "clock.h"
#include "engine/curl_dl.h"
#include "proto/http_parse.h"

/* libcurl, loaded by h2_run() before any worker starts (curl_dl.h) */
static const struct curl_api *cu;

struct h2_run;

struct h2_xfer {
    struct h2_worker *w;
    CURL *easy;
    uint64_t start_ns;
    int measured;
    int active;  /* added to the multi handle, not finished */
    int pattern; /* "server: pairbench": check the body's bytes */
    int mismatch;
    size_t body;
    char errbuf[CURL_ERROR_SIZE];
};

struct h2_worker {
    struct h2_run *run;
    pthread_t th;
    int started;
    CURLM *multi;
    unsigned nconn;
    struct h2_xfer *x;
    unsigned nx;
    struct hist *hist;
    uint64_t ops, batches, err_connect, err_io, err_protocol, err_verify, err_timeout;
    uint64_t last_done_ns;
    uint64_t measured_started;
    uint64_t connects; /* new connections libcurl made for transfers that succeeded */
    int ever_ok;
    char err[256];
};

struct h2_run {
    const struct drv_opts *o;
    char url[1400];
    char connect_to[600];
    struct curl_slist *connect_list;
    char *expect; /* the reference pattern, payload bytes */
    uint64_t t0_ns, end_ns;
    uint64_t timeout_ns;   /* in-flight transfers are abandoned after this long without any
                            * completion (and, in duration mode, this long after the window) */
    _Atomic uint64_t left; /* --requests: measured transfers still to start */
    _Atomic int fatal;     /* a worker could not connect at all: everyone stops */
};

static size_t h2_on_header(char *p, size_t size, size_t n, void *ud)
{
    struct h2_xfer *x = ud;
    size_t len = size * n;
    if (len >= 17 && strncasecmp(p, "server: pairbench", 17) == 0)
        x->pattern = 1;
    return len;
}

static size_t h2_on_body(char *p, size_t size, size_t n, void *ud)
{
    struct h2_xfer *x = ud;
    size_t len = size * n;
    const struct h2_run *run = x->w->run;
    if (x->pattern && !x->mismatch &&
        (x->body + len > run->o->payload || memcmp(run->expect + x->body, p, len) != 0))
        x->mismatch = 1;
    x->body += len;
    return len;
}

/* Reserves the right to start one more transfer now: 1 yes, 0 no (measured window over or
 * the --requests count used up). Sets *measured. As in the engine (docs/driver.md), a worker
 * that has started no measured transfer by the end of the window (its transfers all began
 * in warm-up: a slow TLS setup, a descheduled process) may start one until end + --timeout,
 * so the run measures something instead of ending with zero ops. */
static int h2_may_start(struct h2_run *run, uint64_t now, int none_yet, int *measured)
{
    if (atomic_load(&run->fatal))
        return 0;
    *measured = now >= run->t0_ns;
    if (!*measured)
        return 1;
    if (run->o->requests) {
        uint64_t l = atomic_load(&run->left);
        while (l > 0)
            if (atomic_compare_exchange_weak(&run->left, &l, l - 1))
                return 1;
        return 0;
    }
    return now < run->end_ns || (none_yet && now - run->end_ns < run->timeout_ns);
}

static int h2_xfer_setup(struct h2_xfer *x)
{
    const struct h2_run *run = x->w->run;
    const struct drv_opts *o = run->o;
    CURL *e = cu->easy_init();
    if (!e)
        return -1;
    x->easy = e;
    cu->easy_setopt(e, CURLOPT_URL, run->url);
    cu->easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
    cu->easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
    cu->easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    cu->easy_setopt(e, CURLOPT_PRIVATE, x);
    cu->easy_setopt(e, CURLOPT_ERRORBUFFER, x->errbuf);
    cu->easy_setopt(e, CURLOPT_HEADERFUNCTION, h2_on_header);
    cu->easy_setopt(e, CURLOPT_HEADERDATA, x);
    cu->easy_setopt(e, CURLOPT_WRITEFUNCTION, h2_on_body);
    cu->easy_setopt(e, CURLOPT_WRITEDATA, x);
    cu->easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)(o->timeout_s * 1000));
    cu->easy_setopt(e, CURLOPT_USERAGENT, "pairbench");
    if (run->connect_list)
        cu->easy_setopt(e, CURLOPT_CONNECT_TO, run->connect_list);
    if (o->cacert[0])
        cu->easy_setopt(e, CURLOPT_CAINFO, o->cacert);
    if (o->cert[0]) {
        cu->easy_setopt(e, CURLOPT_SSLCERT, o->cert);
        cu->easy_setopt(e, CURLOPT_SSLKEY, o->key);
    }
    if (o->insecure) {
        cu->easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        cu->easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (strcmp(o->method, "POST") == 0) {
        cu->easy_setopt(e, CURLOPT_POSTFIELDS, run->expect);
        cu->easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)o->payload);
    }
    return 0;
}

static int h2_start(struct h2_worker *w, struct h2_xfer *x, uint64_t now)
{
    int measured;
    if (!h2_may_start(w->run, now, w->measured_started == 0, &measured))
        return 0;
    x->measured = measured;
    w->measured_started += (unsigned)measured;
    x->pattern = x->mismatch = 0;
    x->body = 0;
    x->errbuf[0] = 0;
    x->start_ns = now;
    x->active = 1;
    if (cu->multi_add_handle(w->multi, x->easy) != CURLM_OK) {
        snprintf(w->err, sizeof(w->err), "http/2: curl_multi_add_handle failed");
        atomic_store(&w->run->fatal, 1);
        return -1;
    }
    return 1;
}

static int h2_connect_class(CURLcode rc)
{
    switch (rc) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_HTTP2:
        return 1;
    default:
        return 0;
    }
}

/* Accounts one finished transfer. 0, or -1 when the worker must stop (cannot connect). */
static int h2_done(struct h2_worker *w, struct h2_xfer *x, CURLcode rc, uint64_t now)
{
    const struct drv_opts *o = w->run->o;
    long status = 0, version = 0;
    cu->easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
    cu->easy_getinfo(x->easy, CURLINFO_HTTP_VERSION, &version);
    if (rc != CURLE_OK) {
        int conn = h2_connect_class(rc);
        if (x->measured || conn) {
            if (conn)
                w->err_connect++;
            else
                w->err_io++;
        }
        if (!w->err[0])
            snprintf(w->err, sizeof(w->err), "connect '%.100s:%d': %.120s", o->host, o->port,
                     x->errbuf[0] ? x->errbuf : cu->easy_strerror(rc));
        /* nothing ever worked: stop rather than spin on a refused port */
        if (conn && !w->ever_ok)
            return -1;
        return 0;
    }
    w->ever_ok = 1;
    {
        /* a server's GOAWAY (nginx: keepalive_requests) makes libcurl open a new connection */
        long nc = 0;
        cu->easy_getinfo(x->easy, CURLINFO_NUM_CONNECTS, &nc);
        w->connects += nc > 0 ? (uint64_t)nc : 0;
    }
    if (!x->measured)
        return 0;
    w->last_done_ns = now;
    w->batches++;
    hist_record(w->hist, now - x->start_ns);
    if (version != CURL_HTTP_VERSION_2_0) {
        w->err_protocol++;
        if (!w->err[0])
            snprintf(w->err, sizeof(w->err),
                     "http/2: the server did not negotiate h2 (ALPN); got HTTP version code %ld",
                     version);
    } else if (status != 200) {
        w->err_protocol++;
    } else if (x->mismatch || (x->pattern && x->body != o->payload)) {
        w->err_verify++;
    } else {
        w->ops++;
    }
    return 0;
}

static void *h2_worker_main(void *arg)
{
    struct h2_worker *w = arg;
    struct h2_run *run = w->run;
    uint64_t now = clock_now_ns(), progress = now;
    int running = 0;
    for (unsigned i = 0; i < w->nx; i++) {
        int k = h2_start(w, &w->x[i], now);
        if (k < 0)
            return NULL;
        running += k;
    }
    while (running > 0) {
        int still = 0, numfds = 0, msgs;
        CURLMsg *m;
        if (cu->multi_perform(w->multi, &still) != CURLM_OK) {
            snprintf(w->err, sizeof(w->err), "http/2: curl_multi_perform failed");
            break;
        }
        now = clock_now_ns();
        while ((m = cu->multi_info_read(w->multi, &msgs)) != NULL) {
            char *priv = NULL;
            if (m->msg != CURLMSG_DONE)
                continue;
            CURLcode rc = m->data.result;
            cu->easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &priv);
            struct h2_xfer *x = (struct h2_xfer *)priv;
            cu->multi_remove_handle(w->multi, x->easy);
            x->active = 0;
            running--;
            progress = now;
            if (h2_done(w, x, rc, now) < 0) {
                atomic_store(&run->fatal, 1);
                continue;
            }
            int k = h2_start(w, x, now);
            if (k < 0)
                goto out;
            running += k;
        }
        if (running == 0)
            break;
        if (now - progress > run->timeout_ns ||
            (run->end_ns != UINT64_MAX && now > run->end_ns + run->timeout_ns)) {
            /* abandoned in-flight transfers: measured ones are timeouts */
            for (unsigned i = 0; i < w->nx; i++)
                if (w->x[i].active && w->x[i].measured)
                    w->err_timeout++;
            break;
        }
        cu->multi_poll(w->multi, NULL, 0, 50, &numfds);
    }
out:
    return NULL;
}

static int h2_check(const struct drv_opts *o, char *err, size_t n)
{
    const curl_version_info_data *cv = cu->version_info(CURLVERSION_NOW);
    if (!(cv->features & CURL_VERSION_HTTP2)) {
        snprintf(err, n, "--http-version '2': the loaded libcurl %s has no HTTP/2 support",
                 cv->version);
        return -1;
    }
    if (o->transport != TRANSPORT_TLS) {
        snprintf(err, n,
                 "--http-version '2' with --transport 'tcp': cleartext HTTP/2 is not "
                 "supported (connection reuse with prior knowledge is broken in libcurl %s, "
                 "fixed in 8.0); expected --transport tls (h2 negotiated by ALPN)",
                 cv->version);
        return -1;
    }
    if (o->pipeline != 1) {
        snprintf(err, n,
                 "--pipeline '%u' with --http-version '2': expected 1 (--window sets the "
                 "concurrent streams per connection)",
                 o->pipeline);
        return -1;
    }
    if (o->serve) {
        snprintf(err, n,
                 "--serve with --http-version '2': the reference server speaks "
                 "HTTP/1.1 only; point --http-version 2 at an HTTP/2 server");
        return -1;
    }
    return 0;
}

static void h2_sleep_until(uint64_t t)
{
    uint64_t now = clock_now_ns();
    if (now >= t)
        return;
    struct timespec ts = {(time_t)((t - now) / 1000000000u), (long)((t - now) % 1000000000u)};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* Fills run's reference pattern (--payload bytes), the URL and, with --sni, the CONNECT_TO
 * entry that sends the connection to --host. 0, or -1 when out of memory. */
static int h2_target(struct h2_run *run)
{
    const struct drv_opts *o = run->o;
    char host[300];

    run->expect = malloc(o->payload ? o->payload : 1);
    if (!run->expect)
        return -1;
    http_pattern(run->expect, o->payload, 0);
    /* with --sni the URL names that host (certificate check, :authority), and CONNECT_TO
     * sends the connection to --host */
    const char *name = o->sni[0] ? o->sni : o->host;
    if (strchr(name, ':'))
        snprintf(host, sizeof(host), "[%s]", name);
    else
        snprintf(host, sizeof(host), "%s", name);
    snprintf(run->url, sizeof(run->url), "https://%s:%d%s", host, o->port, o->path);
    if (o->sni[0]) {
        snprintf(run->connect_to, sizeof(run->connect_to), "%s:%d:%s%s%s:%d", o->sni, o->port,
                 strchr(o->host, ':') ? "[" : "", o->host, strchr(o->host, ':') ? "]" : "",
                 o->port);
        run->connect_list = cu->slist_append(NULL, run->connect_to);
        if (!run->connect_list)
            return -1;
    }
    return 0;
}

/* Sets up the nw workers of w (calloc'ed by the caller): each one's share of --connections,
 * its multi handle and `window` transfers per connection. 0, or -1 when out of memory
 * (h2_workers_free frees what was made). */
static int h2_workers_setup(struct h2_run *run, struct h2_worker *w, unsigned nw)
{
    const struct drv_opts *o = run->o;

    for (unsigned i = 0; i < nw; i++) {
        struct h2_worker *wk = &w[i];
        wk->run = run;
        wk->nconn = o->connections / nw + (i < o->connections % nw);
        wk->nx = wk->nconn * o->window;
        wk->hist = hist_new();
        wk->multi = cu->multi_init();
        wk->x = calloc(wk->nx, sizeof(*wk->x));
        if (!wk->hist || !wk->multi || !wk->x)
            return -1;
        cu->multi_setopt(wk->multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
        cu->multi_setopt(wk->multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)wk->nconn);
        cu->multi_setopt(wk->multi, CURLMOPT_MAXCONNECTS, (long)wk->nconn);
        cu->multi_setopt(wk->multi, CURLMOPT_MAX_CONCURRENT_STREAMS, (long)o->window);
        for (unsigned k = 0; k < wk->nx; k++) {
            wk->x[k].w = wk;
            if (h2_xfer_setup(&wk->x[k]) < 0)
                return -1;
        }
    }
    return 0;
}

/* Sets the window (warm-up end t0_ns, end_ns), starts the nw workers, marks the window and
 * takes the process's CPU over it, joins the workers and merges their counts into r (the
 * elapsed time covers the whole configured window). err gets the first worker's error,
 * which r notes too. Returns whether any transfer ever succeeded. */
static int h2_measure(struct h2_run *run, struct h2_worker *w, unsigned nw, struct drv_result *r,
                      char *err, size_t n)
{
    const struct drv_opts *o = run->o;
    struct drv_cpu c0, c1;
    unsigned i;

    uint64_t start = clock_now_ns();
    run->t0_ns = start + (uint64_t)(o->warmup_s * 1e9);
    run->end_ns = o->requests ? UINT64_MAX : run->t0_ns + (uint64_t)(o->duration_s * 1e9);
    atomic_store(&run->left, o->requests);
    run->timeout_ns = (uint64_t)(o->timeout_s * 1e9);
    for (i = 0; i < nw; i++) {
        if (pthread_create(&w[i].th, NULL, h2_worker_main, &w[i]) != 0) {
            snprintf(err, n, "http/2: pthread_create failed");
            atomic_store(&run->fatal, 1);
            break;
        }
        w[i].started = 1;
    }
    h2_sleep_until(run->t0_ns);
    result_cpu_now(&c0);
    winmark_start();
    uint64_t last = run->t0_ns;
    int ever_ok = 0;
    for (i = 0; i < nw; i++) {
        if (!w[i].started)
            continue;
        pthread_join(w[i].th, NULL);
        w[i].started = 0;
        hist_merge(r->hist, w[i].hist);
        r->ops += w[i].ops;
        r->batches += w[i].batches;
        r->err_connect += w[i].err_connect;
        r->err_io += w[i].err_io;
        r->err_protocol += w[i].err_protocol;
        r->err_verify += w[i].err_verify;
        r->err_timeout += w[i].err_timeout;
        /* reopenings: the connections made beyond the worker's own (warm-up included; the
         * most on one worker's pool stands for the per-connection maximum) */
        if (w[i].connects > w[i].nconn) {
            r->reopened += w[i].connects - w[i].nconn;
            if (w[i].connects - w[i].nconn > r->reopened_max)
                r->reopened_max = w[i].connects - w[i].nconn;
        }
        if (w[i].last_done_ns > last)
            last = w[i].last_done_ns;
        ever_ok |= w[i].ever_ok;
        if (!err[0] && w[i].err[0])
            snprintf(err, n, "%s", w[i].err);
    }
    winmark_end();
    result_cpu_now(&c1);
    result_cpu_delta(r, &c0, &c1);
    /* the whole configured window, as client.c measures it */
    if (!o->requests && last < run->end_ns)
        last = run->end_ns;
    r->elapsed_ns = last - run->t0_ns;
    r->window_s = o->requests ? 0 : o->duration_s;
    if (err[0])
        result_note_error(r, err);
    return ever_ok;
}

/* Joins the workers still running and frees the nw workers of w and their transfers. */
static void h2_workers_free(struct h2_worker *w, unsigned nw)
{
    for (unsigned i = 0; i < nw; i++) {
        if (w[i].started)
            pthread_join(w[i].th, NULL);
        for (unsigned k = 0; w[i].x && k < w[i].nx; k++)
            if (w[i].x[k].easy) {
                cu->multi_remove_handle(w[i].multi, w[i].x[k].easy);
                cu->easy_cleanup(w[i].x[k].easy);
            }
        free(w[i].x);
        if (w[i].multi)
            cu->multi_cleanup(w[i].multi);
        hist_free(w[i].hist);
    }
    free(w);
}

int h2_run(const struct drv_opts *o, struct drv_result *r, char *err, size_t n)
{
    struct h2_run run;
    struct h2_worker *w = NULL;
    int rc = CLIENT_EFAIL, curl_inited = 0;
    unsigned nw = o->workers ? o->workers : 1;

    memset(&run, 0, sizeof(run));
    run.o = o;
    if (!cu && !(cu = curl_api_load(err, n)))
        return CLIENT_EFAIL;
    if (h2_check(o, err, n) < 0)
        return CLIENT_EUSAGE;
    if (cu->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(err, n, "http/2: curl_global_init failed");
        return CLIENT_EFAIL;
    }
    curl_inited = 1;
    r->unit = "round trips/s";
    if (h2_target(&run) < 0)
        goto oom;
    if (nw > o->connections)
        nw = o->connections;
    if (nw == 0) { /* opts_parse already rejects --connections 0 */
        snprintf(err, n, "--connections '0': expected an integer in 1..10000");
        rc = CLIENT_EUSAGE;
        goto out;
    }
    w = calloc(nw, sizeof(*w));
    if (!w || h2_workers_setup(&run, w, nw) < 0)
        goto oom;
    if (!h2_measure(&run, w, nw, r, err, n)) {
        if (!err[0])
            snprintf(err, n, "connect '%s:%d': no connection succeeded", o->host, o->port);
        goto out;
    }
    if (r->ops == 0) {
        char why[512];
        snprintf(why, sizeof(why),
                 "no successful operation in the measured window (errors: connect %llu, io "
                 "%llu, protocol %llu, verify %llu, timeout %llu)%s%s",
                 (unsigned long long)r->err_connect, (unsigned long long)r->err_io,
                 (unsigned long long)r->err_protocol, (unsigned long long)r->err_verify,
                 (unsigned long long)r->err_timeout, err[0] ? "; first: " : "", err);
        snprintf(err, n, "%s", why);
        goto out;
    }
    if (err[0])
        fprintf(stderr, "driver: warning: http/2: %s\n", err);
    rc = CLIENT_OK;
    goto out;
oom:
    snprintf(err, n, "http/2: out of memory");
out:
    if (w)
        h2_workers_free(w, nw);
    cu->slist_free_all(run.connect_list);
    free(run.expect);
    if (curl_inited)
        cu->global_cleanup();
    return rc;
}
