/* redact: the secrets of one compare invocation, kept out of everything it stores or prints.
 *
 * One rule names a secret variable: a name holding PASS (PASSWORD, PASSWD), TOKEN, SECRET,
 * KEY, AUTH or CREDENTIAL, case-insensitive, and every PAIRBENCH_REDIS_* variable. meta.json
 * writes such a variable's value as REDACT_MARK; the values themselves are registered here
 * (from each version's env and from compare's own environment, which servers and drivers
 * inherit) and replaced by REDACT_MARK in the output captured from servers and drivers (their
 * logs, run/logcap.c), in runs.jsonl lines (data/dataset.c) and in the reasons printed.
 * A value shorter than REDACT_MIN_LEN bytes, or "true"/"false", is not registered: replacing
 * every "1", "on" or "true" would make every message unreadable and hide nothing worth hiding.
 *
 * The registry is process-wide: a forked capping process inherits it. Not thread-safe; fill it
 * before the first server starts. */
#ifndef PAIRBENCH_REDACT_H
#define PAIRBENCH_REDACT_H

#include <stddef.h>

#include <jansson.h>

#define REDACT_MARK "***"
#define REDACT_MIN_LEN 4

/* Whether an environment variable's name marks its value as a secret (the rule above). */
int redact_secret_name(const char *name);

/* Registers one secret value (copied; ignored when shorter than REDACT_MIN_LEN or already
 * known). Returns 0, or -1 when out of memory. */
int redact_add(const char *value);

/* Registers the values of the secret variables of env, a JSON object {name: value} (strings
 * only; anything else is ignored). Returns 0, or -1 when out of memory. */
int redact_add_env(const json_t *env);

/* The same for an environment block "NAME=value", NULL-ended (e.g. environ). */
int redact_add_environ(char *const *envp);

/* Forgets every registered value (the unit test). */
void redact_clear(void);

/* The length of the longest registered value, 0 when none. */
size_t redact_max_len(void);

/* Replaces, in place, every registered value in buf[0..n) by REDACT_MARK (the longest value
 * first where several start at one byte) and returns the new length (never more than n). When
 * more bytes may follow (final = 0), the last bytes that could still be the start of a value
 * completed by what follows are left as they are: *held gets their count (they end the
 * returned span; a stream carries them to the front of its next call). With final set,
 * *held is 0. */
size_t redact_span(char *buf, size_t n, int final, size_t *held);

/* Redacts a NUL-terminated string in place. */
void redact_text(char *s);

/* Copies s into buf (cut to len) redacted, and returns buf ("" for NULL): for a message. */
const char *redact_show(const char *s, char *buf, size_t len);

/* Redacts every string value of v in place, recursively (object keys are left alone), but
 * not the values of the top-level keys named in keep (NULL-ended, may be NULL): the
 * identities a reader matches on. Returns 0, or -1 when out of memory. */
int redact_json(json_t *v, const char *const *keep);

#endif
