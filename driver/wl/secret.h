/* Redis AUTH credentials: the password comes from --password-file or the environment
 * (PAIRBENCH_REDIS_PASSWORD), the ACL user from PAIRBENCH_REDIS_USER; never from argv.
 * Nothing here prints or returns the password in a message. */
#ifndef PAIRBENCH_SECRET_H
#define PAIRBENCH_SECRET_H

#include <stddef.h>

#define SECRET_ENV_PASSWORD "PAIRBENCH_REDIS_PASSWORD"
#define SECRET_ENV_USER "PAIRBENCH_REDIS_USER"

struct secret {
    char user[256]; /* empty: the default user */
    char password[1024];
    size_t password_len;
};

/* Loads the credentials. password_file: a file whose content is the password (one trailing
 * newline, LF or CRLF, is removed), or NULL/"" to read PAIRBENCH_REDIS_PASSWORD. The user is
 * PAIRBENCH_REDIS_USER when set. Returns 0, or -1 with a message in err that names the file
 * or variable and never contains the password. */
int secret_load(struct secret *s, const char *password_file, char *err, size_t errlen);
/* Overwrites the credentials in memory. */
void secret_wipe(struct secret *s);

#endif
