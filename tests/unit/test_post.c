/* post_redact: a receiver's error body is printed with the token replaced and cut on a UTF-8
 * character boundary. */
#include <stdlib.h>

#include "util/post.h"
#include "t.h"

int main(void)
{
    char out[256], body[512];
    size_t max;

    post_redact("{\"authorization\":\"Bearer ghp_s3cr3t\",\"again\":\"ghp_s3cr3t\"}", "ghp_s3cr3t",
                200, out, sizeof(out));
    CHECK_STR(out, "{\"authorization\":\"Bearer ***\",\"again\":\"***\"}");
    post_redact("no token here", "ghp_s3cr3t", 200, out, sizeof(out));
    CHECK_STR(out, "no token here");
    post_redact("abc", NULL, 200, out, sizeof(out));
    CHECK_STR(out, "abc");
    /* a long body is cut with "...", within the bound, at a character boundary, whatever the
     * alignment of the multi-byte characters */
    for (max = 20; max < 30; max++) {
        snprintf(body, sizeof(body), "%s", "错误：令牌无效，请检查错误：令牌无效，请检查");
        post_redact(body, "tok", max, out, sizeof(out));
        CHECK_MSG(strlen(out) <= max && valid_utf8(out), "max %zu: '%s'", max, out);
        CHECK(strlen(out) >= 3 && strcmp(out + strlen(out) - 3, "...") == 0);
    }
    /* the token is never split by the cut: either all of it is redacted or none shows */
    post_redact("xxxxxxxxxxxxxxxx ghp_s3cr3t", "ghp_s3cr3t", 22, out, sizeof(out));
    CHECK_MSG(strstr(out, "ghp_") == NULL, "'%s'", out);
    /* the bound never exceeds the output buffer */
    memset(body, 'a', sizeof(body) - 1);
    body[sizeof(body) - 1] = '\0';
    post_redact(body, "tok", 10000, out, 16);
    CHECK(strlen(out) == 15);
    return T_DONE();
}
