/* RFC 6455 framing: the RFC's own examples (section 5.7 and the handshake example of 1.3),
 * 7/16/64-bit lengths round-tripped, partial headers, refusals, masking in pieces, and the
 * message sequence rules. */
#include <stdlib.h>

#include "t.h"
#include "ws_frame.h"

static void test_rfc_examples(void)
{
    static const uint8_t hello_unmasked[] = {0x81, 0x05, 'H', 'e', 'l', 'l', 'o'};
    static const uint8_t hello_masked[] = {0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f,
                                           0x9f, 0x4d, 0x51, 0x58};
    static const uint8_t mask[4] = {0x37, 0xfa, 0x21, 0x3d};
    uint8_t out[64];
    struct ws_frame f;

    CHECK(ws_frame_encode(out, sizeof(out), 1, WS_OP_TEXT, NULL, "Hello", 5) == 7);
    CHECK(memcmp(out, hello_unmasked, 7) == 0);
    CHECK(ws_frame_encode(out, sizeof(out), 1, WS_OP_TEXT, mask, "Hello", 5) == 11);
    CHECK(memcmp(out, hello_masked, 11) == 0);

    CHECK(ws_frame_parse(hello_masked, sizeof(hello_masked), 1 << 20, &f) == 6);
    CHECK(f.fin == 1 && f.opcode == WS_OP_TEXT && f.masked == 1 && f.len == 5);
    CHECK(memcmp(f.mask, mask, 4) == 0);
    memcpy(out, hello_masked + 6, 5);
    ws_mask(out, 5, f.mask, 0);
    CHECK(memcmp(out, "Hello", 5) == 0);

    /* fragmented: "Hel" then "lo" */
    static const uint8_t frag1[] = {0x01, 0x03, 'H', 'e', 'l'};
    static const uint8_t frag2[] = {0x80, 0x02, 'l', 'o'};
    CHECK(ws_frame_parse(frag1, sizeof(frag1), 100, &f) == 2 && !f.fin && f.opcode == 1);
    CHECK(ws_frame_parse(frag2, sizeof(frag2), 100, &f) == 2 && f.fin && f.opcode == 0);

    /* 256 bytes and 64 KiB binary headers */
    uint8_t h[WS_MAX_HEADER];
    static const uint8_t h256[] = {0x82, 0x7e, 0x01, 0x00};
    static const uint8_t h64k[] = {0x82, 0x7f, 0, 0, 0, 0, 0, 1, 0, 0};
    CHECK(ws_frame_header(h, 1, WS_OP_BINARY, 256, NULL) == 4 && memcmp(h, h256, 4) == 0);
    CHECK(ws_frame_header(h, 1, WS_OP_BINARY, 65536, NULL) == 10 && memcmp(h, h64k, 10) == 0);

    char acc[WS_ACCEPT_LEN + 1];
    const char *key = "dGhlIHNhbXBsZSBub25jZQ==";
    CHECK(ws_accept_for(key, strlen(key), acc) == 0);
    CHECK_STR(acc, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    CHECK(ws_accept_for(key, 0, acc) == -1);

    static const uint8_t raw[16] = "the sample nonce";
    char k[WS_KEY_LEN + 1];
    ws_key_encode(raw, k);
    CHECK_STR(k, key);
}

static void test_lengths(void)
{
    static const uint64_t lens[] = {0, 1, 125, 126, 127, 65535, 65536, 70000, 1u << 24};
    static const uint8_t mask[4] = {1, 2, 3, 4};
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        for (int m = 0; m < 2; m++) {
            uint8_t h[WS_MAX_HEADER];
            size_t hl = ws_frame_header(h, 1, WS_OP_BINARY, lens[i], m ? mask : NULL);
            size_t want = (lens[i] < 126 ? 2 : lens[i] <= 65535 ? 4 : 10) + (m ? 4 : 0);
            CHECK_MSG(hl == want, "len %llu: header %zu", (unsigned long long)lens[i], hl);
            struct ws_frame f;
            CHECK(ws_frame_parse(h, hl, UINT64_MAX >> 1, &f) == (ssize_t)hl);
            CHECK(f.len == lens[i] && f.masked == m && f.opcode == WS_OP_BINARY && f.fin);
            for (size_t k = 0; k < hl; k++)
                CHECK_MSG(ws_frame_parse(h, k, UINT64_MAX >> 1, &f) == WS_NEED_MORE,
                          "len %llu prefix %zu", (unsigned long long)lens[i], k);
            if (lens[i] > 0)
                CHECK(ws_frame_parse(h, hl, lens[i] - 1, &f) == WS_MALFORMED);
        }
    }
}

