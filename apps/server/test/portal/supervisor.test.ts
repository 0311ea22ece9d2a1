/**
 * The supervision of `npm start` (scripts/supervise.mjs) on real processes: a supervisor process
 * runs a tiny child that says it is ready over IPC, then is killed, crashes, refuses its
 * configuration or fails to start, as each test tells it; and the supervisor is stopped by SIGTERM,
 * alone or with its whole process group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { EX_CONFIG } from '../../../../scripts/restart-policy.mjs';

const SUPERVISE = pathToFileURL(join(import.meta.dirname, '../../../../scripts/supervise.mjs')).href;

/**
 * The child, by its STEP: 'serve' says it is ready and serves until SIGTERM (drains, exits 0) or
 * SIGUSR2 (an uncaught error: exit 1); 'refuse' exits EX_CONFIG and 'fail' exits 1, both at once.
 */
const CHILD = `
const step = process.env.STEP;
if (step === 'refuse') process.exit(${EX_CONFIG});
if (step === 'fail') process.exit(1);
process.on('SIGTERM', () => { console.log('drained ' + process.pid); process.exit(0); });
process.on('SIGUSR2', () => { throw new Error('crash'); });
process.send({ type: 'ready', pid: process.pid });
setInterval(() => {}, 60000);
`;

/** The supervisor: runs CHILD with the STEPS given in order ('serve' once they are used up). */
const SUPERVISOR = `
import { spawn } from 'node:child_process';
import { supervise } from ${JSON.stringify(SUPERVISE)};
const steps = JSON.parse(process.env.STEPS);
let run = 0;
const code = await supervise({
  name: 'The child',
  backoff: JSON.parse(process.env.BACKOFF),
  log: (line) => console.log(line),
  isReady(message) {
    if (message?.type !== 'ready') return false;
    console.log('ready ' + message.pid);
    return true;
  },
  start: () =>
    spawn(process.execPath, ['-e', process.env.CHILD], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, STEP: steps[run++] ?? 'serve' },
    }),
});
console.log('supervisor ends with ' + code);
process.exit(code);
`;

const FAST = { firstMs: 100, maxMs: 400, stableMs: 60_000 };

interface Supervisor {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The next line matching `pattern` after the last one found (in order), as its match. */
  next(pattern: RegExp): Promise<RegExpMatchArray>;
  /** The next child's pid, once the supervisor has heard it is ready. */
  nextReady(): Promise<number>;
  output(): string;
}

const running: Supervisor[] = [];

/** Starts a supervisor in a process group of its own. */
function startSupervisor(steps: string[], backoff = FAST): Supervisor {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SUPERVISOR], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, STEPS: JSON.stringify(steps), BACKOFF: JSON.stringify(backoff), CHILD },
  });
  let text = '';
  let cursor = 0;
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const next = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const lines = new RegExp(`^.*${pattern.source}.*$`, 'm');
      const check = () => {
        const match = lines.exec(text.slice(cursor));
        if (!match) return;
        listeners.delete(check);
        cursor += match.index! + match[0].length;
        resolve(match);
      };
      listeners.add(check);
      check();
      void exited.then(() => {
        check();
        if (listeners.delete(check)) reject(new Error(`the supervisor ended before ${pattern}:\n${text}`));
      });
    });
  const supervisor: Supervisor = {
    child,
    exited,
    next,
    nextReady: async () => Number((await next(/ready (\d+)/))[1]),
    output: () => text,
  };
  running.push(supervisor);
  return supervisor;
}

afterEach(() => {
  for (const { child } of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
});

describe('npm start supervision', () => {
  it('a child that served is started again when killed or crashed, later each time; SIGTERM stops it for good', async () => {
    const supervisor = startSupervisor([]);
    const first = await supervisor.nextReady();
    process.kill(first, 'SIGKILL');
    await supervisor.next(/The child was killed by SIGKILL; starting it again in 0.1 s\./);
    const second = await supervisor.nextReady();
    expect(second).not.toBe(first);
    process.kill(second, 'SIGUSR2');
    await supervisor.next(/The child exited with code 1; starting it again in 0.2 s\./);
    const third = await supervisor.nextReady();
    process.kill(third, 'SIGKILL');
    await supervisor.next(/The child was killed by SIGKILL; starting it again in 0.4 s\./);
    const fourth = await supervisor.nextReady();

    supervisor.child.kill('SIGTERM');
    expect(await supervisor.exited).toBe(0);
    expect(supervisor.output()).toContain(`drained ${fourth}`);
    expect(supervisor.output().match(/ready \d+/g)).toHaveLength(4);
    expect(supervisor.output().match(/starting it again/g)).toHaveLength(3);
  });

  it('a configuration refused on the first start stops it with EX_CONFIG, without a restart', async () => {
    const supervisor = startSupervisor(['refuse']);
    expect(await supervisor.exited).toBe(EX_CONFIG);
    expect(supervisor.output()).toBe(`supervisor ends with ${EX_CONFIG}\n`);
  });

  it('a configuration refused on a restart stops it with EX_CONFIG', async () => {
    const supervisor = startSupervisor(['serve', 'refuse']);
    process.kill(await supervisor.nextReady(), 'SIGKILL');
    expect(await supervisor.exited).toBe(EX_CONFIG);
    expect(supervisor.output().match(/starting it again/g)).toHaveLength(1);
  });

  it('a first start that fails stops it with its status; a restart that fails is started again', async () => {
    const never = startSupervisor(['fail']);
    expect(await never.exited).toBe(1);
    expect(never.output()).toBe('supervisor ends with 1\n');

    const served = startSupervisor(['serve', 'fail']);
    process.kill(await served.nextReady(), 'SIGKILL');
    await served.next(/The child was killed by SIGKILL; starting it again in 0.1 s\./);
    await served.next(/The child exited with code 1; starting it again in 0.2 s\./);
    await served.nextReady();
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
  });

  it('SIGTERM while a restart waits ends at once, starting nothing', async () => {
    const supervisor = startSupervisor([], { ...FAST, firstMs: 60_000, maxMs: 60_000 });
    process.kill(await supervisor.nextReady(), 'SIGKILL');
    await supervisor.next(/starting it again in 60 s\./);
    supervisor.child.kill('SIGTERM');
    expect(await supervisor.exited).toBe(0);
    expect(supervisor.output().match(/ready \d+/g)).toHaveLength(1);
  });

  it('SIGTERM to the whole process group drains the child once and starts nothing again', async () => {
    const supervisor = startSupervisor([]);
    const pid = await supervisor.nextReady();
    process.kill(-supervisor.child.pid!, 'SIGTERM');
    expect(await supervisor.exited).toBe(0);
    expect(supervisor.output().match(/drained \d+/g)).toEqual([`drained ${pid}`]);
    expect(supervisor.output()).not.toContain('starting it again');
  });
});
