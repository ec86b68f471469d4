/* sshhost: where the versions' servers run when not here (docs/remote.md). The spec's
 * "server_host" (or --server-host) is an ssh URL in the shape libvirt's remote URIs use:
 *
 *     ssh://[USER@]HOST[:PORT][?keyfile=FILE&known_hosts=FILE&driver=PATH&rtt_limit=SHARE]
 *
 * HOST is the address the driver connects to and the servers listen on (a name or a literal,
 * IPv6 in brackets). keyfile: the identity ssh uses (IdentitiesOnly); known_hosts: the only
 * file of host keys ssh trusts (else the user's); driver: the `driver` program on the host
 * (else "driver" in the host's PATH); rtt_limit: the share by which the idle round trip may
 * move between before and after the runs before the dataset is disturbed (default 0.5). A
 * password in the URL is refused: ssh runs with BatchMode=yes (keys or an agent only) and
 * StrictHostKeyChecking=yes (a host whose key is not known is refused, never added). */
#ifndef PAIRBENCH_SSHHOST_H
#define PAIRBENCH_SSHHOST_H

#include <stddef.h>

#include <jansson.h>

struct server_host {
    char url[1024];         /* as given */
    char user[128];         /* "" = ssh's default */
    char host[256];         /* without brackets */
    unsigned port;          /* ssh's port, 22 by default */
    char keyfile[1024];     /* "" = none */
    char known_hosts[1024]; /* "" = ssh's default files */
    char driver[1024];      /* the remote driver program */
    double rtt_limit;       /* share; default 0.5 */
};

/* Parses url into h. Pure. Returns 0, or -1 with why saying what is wrong and what was
 * expected. */
int sshhost_parse(const char *url, struct server_host *h, char *why, size_t whylen);

/* url for a message, a password in it (USER:PASSWORD@) shown as "***". Pure. */
void sshhost_mask(const char *url, char *out, size_t outlen);

/* The ssh command running remote_cmd (already shell-quoted words) on h: NULL-ended, into argv
 * (room for max entries, pointing into h, storage and constant strings). storage holds the
 * built words ("-p" value, "user@host", -o options); Returns the count, or -1 when it does not
 * fit. Pure. */
int sshhost_argv(const struct server_host *h, const char *remote_cmd, char **argv, size_t max,
                 char *storage, size_t storelen);

/* The idle round trip to h: n TCP connections to its ssh port, each one SYN and SYN-ACK, timed.
 * {"median_us", "min_us", "max_us", "n", "local_address", "mtu"} (mtu of the local interface
 * holding local_address, when found); NULL with why when none connected. New reference. */
json_t *sshhost_rtt(const struct server_host *h, unsigned n, char *why, size_t whylen);

#endif
