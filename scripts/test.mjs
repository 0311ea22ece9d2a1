// `npm test`: type-check, lint, then every test suite (core unit, server over real HTTP on PGlite
// and PostgreSQL, browser tests in Chromium against a freshly built web app). Prints one closing
// line 'N passed, N failed'.
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const steps = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['web build', 'npm', ['run', 'build', '-w', 'apps/web']],
];
for (const [name, cmd, args] of steps) {
  console.log(`\n== ${name}`);
  if (run(cmd, args) !== 0) {
    console.log(`\n${name} failed`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

const out = mkdtempSync(join(tmpdir(), 'portal-test-'));
const report = join(out, 'vitest.json');
console.log('\n== tests (core, server, e2e)');
const status = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
let passed = 0;
let failed = 0;
try {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed = result.numPassedTests;
  failed = result.numFailedTests;
  console.log(
    `\n${result.numTotalTests} tests, ${result.numPendingTests} skipped, ${result.numFailedTestSuites} failed files`,
  );
} catch {
  // no report: the run failed before writing it
}
// a failed file (an error outside any test) fails the run even when no single test failed
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(status === 0 && failed === 0 ? 0 : 1);
