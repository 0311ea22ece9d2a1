import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ProgressSpinner } from 'primereact/progressspinner';
import { mutationErrorMessage } from '@portal/core';
import { verifyEmail } from '../api/verify-email';
import { useEndSession } from '../hooks/use-sign-out';
import { AuthCard } from './auth-card';
import { SentPanel } from './sent-panel';

type VerifyState = { kind: 'pending' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

/**
 * /verify/{code}: signs the current session out first (spec 1 sections 2 and 4), then
 * confirms the address and shows the server's answer.
 */
export function VerifyScreen({ code }: { code: string }) {
  const [state, setState] = useState<VerifyState>({ kind: 'pending' });
  const endSession = useEndSession();
  const started = useRef<string | null>(null);

  useEffect(() => {
    // verification codes are single use: never send the same one twice
    if (started.current === code) return;
    started.current = code;
    void (async () => {
      await endSession();
      try {
        const answer = await verifyEmail(code);
        setState({ kind: 'done', message: answer.message });
      } catch (error) {
        setState({ kind: 'failed', message: mutationErrorMessage(error) });
      }
    })();
  }, [code, endSession]);

  if (state.kind === 'pending') {
    return (
      <AuthCard title="Verifying your e-mail">
        <div className="auth-pending" role="status">
          <ProgressSpinner strokeWidth="5" className="auth-pending__spinner" aria-hidden="true" />
          <span>Checking your link…</span>
        </div>
      </AuthCard>
    );
  }
  if (state.kind === 'done') {
    return (
      <AuthCard title="E-mail verified">
        <SentPanel message={state.message} icon="pi pi-check-circle" />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Verification failed"
      links={
        <span>
          Need a new link? <Link to="/login">Sign in</Link> and we will send one.
        </span>
      }
    >
      <SentPanel message={state.message} tone="danger" signInLink={false} />
    </AuthCard>
  );
}
