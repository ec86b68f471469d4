/* The driver's configuration as the result records it (opts_to_json, see opts.h): every key
 * that shaped the run, so a result names what produced it. */
#include "opts.h"

#include "wl/http_req.h"

static void set_str(json_t *j, const char *k, const char *v)
{
    json_object_set_new(j, k, json_string(v));
}

static void set_int(json_t *j, const char *k, long long v)
{
    json_object_set_new(j, k, json_integer(v));
}

/* The detection knobs (srv_extra.h) that are set. */
static void opts_extra_json(json_t *j, const struct drv_opts *o)
{
    if (o->extra_syscalls)
        set_int(j, "extra_syscalls", o->extra_syscalls);
    if (o->extra_allocs)
        set_int(j, "extra_allocs", o->extra_allocs);
    if (o->extra_wakeups)
        set_int(j, "extra_wakeups", o->extra_wakeups);
    if (o->grow_ns)
        set_int(j, "grow_ns", o->grow_ns);
    if (o->stall_after) {
        set_int(j, "stall_after", (long long)o->stall_after);
        set_int(j, "stall_ms", o->stall_ms);
    }
}

/* The reference server's knobs, for `driver serve` and for a client that serves too. */
static void server_json(json_t *j, const struct drv_opts *o)
{
    set_int(j, "delay_us", o->delay_us);
    if (o->work)
        set_int(j, "work", o->work);
    if (o->stall[0])
        set_str(j, "stall", o->stall);
    opts_extra_json(j, o);
}

json_t *opts_to_json(const struct drv_opts *o)
{
    json_t *j = json_object();
    int tls = o->transport == TRANSPORT_TLS;

    if (!j)
        return NULL;
    set_str(j, "protocol", opts_proto_name(o->protocol));
    set_str(j, "transport", tls ? "tls" : "tcp");
    set_str(j, "host", o->host);
    set_int(j, "port", o->port);
    if (o->mode == MODE_CLIENT) {
        set_int(j, "connections", o->connections);
        set_int(j, "workers", o->workers);
        set_int(j, "pipeline", o->pipeline);
        set_int(j, "window", o->window);
        set_int(j, "payload", (long long)o->payload);
        json_object_set_new(j, "warmup", json_real(o->warmup_s));
        json_object_set_new(j, "duration", json_real(o->duration_s));
        set_int(j, "requests", (long long)o->requests);
        if (o->protocol == PROTO_REDIS) {
            set_str(j, "command", o->command);
            if (o->key_pattern[0])
                set_str(j, "key_pattern", o->key_pattern);
            if (o->commands[0])
                json_object_set_new(j, "commands", json_loads(o->commands, JSON_DECODE_ANY, NULL));
            if (o->setup[0])
                json_object_set_new(j, "setup", json_loads(o->setup, JSON_DECODE_ANY, NULL));
            set_int(j, "keyspace", (long long)o->keyspace);
            json_object_set_new(j, "auth", json_boolean(o->auth));
            set_int(j, "resp", o->resp);
            if (o->no_prefill)
                json_object_set_new(j, "no_prefill", json_true());
        }
        if (o->protocol == PROTO_HTTP || o->protocol == PROTO_WS)
            set_str(j, "path", o->path);
        if (o->protocol == PROTO_HTTP) {
            set_str(j, "http_version", o->http_version);
            set_str(j, "method", o->method);
            http_req_to_json(o, j);
        }
        if (tls) {
            if (o->sni[0])
                set_str(j, "sni", o->sni);
            json_object_set_new(j, "insecure", json_boolean(o->insecure));
        }
        if (o->busy_poll_us)
            set_int(j, "busy_poll_us", o->busy_poll_us);
        if (o->seed)
            set_int(j, "seed", (long long)o->seed);
        if (o->lockstep)
            json_object_set_new(j, "lockstep", json_true());
        json_object_set_new(j, "error_limit", json_real(o->error_limit));
        set_int(j, "interval_ms", o->interval_ms);
        if (o->rate > 0) {
            json_object_set_new(j, "rate", json_real(o->rate));
            set_str(j, "arrival", o->arrival);
        }
        json_object_set_new(j, "serve", json_boolean(o->serve));
        if (o->serve) {
            set_int(j, "serve_workers", o->serve_workers);
            server_json(j, o);
        }
    } else {
        set_int(j, "workers", o->workers);
        set_int(j, "payload", (long long)o->payload);
        server_json(j, o);
        if (o->protocol != PROTO_TCP)
            set_str(j, "path", o->path);
    }
    if (tls) {
        if (o->cacert[0])
            set_str(j, "cacert", o->cacert);
        if (o->cert[0])
            set_str(j, "cert", o->cert);
        if (o->key[0])
            set_str(j, "key", o->key);
    }
    json_object_set_new(j, "timeout", json_real(o->timeout_s));
    return j;
}
