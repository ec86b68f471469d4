/* Redis command templates, pure and shared by the driver (which formats them) and compare
 * (which validates them before any run). A template is a command line, written as a string
 * split like a shell splits it ('single', "double" quotes, backslash escapes) or as a JSON
 * array of arguments, whose arguments may hold placeholders:
 *   __rand_int__  a uniform number in [0, keyspace) as 12 zero-padded digits (redis-benchmark;
 *                 literal when the keyspace is 0, as redis-benchmark leaves it without -r)
 *   __key__       "key:" + 12 zero-padded digits, the number drawn by the key pattern
 *   __data__      the payload value (payload bytes)
 *   __rand_score__ a score in [0, 100) as redis-benchmark's ZADD draws it, from the same
 *                 generator just before the key, so a ZADD template sends the built-in's bytes
 *   __i__         the loop index of a setup generator (setup only)
 * Mixes ("commands": [{"command": T, "weight": W}, ...]), key patterns (uniform, sequential,
 * gaussian, zipf:EXP) and setup (a list of commands and generators, or a file of inline or
 * RESP commands) are parsed here too, into RESP bytes for setup. No I/O but reading a setup
 * file. */
#ifndef PAIRBENCH_RCMD_H
#define PAIRBENCH_RCMD_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

enum rcmd_ph { RCMD_LIT = 0, RCMD_RAND_INT, RCMD_KEY, RCMD_DATA, RCMD_I, RCMD_RAND_SCORE };
#define RCMD_USES(ph) (1u << (ph))
#define RCMD_KEY_DIGITS 12
#define RCMD_MAX_ARGS 4096
#define RCMD_MIX_MAX 64
#define RCMD_ARG_PARTS 64 /* literal and placeholder parts of one argument */

struct rcmd_seg {
    unsigned ph;     /* enum rcmd_ph */
    size_t off, len; /* RCMD_LIT: bytes in text */
};

/* One parsed template: argc arguments, argument a is segs[first[a]] .. + nseg[a]. */
struct rcmd {
    char *text; /* literal bytes */
    struct rcmd_seg *segs;
    unsigned *first, *nseg;
    unsigned argc, nsegs;
    unsigned uses; /* RCMD_USES() bits of the placeholders present */
    char *shown;   /* the template as the user wrote it (for messages and reports) */
};

/* Parses a template from a string or a JSON array of strings. allowed: the RCMD_USES() bits
 * accepted. 0, or -1 with err saying what is wrong ("unknown placeholder '__foo__' ...",
 * "empty command"). */
int rcmd_parse(struct rcmd *c, const json_t *v, unsigned allowed, char *err, size_t errlen);
int rcmd_parse_str(struct rcmd *c, const char *s, unsigned allowed, char *err, size_t errlen);
void rcmd_free(struct rcmd *c);

/* A placeholder's value for one occurrence: sets *p and returns the length. */
typedef size_t (*rcmd_fill_fn)(void *ctx, unsigned ph, const char **p);

/* A growable byte buffer. */
struct rcmd_out {
    char *p;
    size_t len, cap;
    size_t max;  /* 0: no limit; else rcmd_out_put refuses to grow past max bytes */
    int toobig;  /* set when it refused */
    int measure; /* only len grows, nothing is stored (p stays NULL): a size check */
};
int rcmd_out_put(struct rcmd_out *o, const void *p, size_t n);
void rcmd_out_free(struct rcmd_out *o);

/* Appends the RESP array of c with every placeholder filled (in argument order) to out, the
 * bytes hiredis's redisFormatCommandArgv writes. 0, or -1 out of memory. */
int rcmd_encode(const struct rcmd *c, rcmd_fill_fn fill, void *ctx, struct rcmd_out *out);

/* The first argument upper-cased into out ("HDEL"), for reply checks and labels. */
void rcmd_name(const struct rcmd *c, char *out, size_t outlen);

/* Key patterns: uniform (default), sequential, gaussian, zipf:EXP (0 < EXP <= 5). */
enum rcmd_kp { RCMD_KP_UNIFORM, RCMD_KP_SEQUENTIAL, RCMD_KP_GAUSSIAN, RCMD_KP_ZIPF };
struct rcmd_keypat {
    enum rcmd_kp kind;
    double exp;
};
int rcmd_keypat_parse(const char *s, struct rcmd_keypat *kp, char *err, size_t errlen);
/* splitmix64, the generator redis's built-ins draw from. */
uint64_t rcmd_rng_next(uint64_t *s);
/* The next key number in [0, n) (n >= 1); *seq is the sequential pattern's counter. */
uint64_t rcmd_key_next(const struct rcmd_keypat *kp, uint64_t n, uint64_t *rng, uint64_t *seq);

/* A mix: the "commands" value, an array of {"command": T, "weight": W > 0}. */
struct rcmd_mix {
    struct rcmd cmd[RCMD_MIX_MAX];
    double weight[RCMD_MIX_MAX];
    unsigned n;
};
int rcmd_mix_parse(struct rcmd_mix *m, const json_t *v, char *err, size_t errlen);
void rcmd_mix_free(struct rcmd_mix *m);

/* Setup: v is an array of commands (strings, argument arrays, or generators {"command": T,
 * "count": N} with __i__ = 0..N-1), or a string naming a file of inline commands (one per
 * line, '#' comments; a NUL or other control byte but tab is refused, naming the line) or
 * RESP (as `redis-cli --pipe` reads). Appends the expanded RESP bytes to out and sets *ncmds.
 * value: __data__. With out->max set, a setup that would pass it is refused before it is
 * built (a generator's count times its largest command; out->toobig set). 0, or -1 with err
 * set. */
int rcmd_setup_expand(const json_t *v, const char *value, size_t value_len, struct rcmd_out *out,
                      uint64_t *ncmds, char *err, size_t errlen);

/* The text of command k (0-based) of RESP bytes p[0..n) for messages ("HSET h f1 v1",
 * arguments cut to 40 bytes, at most outlen). */
void rcmd_resp_show(const char *p, size_t n, uint64_t k, char *out, size_t outlen);

#endif
