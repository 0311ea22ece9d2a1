/**
 * Remote trigger buttons (spec 2 sections 4 and 8): each queues 'Admin.Trigger' {index}; the
 * button is busy for 5 s after being queued; success shows 'Successfully Queued' with the
 * next-contact explanation, failure the server's message.
 */
import { useEffect, useRef, useState } from 'react';
import { Dialog } from 'primereact/dialog';
import { TRIGGER_BUSY_MS, TRIGGER_SUCCESS_TEXT, TRIGGER_SUCCESS_TITLE } from '@portal/core';
import { useMessageDialog } from '@/lib/message-dialog';
import { useQueueTrigger } from '../api/device-actions';
import type { TriggerParameter } from '../api/device-config';

export interface TriggerCardProps {
  deviceid: string;
  triggers: readonly TriggerParameter[];
  /** Per trigger index: the confirmation text when the key's display settings ask for one. */
  confirmations?: ReadonlyMap<number, string>;
}

export function TriggerCard({ deviceid, triggers, confirmations }: TriggerCardProps) {
  const queue = useQueueTrigger(deviceid);
  const messages = useMessageDialog();
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), []);

  const [confirming, setConfirming] = useState<{ index: number; text: string } | null>(null);

  const press = (index: number) => {
    const text = confirmations?.get(index);
    if (text) setConfirming({ index, text });
    else fire(index);
  };

  const fire = (index: number) => {
    setBusy((b) => new Set(b).add(index));
    queue.mutate(index, {
      onSuccess: () => {
        messages.show(TRIGGER_SUCCESS_TITLE, TRIGGER_SUCCESS_TEXT, 'success');
        timers.current.push(
          window.setTimeout(
            () =>
              setBusy((b) => {
                const next = new Set(b);
                next.delete(index);
                return next;
              }),
            TRIGGER_BUSY_MS,
          ),
        );
      },
      onError: (error) => {
        messages.showError(error);
        setBusy((b) => {
          const next = new Set(b);
          next.delete(index);
          return next;
        });
      },
    });
  };

  return (
    <section
      id="dp-triggers"
      className="card dp-card dp-card--wide dp-triggers"
      aria-labelledby="dp-triggers-title"
      data-dp-index="Remote Triggers"
    >
      <h2 id="dp-triggers-title" className="dp-card-title">
        Remote Triggers
      </h2>
      <div className="dp-trigger-list">
        {triggers.map((t) => {
          const isBusy = busy.has(t.index);
          return (
            <button
              key={t.index}
              type="button"
              className="p-button p-button-outlined dp-trigger"
              disabled={isBusy}
              aria-busy={isBusy}
              onClick={() => press(t.index)}
            >
              {isBusy ? (
                <i className="pi pi-spin pi-spinner" aria-hidden="true" />
              ) : (
                <i className="pi pi-bolt" aria-hidden="true" />
              )}
              {t.name}
            </button>
          );
        })}
      </div>
      <p className="dp-card-note">Runs at once when the device is online, otherwise at its next contact.</p>
      <Dialog
        header="Confirm"
        visible={confirming !== null}
        onHide={() => setConfirming(null)}
        className="dp-dialog"
        breakpoints={{ '640px': '100vw' }}
        footer={
          <div className="dp-dialog-footer">
            <button type="button" className="p-button p-button-text" onClick={() => setConfirming(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="p-button"
              autoFocus
              onClick={() => {
                if (confirming) fire(confirming.index);
                setConfirming(null);
              }}
            >
              Queue
            </button>
          </div>
        }
      >
        <p>{confirming?.text}</p>
      </Dialog>
    </section>
  );
}
