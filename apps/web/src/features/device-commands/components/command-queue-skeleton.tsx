/** Rows shaped like the list while its code or the queue loads. */
export function CommandQueueSkeleton() {
  return (
    <div className="skeleton-stack cq-skeleton" aria-busy="true" role="status" aria-label="Loading the command queue">
      {Array.from({ length: 3 }, (_, i) => (
        <div key={i} className="skeleton skeleton--row" />
      ))}
    </div>
  );
}
