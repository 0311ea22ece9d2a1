// The checks `npm test` runs before any test, and a runner that keeps every core busy with them:
// each is one single-threaded process, so up to one per core runs at a time, longest first.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The type checks: core alone (without Node's types: core runs in the browser too), every
 * Node-side project in one program (tsconfig.node.json), the web app, and the browser tests.
 */
export const TYPECHECKS = [
  ['typecheck node', 'npx', ['tsc', '-p', 'tsconfig.node.json']],
  ['typecheck web', 'npx', ['tsc', '-p', 'apps/web']],
  ['typecheck e2e', 'npx', ['tsc', '-p', 'e2e']],
  ['typecheck core', 'npx', ['tsc', '-p', 'packages/core']],
];

/** Runs one check with its output kept, to print whole once it ends. */
function runCheck([name, cmd, args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: process.env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ name, ok: code === 0, ms: Date.now() - started, output }));
    child.on('error', (error) => resolve({ name, ok: false, ms: Date.now() - started, output: String(error) }));
  });
}

/** Runs `checks` ([name, command, args]) up to one per core at a time, in order; prints each as it ends. */
export async function runChecks(checks, concurrency = availableParallelism()) {
  const queue = [...checks];
  const results = [];
  const worker = async () => {
    for (let check = queue.shift(); check; check = queue.shift()) {
      const result = await runCheck(check);
      console.log(`\n== ${result.name} (${result.ok ? 'ok' : 'FAILED'}, ${(result.ms / 1000).toFixed(1)} s)`);
      if (!result.ok) process.stdout.write(result.output);
      results.push(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return results;
}
