/* The gate's thresholds, decision and comment Markdown (see gate.h). Pure: the command that
 * runs, writes and posts is in cmd/gate.c. */
#include "util/fmt.h"
#include "analysis/gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/exit_codes.h"
#include "util/jobs_util.h"
#include "num.h"
#include "analysis/outcome.h"
#include "analysis/summary.h"

void gate_config_init(struct gate_config *gc)
{
    int m;

    memset(gc, 0, sizeof(*gc));
    verdict_rules_default(&gc->rules);
    for (m = 0; m < METRIC_ALL; m++)
        gc->gated[m] = (unsigned char)metric_def((enum metric)m)->gate_default;
    interference_limits_default(&gc->limits);
}

int gate_parse_duration(const char *s, double *seconds)
{
    char num[32];
    size_t n = strlen(s);
    double mult = 1, v;

    if (n == 0 || n >= sizeof(num))
        return -1;
    memcpy(num, s, n + 1);
    switch (num[n - 1]) {
    case 's':
        num[--n] = '\0';
        break;
    case 'm':
        mult = 60;
        num[--n] = '\0';
        break;
    case 'h':
        mult = 3600;
        num[--n] = '\0';
        break;
    default:
        break;
    }
    if (num_parse_double(num, 0, 86400, &v) < 0 || !(v * mult > 0) || v * mult > 86400)
        return -1;
    *seconds = v * mult;
    return 0;
}

/* A JSON value as the error messages quote it: compact, cut at outlen. */
static const char *shown(const json_t *v, char *out, size_t outlen)
{
    char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

    snprintf(out, outlen, "%s", d ? d : "?");
    free(d);
    return out;
}

/* The spec's gate.budget and gate.disturbed_limit. Returns 0, 1 when key is neither, -1. */
static int parse_gate_extra(struct gate_config *gc, const char *key, const json_t *v,
                            const char *file, char *err, size_t errlen)
{
    if (strcmp(key, "budget") == 0) {
        char buf[32];

        if (json_is_number(v))
            snprintf(buf, sizeof(buf), "%g", json_number_value(v));
        else
            snprintf(buf, sizeof(buf), "%s", json_is_string(v) ? json_string_value(v) : "");
        if (gate_parse_duration(buf, &gc->budget_s) < 0) {
            char got[64];
            snprintf(err, errlen,
                     "%s: $.gate.budget: expected a duration like \"5m\", \"90s\" or seconds "
                     "in (0, 86400], got %s",
                     file, shown(v, got, sizeof(got)));
            return -1;
        }
        return 0;
    }
    if (strcmp(key, "disturbed_limit") == 0) {
        const json_t *c = json_object_get(v, "other_cpu_cores"),
                     *st = json_object_get(v, "steal_pct");

        if (!json_is_object(v) || (c && (!json_is_number(c) || json_number_value(c) <= 0)) ||
            (st && (!json_is_number(st) || json_number_value(st) <= 0)) ||
            json_object_size(v) != (size_t)(c != NULL) + (size_t)(st != NULL)) {
            snprintf(err, errlen,
                     "%s: $.gate.disturbed_limit: expected {\"other_cpu_cores\": CORES, "
                     "\"steal_pct\": PERCENT} with positive numbers",
                     file);
            return -1;
        }
        if (c)
            gc->limits.other_cpu_cores = json_number_value(c);
        if (st)
            gc->limits.steal_pct = json_number_value(st);
        return 0;
    }
    return 1;
}

void gate_config_release(struct gate_config *gc)
{
    size_t i;

    for (i = 0; i < gc->n_rows; i++)
        json_decref(gc->rows[i].match);
    gc->n_rows = 0;
}

/* A gateable metric by name (cpu_percent is informational: it has no good direction). */
static int gate_metric(const char *name)
{
    int m = metric_lookup(name);

    return m >= 0 && metric_gateable((enum metric)m) ? m : -1;
}

static void name_gated(struct gate_config *gc, int m, double pct)
{
    if (!gc->explicit_set) {
        memset(gc->gated, 0, sizeof(gc->gated));
        gc->explicit_set = 1;
    }
    gc->rules.threshold_pct[m] = pct;
    gc->rules.named[m] = 1;
    gc->gated[m] = pct > 0;
}

