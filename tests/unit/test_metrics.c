/* metrics: the one metric table — keys as in summary.json, aliases, directions, which are
 * gateable, the gate's defaults and the default thresholds the verdict rules take from it. */
#include "analysis/metrics.h"
#include "analysis/stats.h"
#include "t.h"

int main(void)
{
    static const struct {
        const char *name;
        int want;
    } names[] = {
        {"throughput", METRIC_THROUGHPUT},
        {"cpu_percent", METRIC_CPU_PERCENT},
        {"cpu", METRIC_CPU_PERCENT},
        {"cpu_efficiency", METRIC_CPU_EFFICIENCY},
        {"efficiency", METRIC_CPU_EFFICIENCY},
        {"p50_us", METRIC_P50_US},
        {"p50", METRIC_P50_US},
        {"p99_us", METRIC_P99_US},
        {"p99", METRIC_P99_US},
        {"rss_mib", METRIC_RSS_MIB},
        {"rss", METRIC_RSS_MIB},
        {"P99", -1},
        {"", -1},
        {"server_cpu_percent", -1},
    };
    struct verdict_rules r;
    size_t i;
    int m;

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        CHECK_MSG(metric_lookup(names[i].name) == names[i].want, "%s", names[i].name);
    CHECK(metric_lookup(NULL) == -1);
    CHECK_STR(metric_name(METRIC_P99_US), "p99_us");
    CHECK_STR(metric_name(METRIC_ALL), "unknown");
    /* the server's CPU per operation: gateable, lower is better, never gated by default */
    CHECK_STR(metric_name(METRIC_SERVER_CPU_US), "server_cpu_us");
    CHECK(metric_lookup("server_cpu") == METRIC_SERVER_CPU_US);
    CHECK(metric_gateable(METRIC_SERVER_CPU_US) && !metric_higher_is_better(METRIC_SERVER_CPU_US));
    CHECK(!metric_def(METRIC_SERVER_CPU_US)->gate_default);
    CHECK(metric_def_by_key("server_cpu_us") == metric_def(METRIC_SERVER_CPU_US));
    CHECK(metric_higher_is_better(METRIC_THROUGHPUT) &&
          metric_higher_is_better(METRIC_CPU_EFFICIENCY));
    CHECK(!metric_higher_is_better(METRIC_P99_US) && !metric_higher_is_better(METRIC_RSS_MIB));
    CHECK(!metric_gateable(METRIC_CPU_PERCENT) && metric_gateable(METRIC_RSS_MIB));
    CHECK_STR(
        metric_gateable_names(),
        "throughput, cpu_efficiency, p50_us, p99_us, rss_mib, server_cpu_us, instructions, "
        "context_switches, page_faults, cpu_migrations, syscalls, allocations, estimated_cycles, "
        "reopened_per_1k, stall, decay");
    /* the full cost of a request: per operation, lower is better; the timed software events
     * gateable but not gated by default, the counted ones gated when present; each with an
     * absolute floor below which a change is none */
    for (m = METRIC_CONTEXT_SWITCHES; m <= METRIC_ALLOCATIONS; m++) {
        const struct metric_def *d = metric_def((enum metric)m);

        CHECK(metric_gateable((enum metric)m) && !metric_higher_is_better((enum metric)m));
        CHECK(d->floor_abs > 0 && d->threshold_pct > 0 && d->title_zh && d->axis_zh);
        CHECK(d->gate_default == (m == METRIC_SYSCALLS || m == METRIC_ALLOCATIONS));
        CHECK(metric_lookup(d->key) == m && metric_def_by_key(d->key) == d);
    }
    CHECK(metric_lookup("ctxsw") == METRIC_CONTEXT_SWITCHES);
    CHECK(metric_lookup("allocs") == METRIC_ALLOCATIONS);
    CHECK_STR(metric_name(METRIC_SYSCALLS), "syscalls");
    /* the names help and errors show are the outputs' keys; the old names stay aliases */
    for (m = 0; m < METRIC_COUNT; m++)
        CHECK_STR(metric_def((enum metric)m)->arg, metric_name((enum metric)m));
    CHECK(metric_def(METRIC_THROUGHPUT)->gate_default && metric_def(METRIC_P99_US)->gate_default &&
          metric_def(METRIC_CPU_EFFICIENCY)->gate_default &&
          !metric_def(METRIC_P50_US)->gate_default);
    for (m = 0; m < METRIC_COUNT; m++) {
        const struct metric_def *d = metric_def((enum metric)m);

        CHECK(d && d->key && d->arg && d->unit && d->word && d->short_en && d->title_en &&
              d->title_zh);
        CHECK(metric_def_by_key(d->key) == d);
        CHECK(metric_lookup(d->arg) == m);
    }
    CHECK(metric_def_by_key("server_cpu_percent") &&
          !metric_def_by_key("server_cpu_percent")->gateable);
    CHECK(metric_def_by_key("nope") == NULL && metric_def(METRIC_ALL) == NULL);
    verdict_rules_default(&r);
    CHECK(r.threshold_pct[METRIC_THROUGHPUT] == 5 && r.threshold_pct[METRIC_CPU_PERCENT] == 0 &&
          r.threshold_pct[METRIC_CPU_EFFICIENCY] == 5 && r.threshold_pct[METRIC_P50_US] == 5 &&
          r.threshold_pct[METRIC_P99_US] == 10 && r.threshold_pct[METRIC_RSS_MIB] == 10 &&
          r.noise_limit_pct == 20);
    return T_DONE();
}
