/* Pure RFC 6455 framing (no I/O): frame header parse and encode with 7/16/64-bit lengths,
 * masking, the message sequence rules (FIN, continuation, interleaved control frames) and
 * the opening handshake's key and accept values (SHA-1 and base64 from OpenSSL). Shared by
 * the WebSocket client workload (wl_ws.c) and the reference server (srv_ws.c). */
#ifndef PAIRBENCH_WS_FRAME_H
#define PAIRBENCH_WS_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum ws_opcode {
    WS_OP_CONT = 0x0,
    WS_OP_TEXT = 0x1,
    WS_OP_BINARY = 0x2,
    WS_OP_CLOSE = 0x8,
    WS_OP_PING = 0x9,
    WS_OP_PONG = 0xA,
};

enum {
    WS_MALFORMED = -1,
    WS_NEED_MORE = -2,
};

#define WS_MAX_HEADER 14   /* 2 + 8 (64-bit length) + 4 (mask) */
#define WS_MAX_CONTROL 125 /* largest control frame payload */
#define WS_KEY_LEN 24      /* base64 of 16 bytes */
#define WS_ACCEPT_LEN 28   /* base64 of a SHA-1 */

struct ws_frame {
    int fin;
    int opcode;
    int masked;
    uint8_t mask[4];
    uint64_t len; /* payload length */
};

/* Parses one frame header from p[0..n). Returns the header length (2..14), WS_NEED_MORE, or
 * WS_MALFORMED: reserved bits set (no extension is ever negotiated), an unknown opcode, a
 * fragmented or longer-than-125 control frame, a 64-bit length with the top bit set, or a
 * payload longer than max_len (the caller's refusal limit). */
ssize_t ws_frame_parse(const void *p, size_t n, uint64_t max_len, struct ws_frame *f);

/* Writes a frame header into out (WS_MAX_HEADER bytes of room) with the shortest length
 * encoding; mask NULL = unmasked. Returns its length. */
size_t ws_frame_header(uint8_t *out, int fin, int opcode, uint64_t len, const uint8_t *mask);

/* Writes a whole frame (header + payload, masked with mask unless NULL) into out[0..cap).
 * Returns its length, or 0 when it does not fit. */
size_t ws_frame_encode(void *out, size_t cap, int fin, int opcode, const uint8_t *mask,
                       const void *payload, size_t len);

/* XORs data[0..len) in place with mask, data[0] being byte `offset` of the payload (so a
 * payload can be unmasked in pieces as it arrives). */
void ws_mask(void *data, size_t len, const uint8_t mask[4], uint64_t offset);

/* The message sequence of one direction of a connection. */
struct ws_seq {
    int opcode; /* opcode of the fragmented message in progress, 0 when none */
};

/* Checks that frame f may come next: a continuation needs a message in progress, a new data
 * frame needs none; control frames may come anywhere. For data frames *msg_opcode gets the
 * message's opcode (text/binary) and the sequence advances (the message ends with f->fin).
 * 0, or -1 when the order is wrong. */
int ws_seq_frame(struct ws_seq *s, const struct ws_frame *f, int *msg_opcode);

/* Sec-WebSocket-Key from 16 random bytes: out gets WS_KEY_LEN characters and a NUL. */
void ws_key_encode(const uint8_t raw[16], char *out);
/* Sec-WebSocket-Accept for a key: base64(SHA-1(key + GUID)); out gets WS_ACCEPT_LEN
 * characters and a NUL. 0, or -1 when the key is empty or longer than 256 bytes. */
int ws_accept_for(const char *key, size_t key_len, char *out);

#endif
