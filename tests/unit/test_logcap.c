/* logcap: a log keeps its head and its tail and says how much was dropped between them; a
 * short output is kept whole; a process flooding its output through proc_start leaves a file
 * of bounded size. */
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/logcap.h"
#include "run/proc.h"
#include "t.h"

/* Runs logcap_copy over n bytes of the pattern 'a'+i%26 into a temp file; returns its text. */
static char *cap_through(size_t n, size_t head, size_t tail, unsigned long long *dropped)
{
    char path[] = "/tmp/pairbench-logcap-XXXXXX", *text;
    int pp[2], out = mkstemp(path);
    size_t i, len;
    pid_t w;
    FILE *f;

    if (out < 0 || pipe(pp) < 0)
        return NULL;
    w = fork();
    if (w == 0) {
        char c;
        close(pp[0]);
        for (i = 0; i < n; i++) {
            c = (char)('a' + i % 26);
            if (write(pp[1], &c, 1) != 1)
                _exit(1);
        }
        _exit(0);
    }
    close(pp[1]);
    *dropped = logcap_copy(pp[0], out, head, tail);
    close(pp[0]);
    close(out);
    while (waitpid(w, NULL, 0) < 0)
        ;
    f = fopen(path, "r");
    text = calloc(1, n + 512);
    len = f ? fread(text, 1, n + 511, f) : 0;
    text[len] = '\0';
    if (f)
        fclose(f);
    unlink(path);
    return text;
}

static void test_short_output_whole(void)
{
    unsigned long long dropped = 1;
    char *t = cap_through(40, 32, 16, &dropped);

    CHECK(t && dropped == 0);
    CHECK(t && strlen(t) == 40 && strncmp(t, "abcdefghijklmnopqrstuvwxyzabcdefghijklmn", 40) == 0);
    free(t);
}

static void test_head_marker_tail(void)
{
    unsigned long long dropped = 0;
    char *t = cap_through(1000, 10, 5, &dropped), *mark;

    CHECK(dropped == 985);
    CHECK(t && strncmp(t, "abcdefghij", 10) == 0);
    mark = t ? strstr(t, "985 bytes of output dropped") : NULL;
    CHECK(mark != NULL);
    /* bytes 995..999: 995 % 26 = 7 -> "hijkl" */
    CHECK(t && strlen(t) > 5 && strcmp(t + strlen(t) - 5, "hijkl") == 0);
    free(t);
}

static void test_flooding_process_bounded(void)
{
    char path[] = "/tmp/pairbench-logcap-XXXXXX";
    char *argv[] = {"sh", "-c", "head -c 20000000 /dev/zero | tr '\\0' x; echo LAST-LINE", NULL};
    struct proc_spec ps = {.argv = argv, .stderr_path = path};
    struct proc_result res;
    struct proc p;
    struct stat st;
    char err[256], tail[200];
    int fd = mkstemp(path);

    CHECK(fd >= 0);
    close(fd);
    CHECK(proc_start(&p, &ps, err, sizeof(err)) == 0);
    CHECK(proc_wait(&p, 60.0, 1.0, NULL, &res, err, sizeof(err)) == 0);
    proc_result_release(&res);
    CHECK(p.log_pid == 0);
    CHECK(stat(path, &st) == 0);
    CHECK_MSG(st.st_size <= (off_t)(PROC_LOG_HEAD + PROC_LOG_TAIL + 200), "size %lld",
              (long long)st.st_size);
    proc_file_tail(path, 40, tail, sizeof(tail));
    CHECK_MSG(strstr(tail, "LAST-LINE") != NULL, "tail '%s'", tail);
    unlink(path);
}

int main(void)
{
    test_short_output_whole();
    test_head_marker_tail();
    test_flooding_process_bounded();
    return T_DONE();
}
