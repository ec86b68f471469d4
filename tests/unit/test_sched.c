/* schedule: alternating/rotating order, shards, resume. */
#include <stdlib.h>

#include "run/schedule.h"
#include "t.h"

static int done_first_round(void *ctx, size_t config, size_t version, unsigned round)
{
    (void)ctx;
    (void)version;
    return config == 0 && round == 1;
}

/* version 0 of round 1 complete; version 1 of round 1 only its first step */
static int done_partly(void *ctx, size_t config, size_t version, unsigned round)
{
    (void)ctx;
    return round == 1 && (version == 0 || config == 0);
}

/* A sequence: round by round, the round's versions in rotated order, every configuration of a
 * version in index order as steps 1..n; a version's round done whole is skipped, one done in
 * part runs again whole. */
static void test_sequence(void)
{
    struct sched_run *plan;
    size_t n, total, i;

    n = sched_plan_sequence(3, 2, 2, NULL, NULL, &plan, &total);
    CHECK(n == 12 && total == 12);
    for (i = 0; i < n; i++) {
        CHECK(plan[i].round == (unsigned)(i / 6) + 1);
        CHECK(plan[i].position == (unsigned)(i / 3 % 2) + 1);
        CHECK(plan[i].config == i % 3 && plan[i].step == i % 3 + 1 && plan[i].steps == 3);
    }
    CHECK(plan[0].version == 0 && plan[3].version == 1 && plan[6].version == 1 &&
          plan[9].version == 0);
    free(plan);
    n = sched_plan_sequence(3, 2, 2, done_partly, NULL, &plan, &total);
    CHECK(n == 9 && total == 12);
    CHECK(plan[0].version == 1 && plan[0].round == 1 && plan[0].step == 1);
    CHECK(plan[2].step == 3 && plan[3].round == 2);
    free(plan);
}

static int done_some(void *ctx, size_t config, size_t version, unsigned round)
{
    (void)ctx;
    return config == 1 && version == 1 && round == 2;
}

int main(void)
{
    struct sched_run *plan = NULL;
    size_t n, total, i;
    unsigned k = 0, nn = 0;

    /* two versions: A B, B A, A B, ... */
    CHECK(sched_version_at(2, 1, 1) == 0 && sched_version_at(2, 1, 2) == 1);
    CHECK(sched_version_at(2, 2, 1) == 1 && sched_version_at(2, 2, 2) == 0);
    CHECK(sched_version_at(2, 3, 1) == 0 && sched_version_at(2, 5, 1) == 0);
    /* three versions rotate: A B C, B C A, C A B, A B C */
    CHECK(sched_version_at(3, 1, 1) == 0 && sched_version_at(3, 1, 3) == 2);
    CHECK(sched_version_at(3, 2, 1) == 1 && sched_version_at(3, 2, 2) == 2 &&
          sched_version_at(3, 2, 3) == 0);
    CHECK(sched_version_at(3, 3, 1) == 2 && sched_version_at(3, 4, 1) == 0);
    CHECK(sched_version_at(1, 7, 1) == 0);

    /* the full plan: configs in order, rounds, positions */
    n = sched_plan(2, 2, 3, 0, 0, NULL, NULL, &plan, &total);
    CHECK(n == 12 && total == 12);
    {
        static const size_t want_v[] = {0, 1, 1, 0, 0, 1};
        for (i = 0; i < 6; i++) {
            CHECK(plan[i].config == 0 && plan[6 + i].config == 1);
            CHECK(plan[i].version == want_v[i] && plan[6 + i].version == want_v[i]);
            CHECK(plan[i].round == (unsigned)(i / 2 + 1));
            CHECK(plan[i].position == (unsigned)(i % 2 + 1));
        }
    }
    free(plan);

    /* resume: skipped runs keep the others' positions */
    n = sched_plan(2, 2, 3, 0, 0, done_first_round, NULL, &plan, &total);
    CHECK(n == 10 && total == 12);
    CHECK(plan[0].config == 0 && plan[0].round == 2 && plan[0].version == 1 &&
          plan[0].position == 1);
    free(plan);
    n = sched_plan(2, 2, 3, 0, 0, done_some, NULL, &plan, &total);
    CHECK(n == 11);
    for (i = 0; i < n; i++)
        CHECK(!(plan[i].config == 1 && plan[i].version == 1 && plan[i].round == 2));
    free(plan);

    /* shards: index mod N == K-1; shards partition the configurations */
    CHECK(sched_in_shard(0, 1, 2) && !sched_in_shard(1, 1, 2) && sched_in_shard(1, 2, 2));
    CHECK(sched_in_shard(5, 3, 3) && !sched_in_shard(5, 1, 3) && sched_in_shard(5, 0, 0));
    {
        size_t seen[7] = {0}, s;
        for (s = 1; s <= 3; s++) {
            n = sched_plan(7, 2, 1, (unsigned)s, 3, NULL, NULL, &plan, &total);
            CHECK(total == n);
            for (i = 0; i < n; i++) {
                CHECK(plan[i].config % 3 == s - 1);
                seen[plan[i].config]++;
            }
            free(plan);
        }
        for (i = 0; i < 7; i++)
            CHECK(seen[i] == 2);
    }
    CHECK(sched_parse_shard("2/3", &k, &nn) == 0 && k == 2 && nn == 3);
    CHECK(sched_parse_shard("1/1", &k, &nn) == 0);
    CHECK(sched_parse_shard("3/2", &k, &nn) == -1);
    CHECK(sched_parse_shard("0/2", &k, &nn) == -1);
    CHECK(sched_parse_shard("1/0", &k, &nn) == -1);
    CHECK(sched_parse_shard("1-2", &k, &nn) == -1);
    CHECK(sched_parse_shard("/2", &k, &nn) == -1);
    CHECK(sched_parse_shard("a/b", &k, &nn) == -1);
    test_sequence();
    return T_DONE();
}
