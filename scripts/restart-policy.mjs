// What `npm start` does when the server it supervises exits (scripts/supervise.mjs runs it):
// start it again after a growing delay, or stop. Pure, so every case is a table test.

/**
 * sysexits.h EX_CONFIG: the exit status of a server that refuses to start on its configuration (a
 * bad variable, a port taken), with its one-line message (apps/server/src/main.ts). Starting it
 * again cannot help, so it is never restarted.
 */
export const EX_CONFIG = 78;

/**
 * Restart delays: `firstMs`, doubling with each failure in a row up to `maxMs`; a run that lasted
 * `stableMs` or more starts the series again.
 */
export const BACKOFF = { firstMs: 1_000, maxMs: 30_000, stableMs: 60_000 };

/** How a child ended, in words: 'was killed by SIGKILL', 'exited with code 1'. */
export function describeExit({ code, signal }) {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

/**
 * The step after the supervised server exited: `{ action: 'stop', code }` ends the supervisor with
 * that exit status; `{ action: 'restart', delayMs, failures }` starts the server again after
 * `delayMs`, `failures` being the new count of quick failures in a row.
 *
 * Stopped: a stop that was asked for (the supervisor's SIGINT or SIGTERM, or the server's own: exit
 * 0, or death by SIGINT or SIGTERM), EX_CONFIG, and any end of a server that never became ready
 * (its first start failed: its message says why). Everything else (another signal, such as the
 * kernel's SIGKILL when out of memory or V8's SIGABRT, or another exit status) is restarted.
 */
export function afterExit({ code, signal, uptimeMs }, { stopping, everReady, failures }, backoff = BACKOFF) {
  const stop = { action: 'stop', code: code ?? (signal ? 1 : 0) };
  if (stopping || code === 0 || signal === 'SIGINT' || signal === 'SIGTERM') return stop;
  if (code === EX_CONFIG || !everReady) return stop;
  const inARow = uptimeMs >= backoff.stableMs ? 0 : failures;
  return {
    action: 'restart',
    delayMs: Math.min(backoff.maxMs, backoff.firstMs * 2 ** inARow),
    failures: inARow + 1,
  };
}
