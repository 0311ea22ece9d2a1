/**
 * The Command queue card of the Data page (spec 2 section 7; TRG-08, API-40, API-41): folded at
 * first, so a Data page neither asks for the queue nor loads the list's code until the user
 * opens it. Every role may read the queue (the server answers it for each); Cancel shows where
 * the role may cancel, and the server decides again.
 */
import { lazy, Suspense, useId, useState } from 'react';
import type { DeviceRole } from '@portal/core';
import { CommandQueueSkeleton } from './command-queue-skeleton';
import './command-queue.css';

const CommandQueueList = lazy(() => import('./command-queue-list').then((m) => ({ default: m.CommandQueueList })));

export interface CommandQueueCardProps {
  deviceid: string;
  role: DeviceRole;
}

export function CommandQueueCard({ deviceid, role }: CommandQueueCardProps) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  return (
    <section id="dp-commands" className="card cq-card" aria-label="Command queue" data-dp-index="Command queue">
      <h2 className="cq-title">
        <button
          type="button"
          className="cq-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
        >
          <i className={`pi ${open ? 'pi-chevron-down' : 'pi-chevron-right'}`} aria-hidden="true" />
          Command queue
        </button>
      </h2>
      <div id={bodyId} hidden={!open}>
        {open && (
          <Suspense fallback={<CommandQueueSkeleton />}>
            <CommandQueueList deviceid={deviceid} role={role} />
          </Suspense>
        )}
      </div>
    </section>
  );
}
