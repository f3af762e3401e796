// One labelled form field: its label, an optional hint, and its error right under it, tied to the control by
// aria-describedby and announced when it appears (aria-live), so a screen reader hears which field failed.
import type { ComponentChildren } from 'preact';
import { ErrorMessage } from './states.js';

export interface FieldProps {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  optional?: boolean;
  children: ComponentChildren;
}

/** The attributes a field's control carries: what describes it, whether it is invalid. */
export function controlProps(id: string, hint: string | undefined, error: string | undefined) {
  const describedBy = [hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' ');
  return { id, 'aria-describedby': describedBy, 'aria-invalid': error ? ('true' as const) : undefined };
}

export function Field({ id, label, hint, error, optional, children }: FieldProps) {
  return (
    <div class={error ? 'field invalid' : 'field'}>
      <label for={id}>
        {label}
        {optional ? <span class="optional"> (optional)</span> : null}
      </label>
      {hint ? (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      ) : null}
      {children}
      <p id={`${id}-error`} class="error" aria-live="polite">
        {error ?? ''}
      </p>
    </div>
  );
}

/** A group of choices (radio buttons, check boxes) under one legend, with the same hint and error as a field. */
export function FieldSet({ id, label, hint, error, optional, children }: FieldProps) {
  return (
    <fieldset class={error ? 'field invalid' : 'field'} id={id} aria-describedby={[hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' ')}>
      <legend>
        {label}
        {optional ? <span class="optional"> (optional)</span> : null}
      </legend>
      {hint ? (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      ) : null}
      {children}
      <p id={`${id}-error`} class="error" aria-live="polite">
        {error ?? ''}
      </p>
    </fieldset>
  );
}

/** A field people never see or hear: a form that comes back with it filled in was sent by a robot. */
export function Honeypot({ value, onInput }: { value: string; onInput: (value: string) => void }) {
  return (
    <div class="hp" aria-hidden="true">
      <label for="website">Website</label>
      <input id="website" name="website" type="text" tabIndex={-1} autocomplete="off" value={value} onInput={(e) => onInput(e.currentTarget.value)} />
    </div>
  );
}

/** The end of a form: how many fields need attention (announced), the server's refusal, and the submit button. */
export function FormFooter({
  errorCount,
  problem,
  busy,
  label,
  busyLabel,
}: {
  errorCount: number;
  problem: unknown;
  busy: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <>
      <p class="form-errors" role="alert">
        {errorCount ? `${errorCount} ${errorCount === 1 ? 'field needs' : 'fields need'} your attention.` : ''}
      </p>
      {problem ? <ErrorMessage error={problem} /> : null}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? busyLabel : label}
        </button>
      </div>
    </>
  );
}