int gate_parse_threshold(struct gate_config *gc, const char *arg, char *err, size_t errlen)
{
    const char *eq = strchr(arg, '=');
    char name[64];
    double pct;
    int m;

    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name)) {
        snprintf(err, errlen, "--threshold '%s': expected METRIC=PERCENT (e.g. throughput=5)", arg);
        return -1;
    }
    memcpy(name, arg, (size_t)(eq - arg));
    name[eq - arg] = '\0';
    m = gate_metric(name);
    if (m < 0) {
        snprintf(err, errlen, "--threshold '%s': unknown metric '%s' (expected %s)", arg, name,
                 metric_gateable_names());
        return -1;
    }
    if (num_parse_double(eq + 1, 0, 1000, &pct) < 0 || !(pct > 0)) {
        snprintf(err, errlen, "--threshold '%s': bad percent '%s' (expected a number in (0, 1000])",
                 arg, eq + 1);
        return -1;
    }
    name_gated(gc, m, pct);
    return 0;
}

/* {METRIC: PCT} at path into pct[] (global when row < 0). */
static int parse_thresholds(struct gate_config *gc, const json_t *obj, const char *file,
                            const char *path, double *pct, int global, char *err, size_t errlen)
{
    const char *key;
    json_t *v;

    if (!json_is_object(obj)) {
        snprintf(err, errlen, "%s: %s: expected an object {metric: percent}", file, path);
        return -1;
    }
    json_object_foreach((json_t *)obj, key, v)
    {
        int m = gate_metric(key);
        double d;

        if (m < 0) {
            snprintf(err, errlen, "%s: %s.%s: unknown metric '%s' (expected %s)", file, path, key,
                     key, metric_gateable_names());
            return -1;
        }
        d = json_number_value(v);
        if (!json_is_number(v) || d < 0 || d > 1000) {
            char got[64];
            snprintf(err, errlen,
                     "%s: %s.%s: expected a percent in [0, 1000] (0 = not gated), got %s", file,
                     path, key, shown(v, got, sizeof(got)));
            return -1;
        }
        if (global)
            name_gated(gc, m, d);
        else
            pct[m] = d;
    }
    return 0;
}

int gate_parse_spec(struct gate_config *gc, const json_t *gate, const char *file, char *err,
                    size_t errlen)
{
    const char *key;
    json_t *v;

    if (!gate)
        return 0;
    if (!json_is_object(gate)) {
        snprintf(err, errlen, "%s: $.gate: expected an object with thresholds, noise_limit, rows",
                 file);
        return -1;
    }
    json_object_foreach((json_t *)gate, key, v)
    {
        if (strcmp(key, "thresholds") == 0) {
            if (parse_thresholds(gc, v, file, "$.gate.thresholds", NULL, 1, err, errlen) < 0)
                return -1;
        } else if (strcmp(key, "noise_limit") == 0) {
            double d = json_number_value(v);

            if (!json_is_number(v) || !(d > 0) || d > 1000) {
                char got[64];
                snprintf(err, errlen,
                         "%s: $.gate.noise_limit: expected a percent in (0, 1000], got %s", file,
                         shown(v, got, sizeof(got)));
                return -1;
            }
            gc->rules.noise_limit_pct = d;
        } else if (strcmp(key, "rows") == 0) {
            size_t i;
            json_t *r;

            if (!json_is_array(v)) {
                snprintf(err, errlen, "%s: $.gate.rows: expected an array of {match, thresholds}",
                         file);
                return -1;
            }
            json_array_foreach(v, i, r)
            {
                struct gate_row_rule *rr;
                json_t *match = json_object_get(r, "match"), *th = json_object_get(r, "thresholds");
                char path[64];
                size_t m;

                if (gc->n_rows >= GATE_MAX_ROWS) {
                    snprintf(err, errlen, "%s: $.gate.rows: more than %d rules", file,
                             GATE_MAX_ROWS);
                    return -1;
                }
                if (!json_is_object(r) || !json_is_object(match) || json_object_size(r) != 2 ||
                    !th) {
                    snprintf(err, errlen,
                             "%s: $.gate.rows[%zu]: expected {\"match\": {key: value}, "
                             "\"thresholds\": {metric: percent}}",
                             file, i);
                    return -1;
                }
                rr = &gc->rows[gc->n_rows];
                for (m = 0; m < METRIC_ALL; m++)
                    rr->threshold_pct[m] = -1;
                snprintf(path, sizeof(path), "$.gate.rows[%zu].thresholds", i);
                if (parse_thresholds(gc, th, file, path, rr->threshold_pct, 0, err, errlen) < 0)
                    return -1;
                rr->match = json_incref(match);
                gc->n_rows++;
            }
        } else {
            int x = parse_gate_extra(gc, key, v, file, err, errlen);

            if (x < 0)
                return -1;
            if (x > 0) {
                snprintf(err, errlen,
                         "%s: $.gate.%s: unknown key (expected thresholds, noise_limit, rows, "
                         "budget, disturbed_limit)",
                         file, key);
                return -1;
            }
        }
    }
    return 0;
}

