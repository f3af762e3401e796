// A new password twice, compared as it is typed, for every form that sets one (joining, a reset, changing one's own):
// the API's rule (its length) as a hint, its refusal beside the field, and "differ" before anything is sent.
import { FieldError } from './states.js';

export const MIN_PASSWORD_LENGTH = 12;

/** Whether the repetition, once typed, differs from the password: the form is not sent then. */
export const passwordsDiffer = (password: string, repeated: string) => repeated !== '' && repeated !== password;

export function PasswordFields({
  field,
  password,
  repeated,
  onPassword,
  onRepeated,
  error,
  autoFocus = false,
}: {
  /** The API's member for the new password (Password, NewPassword), whose errors show beside the field. */
  field: string;
  password: string;
  repeated: string;
  onPassword: (value: string) => void;
  onRepeated: (value: string) => void;
  error: unknown;
  autoFocus?: boolean;
}) {
  const mismatch = passwordsDiffer(password, repeated);
  return (
    <>
      <div className="field">
        <label>
          New password
          <input
            name={field}
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            value={password}
            onChange={(e) => onPassword(e.target.value)}
            aria-describedby="new-hint new-error"
            autoFocus={autoFocus}
          />
        </label>
        <span className="hint" id="new-hint">
          At least {MIN_PASSWORD_LENGTH} characters.
        </span>
        <FieldError error={error} field={field} id="new-error" />
      </div>
      <div className="field">
        <label>
          New password again
          <input
            name="RepeatedPassword"
            type="password"
            autoComplete="new-password"
            required
            value={repeated}
            onChange={(e) => onRepeated(e.target.value)}
            aria-invalid={mismatch}
            aria-describedby="repeat-error"
          />
        </label>
        {mismatch && (
          <span className="field-error" id="repeat-error">
            The two new passwords differ.
          </span>
        )}
      </div>
    </>
  );
}
