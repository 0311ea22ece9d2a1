import { StrictMode } from 'react';
import type { SessionResponse } from '@portal/core';
import { BrowserRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { AuthProvider, useAuth } from '@/lib/auth/auth-context';
import { MessageDialogProvider } from '@/lib/message-dialog';
import { createQueryClient } from '@/lib/query-client';
import { AppRoutes } from './routes';
import { usePrefetchGroupHome, useSessionData, useUnregisterServiceWorkers } from './start-up';
import { ToastHost } from './toast-host';

const queryClient = createQueryClient();

/** Blank until the session check answers (spec 1 section 4), then the routes. */
function Root() {
  const { checked } = useAuth();
  useUnregisterServiceWorkers();
  useSessionData();
  // After the group list and user info are asked for: the server answers those small calls before
  // it starts on the dashboard's data call (home names the group from the list while it waits).
  usePrefetchGroupHome();
  if (!checked) return null;
  return <AppRoutes />;
}

export function App({ sessionCheck }: { sessionCheck?: Promise<SessionResponse> }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AuthProvider sessionCheck={sessionCheck}>
          <BrowserRouter>
            <MessageDialogProvider>
              <Root />
              <ToastHost />
            </MessageDialogProvider>
          </BrowserRouter>
        </AuthProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
