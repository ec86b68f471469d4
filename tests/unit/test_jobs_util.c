/* jobs_util: the JSON getters (integer vs real, absent keys, wrong types, a NULL or non-object
 * holder) and the file helpers (whole-file read, size limit, JSON load with the file named,
 * mkdir -p over an existing path). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "t.h"
#include "util/jobs_util.h"

static void test_getters(void)
{
    json_t *o = json_loads("{\"i\": 3, \"r\": 2.5, \"r3\": 3.0, \"s\": \"x\", \"t\": true, "
                           "\"n\": null, \"a\": [1]}",
                           0, NULL);
    json_t *arr = json_array();
    double d = -7;

    CHECK(o != NULL);
    /* ju_num: integer or real, anything else the default */
    CHECK(ju_num(o, "i", -1) == 3);
    CHECK(ju_num(o, "r", -1) == 2.5);
    CHECK(ju_num(o, "s", -1) == -1);
    CHECK(ju_num(o, "t", -1) == -1);
    CHECK(ju_num(o, "n", -1) == -1);
    CHECK(ju_num(o, "missing", -1) == -1);
    CHECK(isnan(ju_num(o, "missing", NAN)));
    CHECK(ju_num(NULL, "i", 4) == 4);
    CHECK(ju_num(arr, "i", 4) == 4);
    /* ju_int: integers only */
    CHECK(ju_int(o, "i", -1) == 3);
    CHECK(ju_int(o, "r3", -1) == -1);
    CHECK(ju_int(o, "s", -1) == -1);
    CHECK(ju_int(NULL, "i", 9) == 9);
    /* ju_str: strings only */
    CHECK_STR(ju_str(o, "s", "d"), "x");
    CHECK_STR(ju_str(o, "i", "d"), "d");
    CHECK(ju_str(o, "missing", NULL) == NULL);
    CHECK_STR(ju_str(NULL, "s", "d"), "d");
    /* ju_get_num: 0 and the value, or -1 with *out untouched */
    CHECK(ju_get_num(o, "r", &d) == 0 && d == 2.5);
    CHECK(ju_get_num(o, "i", &d) == 0 && d == 3);
    d = -7;
    CHECK(ju_get_num(o, "s", &d) == -1 && d == -7);
    CHECK(ju_get_num(o, "missing", &d) == -1 && d == -7);
    CHECK(ju_get_num(NULL, "r", &d) == -1 && d == -7);
    json_decref(arr);
    json_decref(o);
}

static void test_files(void)
{
    static const char *const made[] = {"x/y/z", "x/y", "x"};
    char dir[] = "/tmp/test_jobs_util.XXXXXX", path[256], deep[256], err[512] = "";
    size_t len = 0, i;
    char *text;
    json_t *j;
    FILE *f;
    struct stat st;

    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof(path), "%s/a.json", dir);
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("{\"k\": 1}\n", f);
    fclose(f);
    text = ju_read_file(path, 1024, &len, err, sizeof(err));
    CHECK_MSG(text && len == 9 && strcmp(text, "{\"k\": 1}\n") == 0, "%s", err);
    free(text);
    CHECK(ju_read_file(path, 4, NULL, err, sizeof(err)) == NULL);
    CHECK_MSG(strstr(err, path) != NULL, "the error names the file: %s", err);
    j = ju_load_json(path, err, sizeof(err));
    CHECK_MSG(j && ju_int(j, "k", 0) == 1, "%s", err);
    json_decref(j);
    f = fopen(path, "w");
    if (f) {
        fputs("{\"k\": 1, \"k\": 2}", f);
        fclose(f);
    }
    CHECK(ju_load_json(path, err, sizeof(err)) == NULL);
    CHECK_MSG(strstr(err, path) != NULL, "the error names the file: %s", err);
    snprintf(deep, sizeof(deep), "%s/x/y/z", dir);
    CHECK_MSG(ju_mkdir_p(deep, err, sizeof(err)) == 0, "%s", err);
    CHECK(stat(deep, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_MSG(ju_mkdir_p(deep, err, sizeof(err)) == 0, "again: %s", err);
    CHECK(ju_mkdir_p(path, err, sizeof(err)) == -1); /* a file is in the way */
    for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
        snprintf(deep, sizeof(deep), "%s/%s", dir, made[i]);
        rmdir(deep);
    }
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    test_getters();
    test_files();
    return T_DONE();
}