int gate_row_match(const struct gate_config *gc, const json_t *params)
{
    size_t i;

    for (i = 0; i < gc->n_rows; i++) {
        const char *key;
        json_t *v;
        int all = 1;

        json_object_foreach(gc->rows[i].match, key, v)
        {
            if (!json_equal(json_object_get(params, key), v)) {
                all = 0;
                break;
            }
        }
        if (all)
            return (int)i;
    }
    return -1;
}

int gate_apply_floors(struct gate_config *gc, const json_t *calibration, const char *file,
                      char *err, size_t errlen)
{
    struct gate_row_rule fresh[GATE_MAX_ROWS];
    const json_t *rows = json_object_get(calibration, "rows"), *row;
    const char *schema = json_string_value(json_object_get(calibration, "schema"));
    size_t n = 0, i, m;

    if (!schema || strcmp(schema, "pairbench.calibration/1") != 0 || !json_is_array(rows)) {
        snprintf(err, errlen,
                 "%s: $.schema: expected \"pairbench.calibration/1\" with rows (the "
                 "calibration.json of compare calibrate), got %s",
                 file, schema ? schema : "none");
        return -1;
    }
    if (json_array_size(rows) + gc->n_rows > GATE_MAX_ROWS) {
        snprintf(err, errlen, "%s: $.rows: %zu calibrated rows and %zu spec rules exceed %d", file,
                 json_array_size(rows), gc->n_rows, GATE_MAX_ROWS);
        return -1;
    }
    json_array_foreach(rows, i, row)
    {
        const json_t *params = json_object_get(row, "params");
        const json_t *metrics = json_object_get(row, "metrics");
        struct verdict_rules eff;
        unsigned char gated[METRIC_ALL];
        int base = gate_row_match(gc, params);
        json_t *match;

        if (!json_is_object(params) || !json_is_object(metrics)) {
            snprintf(err, errlen, "%s: $.rows[%zu]: expected \"params\" and \"metrics\" objects",
                     file, i);
            goto fail;
        }
        gate_row_rules(gc, params, &eff, gated);
        match = json_deep_copy(params);
        if (!match) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
        /* a calibration with other window lengths still describes the same configuration */
        json_object_del(match, "warmup");
        json_object_del(match, "duration");
        fresh[n].match = match;
        for (m = 0; m < METRIC_ALL; m++) {
            const json_t *f =
                json_object_get(json_object_get(metrics, metric_name(m)), "floor_pct");

            if (gated[m])
                fresh[n].threshold_pct[m] =
                    json_is_number(f) && json_number_value(f) > eff.threshold_pct[m]
                        ? json_number_value(f)
                        : eff.threshold_pct[m];
            else
                fresh[n].threshold_pct[m] = base >= 0 ? gc->rows[base].threshold_pct[m] : -1;
        }
        n++;
    }
    memmove(gc->rows + n, gc->rows, gc->n_rows * sizeof(gc->rows[0]));
    memcpy(gc->rows, fresh, n * sizeof(fresh[0]));
    gc->n_rows += n;
    return 0;
fail:
    while (n > 0)
        json_decref(fresh[--n].match);
    return -1;
}

void gate_row_rules(const struct gate_config *gc, const json_t *params, struct verdict_rules *out,
                    unsigned char gated[METRIC_ALL])
{
    int r = gate_row_match(gc, params);
    size_t m;

    *out = gc->rules;
    memcpy(gated, gc->gated, METRIC_ALL);
    outcome_rate_rules(params, gc->explicit_set, out, gated);
    if (r < 0)
        return;
    for (m = 0; m < METRIC_ALL; m++) {
        double pct = gc->rows[r].threshold_pct[m];

        if (pct < 0)
            continue;
        out->threshold_pct[m] = pct;
        gated[m] = pct > 0;
    }
}

int gate_apply_row_rules(const struct gate_config *gc, json_t *summary, const json_t *runs,
                         const json_t *meta, char *err, size_t errlen)
{
    json_t *row;
    size_t r, i;

    for (r = 0; r < gc->n_rows; r++) {
        struct verdict_rules rules;
        unsigned char gated[METRIC_ALL];
        json_t *alt = NULL;

        json_array_foreach(json_object_get(summary, "rows"), i, row)
        {
            const char *cfg;
            json_t *arow;
            size_t k;

            if (gate_row_match(gc, json_object_get(row, "params")) != (int)r)
                continue;
            if (!alt) {
                gate_row_rules(gc, json_object_get(row, "params"), &rules, gated);
                alt = summary_build(runs, meta, &rules, err, errlen);
                if (!alt)
                    return -1;
            }
            cfg = json_string_value(json_object_get(row, "config"));
            json_array_foreach(json_object_get(alt, "rows"), k, arow)
            {
                if (cfg &&
                    json_equal(json_object_get(arow, "config"), json_object_get(row, "config"))) {
                    json_object_set(row, "metrics", json_object_get(arow, "metrics"));
                    break;
                }
            }
        }
        json_decref(alt);
    }
    return 0;
}

