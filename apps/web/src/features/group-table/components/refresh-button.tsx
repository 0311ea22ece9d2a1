import { useEffect, useState } from 'react';
import { REFRESH_COOLDOWN_S } from '@portal/core';

export interface RefreshButtonProps {
  fetching: boolean;
  /** ms epoch of the data shown. */
  updatedAt: number;
  /** The automatic refresh's interval; the countdown runs to updatedAt + this. */
  refreshIntervalMs: number;
  onRefresh: () => void;
}

/**
 * The table's refresh button (spec 2 sections 2 and 4): a visible countdown to the next automatic
 * refresh; disabled while fetching and for REFRESH_COOLDOWN_S seconds after a refresh, enabled
 * once the counter reaches it. Ticks on its own, so the table does not re-render every second.
 */
export function RefreshButton({ fetching, updatedAt, refreshIntervalMs, onRefresh }: RefreshButtonProps) {
  const [nowMs, setNowMs] = useState(() => Date.now());
  const [refreshedAt, setRefreshedAt] = useState<number | null>(null);
  useEffect(() => {
    const id = window.setInterval(() => setNowMs(Date.now()), 250);
    return () => window.clearInterval(id);
  }, []);

  const coolingMs = refreshedAt === null ? 0 : refreshedAt + REFRESH_COOLDOWN_S * 1000 - nowMs;
  const cooling = coolingMs > 0;
  const disabled = fetching || cooling;
  const nextS =
    updatedAt > 0 && refreshIntervalMs > 0
      ? Math.max(0, Math.ceil((updatedAt + refreshIntervalMs - nowMs) / 1000))
      : null;
  const countdown = fetching ? 'Refreshing…' : nextS === null ? '' : formatCountdown(nextS);

  return (
    <button
      type="button"
      className="p-button p-button-outlined p-button-sm gt-refresh"
      disabled={disabled}
      aria-disabled={disabled}
      title={
        cooling
          ? `Refresh is available again in ${Math.ceil(coolingMs / 1000)} s`
          : nextS === null
            ? 'Refresh now'
            : `Refresh now; the next automatic refresh is in ${countdown}`
      }
      onClick={() => {
        const at = Date.now();
        setRefreshedAt(at);
        setNowMs(at);
        onRefresh();
      }}
    >
      <i className={`pi ${fetching ? 'pi-spin pi-spinner' : 'pi-refresh'}`} aria-hidden="true" />
      <span>Refresh</span>
      {countdown ? (
        <span className="gt-refresh__count" data-testid="refresh-countdown">
          {countdown}
        </span>
      ) : null}
    </button>
  );
}

/** Seconds as '42 s' or '2:05'. */
function formatCountdown(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}
