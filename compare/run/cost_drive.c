/* cost_drive: the driver run of a counted run, exactly the requested operations (see
 * cost_int.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/cost_int.h"
#include "run/proc.h"
#include "run/runner.h"
#include "util/words.h"

int cost_drive(struct runner *r, size_t version, const json_t *eff, unsigned requests,
               char *const *wrap, const char *cfg_path, const char *log, json_t **result,
               char *reason, size_t reasonlen, char *err, size_t errlen)
{
    json_t *c = json_deep_copy(eff);
    char **dargv = NULL, **full = NULL, why[512], tail[400];
    size_t dargc = 0, i, nw = 0;
    struct proc p = {.pid = -1, .out_fd = -1};
    struct proc_spec ps = {0};
    struct proc_result res;
    int rc = -1;

    while (wrap && wrap[nw])
        nw++;
    *result = NULL;
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    json_object_set_new(c, "requests", json_integer(requests));
    json_object_set_new(c, "warmup", json_real(0));
    errno = 0;
    if (json_dump_file(c, cfg_path, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0) {
        snprintf(err, errlen, "cannot write '%s': %s", cfg_path,
                 errno ? strerror(errno) : "write failed");
        goto out;
    }
    if (runner_driver_argv(r, version, &dargv, &dargc, err, errlen) < 0)
        goto out;
    if (!(full = calloc(nw + dargc + 3, sizeof(*full)))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (i = 0; i < nw; i++)
        full[i] = wrap[i];
    for (i = 0; i < dargc; i++)
        full[nw + i] = dargv[i];
    full[nw + dargc] = "--config";
    full[nw + dargc + 1] = (char *)cfg_path;
    ps.argv = full;
    ps.env = r->sp->versions[version].env;
    ps.cpus = r->pin_driver;
    ps.stderr_path = log;
    ps.capture_stdout = 1;
    rc = 1;
    if (proc_start(&p, &ps, why, sizeof(why)) < 0) {
        snprintf(reason, reasonlen, "driver: %s", why);
        goto out;
    }
    /* a count under valgrind: minutes, not the configuration's seconds; a server that ends
     * meanwhile ends the wait (its end is the run's first cause) */
    p.watch = r->counted_server;
    if (proc_wait(&p, 600.0, 2.0, r->stop, &res, err, errlen) < 0) {
        rc = -1;
        goto out;
    }
    proc_file_tail(log, 300, tail, sizeof(tail));
    if (res.interrupted) {
        rc = 2;
    } else if (res.watch_ended) {
        snprintf(reason, reasonlen, "driver stopped: the server it counted against ended");
    } else if (res.timed_out || !WIFEXITED(res.status) || WEXITSTATUS(res.status) != 0) {
        proc_describe_status(res.status, why, sizeof(why));
        snprintf(reason, reasonlen, "driver: %s%s%s", res.timed_out ? "timeout after 600 s" : why,
                 tail[0] ? ": " : "", tail);
    } else {
        json_error_t je;
        *result = json_loads(res.out, 0, &je);
        if (!json_is_object(*result) ||
            json_integer_value(json_object_get(*result, "ops")) != (json_int_t)requests) {
            snprintf(reason, reasonlen,
                     "driver: expected a result with \"ops\" = %u (the requested count)", requests);
            json_decref(*result);
            *result = NULL;
        } else {
            rc = 0;
        }
    }
    proc_result_release(&res);
out:
    if (p.pid > 0)
        proc_stop(&p, 0.5);
    (void)unlink(cfg_path);
    free(full);
    words_free(dargv);
    json_decref(c);
    return rc;
}
