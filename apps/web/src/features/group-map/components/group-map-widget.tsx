/**
 * The dashboard's map widget (spec 1 section 2): every device of the group with a position, as a
 * dot in its marker severity colour. Leaflet itself is loaded lazily (its own chunk).
 */
import { lazy, Suspense, type JSX } from 'react';
import type { GroupDataDevice } from '@portal/core';
import './group-map.css';

const leafletGroupMap = import('./leaflet-group-map');
// A failed load shows when the map is drawn; it is not an unhandled rejection before that.
leafletGroupMap.catch(() => undefined);
const LeafletGroupMap = lazy(() => leafletGroupMap);

export interface GroupMapWidgetProps {
  devices: readonly GroupDataDevice[];
  loading: boolean;
}

export function GroupMapWidget({ devices, loading }: GroupMapWidgetProps): JSX.Element {
  return (
    <div className="gm-widget">
      <Suspense fallback={<div className="gm-map skeleton" aria-busy="true" aria-label="Loading the map" />}>
        <LeafletGroupMap devices={devices} loading={loading} />
      </Suspense>
    </div>
  );
}

export default GroupMapWidget;
