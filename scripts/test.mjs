// `npm test`: type-check, lint and build the web app (scripts/checks.mjs), then every test suite (core unit, server over real HTTP on PGlite
// and PostgreSQL, browser tests in Chromium against a freshly built web app). Ends with the time
// of each step, the total, the 15 slowest test files and one closing line 'N passed, N failed'.
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { root, runChecks, TYPECHECKS } from './checks.mjs';

const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

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
  for (const [name, ms] of stepTimes) console.log(`${name.padEnd(16)} ${seconds(ms).padStart(9)}`);
  console.log(`${'total'.padEnd(16)} ${seconds(Date.now() - started).padStart(9)}`);
  if (files.length === 0) return;
  console.log('\n15 slowest test files:');
  for (const { name, ms } of files.slice(0, 15)) console.log(`${seconds(ms).padStart(9)}  ${name}`);
};

// The checks before the tests, one per core at a time, longest first; the browser tests need the web build.
const checksStarted = Date.now();
const checks = await runChecks([
  ['web build', 'npm', ['run', 'build', '-w', 'apps/web']],
  TYPECHECKS[0],
  ['lint', 'npx', ['eslint', '.']],
  ...TYPECHECKS.slice(1),
]);
for (const { name, ms } of checks) stepTimes.push([`  ${name}`, ms]);
stepTimes.push(['checks', Date.now() - checksStarted]);
const failedChecks = checks.filter((c) => !c.ok).map((c) => c.name);
if (failedChecks.length > 0) {
  printTimes([]);
  console.log(`\n${failedChecks.join(', ')} failed`);
  console.log('0 passed, 1 failed');
  process.exit(1);
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
