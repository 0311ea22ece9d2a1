import { Component, type ErrorInfo, type ReactNode } from 'react';
import { GENERIC_ERROR_TEXT } from '@portal/core';
import { StatusScreen } from '@/components/ui/status-screen';
import { reportClientError } from '@/lib/report-error';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** A change of this value (the path) clears a crash, so navigating away recovers. */
  resetKey?: string;
}

interface ErrorBoundaryState {
  crashed: boolean;
}

/** A rendering crash shows the generic error screen (spec 1 section 2) and is reported to the server. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { crashed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { crashed: true };
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.crashed && previous.resetKey !== this.props.resetKey) this.setState({ crashed: false });
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const err = error instanceof Error ? error : new Error(String(error));
    void reportClientError({
      message: err.message || 'Rendering error',
      stack: [err.stack, info.componentStack].filter(Boolean).join('\n'),
      url: location.href,
    });
  }

  override render() {
    if (!this.state.crashed) return this.props.children;
    return (
      <StatusScreen
        icon="pi pi-exclamation-triangle"
        title="Something went wrong"
        tone="danger"
        actions={
          <>
            <button type="button" className="p-button p-button-outlined" onClick={() => location.reload()}>
              Reload page
            </button>
            <a className="p-button" href="/">
              Go to home
            </a>
          </>
        }
      >
        <p>{GENERIC_ERROR_TEXT}</p>
      </StatusScreen>
    );
  }
}
