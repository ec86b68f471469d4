/* ports: free TCP ports on loopback for the servers pairbench starts. */
#ifndef PAIRBENCH_PORTS_H
#define PAIRBENCH_PORTS_H

#include <stddef.h>

/* Asks the kernel for a free port on 127.0.0.1 (bind to port 0, read it back, close). Never
 * returns the same port twice in a row. Returns the port, or 0 with err set. */
unsigned ports_free(char *err, size_t errlen);

#endif