void gate_extra_round_rules(const struct gate_config *gc, const json_t *params,
                            struct verdict_rules *out)
{
    unsigned char gated[METRIC_ALL];
    size_t m;

    gate_row_rules(gc, params, out, gated);
    for (m = 0; m < METRIC_ALL; m++)
        if (!gated[m])
            out->threshold_pct[m] = 0;
}

/* Appends "sep'label' what" (label quoted when given) to a reason line, keeping it bounded. */
static void reason_add(char *buf, size_t len, const char *label, const char *what)
{
    size_t used = strlen(buf);

    if (used + 8 >= len)
        return;
    if (label)
        snprintf(buf + used, len - used, "%s'%s'%s%s", used ? ", " : "", label, *what ? " " : "",
                 what);
    else
        snprintf(buf + used, len - used, "%s%s", used ? "; " : "", what);
    if (strlen(buf) + 8 >= len) {
        /* cut before the character that straddles the limit, never inside it (a UTF-8
         * continuation byte is 10xxxxxx): gate.md and stderr stay valid UTF-8 */
        size_t cut = len - 8;
        while (cut > 0 && ((unsigned char)buf[cut] & 0xC0) == 0x80)
            cut--;
        snprintf(buf + cut, len - cut, "...");
    }
}

void gate_fmt_change(char *out, size_t len, const json_t *metric, const json_t *vs, double planned)
{
    double d;

    fmt_change(summary_judged_change(metric, vs, planned, &d) < 0 ? NAN : d, out, len);
}

static const char *metric_title(int m)
{
    return m >= 0 && m < METRIC_ALL ? metric_def((enum metric)m)->short_en : "?";
}

int gate_candidate_fault(const json_t *row, const char *base, const char **reason)
{
    const json_t *fails = json_object_get(row, "failures"), *f;
    size_t k;

    *reason = NULL;
    if (!base || json_array_size(fails) == 0)
        return 0;
    json_array_foreach(fails, k, f)
    {
        const char *why = ju_str(f, "reason", "");

        if (strcmp(ju_str(f, "version", ""), base) == 0)
            return 0;
        if (!json_is_true(json_object_get(f, "measured")) &&
            strncmp(why, "server ended during the run", 27) != 0)
            return 0;
        if (!*reason)
            *reason = why;
    }
    return 1;
}

/* gr->code from gr's counts, in the order gate_decide states, and gr->reason from the rows
 * named per finding (regs, fails, incs); n_rows: the summary's rows. */
static void decide_code(struct gate_result *gr, size_t n_rows, const char *regs, const char *fails,
                        const char *incs)
{
    if (gr->regressed)
        gr->code = EXIT_REGRESSION;
    else if (gr->failed)
        gr->code = EXIT_HARNESS;
    else if (gr->unstable || gr->incomplete || gr->too_few)
        gr->code = EXIT_INCONCLUSIVE;
    else if (gr->rows == 0 && n_rows > 0)
        gr->code = EXIT_OK; /* nothing gated: every metric switched off */
    else if (n_rows == 0)
        gr->code = EXIT_HARNESS;
    else
        gr->code = EXIT_OK;
    {
        char part[1100];

        if (gr->regressed) {
            snprintf(part, sizeof(part), "regression in %s", regs);
            reason_add(gr->reason, sizeof(gr->reason), NULL, part);
        }
        if (gr->failed) {
            snprintf(part, sizeof(part), "rows with failed runs: %s", fails);
            reason_add(gr->reason, sizeof(gr->reason), NULL, part);
        }
        if (gr->unstable || gr->incomplete || gr->too_few) {
            snprintf(part, sizeof(part), "undecided: %s", incs);
            reason_add(gr->reason, sizeof(gr->reason), NULL, part);
        }
        if (n_rows == 0)
            reason_add(gr->reason, sizeof(gr->reason), NULL, "no configuration was measured");
    }
}

