/* dataset: append + read back, a truncated last line skipped on reading and cut off before
 * the next append, a bad line in the middle refused with its line number; the one rule for a
 * cut last line, the same in the parser, the file reader, the check (data/verify.c) and the
 * merge's split: left out and reported (on stderr when the caller takes no count). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/dataset.h"
#include "data/verify.h"
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

/* What dataset_parse() with no cut_line wrote to stderr (malloc'd, NUL-terminated). */
static char *parse_stderr(const char *dir, const char *text, size_t *n_runs)
{
    char path[128], err[256] = "", *out;
    int saved = dup(2), fd;
    json_t *runs;
    FILE *f;

    snprintf(path, sizeof(path), "%s/stderr", dir);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0 && saved >= 0);
    fflush(stderr);
    dup2(fd, 2);
    runs = dataset_parse(text, strlen(text), "d/runs.jsonl", NULL, err, sizeof(err));
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    *n_runs = json_array_size(runs);
    json_decref(runs);
    f = fopen(path, "r");
    out = calloc(1, 1024);
    if (f && out)
        out[fread(out, 1, 1023, f)] = 0;
    if (f)
        fclose(f);
    unlink(path);
    return out;
}

/* One rule for a cut last line, through every reader: a last line without its newline is left
 * out and its number reported, whether or not it parses; a bad line before it is an error
 * naming the file and the line; blank lines are not runs. */
static void test_one_rule(const char *dir)
{
    /* the last line is a whole JSON object, but its newline was never written */
    const char *whole_cut = "{\"version\":\"a\",\"config\":\"x\",\"round\":1}\n\n \t\n"
                            "{\"version\":\"b\",\"config\":\"x\",\"round\":1}\n"
                            "{\"version\":\"c\",\"config\":\"x\",\"round\":1}";
    const char *torn = "{\"version\":\"a\"}\n{\"version\":\"b\",\"res";
    const char *middle = "{\"version\":\"a\"}\n{\"version\":\n{\"version\":\"b\"}\n";
    json_t *meta, *runs;
    char err[256] = "", path[128], *said;
    unsigned cut = 9;
    size_t n = 0;
    struct verify_result vr;

    runs = dataset_parse(whole_cut, strlen(whole_cut), "runs.jsonl", &cut, err, sizeof(err));
    CHECK(runs && json_array_size(runs) == 2 && cut == 5);
    json_decref(runs);
    runs = dataset_parse(torn, strlen(torn), "runs.jsonl", &cut, err, sizeof(err));
    CHECK(runs && json_array_size(runs) == 1 && cut == 2);
    json_decref(runs);
    CHECK(dataset_cut_line(whole_cut, strlen(whole_cut)) == 5);
    CHECK(dataset_whole_len(whole_cut, strlen(whole_cut)) == strlen(whole_cut) - 38);
    CHECK(dataset_cut_line(middle, strlen(middle)) == 0);
    CHECK(dataset_whole_len(middle, strlen(middle)) == strlen(middle));

    /* a cut line in the middle is an error naming the file and the line */
    runs = dataset_parse(middle, strlen(middle), "d/runs.jsonl", &cut, err, sizeof(err));
    CHECK(runs == NULL);
    CHECK_MSG(strncmp(err, "d/runs.jsonl: line 2: not a JSON object", 39) == 0, "%s", err);
    runs = dataset_parse("[1]\n", 4, "x", &cut, err, sizeof(err));
    CHECK(runs == NULL);
    CHECK_STR(err, "x: line 1: not a JSON object (other JSON value)");

    /* never silently: with no count taken, the reader says it on stderr */
    said = parse_stderr(dir, whole_cut, &n);
    CHECK(n == 2);
    CHECK_MSG(said && strstr(said, "warning: 'd/runs.jsonl': line 5 has no newline at its end") &&
                  strstr(said, "it was left out"),
              "%s", said ? said : "");
    free(said);

    /* the file reader: the same */
    snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
    write_file(path, whole_cut);
    CHECK(dataset_read(path, &runs, &cut, err, sizeof(err)) == 0);
    CHECK(json_array_size(runs) == 2 && cut == 5);
    json_decref(runs);
    unlink(path);

    /* the check: the same line, left to the readers when nothing was recorded; a
     * modification when meta.json recorded the file */
    meta = json_pack("{s:[{s:s},{s:s},{s:s}]}", "versions", "name", "a", "name", "b", "name", "c");
    CHECK(verify_dataset(whole_cut, strlen(whole_cut), meta, "runs.jsonl", &vr) == 0);
    CHECK(vr.torn_tail == 5 && !vr.modified && vr.unverified);
    json_object_set_new(meta, "dataset", json_pack("{s:s}", "sha256", vr.sha));
    CHECK(verify_dataset(whole_cut, strlen(whole_cut), meta, "runs.jsonl", &vr) == 0);
    CHECK(vr.modified && vr.line == 5 && !vr.torn_tail);
    CHECK_MSG(strstr(vr.problem, "runs.jsonl:5: truncated") != NULL, "%s", vr.problem);
    json_decref(meta);
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
    CHECK(json_array_size(runs) == 2 && truncated == 3);
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
    test_one_rule(dir);
    rmdir(dir);
    return T_DONE();
}
