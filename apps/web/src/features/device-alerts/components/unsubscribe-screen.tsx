import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ProgressSpinner } from 'primereact/progressspinner';
import { mutationErrorMessage } from '@portal/core';
import { unsubscribe } from '../api/alert-subscription';
import './device-alerts.css';

type State = { kind: 'pending' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

/** /unsubscribe/{token}: the link of an alert e-mail turns that subscription's e-mail off, signed in or not. */
export function UnsubscribeScreen({ token }: { token: string }) {
  const [state, setState] = useState<State>({ kind: 'pending' });
  const started = useRef<string | null>(null);

  useEffect(() => {
    if (started.current === token) return;
    started.current = token;
    unsubscribe(token).then(
      (answer) => setState({ kind: 'done', message: answer.message }),
      (error: unknown) => setState({ kind: 'failed', message: mutationErrorMessage(error) }),
    );
  }, [token]);

  return (
    <div className="page page--narrow">
      <header className="page-header">
        <h1 className="page-title">Alert e-mails</h1>
      </header>
      <section className="card unsubscribe-card">
        {state.kind === 'pending' ? (
          <div role="status" className="unsubscribe-card">
            <ProgressSpinner strokeWidth="5" style={{ width: '2rem', height: '2rem' }} aria-hidden="true" />
            <span>Turning alert e-mails off…</span>
          </div>
        ) : (
          <>
            <p role={state.kind === 'failed' ? 'alert' : 'status'}>
              <i
                className={`pi ${state.kind === 'done' ? 'pi-check-circle' : 'pi-exclamation-triangle'}`}
                aria-hidden="true"
              />{' '}
              {state.message}
            </p>
            <p className="muted">
              You can change your alerts at any time with the Alerts button on the device&apos;s page.
            </p>
            <Link to="/">Go to the portal</Link>
          </>
        )}
      </section>
    </div>
  );
}
