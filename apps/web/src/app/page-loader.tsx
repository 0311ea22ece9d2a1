import { useEffect, useState } from 'react';

/** Suspense fallback while a route's code loads: nothing for a moment, then a content-shaped skeleton. */
export function PageLoader() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), 250);
    return () => clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <div className="page" aria-busy="true" role="status" aria-label="Loading">
      <div className="skeleton skeleton--title" />
      <div className="card skeleton-stack">
        <div className="skeleton skeleton--row" />
        <div className="skeleton skeleton--row" />
        <div className="skeleton skeleton--row" />
      </div>
    </div>
  );
}
