/**
 * The Map card's frame: title, the map's place and the fix's time. Only the map itself (Leaflet,
 * map-card.tsx) is loaded lazily, into a place of the same size, so the card never changes size
 * when it arrives; its code is asked for as soon as this module runs, with the page's data.
 */
import { lazy, Suspense, useId } from 'react';
import { CARD_MESSAGES } from '@portal/core';
import { RelativeTime } from './events-card';
import type { MapCardProps } from './map-card';
import './cards.css';

const leafletMap = import('./map-card');
// A failed load shows when the map is drawn (the error boundary); it is not an unhandled rejection before that.
leafletMap.catch(() => undefined);
const LeafletMap = lazy(() => leafletMap.then((m) => ({ default: m.LeafletMap })));

/** The Map card: the device's last GPS fix, a dot in its severity colour with a white ring and the accuracy circle. */
export function MapCard({ lat, lon, hdop, severity, label, ts }: MapCardProps) {
  const titleId = useId();
  const hasPosition = lat !== null && lon !== null && Number.isFinite(lat) && Number.isFinite(lon);
  return (
    <section className="card dd-card" aria-labelledby={titleId}>
      <header className="dd-card__head">
        <h2 id={titleId} className="dd-card__title">
          Map
        </h2>
      </header>
      <div className={hasPosition ? 'dd-map' : 'dd-map dd-map--empty'}>
        {hasPosition ? (
          <Suspense
            fallback={
              <div className="dd-map__canvas skeleton" aria-busy="true" role="status" aria-label="Loading the map" />
            }
          >
            <LeafletMap lat={lat} lon={lon} hdop={hdop} severity={severity} label={label} ts={ts} />
          </Suspense>
        ) : (
          <p className="dd-card-message">{CARD_MESSAGES.noData}</p>
        )}
      </div>
      {hasPosition && ts !== null ? (
        <footer className="dd-card__foot">
          <RelativeTime ts={ts} />
        </footer>
      ) : null}
    </section>
  );
}
