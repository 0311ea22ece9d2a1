// Sign-in and session-check round trips against the real server (PGlite), sequential, loopback.
import { startStack } from '../../e2e/src/harness';
import type { BenchResult } from './run';
import { median } from './stats';

const REQUESTS = 200;
const RUNS = 3;

export async function authRoundTrip(): Promise<BenchResult[]> {
  const stack = await startStack();
  const sessionRates: number[] = [];
  const loginMs: number[] = [];
  try {
    const api = stack.apiClient();
    const login = await api('POST', '/api/auth/login', { email: 'demo@portal.local', password: 'demo-portal-2026' });
    if (login.status !== 200) throw new Error(`demo sign-in failed: ${JSON.stringify(login)}`);
    for (let run = 0; run < RUNS; run += 1) {
      const start = performance.now();
      for (let i = 0; i < REQUESTS; i += 1) {
        const res = await api('GET', '/api/auth/session');
        if (res.status !== 200) throw new Error(`session check answered ${res.status}`);
      }
      sessionRates.push(REQUESTS / ((performance.now() - start) / 1000));
      const t0 = performance.now();
      const again = await stack.apiClient()('POST', '/api/auth/login', {
        email: 'demo@portal.local',
        password: 'demo-portal-2026',
      });
      if (again.status !== 200) throw new Error('sign-in failed');
      loginMs.push(performance.now() - t0);
    }
  } finally {
    await stack.close();
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  return [
    {
      name: 'session-check-rate',
      value: round(median(sessionRates)),
      unit: 'req/s',
      better: 'higher',
      runs: sessionRates.map(round),
    },
    { name: 'sign-in-latency', value: round(median(loginMs)), unit: 'ms', better: 'lower', runs: loginMs.map(round) },
  ];
}
