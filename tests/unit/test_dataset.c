/* dataset: append + read back, a truncated last line skipped on reading and cut off before
 * the next append, a bad line in the middle refused with its line number. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "run/dataset.h"
#include "t.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static size_t file_size(const char *path)
{
    FILE *f = fopen(path, "r");
    long n;

    if (!f)
        return 0;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fclose(f);
    return (size_t)n;
}

int main(void)
{
    char dir[] = "/tmp/pairbench-test-dataset-XXXXXX", path[128], err[512] = "";
    json_t *runs = NULL, *line;
    unsigned truncated = 9;
    int fd;

    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);

    /* a missing file reads as empty */
    CHECK(dataset_read(path, &runs, &truncated, err, sizeof(err)) == 0);
    CHECK(runs && json_array_size(runs) == 0 && truncated == 0);
    json_decref(runs);

    /* append two lines, read them back in order */
    fd = dataset_open(path, err, sizeof(err));
    CHECK_MSG(fd >= 0, "%s", err);
    line = json_pack("{s:s,s:i}", "version", "a", "round", 1);
    CHECK(dataset_append(fd, line, err, sizeof(err)) == 0);
    json_decref(line);
    line = json_pack("{s:s,s:i}", "version", "b", "round", 1);
    CHECK(dataset_append(fd, line, err, sizeof(err)) == 0);
    json_decref(line);
    close(fd);
    CHECK(dataset_read(path, &runs, &truncated, err, sizeof(err)) == 0);
    CHECK(json_array_size(runs) == 2 && truncated == 0);
    CHECK_STR(json_string_value(json_object_get(json_array_get(runs, 1), "version")), "b");
    json_decref(runs);

    /* a crash mid-write: the partial line is skipped, then cut before the next append */
    write_file(path, "{\"version\":\"a\"}\n{\"version\":\"b\"}\n{\"version\":\"c\",\"res");
    CHECK(dataset_read(path, &runs, &truncated, err, sizeof(err)) == 0);
    CHECK(json_array_size(runs) == 2 && truncated == 1);
    json_decref(runs);
    fd = dataset_open(path, err, sizeof(err));
    CHECK(fd >= 0);
    CHECK(file_size(path) == 32);
    line = json_pack("{s:s}", "version", "d");
    CHECK(dataset_append(fd, line, err, sizeof(err)) == 0);
    json_decref(line);
    close(fd);
    CHECK(dataset_read(path, &runs, &truncated, err, sizeof(err)) == 0);
    CHECK(json_array_size(runs) == 3 && truncated == 0);
    CHECK_STR(json_string_value(json_object_get(json_array_get(runs, 2), "version")), "d");
    json_decref(runs);

    /* a bad line that is not the last one is an error naming it */
    write_file(path, "{\"version\":\"a\"}\nnot json\n{\"version\":\"b\"}\n");
    CHECK(dataset_read(path, &runs, &truncated, err, sizeof(err)) == -1);
    {
        char want[256];
        snprintf(want, sizeof(want),
                 "%s: line 2: not a JSON object ('[' or '{' expected near "
                 "'not')",
                 path);
        CHECK_STR(err, want);
    }
    CHECK(runs == NULL);

    unlink(path);
    rmdir(dir);
    return T_DONE();
}
