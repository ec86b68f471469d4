/* validate: whether one driver run measured what its configuration says. Pure logic, no I/O:
 * the runner hands it the driver's exit, its stdout and the effective configuration, and gets
 * back the parsed result (kept in runs.jsonl whatever the verdict: nothing measured is lost)
 * and, when the run failed, the reason in words.
 *
 * A run is failed when the driver says so ("status": "failed", exit 3 with its JSON still on
 * stdout), and, whatever the driver says (a custom driver prints none of these fields), when:
 *   - it counted no operation, or its throughput is zero or negative;
 *   - it held fewer connections than configured ("connections": {"configured", "held"});
 *   - it saw a timeout (any), or connect + io + protocol + verify errors above
 *     VALIDATE_ERROR_SHARE of its operations;
 *   - its measured window ("elapsed_s") is shorter than VALIDATE_MIN_WINDOW_SHARE of the
 *     window the driver states ("window_s"), or, from a driver that prints no "status", of the
 *     configured duration (a stall that ended the window early). A driver that prints "status"
 *     but no "window_s" ran a count (--requests, a wrapped tool's own count): not checked;
 *   - at a fixed rate ("rate": {"target", "achieved", "sent", "late"}), it fell behind the
 *     schedule by more than VALIDATE_RATE_BEHIND_SHARE: it achieved less than that share
 *     below the target. Its latencies are then those of whatever load it managed, not of the
 *     rate asked for. (Requests sent late at the full rate are not: their latency counts
 *     from their due time, so the figures hold the lateness.) */
#ifndef PAIRBENCH_VALIDATE_H
#define PAIRBENCH_VALIDATE_H

#include <stddef.h>

#include <jansson.h>

#define VALIDATE_ERROR_SHARE 0.01
#define VALIDATE_MIN_WINDOW_SHARE 0.9
#define VALIDATE_RATE_BEHIND_SHARE 0.1

/* compare's deadline for a driver is warm-up + duration + grace, and the grace is at least the
 * driver's own timeout ("timeout", default VALIDATE_DRIVER_TIMEOUT_S) plus this margin: a
 * driver facing a stalled server waits out its timeout and must still have time to report. */
#define VALIDATE_DRIVER_TIMEOUT_S 5.0
#define VALIDATE_GRACE_MARGIN_S 3.0

/* The grace to use for a configuration: max(spec_grace, driver timeout + margin). */
double validate_grace(const json_t *eff, double spec_grace);

/* Checks a parsed driver result against the effective configuration eff. Writes the reasons
 * (joined by "; ") to reason and returns 1 when the run failed; returns 0 with reason "" when
 * it measured what eff says. */
int validate_result(const json_t *result, const json_t *eff, char *reason, size_t reasonlen);

/* Judges one driver process: its wait status (exited/signalled), whether compare's deadline
 * killed it (timed_out, after timeout_s), its stdout and the tail of its stderr. Returns the
 * parsed result object (new reference; also when the driver exited non-zero but printed one),
 * or NULL; reason is "" for an ok run, else says why it failed. */
json_t *validate_run(int status, int timed_out, double timeout_s, const char *out,
                     const char *stderr_tail, const json_t *eff, char *reason, size_t reasonlen);

#endif
