// Loading, empty and error states, the same on every page; an error shows the problem's detail.
import type { ReactNode } from 'react';
import { ApiProblem } from '../api/client.js';

export function Loading({ what }: { what: string }) {
  return (
    <p className="state" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state state-empty">{children}</p>;
}

export function ErrorState({ error }: { error: unknown }) {
  return (
    <div className="state state-error" role="alert">
      <strong>{error instanceof ApiProblem ? (error.problem.title ?? 'Error') : 'Error'}</strong>
      <span className="detail">{problemDetail(error)}</span>
    </div>
  );
}

export function problemDetail(error: unknown): string {
  if (error instanceof ApiProblem) {
    const fields = error.problem.errors?.map((e) => `${e.field} ${e.message}`).join(' ');
    return fields && error.code === 'validation' ? fields : error.message;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}
