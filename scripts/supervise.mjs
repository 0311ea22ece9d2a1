// The supervision of `npm start` (scripts/run-portal.mjs): runs a child process, starts it again when
// it dies without being asked to (scripts/restart-policy.mjs decides when and whether), and passes
// SIGINT and SIGTERM on to it, after which it is never restarted.
import { performance } from 'node:perf_hooks';
import { BACKOFF, afterExit, describeExit } from './restart-policy.mjs';

/**
 * Runs the child `start()` spawns, with an IPC channel, again and again until it ends for good;
 * resolves with the exit status to end with. `isReady(message)` recognises the message by which a
 * child says it is serving: a child that never sent it did not start, and is not started again.
 * Each restart is announced through `log` with why the child ended.
 */
export function supervise({ name, start, isReady, backoff = BACKOFF, log = console.error }) {
  return new Promise((resolve) => {
    let child = null;
    let timer = null;
    let stopping = false;
    let everReady = false;
    let failures = 0;

    const run = () => {
      timer = null;
      const startedAt = performance.now();
      child = start();
      child.on('message', (message) => {
        if (isReady(message)) everReady = true;
      });
      child.once('exit', (code, signal) => {
        child = null;
        const exit = { code, signal, uptimeMs: performance.now() - startedAt };
        const next = afterExit(exit, { stopping, everReady, failures }, backoff);
        if (next.action === 'stop') return resolve(next.code);
        failures = next.failures;
        log(`${name} ${describeExit(exit)}; starting it again in ${next.delayMs / 1000} s.`);
        timer = setTimeout(run, next.delayMs);
      });
    };

    for (const signal of ['SIGINT', 'SIGTERM'])
      process.on(signal, () => {
        stopping = true;
        if (child) child.kill(signal);
        else if (timer) {
          clearTimeout(timer);
          timer = null;
          resolve(0);
        }
      });
    run();
  });
}
