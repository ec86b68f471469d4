/* "driver wrap redis-benchmark|wrk|h2load [--timeout S] [--error-limit PCT] -- ARGS...
 * [--config FILE.json]": runs the tool (exec'd directly, no shell) with ARGS, {placeholders}
 * expanded from the config file, parses its report (wrap_parse.h) and prints one
 * pairbench.result/1 with the tool's throughput, latency where it prints it, errors, and
 * its own CPU time and peak RSS from wait4(). docs/driver.md describes it. */
#ifndef PAIRBENCH_WRAP_H
#define PAIRBENCH_WRAP_H

/* argv: the words after "wrap". Returns the exit code: 0 result printed, status ok;
 * 2 bad usage; 3 the tool is missing, failed, timed out or printed no report (no result),
 * or the result is printed with status failed. */
int wrap_main(int argc, char **argv);

#endif