static void test_refusals(void)
{
    struct ws_frame f;
    static const uint8_t rsv[] = {0xc2, 0x00};       /* RSV1 */
    static const uint8_t op3[] = {0x83, 0x00};       /* reserved opcode */
    static const uint8_t opb[] = {0x8b, 0x00};       /* reserved control opcode */
    static const uint8_t ping_frag[] = {0x09, 0x00}; /* control frame without FIN */
    static const uint8_t ping_big[] = {0x89, 0x7e, 0x00, 0x7e};
    static const uint8_t top_bit[] = {0x82, 0x7f, 0x80, 0, 0, 0, 0, 0, 0, 0};
    CHECK(ws_frame_parse(rsv, 2, 100, &f) == WS_MALFORMED);
    CHECK(ws_frame_parse(op3, 2, 100, &f) == WS_MALFORMED);
    CHECK(ws_frame_parse(opb, 2, 100, &f) == WS_MALFORMED);
    CHECK(ws_frame_parse(ping_frag, 2, 100, &f) == WS_MALFORMED);
    CHECK(ws_frame_parse(ping_big, 4, 1000, &f) == WS_MALFORMED);
    CHECK(ws_frame_parse(top_bit, 10, UINT64_MAX, &f) == WS_MALFORMED);
    static const uint8_t ping_ok[] = {0x89, 0x7d};
    CHECK(ws_frame_parse(ping_ok, 2, 0, &f) == WS_MALFORMED); /* max_len applies to all */
    CHECK(ws_frame_parse(ping_ok, 2, 125, &f) == 2 && f.opcode == WS_OP_PING);
    uint8_t small[8];
    CHECK(ws_frame_encode(small, sizeof(small), 1, WS_OP_BINARY, NULL, "0123456789", 10) == 0);
}

static void test_mask_pieces(void)
{
    static const uint8_t mask[4] = {0xa1, 0xb2, 0xc3, 0xd4};
    uint8_t ref[100], buf[100];
    for (int i = 0; i < 100; i++)
        ref[i] = buf[i] = (uint8_t)(i * 7);
    ws_mask(ref, sizeof(ref), mask, 0);
    /* unmask-in-pieces equals one pass, whatever the split points */
    size_t cuts[] = {0, 3, 4, 13, 21, 22, 64, 99, 100};
    for (size_t c = 0; c + 1 < sizeof(cuts) / sizeof(cuts[0]); c++)
        ws_mask(buf + cuts[c], cuts[c + 1] - cuts[c], mask, cuts[c]);
    CHECK(memcmp(ref, buf, sizeof(buf)) == 0);
    for (int i = 0; i < 100; i++)
        CHECK(ref[i] == (uint8_t)((i * 7) ^ mask[i % 4]));
}

static void test_sequence(void)
{
    struct ws_seq s = {0};
    int op = -1;
    struct ws_frame text_start = {.fin = 0, .opcode = WS_OP_TEXT};
    struct ws_frame cont = {.fin = 0, .opcode = WS_OP_CONT};
    struct ws_frame cont_fin = {.fin = 1, .opcode = WS_OP_CONT};
    struct ws_frame ping = {.fin = 1, .opcode = WS_OP_PING};
    struct ws_frame bin = {.fin = 1, .opcode = WS_OP_BINARY};
    CHECK(ws_seq_frame(&s, &cont, &op) == -1);
    CHECK(ws_seq_frame(&s, &bin, &op) == 0 && op == WS_OP_BINARY && s.opcode == 0);
    CHECK(ws_seq_frame(&s, &text_start, &op) == 0 && op == WS_OP_TEXT);
    CHECK(ws_seq_frame(&s, &ping, &op) == 0);
    CHECK(ws_seq_frame(&s, &bin, &op) == -1);
    CHECK(ws_seq_frame(&s, &cont, &op) == 0 && op == WS_OP_TEXT);
    CHECK(ws_seq_frame(&s, &cont_fin, &op) == 0 && op == WS_OP_TEXT && s.opcode == 0);
    CHECK(ws_seq_frame(&s, &cont_fin, &op) == -1);
}

int main(void)
{
    test_rfc_examples();
    test_lengths();
    test_refusals();
    test_mask_pieces();
    test_sequence();
    return T_DONE();
}
