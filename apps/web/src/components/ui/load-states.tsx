/** The states of a list or panel while its data loads: skeleton lines, then the reason it failed with a retry. */
import { Button } from 'primereact/button';
import './load-states.css';

/** Why the data did not load, and a Try again button (announced as an alert). */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="load-error">
      <p>{message}</p>
      <Button type="button" label="Try again" outlined size="small" onClick={onRetry} />
    </div>
  );
}

/** `count` skeleton lines (a label's height, or a table row's) announced as `label` while the data loads. */
export function LoadingLines({
  label,
  count,
  line = 'label',
}: {
  label: string;
  count: number;
  line?: 'label' | 'row';
}) {
  return (
    <div className="skeleton-stack" role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className={`skeleton skeleton--${line}`} />
      ))}
    </div>
  );
}
