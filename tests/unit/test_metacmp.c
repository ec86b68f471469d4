/* metacmp: two meta.json documents are one measurement when spec, versions (name, ref, commit,
 * server, env), grids (name, SHA-256) and settings (but shard and pinning) agree; the first
 * difference is named with both values. */
#include <stdlib.h>

#include "run/metacmp.h"
#include "t.h"

static const char *base =
    "{\"spec\": {\"runs\": 5}, \"versions\": [{\"name\": \"a\", \"driver\": \"/x/driver\","
    " \"server\": {\"tcp\": \"s {port}\"}}], \"grids\": [{\"file\": \"g.json\", \"name\": \"g\","
    " \"sha256\": \"aa\"}], \"settings\": {\"runs\": 5, \"warmup\": 1, \"duration\": 2,"
    " \"shard\": \"1/2\", \"pin_driver\": null}}";

static int diff_after(const char *key, const char *sub, const char *value, char *what, size_t len)
{
    json_t *a = json_loads(base, 0, NULL), *b = json_loads(base, 0, NULL), *o;
    int rc;

    o = sub ? json_object_get(json_object_get(b, key), sub) : json_object_get(b, key);
    if (json_is_array(o))
        o = json_array_get(o, 0);
    {
        json_t *v = json_loads(value, 0, NULL);
        json_object_update(o, v);
        json_decref(v);
    }
    rc = metacmp_diff(a, b, what, len);
    json_decref(a);
    json_decref(b);
    return rc;
}

int main(void)
{
    char what[512];
    json_t *a = json_loads(base, 0, NULL);

    CHECK(metacmp_diff(a, a, what, sizeof(what)) == 0 && what[0] == '\0');
    json_decref(a);
    CHECK(diff_after("settings", NULL, "{\"duration\": 0.5}", what, sizeof(what)) == 1);
    CHECK_STR(what, "settings (duration: 2 then 0.5)");
    CHECK(diff_after("settings", NULL, "{\"shard\": \"2/2\", \"pin_driver\": \"0\"}", what,
                     sizeof(what)) == 0);
    CHECK(diff_after("spec", NULL, "{\"runs\": 3}", what, sizeof(what)) == 1);
    CHECK_STR(what, "spec (runs: 5 then 3)");
    CHECK(diff_after("versions", NULL, "{\"driver\": \"/elsewhere/driver\"}", what, sizeof(what)) ==
          0);
    CHECK(diff_after("versions", NULL, "{\"server\": {\"tcp\": \"t {port}\"}}", what,
                     sizeof(what)) == 1);
    CHECK_STR(what, "versions ([0] server: {\"tcp\":\"s {port}\"} then {\"tcp\":\"t {port}\"})");
    CHECK(diff_after("grids", NULL, "{\"sha256\": \"bb\"}", what, sizeof(what)) == 1);
    CHECK_STR(what, "grids ([0] sha256: \"aa\" then \"bb\")");
    /* a long multi-byte value is cut on a character boundary */
    CHECK(diff_after("spec", NULL, "{\"runs\": \"ééééééééééééééééééééééééééééééé\"}", what,
                     sizeof(what)) == 1);
    CHECK_MSG(strstr(what, "then \"ééééééééééééééééééé...)") != NULL, "%s", what);
    return T_DONE();
}
