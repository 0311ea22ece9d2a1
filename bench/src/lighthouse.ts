// Lighthouse (12.x) against the real stack: /login signed out and the device Data page signed in
// (a device with an hour of records from the simulator's ORB-C1 model), in the mobile preset
// (Lighthouse's default emulation and simulated throttling) and the desktop preset. Performance
// score, LCP, CLS and total transferred bytes, each the median of RUNS runs, every run in a fresh
// Chromium profile. Chromium resolves no host but localhost, so nothing leaves the machine (the map's
// tiles fail, as in the device-page benchmark).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lighthouse, { desktopConfig, type Config, type Flags } from 'lighthouse';
import { createDeviceModel } from '../../apps/simulator/src/models';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../e2e/src/browser';
import { freshDeviceId, startStack, type Stack } from '../../e2e/src/harness';
import type { BenchResult } from './run';
import { median } from './stats';

const DEMO = { email: 'demo@portal.local', password: 'demo-portal-2026' };
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** Records of the device: one hour at the demo fleet's 15 s interval. */
const HISTORY_S = 3600;
const INTERVAL_S = 15;

const LIGHTHOUSE_CHROMIUM_FLAGS = [
  ...CHROMIUM_FLAGS,
  // Loopback only: every other host name fails to resolve.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost',
];

interface Preset {
  name: 'mobile' | 'desktop';
  config: Config | undefined;
}
const PRESETS: Preset[] = [
  { name: 'mobile', config: undefined },
  { name: 'desktop', config: desktopConfig },
];

interface Target {
  name: 'login' | 'device-page';
  path: string;
  /** Request headers of the run (the session cookie for a signed-in page). */
  headers?: Record<string, string>;
  /** The goals: mobile performance score at least this, CLS below `clsCeiling`. */
  mobileScoreTarget: number;
  clsCeiling: number;
}

interface Figures {
  score: number;
  lcpMs: number;
  cls: number;
  transferredKb: number;
}

/** A Chromium of its own (fresh profile, remote debugging on a free port); `close` ends it. */
async function startChromium(): Promise<{ port: number; close(): Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'bench-lighthouse-'));
  const child = spawn(
    CHROMIUM_PATH,
    [...LIGHTHOUSE_CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(profile, { recursive: true, force: true });
  };
  // Chromium writes the port it listens on into the profile (first line of DevToolsActivePort).
  for (let waited = 0; waited < 30_000; waited += 100) {
    const port = Number((await readFile(join(profile, 'DevToolsActivePort'), 'utf8').catch(() => '')).split('\n')[0]);
    if (port > 0) return { port, close };
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  await close();
  throw new Error(`Chromium (${CHROMIUM_PATH}) did not open a debugging port`);
}

async function audit(stack: Stack, target: Target, preset: Preset): Promise<Figures> {
  const chromium = await startChromium();
  try {
    const flags: Flags = {
      port: chromium.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      ...(target.headers ? { extraHeaders: target.headers } : {}),
    };
    const result = await lighthouse(stack.url(target.path), flags, preset.config);
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${target.path}`);
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${target.path}: ${lhr.runtimeError.message}`);
    const finalUrl = lhr.finalDisplayedUrl;
    if (new URL(finalUrl).pathname !== target.path) {
      throw new Error(`Lighthouse measured ${finalUrl}, not ${target.path} (signed out?)`);
    }
    const numeric = (id: string) => {
      const value = lhr.audits[id]?.numericValue;
      if (value === undefined) throw new Error(`Lighthouse has no ${id} for ${target.path}`);
      return value;
    };
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: numeric('largest-contentful-paint'),
      cls: numeric('cumulative-layout-shift'),
      transferredKb: numeric('total-byte-weight') / 1000,
    };
  } finally {
    await chromium.close();
  }
}

/** A device of the demo account with an hour of records; answers its id. */
async function deviceWithRecords(stack: Stack): Promise<string> {
  const device = await stack.provisionDevice(freshDeviceId('LHS'), 'ORB-C1', 'Yard Pump');
  const demo = stack.apiClient();
  if ((await demo('POST', '/api/auth/login', DEMO)).status !== 200) throw new Error('demo sign-in failed');
  const claim = await demo('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword });
  if (claim.status !== 200) throw new Error(`adding the device failed: ${JSON.stringify(claim)}`);
  const model = createDeviceModel('ORB-C1', device.id);
  const now = Math.floor(Date.now() / 1000);
  const records = [];
  for (let ts = now - HISTORY_S; ts <= now; ts += INTERVAL_S) records.push(model.sample(ts));
  const ingest = await fetch(stack.url(`/api/ingest/${device.id}`), {
    method: 'POST',
    headers: { authorization: `Device ${device.deviceKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(records),
  });
  if (ingest.status !== 200) throw new Error(`ingest failed: ${ingest.status} ${await ingest.text()}`);
  return device.id;
}

/** The demo account's session cookie, signed in through the API. */
async function sessionCookie(stack: Stack): Promise<string> {
  const answer = await fetch(stack.url('/api/auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'portal' },
    body: JSON.stringify(DEMO),
  });
  if (answer.status !== 200) throw new Error(`demo sign-in failed: ${answer.status}`);
  const session = answer.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('portal_session='));
  if (!session) throw new Error('the sign-in answer set no session cookie');
  return session;
}

export async function lighthouseBench(): Promise<BenchResult[]> {
  const stack = await startStack();
  const results: BenchResult[] = [];
  try {
    const deviceId = await deviceWithRecords(stack);
    const targets: Target[] = [
      { name: 'login', path: '/login', mobileScoreTarget: 90, clsCeiling: 0.05 },
      {
        name: 'device-page',
        path: `/data/${deviceId}`,
        headers: { Cookie: await sessionCookie(stack) },
        mobileScoreTarget: 75,
        clsCeiling: 0.05,
      },
    ];
    for (const target of targets) {
      for (const preset of PRESETS) {
        const runs: Figures[] = [];
        for (let i = 0; i < RUNS; i += 1) runs.push(await audit(stack, target, preset));
        const prefix = `lighthouse-${preset.name}-${target.name}`;
        /** One figure: the median of the runs, in the field order of the other benchmarks. */
        const figure = (
          suffix: string,
          key: keyof Figures,
          unit: string,
          better: BenchResult['better'],
          round: (n: number) => number,
          goal: Pick<BenchResult, 'target' | 'ceiling'> = {},
        ): BenchResult => {
          const values = runs.map((run) => round(run[key]));
          return { name: `${prefix}-${suffix}`, value: round(median(values)), unit, better, ...goal, runs: values };
        };
        const scoreGoal = preset.name === 'mobile' ? { target: target.mobileScoreTarget } : {};
        results.push(
          figure('performance', 'score', 'score', 'higher', Math.round, scoreGoal),
          figure('lcp', 'lcpMs', 'ms', 'lower', Math.round),
          figure('cls', 'cls', 'score', 'lower', (n) => Math.round(n * 1000) / 1000, { ceiling: target.clsCeiling }),
          figure('transferred', 'transferredKb', 'kB', 'lower', (n) => Math.round(n * 10) / 10),
        );
      }
    }
  } finally {
    await stack.close();
  }
  return results;
}