int gate_bounded(const json_t *vs, enum metric m, double threshold_pct)
{
    const json_t *ev = json_object_get(vs, "evidence");
    const json_t *end = json_object_get(ev, metric_higher_is_better(m) ? "lo" : "hi");
    double t = threshold_pct / 100;

    if (strcmp(ju_str(vs, "verdict", ""), VERDICT_UNDECIDED) != 0 || !(t > 0) ||
        strcmp(ju_str(vs, "reason", ""), STATS_REASON_DISTURBED) == 0 || !json_is_number(end))
        return 0;
    return metric_higher_is_better(m) ? json_number_value(end) > -t : json_number_value(end) < t;
}

int gate_decide(const json_t *summary, const struct gate_config *gc, struct gate_result *gr)
{
    char regs[1024] = "", incs[1024] = "", fails[1024] = "";
    json_t *rows = json_object_get(summary, "rows"), *row;
    const char *base = json_string_value(json_array_get(json_object_get(summary, "versions"), 0));
    const char *fault;
    double planned = ju_num(summary, "rounds", 0);
    size_t i;

    memset(gr, 0, sizeof(*gr));
    json_array_foreach(rows, i, row)
    {
        const char *label = ju_str(row, "label", ju_str(row, "config", "?"));
        const char *status = ju_str(row, "status", NULL);
        struct verdict_rules rules;
        unsigned char gated[METRIC_ALL];
        int m, any = 0;

        gate_row_rules(gc, json_object_get(row, "params"), &rules, gated);
        for (m = 0; m < METRIC_ALL; m++)
            any |= gated[m];
        if (!any)
            continue;
        gr->rows++;
        if (status && strcmp(status, "failed") == 0 && gate_candidate_fault(row, base, &fault)) {
            char what[400];

            gr->regressed++;
            snprintf(what, sizeof(what), "the candidate's runs failed: %s", fault);
            reason_add(regs, sizeof(regs), label, what);
            continue;
        }
        if (status && strcmp(status, "failed") == 0) {
            const char *why =
                ju_str(json_array_get(json_object_get(row, "failures"), 0), "reason", NULL);
            char what[300];

            gr->failed++;
            /* the first run's reason: a CI log that shows only the last line still says why */
            if (why)
                snprintf(what, sizeof(what), "(first: %.260s)", why);
            else
                what[0] = '\0';
            reason_add(fails, sizeof(fails), label, what);
            continue;
        }
        if (status && strcmp(status, "incomplete") == 0) {
            gr->incomplete++;
            reason_add(incs, sizeof(incs), label, "incomplete");
        }
        for (m = 0; m < METRIC_ALL; m++) {
            json_t *vs, *cand, *mj;
            const char *ver;

            if (!gated[m])
                continue;
            mj = json_object_get(json_object_get(row, "metrics"), metric_name((enum metric)m));
            vs = json_object_get(mj, "vs_baseline");
            json_object_foreach(vs, ver, cand)
            {
                const char *v = ju_str(cand, "verdict", NULL);
                char what[160], ch[32];

                if (!v)
                    continue;
                gate_fmt_change(ch, sizeof(ch), mj, cand, planned);
                snprintf(what, sizeof(what), "%s %s (%s)", metric_title(m), ch, ver);
                if (gate_bounded(cand, (enum metric)m, rules.threshold_pct[m])) {
                    gr->bounded++; /* no regression past the threshold: what a gate asks */
                } else if (strcmp(v, VERDICT_UNDECIDED) == 0) {
                    const char *why = ju_str(cand, "reason", STATS_REASON_NOISE);

                    if (strcmp(why, STATS_REASON_TOO_FEW) == 0)
                        gr->too_few++;
                    else
                        gr->unstable++;
                    snprintf(what, sizeof(what), "%s %s: undecided, %s (%s)", metric_title(m), ch,
                             why, ver);
                    reason_add(incs, sizeof(incs), label, what);
                } else if (strcmp(v, VERDICT_REGRESSED) == 0) {
                    gr->regressed++;
                    reason_add(regs, sizeof(regs), label, what);
                } else if (strcmp(v, VERDICT_IMPROVED) == 0) {
                    gr->improved++;
                } else if (strcmp(v, VERDICT_FAILED) == 0 && !(status && !strcmp(status, "ok"))) {
                    /* counted through the row status */
                } else if (strcmp(v, VERDICT_FAILED) == 0) {
                    gr->incomplete++;
                    snprintf(what, sizeof(what), "%s has no values (%s)", metric_title(m), ver);
                    reason_add(incs, sizeof(incs), label, what);
                }
            }
        }
    }
    decide_code(gr, json_array_size(rows), regs, fails, incs);
    return gr->code;
}
