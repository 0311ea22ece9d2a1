// Sign-in, session-check and sign-up round trips against the real server (PGlite), sequential, loopback.
import { startStack, uniqueEmail } from '../../e2e/src/harness';
import type { BenchResult } from './run';
import { median } from './stats';

const REQUESTS = 200;
const RUNS = 3;
/** Sign-ups per run with a new address, and as many with a taken one, alternating. */
const SIGNUPS = 15;
const TAKEN_EMAIL = 'demo@portal.local';

export async function authRoundTrip(): Promise<BenchResult[]> {
  const stack = await startStack();
  const sessionRates: number[] = [];
  const loginMs: number[] = [];
  // A taken address must answer like a new one, after the same work (no account enumeration by time).
  const signupNewMs: number[] = [];
  const signupTakenMs: number[] = [];
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

      const signupMs = async (email: string) => {
        const s0 = performance.now();
        const res = await stack.apiClient()('POST', '/api/auth/signup', { email, password: 'bench-password-1' });
        if (res.status !== 201) throw new Error(`sign-up answered ${res.status}`);
        return performance.now() - s0;
      };
      const fresh: number[] = [];
      const taken: number[] = [];
      for (let i = 0; i < SIGNUPS; i += 1) {
        fresh.push(await signupMs(uniqueEmail('bench-signup')));
        taken.push(await signupMs(TAKEN_EMAIL));
      }
      signupNewMs.push(median(fresh));
      signupTakenMs.push(median(taken));
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
    {
      name: 'signup-new-address-latency',
      value: round(median(signupNewMs)),
      unit: 'ms',
      better: 'lower',
      runs: signupNewMs.map(round),
    },
    {
      name: 'signup-taken-address-latency',
      value: round(median(signupTakenMs)),
      unit: 'ms',
      better: 'lower',
      runs: signupTakenMs.map(round),
    },
  ];
}
