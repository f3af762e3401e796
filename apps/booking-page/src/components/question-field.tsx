// One waiver question as the control its type asks for. A file question uploads the chosen file at once (through the
// shop's upload, which checks its type and size) and keeps the FileID for the booking.
import { useState } from 'preact/hooks';
import { ApiProblem } from '../api.js';
import { shop, type ShopQuestion } from '../shop.js';
import { controlProps, Field, FieldSet } from './field.js';

export type AnswerState = string | number | boolean | string[] | { FileID: string; Name: string } | undefined;

export interface QuestionFieldProps {
  slug: string;
  /** The hold's token: a file is uploaded to the hold it answers for. */
  token: string;
  question: ShopQuestion;
  /** For a per-participant question, which participant (1-based). */
  participant: number | null;
  value: AnswerState;
  error: string | undefined;
  onChange: (value: AnswerState) => void;
  onError: (error: string | undefined) => void;
}

export function answerKey(questionId: number, participant: number | null): string {
  return participant === null ? `q${questionId}` : `q${questionId}-p${participant}`;
}

const DEFAULT_FILE_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'];
const TYPE_NAMES: Record<string, string> = { 'application/pdf': 'PDF', 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP' };

export function QuestionField({ slug, token, question, participant, value, error, onChange, onError }: QuestionFieldProps) {
  const id = answerKey(question.ID, participant);
  const label = participant === null ? question.Question : `${question.Question} (participant ${participant})`;
  const optional = !question.Required;
  const text = typeof value === 'string' ? value : '';
  const common = { ...controlProps(id, undefined, error), name: id, 'aria-required': question.Required };
  switch (question.Type) {
    case 'textarea':
      return (
        <Field id={id} label={label} error={error} optional={optional}>
          <textarea {...common} rows={4} maxLength={10_000} value={text} onInput={(e) => onChange(e.currentTarget.value)} />
        </Field>
      );
    case 'select':
      return (
        <Field id={id} label={label} error={error} optional={optional}>
          <select {...common} value={text} onChange={(e) => onChange(e.currentTarget.value)}>
            <option value="">Choose…</option>
            {question.Options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </Field>
      );
    case 'multiselect': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <FieldSet id={id} label={label} error={error} optional={optional} hint="Choose all that apply.">
          {question.Options.map((option, i) => (
            <label class="choice" key={option}>
              <input
                type="checkbox"
                name={id}
                id={`${id}-o${i}`}
                checked={chosen.includes(option)}
                onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, option] : chosen.filter((c) => c !== option))}
              />
              <span>{option}</span>
            </label>
          ))}
        </FieldSet>
      );
    }
    case 'checkbox':
      return (
        <div class={error ? 'field invalid' : 'field'}>
          <label class="choice">
            <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />
            <span>
              {label}
              {optional ? <span class="optional"> (optional)</span> : null}
            </span>
          </label>
          <p id={`${id}-error`} class="error" aria-live="polite">
            {error ?? ''}
          </p>
        </div>
      );
    case 'number':
      return (
        <Field id={id} label={label} error={error} optional={optional}>
          <input
            {...common}
            type="text"
            inputMode="decimal"
            value={typeof value === 'number' ? String(value) : text}
            onInput={(e) => onChange(e.currentTarget.value)}
          />
        </Field>
      );
    case 'date':
      return (
        <Field id={id} label={label} error={error} optional={optional}>
          <input {...common} type="date" value={text} onInput={(e) => onChange(e.currentTarget.value)} />
        </Field>
      );
    case 'email':
      return (
        <Field id={id} label={label} error={error} optional={optional}>
          <input {...common} type="email" autocomplete="off" value={text} onInput={(e) => onChange(e.currentTarget.value)} />
        </Field>
      );
    case 'phone':
      return (
        <Field id={id} label={label} error={error} optional={optional}>
          <input {...common} type="tel" autocomplete="off" value={text} onInput={(e) => onChange(e.currentTarget.value)} />
        </Field>
      );
    case 'signature':
      return (
        <Field id={id} label={label} error={error} optional={optional} hint="Type your full name to sign.">
          <input {...common} {...controlProps(id, 'hint', error)} type="text" class="signature" value={text} onInput={(e) => onChange(e.currentTarget.value)} />
        </Field>
      );
    case 'file':
      return (
        <FileQuestion slug={slug} token={token} id={id} label={label} question={question} value={value} error={error} onChange={onChange} onError={onError} />
      );
    default:
      return (
        <Field id={id} label={label} error={error} optional={optional}>
          <input {...common} type="text" maxLength={2000} value={text} onInput={(e) => onChange(e.currentTarget.value)} />
        </Field>
      );
  }
}

interface FileQuestionProps extends Omit<QuestionFieldProps, 'participant'> {
  id: string;
  label: string;
}

function FileQuestion({ slug, token, id, label, question, value, error, onChange, onError }: FileQuestionProps) {
  const [uploading, setUploading] = useState(false);
  const accepted = question.Options.length ? question.Options : DEFAULT_FILE_TYPES;
  const hint = `${accepted.map((type) => TYPE_NAMES[type] ?? type).join(', ')}; at most 10 MB.`;
  const uploaded = typeof value === 'object' && !Array.isArray(value) ? value : null;
  const choose = async (file: File | undefined) => {
    onChange(undefined);
    onError(undefined);
    if (!file) return;
    if (file.size > 10 * 1024 * 1024) return onError('This file is larger than 10 MB. Choose a smaller one.');
    setUploading(true);
    try {
      const { FileID } = await shop.upload(slug, token, file);
      onChange({ FileID, Name: file.name });
    } catch (problem) {
      onError(problem instanceof ApiProblem ? problem.message : 'The upload failed. Try again.');
    } finally {
      setUploading(false);
    }
  };
  return (
    <Field id={id} label={label} hint={hint} error={error} optional={!question.Required}>
      <input
        {...controlProps(id, hint, error)}
        type="file"
        name={id}
        accept={accepted.join(',')}
        aria-required={question.Required}
        onChange={(e) => void choose(e.currentTarget.files?.[0])}
      />
      <p class="upload-state" role="status">
        {uploading ? 'Uploading…' : uploaded ? `Uploaded: ${uploaded.Name}` : ''}
      </p>
    </Field>
  );
}
