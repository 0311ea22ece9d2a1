import { useEffect, useState } from 'react';

/**
 * The current time in epoch ms, for relative times and the contact status: updated every
 * `everyMs`, and at once whenever `freshness` changes (pass the data's answer time, so a new record
 * is never measured against a clock up to `everyMs` old).
 */
export function useNow(everyMs: number, freshness?: unknown): number {
  const [clock, setClock] = useState(() => ({ freshness, now: Date.now() }));
  let current = clock;
  if (clock.freshness !== freshness) {
    // New data: read the clock in the same render that shows it (React's "adjust state on a change" pattern).
    current = { freshness, now: Date.now() };
    setClock(current);
  }
  useEffect(() => {
    const timer = window.setInterval(() => setClock((c) => ({ ...c, now: Date.now() })), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return current.now;
}
