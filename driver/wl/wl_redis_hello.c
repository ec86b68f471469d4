/* The Redis workload's handshake bytes (AUTH / HELLO 3, the LRANGE prefill) and the
 * messages for a handshake or setup reply that is an error (see wl_redis_impl.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "wl/wl_redis_impl.h"

/* Appends one formatted command to the handshake bytes. 0 or -1. */
static int hello_add(struct redis_shared *sh, enum hello_step step, int argc, const char **argv,
                     const size_t *argvlen)
{
    char *cmd = NULL;
    long long n = redisFormatCommandArgv(&cmd, argc, argv, argvlen);
    char *p;

    if (n < 0)
        return -1;
    p = realloc(sh->hello, sh->hello_len + (size_t)n);
    if (p == NULL) {
        redisFreeCommand(cmd);
        return -1;
    }
    memcpy(p + sh->hello_len, cmd, (size_t)n);
    /* The bytes may hold the password: wipe the temporary copy. */
    explicit_bzero(cmd, (size_t)n);
    redisFreeCommand(cmd);
    sh->hello = p;
    sh->hello_len += (size_t)n;
    sh->steps[sh->hello_replies++] = step;
    return 0;
}

/* HELLO 3 [AUTH user pass] or AUTH [user] pass, then the LRANGE prefill: LPUSH N values and
 * LTRIM to N, so the list holds at least N elements once any connection's handshake is done
 * and never grows past 2N however many connections prefill. --no-prefill leaves it out: the
 * list is already there (compare's counted window, after a warm-up that prefilled it, so
 * the window counts LRANGE alone, as a template's does). */
int redis_hello_build(struct redis_shared *sh, const struct drv_opts *o, const struct secret *s)
{
    const char *argv[8];
    size_t argvlen[8];
    int argc = 0;

    if (o->resp == 3) {
        argv[argc] = "HELLO", argvlen[argc++] = 5;
        argv[argc] = "3", argvlen[argc++] = 1;
        if (sh->auth) {
            const char *user = s->user[0] ? s->user : "default";

            argv[argc] = "AUTH", argvlen[argc++] = 4;
            argv[argc] = user, argvlen[argc++] = strlen(user);
            argv[argc] = s->password, argvlen[argc++] = s->password_len;
        }
        if (hello_add(sh, STEP_HELLO, argc, argv, argvlen) < 0)
            return -1;
    } else if (sh->auth) {
        argv[argc] = "AUTH", argvlen[argc++] = 4;
        if (s->user[0])
            argv[argc] = s->user, argvlen[argc++] = strlen(s->user);
        argv[argc] = s->password, argvlen[argc++] = s->password_len;
        if (hello_add(sh, STEP_AUTH, argc, argv, argvlen) < 0)
            return -1;
    }
    if (sh->cmd->check == RESP_CHECK_ARRAY_N && !o->no_prefill) {
        long long n = sh->cmd->count;
        const char **pv = calloc((size_t)n + 2, sizeof(*pv));
        size_t *pl = calloc((size_t)n + 2, sizeof(*pl));
        char end[24];
        int rc;

        if (pv == NULL || pl == NULL) {
            free(pv), free(pl);
            return -1;
        }
        pv[0] = "LPUSH", pl[0] = 5;
        pv[1] = "mylist", pl[1] = 6;
        for (long long i = 0; i < n; i++)
            pv[i + 2] = sh->value, pl[i + 2] = sh->value_len;
        rc = hello_add(sh, STEP_PREFILL, (int)n + 2, pv, pl);
        free(pv), free(pl);
        if (rc < 0)
            return -1;
        snprintf(end, sizeof(end), "%lld", n - 1);
        argv[0] = "LTRIM", argvlen[0] = 5;
        argv[1] = "mylist", argvlen[1] = 6;
        argv[2] = "0", argvlen[2] = 1;
        argv[3] = end, argvlen[3] = strlen(end);
        if (hello_add(sh, STEP_TRIM, 4, argv, argvlen) < 0)
            return -1;
    }
    return 0;
}

void redis_hello_error(const struct redis_conn *c, enum hello_step step, char *err, size_t errlen)
{
    const char *text = c->v.errtext;
    /* The server wants credentials we were not asked to send. */
    const char *hint = !c->sh->auth && strncmp(text, "NOAUTH", 6) == 0
                           ? " (the server requires a password: use --auth)"
                           : "";

    switch (step) {
    case STEP_HELLO:
        if (c->sh->auth && (strncmp(text, "WRONGPASS", 9) == 0 || strstr(text, "password")))
            snprintf(err, errlen, "redis: AUTH failed: %s", text);
        else
            snprintf(err, errlen, "redis: HELLO 3 failed: %s%s", text, hint);
        break;
    case STEP_AUTH:
        snprintf(err, errlen, "redis: AUTH failed: %s", text);
        break;
    case STEP_PREFILL:
        snprintf(err, errlen, "redis: prefill 'LPUSH mylist' failed: %s%s", text, hint);
        break;
    case STEP_TRIM:
        snprintf(err, errlen, "redis: prefill 'LTRIM mylist' failed: %s%s", text, hint);
        break;
    }
}

/* A setup command answered with an error: which one, and the reply. */
void redis_setup_error(struct redis_conn *c, char *err, size_t errlen)
{
    struct redis_shared *sh = c->sh;
    uint64_t k = c->hello_seen - sh->hello_replies;
    char shown[160] = "DBSIZE";

    if (k < sh->t.setup_cmds)
        rcmd_resp_show(sh->t.setup.p, sh->t.setup_len, k, shown, sizeof(shown));
    snprintf(err, errlen, "redis: setup command %" PRIu64 " of %" PRIu64 " '%s' failed: %s", k + 1,
             sh->t.setup_cmds, shown, c->v.errtext);
    sh->setup_failed = 1;
}
