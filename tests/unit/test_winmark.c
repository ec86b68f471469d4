/* winmark: PAIRBENCH_WINDOW_FD gets exactly "start NS\n" then "end NS\n" (once each, end
 * only after start; NS the time given to the start mark, the clock at the end, in order); the
 * variable leaves the environment and the descriptor is close-on-exec; a value that is not an
 * open descriptor is refused. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "t.h"
#include "clock.h"
#include "engine/winmark.h"

int main(void)
{
    char err[256], buf[96], num[16];
    unsigned long long t0, t1, before, after;
    int p[2], used = 0;
    ssize_t n;

    CHECK(winmark_init(err, sizeof(err)) == 0); /* absent: nothing to do */
    setenv("PAIRBENCH_WINDOW_FD", "0x5", 1);
    CHECK(winmark_init(err, sizeof(err)) == -1 && strstr(err, "'0x5'") != NULL);
    setenv("PAIRBENCH_WINDOW_FD", "999", 1);
    CHECK(winmark_init(err, sizeof(err)) == -1 && strstr(err, "not an open descriptor") != NULL);

    CHECK(pipe(p) == 0);
    snprintf(num, sizeof(num), "%d", p[1]);
    setenv("PAIRBENCH_WINDOW_FD", num, 1);
    winmark_end(); /* before init and before start: nothing */
    CHECK(winmark_init(err, sizeof(err)) == 0);
    CHECK(getenv("PAIRBENCH_WINDOW_FD") == NULL);
    CHECK((fcntl(p[1], F_GETFD) & FD_CLOEXEC) != 0);
    winmark_end(); /* not started yet: nothing */
    before = clock_now_ns();
    winmark_start(before); /* the window's own start, written late */
    winmark_start(before + 1);
    winmark_end();
    winmark_end();
    after = clock_now_ns();
    close(p[1]);
    n = read(p[0], buf, sizeof(buf) - 1);
    buf[n > 0 ? n : 0] = '\0';
    CHECK_MSG(sscanf(buf, "start %llu\nend %llu\n%n", &t0, &t1, &used) == 2 && used == n, "%s",
              buf);
    CHECK_MSG(before == t0 && t0 <= t1 && t1 <= after, "%llu %llu %llu %llu", before, t0, t1,
              after);
    close(p[0]);
    return T_DONE();
}
