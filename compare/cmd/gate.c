/* compare gate: `run` with the gate's thresholds (so the report's verdicts and the exit code
 * agree), or --from DIR to judge a run directory that exists (a merged sharded run); then
 * the decision (gate.c), gate.md in the run directory, the Markdown on stdout, a one-line
 * reason on stderr for every non-zero exit, and the optional pull-request comment (post.c)
 * whose failure never changes the exit code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "atomic.h"
#include "clock.h"
#include "cmds.h"
#include "dataset.h"
#include "gate.h"
#include "jobs_util.h"
#include "num.h"
#include "post.h"
#include "render.h"
#include "run.h"
#include "summary.h"

#define GATE_MAX_THRESHOLD_FLAGS 32
#define GATE_COMMENT_MAX 60000 /* GitHub refuses comment bodies over 65536 characters */

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: compare gate --spec FILE [run flags] [--threshold METRIC=PERCENT]...\n"
        "                    [--noise-limit PERCENT] [--floors CALIBRATION.json]\n"
        "                    [--budget DURATION] [--disturbed-limit CORES]\n"
        "                    [--post URL --post-token-env VAR]\n"
        "       compare gate --from RUNDIR [--spec FILE] [--threshold ...] [--post ...]\n"
        "  --threshold     gate METRIC (throughput, cpu_efficiency, p50, p99, rss, server_cpu)\n"
        "                  at PERCENT;\n"
        "                  naming any gates exactly the named ones (default: throughput 5,\n"
        "                  cpu_efficiency 5, p99 10); the spec's \"gate\" section is read first\n"
        "  --budget D      spend at most D (5m, 90s, 1h; spec gate.budget): after the planned\n"
        "                  rounds, undecided rows get alternating rounds while time is left;\n"
        "                  stops early when every row is decided\n"
        "  --disturbed-limit CORES  a run during which other processes used more CPU than\n"
        "                  this (default 0.5 cores; or steal above 5%%) is disturbed: its round\n"
        "                  is run again (at most 2 rounds per row)\n"
        "  --from RUNDIR   judge an existing run directory (e.g. `compare merge` output)\n"
        "  --floors FILE   per-row floors from `compare calibrate` (calibration.json): a row's\n"
        "                  threshold is raised to what its A/A noise lets the runs detect\n"
        "  --post URL      create or update the pull-request comment (GitHub issue-comment\n"
        "                  API: .../repos/OWNER/REPO/issues/N/comments); the bearer token is\n"
        "                  read from the environment variable named by --post-token-env\n"
        "exit: 0 pass, 1 regression, 2 bad input, 3 harness failure, 4 inconclusive\n");
}

/* Replaces the rows that a per-row rule matches with rows computed under that rule. */
static int apply_row_rules(const char *dir, json_t *summary, const struct gate_config *gc,
                           char *err, size_t errlen)
{
    char path[4200];
    json_t *runs = NULL, *meta = NULL, *row;
    size_t r, i;
    int rc = -1;

    if (gc->n_rows == 0)
        return 0;
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    if (dataset_read(path, &runs, NULL, err, errlen) < 0)
        goto out;
    snprintf(path, sizeof(path), "%s/meta.json", dir);
    meta = ju_load_json(path, err, errlen);
    if (!meta)
        goto out;
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
                    goto out;
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
    rc = 0;
out:
    json_decref(runs);
    json_decref(meta);
    return rc;
}

