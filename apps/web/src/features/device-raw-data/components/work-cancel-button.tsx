import { Button } from 'primereact/button';

/**
 * The left button of a dialog doing long work (export, import): Cancel stops the work while it
 * runs; otherwise it closes the dialog, as Close once the work is done.
 */
export function WorkCancelButton({ step, onStop, onHide }: { step: string; onStop: () => void; onHide: () => void }) {
  const running = step === 'running';
  return (
    <Button
      type="button"
      label={step === 'done' ? 'Close' : 'Cancel'}
      className="p-button-outlined"
      onClick={running ? onStop : onHide}
    />
  );
}
