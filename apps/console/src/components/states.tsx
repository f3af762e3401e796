// Loading, empty and error states, the same on every page. An error is one sentence in words (never an HTTP title);
// a validation problem's sentences can be shown next to the fields they concern (FieldError), the rest above the form.
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
    <p className="state state-error" role="alert">
      {problemDetail(error)}
    </p>
  );
}

/** A member's path in words: `CurrentPassword` -> "Current password", `Times[0]` -> "Times 1", `Customer.Email` -> "E-mail". */
export function fieldInWords(field: string): string {
  const last = field.split('.').pop() ?? field;
  const spelled = last
    .replace(/\[(\d+)\]/g, (_m, index: string) => ` ${Number(index) + 1}`)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\bemail\b/, 'e-mail')
    .replace(/\bid\b/, 'ID');
  return spelled.charAt(0).toUpperCase() + spelled.slice(1);
}

/** One validation error as one sentence: the field named once, in words, however the API's message began. */
export function fieldSentence(error: { field: string; message: string }): string {
  const rest = error.message.startsWith(error.field) ? error.message.slice(error.field.length).trimStart() : error.message;
  return `${fieldInWords(error.field)} ${rest}`;
}

function validationErrors(error: unknown): { field: string; message: string }[] {
  return error instanceof ApiProblem && error.code === 'validation' ? (error.problem.errors ?? []) : [];
}

/** The sentence about one field, for beside it; null when the error does not concern it. */
export function fieldErrorOf(error: unknown, field: string): string | null {
  const found = validationErrors(error).filter((e) => e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`));
  return found.length > 0 ? found.map(fieldSentence).join(' ') : null;
}

export function FieldError({ error, field, id }: { error: unknown; field: string; id?: string }) {
  const sentence = fieldErrorOf(error, field);
  return sentence ? (
    <span className="field-error" id={id} role="alert">
      {sentence}
    </span>
  ) : null;
}

/**
 * The problem in words. `shownBesideFields`: the fields whose errors a form already shows next to them, left out here
 * (null when nothing is left to say).
 */
export function problemDetail(error: unknown, shownBesideFields: readonly string[] = []): string {
  if (error instanceof ApiProblem) {
    const errors = validationErrors(error);
    if (errors.length > 0) {
      const elsewhere = errors.filter((e) => !shownBesideFields.some((f) => e.field === f || e.field.startsWith(`${f}.`) || e.field.startsWith(`${f}[`)));
      return elsewhere.map(fieldSentence).join(' ');
    }
    return error.message;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}