int cmd_gate(int argc, char **argv)
{
    struct run_request rq;
    struct run_outcome o;
    struct gate_config gc;
    struct gate_result gr;
    const char *thresholds[GATE_MAX_THRESHOLD_FLAGS];
    const char *post_url = NULL, *token_env = NULL, *token = NULL, *from = NULL, *floors = NULL;
    char err[4096] = "", path[4200];
    char *md = NULL, *report = NULL;
    json_t *spec = NULL, *summary = NULL;
    const json_t *gate_section = NULL;
    const char *spec_name = NULL;
    size_t n_thresholds = 0, k;
    double noise = -1, budget = 0, disturbed = 0;
    int i = 1, rc = EXIT_USAGE, run_rc = EXIT_OK, interrupted = 0;
    uint64_t t_start = clock_now_ns();

    memset(&o, 0, sizeof(o));
    gate_config_init(&gc);
    run_request_init(&rq);
    rq.argc = argc;
    rq.argv = argv;
    while (i < argc) {
        const char *a = argv[i];
        int r;

        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            rc = EXIT_OK;
            goto out;
        }
        if (strcmp(a, "--threshold") == 0 || strcmp(a, "--post") == 0 ||
            strcmp(a, "--post-token-env") == 0 || strcmp(a, "--from") == 0 ||
            strcmp(a, "--noise-limit") == 0 || strcmp(a, "--floors") == 0 ||
            strcmp(a, "--budget") == 0 || strcmp(a, "--disturbed-limit") == 0) {
            const char *v;

            if (i + 1 >= argc) {
                fprintf(stderr, "compare: gate: %s: missing value\n", a);
                goto out;
            }
            v = argv[i + 1];
            i += 2;
            if (strcmp(a, "--threshold") == 0) {
                if (n_thresholds == GATE_MAX_THRESHOLD_FLAGS) {
                    fprintf(stderr, "compare: gate: more than %d --threshold flags\n",
                            GATE_MAX_THRESHOLD_FLAGS);
                    goto out;
                }
                thresholds[n_thresholds++] = v;
            } else if (strcmp(a, "--post") == 0) {
                if (strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0) {
                    fprintf(stderr,
                            "compare: gate: --post '%s': expected an http:// or https:// "
                            "URL of an issue's comments\n",
                            v);
                    goto out;
                }
                post_url = v;
            } else if (strcmp(a, "--post-token-env") == 0) {
                token_env = v;
            } else if (strcmp(a, "--from") == 0) {
                from = v;
            } else if (strcmp(a, "--floors") == 0) {
                floors = v;
            } else if (strcmp(a, "--budget") == 0) {
                if (gate_parse_duration(v, &budget) < 0) {
                    fprintf(stderr,
                            "compare: gate: --budget '%s': expected a duration like 5m, 90s "
                            "or 1h (at most 24h)\n",
                            v);
                    goto out;
                }
            } else if (strcmp(a, "--disturbed-limit") == 0) {
                if (num_parse_double(v, 0.01, 1024, &disturbed) < 0) {
                    fprintf(stderr,
                            "compare: gate: --disturbed-limit '%s': expected the CPU cores "
                            "other processes may use during a run, from 0.01 to 1024\n",
                            v);
                    goto out;
                }
            } else if (num_parse_double(v, 0.1, 1000, &noise) < 0) {
                fprintf(stderr,
                        "compare: gate: --noise-limit '%s': expected a percent in "
                        "[0.1, 1000]\n",
                        v);
                goto out;
            }
            continue;
        }
        r = run_flag_parse(&rq, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "compare: gate: %s\n", err);
            goto out;
        }
        if (r == 0) {
            fprintf(stderr, "compare: gate: unknown option '%s' (see compare gate --help)\n", a);
            goto out;
        }
    }
    if (!rq.spec_path && !from) {
        fprintf(stderr, "compare: gate: --spec FILE (or --from RUNDIR) is required\n");
        usage(stderr);
        goto out;
    }
    if (post_url && !token_env) {
        fprintf(stderr, "compare: gate: --post needs --post-token-env VAR (the token is read "
                        "from that environment variable, never from the command line)\n");
        goto out;
    }
    if (token_env) {
        token = getenv(token_env);
        if (!token || !*token) {
            fprintf(stderr,
                    "compare: gate: --post-token-env '%s': the environment variable is "
                    "not set or empty\n",
                    token_env);
            goto out;
        }
    }
    /* thresholds: the spec's gate section first, then the flags */
    if (rq.spec_path) {
        spec = ju_load_json(rq.spec_path, err, sizeof(err));
        if (!spec) {
            fprintf(stderr, "compare: gate: %s\n", err);
            goto out;
        }
        gate_section = json_object_get(spec, "gate");
        spec_name = rq.spec_path;
    } else {
        snprintf(path, sizeof(path), "%s/meta.json", from);
        spec = ju_load_json(path, err, sizeof(err));
        if (!spec) {
            fprintf(stderr, "compare: gate: --from '%s': %s\n", from, err);
            goto out;
        }
        gate_section = json_object_get(json_object_get(spec, "spec"), "gate");
        spec_name = "meta.json spec";
    }
    if (gate_parse_spec(&gc, gate_section, spec_name, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare: %s\n", err);
        goto out;
    }
    for (k = 0; k < n_thresholds; k++)
        if (gate_parse_threshold(&gc, thresholds[k], err, sizeof(err)) < 0) {
            fprintf(stderr, "compare: %s\n", err);
            goto out;
        }
    if (noise > 0)
        gc.rules.noise_limit_pct = noise;
    if (budget > 0)
        gc.budget_s = budget;
    if (disturbed > 0)
        gc.limits.other_cpu_cores = disturbed;
    rq.limits = &gc.limits;
    rq.repeat_disturbed = 1;
    if (gc.budget_s > 0)
        rq.deadline_ns = t_start + (uint64_t)(gc.budget_s * 1e9);
    if (floors) {
        json_t *cal = ju_load_json(floors, err, sizeof(err));
        int frc = cal ? gate_apply_floors(&gc, cal, floors, err, sizeof(err)) : -1;

        json_decref(cal);
        if (frc < 0) {
            fprintf(stderr, "compare: gate: --floors: %s\n", err);
            goto out;
        }
    }
    rq.rules = &gc.rules;

    if (from) {
        struct render_opts ro = {NULL, &gc.rules};

        snprintf(o.dir, sizeof(o.dir), "%s", from);
        if (render_dir(from, &ro, &summary, err, sizeof(err)) < 0) {
            fprintf(stderr, "compare: gate: --from '%s': %s\n", from, err);
            goto out;
        }
    } else {
        run_rc = run_execute(&rq, &o, err, sizeof(err));
        if (run_rc == EXIT_USAGE) {
            fprintf(stderr, "compare: gate: %s\n", err);
            goto out;
        }
        summary = o.summary;
        o.summary = NULL;
        interrupted = o.interrupted;
        if (!summary) {
            fprintf(stderr, "compare: gate: exit 3: nothing to judge: %s\n",
                    *err ? err : "the run wrote no summary");
            rc = EXIT_HARNESS;
            goto out;
        }
    }
    if (apply_row_rules(o.dir, summary, &gc, err, sizeof(err)) < 0) {
        fprintf(stderr, "compare: gate: per-row thresholds: %s\n", err);
        rc = EXIT_HARNESS;
        goto out;
    }
    rc = gate_decide(summary, &gc, &gr);
    if (rc == EXIT_OK && (run_rc == EXIT_HARNESS || interrupted)) {
        rc = gr.code = EXIT_HARNESS;
        snprintf(gr.reason, sizeof(gr.reason), "%s",
                 interrupted ? "the run was interrupted"
                             : "runs failed in rows that are not gated");
    }
    md = gate_markdown(summary, &gc, &gr, NULL, o.dir, (size_t)-1);
    if (md) {
        snprintf(path, sizeof(path), "%s/gate.md", o.dir);
        if (atomic_write(path, md, strlen(md), err, sizeof(err)) < 0)
            fprintf(stderr, "compare: gate: warning: %s\n", err);
        fputs(md, stdout);
        fflush(stdout);
        free(md);
        md = NULL;
    }
    if (rc != EXIT_OK)
        fprintf(stderr, "compare: gate: exit %d: %s\n", rc, gr.reason);
    else
        fprintf(stderr, "compare: gate: pass (%u rows gated)\n", gr.rows);
    if (post_url) {
        const char *action = NULL;

        snprintf(path, sizeof(path), "%s/report.md", o.dir);
        report = ju_read_file(path, 16u << 20, NULL, err, sizeof(err));
        md = gate_markdown(summary, &gc, &gr, report, o.dir, GATE_COMMENT_MAX);
        if (!md)
            fprintf(stderr, "compare: gate: warning: could not format the comment\n");
        else if (post_comment(post_url, token, md, GATE_MARKER, &action, err, sizeof(err)) < 0)
            fprintf(stderr, "compare: gate: warning: comment not posted (the verdict stands): %s\n",
                    err);
        else
            fprintf(stderr, "compare: gate: comment %s\n", action);
    }
out:
    free(md);
    free(report);
    json_decref(summary);
    json_decref(spec);
    run_outcome_release(&o);
    gate_config_release(&gc);
    return rc;
}
