/* ports: free loopback ports (see ports.h). */
#include "run/ports.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static unsigned last_port;

static unsigned ports_try(char *err, size_t errlen)
{
    struct sockaddr_in sa;
    socklen_t len = sizeof(sa);
    unsigned port = 0;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return 0;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
        snprintf(err, errlen, "bind '127.0.0.1:0': %s", strerror(errno));
        goto out;
    }
    port = ntohs(sa.sin_port);
out:
    close(fd);
    return port;
}

unsigned ports_free(char *err, size_t errlen)
{
    int i;

    for (i = 0; i < 8; i++) {
        unsigned p = ports_try(err, errlen);
        if (p == 0)
            return 0;
        if (p != last_port) {
            last_port = p;
            return p;
        }
    }
    snprintf(err, errlen, "no free loopback port");
    return 0;
}
