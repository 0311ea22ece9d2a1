// `npm test`: type-check, lint, then every test suite (core unit, server over real HTTP on PGlite
// and PostgreSQL, browser tests in Chromium against a freshly built web app). Ends with the time
// of each step, the total, the 15 slowest test files and one closing line 'N passed, N failed'.
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const started = Date.now();
const stepTimes = [];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const timed = (name, fn) => {
  const t0 = Date.now();
  const status = fn();
  stepTimes.push([name, Date.now() - t0]);
  return status;
};
const printTimes = (files) => {
  console.log('\n== where the time went');
  for (const [name, ms] of stepTimes) console.log(`${name.padEnd(12)} ${seconds(ms).padStart(9)}`);
  console.log(`${'total'.padEnd(12)} ${seconds(Date.now() - started).padStart(9)}`);
  if (files.length === 0) return;
  console.log('\n15 slowest test files:');
  for (const { name, ms } of files.slice(0, 15)) console.log(`${seconds(ms).padStart(9)}  ${name}`);
};

const steps = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['web build', 'npm', ['run', 'build', '-w', 'apps/web']],
];
for (const [name, cmd, args] of steps) {
  console.log(`\n== ${name}`);
  if (timed(name, () => run(cmd, args)) !== 0) {
    printTimes([]);
    console.log(`\n${name} failed`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

const out = mkdtempSync(join(tmpdir(), 'portal-test-'));
const report = join(out, 'vitest.json');
console.log('\n== tests (core, server, e2e)');
const status = timed('tests', () =>
  run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]),
);
let passed = 0;
let failed = 0;
let files = [];
let summary = '';
try {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed = result.numPassedTests;
  failed = result.numFailedTests;
  summary = `${result.numTotalTests} tests, ${result.numPendingTests} skipped, ${result.numFailedTestSuites} failed files`;
  files = result.testResults
    .map((file) => ({ name: relative(root, file.name), ms: file.endTime - file.startTime }))
    .sort((a, b) => b.ms - a.ms);
} catch {
  // no report: the run failed before writing it
}
printTimes(files);
if (summary) console.log(`\n${summary}`);
// a failed file (an error outside any test) fails the run even when no single test failed
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(status === 0 && failed === 0 ? 0 : 1);
