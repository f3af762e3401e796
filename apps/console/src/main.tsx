// Entry point: one query client (a 401 anywhere means the session ended: ask who is signed in again, which shows the
// sign-in page), the router under /console, the app.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { ApiProblem } from './api/client.js';
import { App } from './app.js';
import './styles.css';

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (error instanceof ApiProblem && error.status === 401 && query.queryKey[0] !== 'session') void queryClient.invalidateQueries({ queryKey: ['session'] });
    },
  }),
  mutationCache: new MutationCache({
    onError: (error) => {
      if (error instanceof ApiProblem && error.status === 401) void queryClient.invalidateQueries({ queryKey: ['session'] });
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
