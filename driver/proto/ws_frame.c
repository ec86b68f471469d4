/* RFC 6455 framing and handshake values (see ws_frame.h). */
#include "proto/ws_frame.h"

#include <string.h>

#include <openssl/evp.h>
#include <openssl/sha.h>

static const char ws_guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

static int opcode_known(int op)
{
    return op == WS_OP_CONT || op == WS_OP_TEXT || op == WS_OP_BINARY || op == WS_OP_CLOSE ||
           op == WS_OP_PING || op == WS_OP_PONG;
}

ssize_t ws_frame_parse(const void *vp, size_t n, uint64_t max_len, struct ws_frame *f)
{
    const uint8_t *p = vp;
    if (n < 2)
        return WS_NEED_MORE;
    f->fin = p[0] >> 7;
    f->opcode = p[0] & 0x0f;
    if ((p[0] & 0x70) || !opcode_known(f->opcode))
        return WS_MALFORMED;
    f->masked = p[1] >> 7;
    uint64_t len = p[1] & 0x7f;
    size_t off = 2;
    if (len == 126) {
        if (n < 4)
            return WS_NEED_MORE;
        len = (uint64_t)p[2] << 8 | p[3];
        off = 4;
    } else if (len == 127) {
        if (n < 10)
            return WS_NEED_MORE;
        len = 0;
        for (int i = 0; i < 8; i++)
            len = len << 8 | p[2 + i];
        if (len >> 63)
            return WS_MALFORMED;
        off = 10;
    }
    if (f->opcode & 0x8) {
        if (!f->fin || len > WS_MAX_CONTROL)
            return WS_MALFORMED;
    }
    if (len > max_len)
        return WS_MALFORMED;
    f->len = len;
    if (f->masked) {
        if (n < off + 4)
            return WS_NEED_MORE;
        memcpy(f->mask, p + off, 4);
        off += 4;
    } else {
        memset(f->mask, 0, 4);
    }
    return (ssize_t)off;
}

size_t ws_frame_header(uint8_t *out, int fin, int opcode, uint64_t len, const uint8_t *mask)
{
    size_t off;
    out[0] = (uint8_t)((fin ? 0x80 : 0) | (opcode & 0x0f));
    uint8_t m = mask ? 0x80 : 0;
    if (len < 126) {
        out[1] = (uint8_t)(m | len);
        off = 2;
    } else if (len <= 0xffff) {
        out[1] = m | 126;
        out[2] = (uint8_t)(len >> 8);
        out[3] = (uint8_t)len;
        off = 4;
    } else {
        out[1] = m | 127;
        for (int i = 0; i < 8; i++)
            out[2 + i] = (uint8_t)(len >> (56 - 8 * i));
        off = 10;
    }
    if (mask) {
        memcpy(out + off, mask, 4);
        off += 4;
    }
    return off;
}

size_t ws_frame_encode(void *out, size_t cap, int fin, int opcode, const uint8_t *mask,
                       const void *payload, size_t len)
{
    uint8_t hdr[WS_MAX_HEADER];
    size_t hl = ws_frame_header(hdr, fin, opcode, len, mask);
    if (cap < hl || cap - hl < len)
        return 0;
    memcpy(out, hdr, hl);
    if (len)
        memcpy((char *)out + hl, payload, len);
    if (mask)
        ws_mask((char *)out + hl, len, mask, 0);
    return hl + len;
}

void ws_mask(void *data, size_t len, const uint8_t mask[4], uint64_t offset)
{
    uint8_t *d = data;
    uint8_t m[8];
    size_t i = 0;
    for (int k = 0; k < 8; k++)
        m[k] = mask[(offset + (uint64_t)k) & 3];
    /* eight bytes at a time: the rotated mask repeats every 4 bytes, so every 8 too */
    uint64_t m64;
    memcpy(&m64, m, 8);
    for (; i + 8 <= len; i += 8) {
        uint64_t v;
        memcpy(&v, d + i, 8);
        v ^= m64;
        memcpy(d + i, &v, 8);
    }
    for (; i < len; i++)
        d[i] ^= m[i & 7];
}

int ws_seq_frame(struct ws_seq *s, const struct ws_frame *f, int *msg_opcode)
{
    if (f->opcode & 0x8)
        return 0;
    if (f->opcode == WS_OP_CONT) {
        if (!s->opcode)
            return -1;
        *msg_opcode = s->opcode;
    } else {
        if (s->opcode)
            return -1;
        *msg_opcode = f->opcode;
    }
    s->opcode = f->fin ? 0 : *msg_opcode;
    return 0;
}

void ws_key_encode(const uint8_t raw[16], char *out)
{
    EVP_EncodeBlock((unsigned char *)out, raw, 16);
}

int ws_accept_for(const char *key, size_t key_len, char *out)
{
    char buf[256 + sizeof(ws_guid)];
    unsigned char md[SHA_DIGEST_LENGTH];
    if (key_len == 0 || key_len > 256)
        return -1;
    memcpy(buf, key, key_len);
    memcpy(buf + key_len, ws_guid, sizeof(ws_guid) - 1);
    SHA1((const unsigned char *)buf, key_len + sizeof(ws_guid) - 1, md);
    EVP_EncodeBlock((unsigned char *)out, md, SHA_DIGEST_LENGTH);
    return 0;
}
