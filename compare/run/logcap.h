/* logcap: a bounded log file. The output of a process started by proc.c goes through a pipe to
 * a small capping process (a fork of compare, no exec) that writes the first PROC_LOG_HEAD bytes
 * to the file as they come, keeps the last PROC_LOG_TAIL bytes in memory, and at the end of the
 * output writes one line with the number of bytes dropped between them and then the tail.
 * Every secret value registered in util/redact.h is written as "***" (a value cut between two
 * reads is held back until it is complete). */
#ifndef PAIRBENCH_LOGCAP_H
#define PAIRBENCH_LOGCAP_H

#include <stddef.h>
#include <sys/types.h>

/* Creates (truncates) path and starts the capping process. *wfd is the pipe's write end for
 * the process whose output is logged (close it in compare once that process is started).
 * Returns 0, or -1 with err naming the file and the errno text. */
int logcap_start(const char *path, size_t head, size_t tail, int *wfd, pid_t *pid, char *err,
                 size_t errlen);

/* Waits up to wait_s for the capping process to write the tail and exit (it does when every
 * writer has closed the pipe), then, when force is set, kills it. *pid becomes 0 once it is
 * reaped. Safe with *pid == 0. */
void logcap_settle(pid_t *pid, double wait_s, int force);

/* The capping itself: reads in to EOF, redacts, writes head, "[… N bytes dropped …]" and tail to
 * out. Returns the number of bytes dropped. Used by the capping process; pure apart from the two
 * descriptors, so the unit test drives it with pipes and files. */
unsigned long long logcap_copy(int in, int out, size_t head, size_t tail);

#endif
