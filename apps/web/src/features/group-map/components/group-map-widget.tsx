/**
 * The dashboard's map widget (spec 1 section 2; ledger MAP-01 - MAP-12, MAP-14): every device of
 * the group that has a position, as a dot in its marker severity colour, clustered. Only this
 * frame is in the dashboard's code; Leaflet, supercluster and the map itself load in a chunk of
 * their own, asked for as soon as this module runs. When that chunk (or the map) cannot load,
 * the widget says 'Map Load Error' (spec 1 section 8) with a Retry.
 */
import { Component, Suspense, lazy, useState, type ComponentType, type JSX, type ReactNode } from 'react';
import type { GroupDataDevice } from '@portal/core';
import type { LeafletGroupMapProps } from './leaflet-group-map';
import { MapLoadError } from './map-load-error';
import './group-map.css';

type LeafletModule = { default: ComponentType<LeafletGroupMapProps> };

const loadLeafletMap = (): Promise<LeafletModule> => import('./leaflet-group-map');
const firstLoad = loadLeafletMap();
// A failed load shows as 'Map Load Error' when the widget is drawn; it is not an unhandled rejection before that.
firstLoad.catch(() => undefined);
const FirstLeafletMap = lazy(() => firstLoad);

export interface GroupMapWidgetProps {
  devices: readonly GroupDataDevice[];
  loading: boolean;
}

interface BoundaryProps {
  children: ReactNode;
  onRetry: () => void;
}

/** Catches the map chunk's failed load (or a crash inside the map) and shows 'Map Load Error' in the widget only. */
class MapBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <MapLoadError onRetry={this.props.onRetry} /> : this.props.children;
  }
}

export function GroupMapWidget({ devices, loading }: GroupMapWidgetProps): JSX.Element {
  // A retry asks for the chunk again (a new lazy component, as React keeps a failed one failed).
  const [attempt, setAttempt] = useState<{ n: number; MapView: typeof FirstLeafletMap }>({
    n: 0,
    MapView: FirstLeafletMap,
  });
  const retry = () => setAttempt(({ n }) => ({ n: n + 1, MapView: lazy(loadLeafletMap) }));
  const { MapView } = attempt;
  return (
    <div className="gm-widget">
      <MapBoundary key={attempt.n} onRetry={retry}>
        <Suspense
          fallback={
            <div
              className="gm-frame gm-skeleton skeleton"
              aria-busy="true"
              role="status"
              aria-label="Loading the map"
            />
          }
        >
          <MapView devices={devices} loading={loading} />
        </Suspense>
      </MapBoundary>
    </div>
  );
}

export default GroupMapWidget;
