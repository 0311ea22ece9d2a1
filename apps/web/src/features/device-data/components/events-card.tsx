import { useEffect, useId, useMemo, useState } from 'react';
import { Age } from '@/components/ui/age';
import { CARD_MESSAGES, eventColourClass, eventLabel, type DataEvent } from '@portal/core';
import './cards.css';

/** How often the relative ages are refreshed. */
const AGE_REFRESH_MS = 30_000;
const SKELETON_ROWS = [0, 1, 2, 3];

/** Re-renders every `intervalMs`, so relative times stay true while the page is open. */
function useTick(intervalMs: number): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const id = window.setInterval(() => setTick((n) => n + 1), intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
}

/** An age such as '3 min ago' that keeps itself current, with the absolute time (and zone) on hover. */
export function RelativeTime({ ts, className }: { ts: number; className?: string }) {
  useTick(AGE_REFRESH_MS);
  if (!Number.isFinite(ts)) return null;
  return <Age ts={ts} nowMs={Date.now()} className={className} />;
}

function EventRows({ events }: { events: readonly DataEvent[] }) {
  return (
    // The list scrolls inside the card, so it takes focus to be scrolled from the keyboard.
    <div className="dd-events" role="region" aria-label="Events, newest first" tabIndex={0}>
      <ul className="dd-events__list">
        {events.map((event, index) => (
          <li key={`${event.ts}-${index}`} className="dd-events__row">
            <span className={`dd-level dd-level--${eventColourClass(event)}`}>{eventLabel(event)}</span>
            <span className="dd-events__text">
              <span className="dd-events__msg">{event.msg}</span>
              {event.topic ? <span className="dd-events__topic">{event.topic}</span> : null}
            </span>
            <RelativeTime ts={event.ts} className="dd-events__time" />
          </li>
        ))}
      </ul>
    </div>
  );
}

function EventSkeleton() {
  return (
    <ul className="dd-events__list" aria-hidden="true">
      {SKELETON_ROWS.map((row) => (
        <li key={row} className="dd-events__row">
          <span className="skeleton dd-events__skeleton-badge" />
          <span className="skeleton dd-events__skeleton-text" />
          <span className="skeleton dd-events__skeleton-time" />
        </li>
      ))}
    </ul>
  );
}

/** The Events card: the device's events newest first, each with its level badge, message, topic and age. */
export function EventsCard({ events, loading = false }: { events: readonly DataEvent[]; loading?: boolean }) {
  const titleId = useId();
  const newestFirst = useMemo(() => [...events].sort((a, b) => b.ts - a.ts), [events]);
  const showCount = !loading && newestFirst.length > 0;

  return (
    <section className="card dd-card" aria-labelledby={titleId} aria-busy={loading || undefined}>
      <header className="dd-card__head">
        <h2 id={titleId} className="dd-card__title">
          Events
        </h2>
        {showCount ? <span className="dd-card__count">{newestFirst.length}</span> : null}
      </header>
      {loading ? (
        <EventSkeleton />
      ) : newestFirst.length === 0 ? (
        <p className="dd-card-message">{CARD_MESSAGES.noEvents}</p>
      ) : (
        <EventRows events={newestFirst} />
      )}
    </section>
  );
}
