import { MAP_LOAD_ERROR } from '@portal/core';

/** The map could not be loaded or made (spec 1 section 8), with a retry when one can help. */
export function MapLoadError({ onRetry }: { onRetry?: () => void }) {
  return (
    <div className="gm-frame gm-frame--message" role="alert">
      <p className="gm-error">{MAP_LOAD_ERROR}</p>
      {onRetry ? (
        <button type="button" className="p-button p-button-outlined p-button-sm" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
