/** The timeline bar (spec 2 sections 2 and 4): Back 10, Back 1, the time heading, Forward 1, Forward 10. */
import { formatDateTime, stepTimeline, timelineState } from '@portal/core';

export interface TimelineBarProps {
  index: number;
  length: number;
  /** Epoch seconds of the selected record, or null with no data. */
  ts: number | null;
  restricted: boolean;
  onIndex: (index: number) => void;
}

export function TimelineBar({ index, length, ts, restricted, onIndex }: TimelineBarProps) {
  const state = timelineState(index, length, restricted);
  const step = (by: number) => onIndex(stepTimeline(index, by, length));
  const time = ts === null ? '' : formatDateTime(ts * 1000);
  return (
    <div className="dp-timeline" role="group" aria-label="Timeline">
      <div className="dp-timeline-buttons">
        <button
          type="button"
          className="p-button p-button-sm p-button-outlined"
          disabled={state.backDisabled}
          onClick={() => step(10)}
        >
          <i className="pi pi-angle-double-left" aria-hidden="true" /> Back 10
        </button>
        <button
          type="button"
          className="p-button p-button-sm p-button-outlined"
          disabled={state.backDisabled}
          onClick={() => step(1)}
        >
          <i className="pi pi-angle-left" aria-hidden="true" /> Back 1
        </button>
      </div>
      <button
        type="button"
        className={`dp-timeline-heading${index === 0 ? '' : ' dp-timeline-heading--history'}`}
        onClick={() => onIndex(0)}
        title="Go to the latest data"
        aria-live="polite"
      >
        <span className="dp-timeline-title">{state.heading}</span>
        {time && <span className="dp-timeline-time">{time}</span>}
      </button>
      <div className="dp-timeline-buttons">
        <button
          type="button"
          className="p-button p-button-sm p-button-outlined"
          disabled={state.forwardDisabled}
          onClick={() => step(-1)}
        >
          Forward 1 <i className="pi pi-angle-right" aria-hidden="true" />
        </button>
        <button
          type="button"
          className="p-button p-button-sm p-button-outlined"
          disabled={state.forwardDisabled}
          onClick={() => step(-10)}
        >
          Forward 10 <i className="pi pi-angle-double-right" aria-hidden="true" />
        </button>
      </div>
    </div>
  );
}
