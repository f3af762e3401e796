// Entry point: one query client (a 401 while signed in means the session ended: ask who is signed in again, which
// shows the sign-in page; a 409 /account-switched means another tab changed account: start again in that one), the
// router under /console, the app.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { ApiProblem } from './api/client.js';
import { App } from './app.js';
import './styles.css';

/**
 * A 401 while signed in means the session ended (idle, expired, signed out elsewhere): ask who is signed in again.
 * Only while signed in: refetching a session that never loaded would unmount the sign-in page and its error message.
 */
function sessionMayHaveEnded(error: unknown): void {
  if (error instanceof ApiProblem && error.status === 401 && queryClient.getQueryData(['session']) !== undefined)
    void queryClient.invalidateQueries({ queryKey: ['session'] });
  // Another tab switched this browser's account: everything cached is the other account's; the session, read again,
  // shows the one the browser is in now.
  if (error instanceof ApiProblem && error.code === 'account-switched') void queryClient.resetQueries();
}

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (query.queryKey[0] !== 'session') sessionMayHaveEnded(error);
    },
  }),
  mutationCache: new MutationCache({
    onError: (error) => {
      sessionMayHaveEnded(error);
    },
  }),
  defaultOptions: { queries: { refetchOnWindowFocus: true, retry: (count, error) => !(error instanceof ApiProblem && error.status < 500) && count < 2 } },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Router base="/console">
        <App />
      </Router>
    </QueryClientProvider>
  </StrictMode>,
);
