// What a view shows while it loads, when it failed, and when there is nothing at this address.
import { ApiProblem } from '../api.js';

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorMessage({ error, retry }: { error: unknown; retry?: () => void }) {
  const message = error instanceof ApiProblem ? error.message : 'Something went wrong.';
  return (
    <div class="alert" role="alert">
      <p>{message}</p>
      {retry ? (
        <button type="button" class="secondary" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 404;
}

export function NotFound() {
  return (
    <main id="main" class="page not-found">
      <h1>Page not found</h1>
      <p>There is no booking page at this address. Check the link you followed, or ask the business you want to book with for its booking page.</p>
    </main>
  );
}
