// The activity's waiver questions as inputs, for the desk to fill in with the guest at a point-of-sale sale or to
// complete a booking's waiver from its panel: every question type, per-participant questions once per participant. A
// file question takes a file (a photo of the signed paper waiver, an ID scan), uploaded at once to the account's files
// (the API checks its type and size) and answered by its FileID; a file answer the booking keeps is shown by its name,
// to remove or replace. A web address stays an answer's only where the booking's answer already is one.
import { useRef, useState } from 'react';
import { FILE_CONTENT_TYPES, MAX_FILE_BYTES, type Question, type SaleRequest } from '@backbone/contracts/browser';
import { useUploadFile } from '../api/files.hooks.js';
import { FILE_KINDS, fileSize } from './answer-value.js';
import { problemDetail } from './states.js';

type AnswerInput = NonNullable<SaleRequest['Answers']>[number];
/** A file question's answer in the making: a file uploaded (or kept by the booking), one on its way, or a web address. */
export type FileDraft = { FileID: string; Name: string; Size: number; ContentType: string } | { Uploading: string } | { WebAddress: string };
type DraftValue = string | readonly string[] | boolean | FileDraft;
export type WaiverDraft = Readonly<Record<string, DraftValue>>;

const keyOf = (question: Question, participant: number | null) => `${question.ID}:${participant ?? ''}`;
const isFileDraft = (value: DraftValue | undefined): value is FileDraft => typeof value === 'object' && !Array.isArray(value);

/** A booking's stored answers as a draft to edit (a number as its text, a file by its FileID, name and size). */
export function draftOf(
  answers: readonly {
    QuestionID: number;
    Type: string;
    Participant: number | null;
    Value: unknown;
    File?: { FileID: string; Name: string; Size: number; ContentType: string };
  }[],
): WaiverDraft {
  const draft: Record<string, DraftValue> = {};
  for (const a of answers) {
    const key = `${a.QuestionID}:${a.Participant ?? ''}`;
    if (a.File) draft[key] = { FileID: a.File.FileID, Name: a.File.Name, Size: a.File.Size, ContentType: a.File.ContentType };
    else if (a.Type === 'file') draft[key] = { WebAddress: String(a.Value) };
    else draft[key] = typeof a.Value === 'boolean' || Array.isArray(a.Value) ? (a.Value as boolean | string[]) : String(a.Value);
  }
  return draft;
}

/** Whether a file is still on its way: the form waits for its FileID before it is sent. */
export function waiverUploading(draft: WaiverDraft): boolean {
  return Object.values(draft).some((value) => isFileDraft(value) && 'Uploading' in value);
}

/** The participants a per-participant question is asked for (each of the party, at most the activity's maximum). */
function participantsOf(question: Question, participants: number): (number | null)[] {
  if (!question.PerParticipant) return [null];
  const count = Number.isInteger(participants) && participants > 0 ? Math.min(participants, 100) : 1;
  return Array.from({ length: count }, (_, i) => i + 1);
}

/** The answers as the API takes them: what was filled in, each in its question's type; nothing for an empty field. */
export function waiverAnswers(questions: readonly Question[], draft: WaiverDraft, participants: number): AnswerInput[] {
  const answers: AnswerInput[] = [];
  for (const question of questions) {
    for (const participant of participantsOf(question, participants)) {
      const value = draft[keyOf(question, participant)];
      const member = participant === null ? {} : { Participant: participant };
      if (question.Type === 'checkbox') {
        if (value === true || question.Required) answers.push({ QuestionID: question.ID, ...member, Value: value === true });
      } else if (question.Type === 'multiselect') {
        if (Array.isArray(value) && value.length > 0) answers.push({ QuestionID: question.ID, ...member, Value: [...(value as string[])] });
      } else if (isFileDraft(value)) {
        if ('FileID' in value) answers.push({ QuestionID: question.ID, ...member, FileID: value.FileID });
        else if ('WebAddress' in value && value.WebAddress.trim() !== '') answers.push({ QuestionID: question.ID, ...member, Value: value.WebAddress.trim() });
      } else if (typeof value === 'string' && value.trim() !== '') {
        answers.push({ QuestionID: question.ID, ...member, Value: question.Type === 'number' ? Number(value) : value.trim() });
      }
    }
  }
  return answers;
}

/** The media types a file question accepts: its Options, or all four when it lists none (as the API decides). */
function acceptedTypes(question: Question): readonly string[] {
  const listed = question.Options.filter((o) => (FILE_CONTENT_TYPES as readonly string[]).includes(o));
  return listed.length > 0 ? listed : FILE_CONTENT_TYPES;
}

function FileQuestion({
  question,
  label,
  name,
  value,
  onChange,
  required,
}: {
  question: Question;
  label: string;
  name: string;
  value: DraftValue | undefined;
  onChange: (value: DraftValue) => void;
  required: boolean;
}) {
  const upload = useUploadFile();
  const [error, setError] = useState<string | null>(null);
  // Only the latest choice lands: a file chosen while another is on its way replaces it, whichever answers first.
  const latest = useRef(0);
  const file = isFileDraft(value) ? value : null;
  const accepted = acceptedTypes(question);
  const hint = `${accepted.map((t) => FILE_KINDS[t] ?? t).join(', ')}; at most ${MAX_FILE_BYTES / (1024 * 1024)} MB.`;
  const choose = async (chosen: File | undefined) => {
    if (!chosen) return;
    const attempt = ++latest.current;
    setError(null);
    if (chosen.size > MAX_FILE_BYTES) {
      setError(`${chosen.name} is ${fileSize(chosen.size)}: at most ${MAX_FILE_BYTES / (1024 * 1024)} MB. Choose a smaller file.`);
      return;
    }
    const before = value ?? '';
    onChange({ Uploading: chosen.name });
    try {
      const stored = await upload.mutateAsync(chosen);
      if (attempt === latest.current) onChange({ FileID: stored.FileID, Name: stored.Name, Size: stored.Size, ContentType: stored.ContentType });
    } catch (problem) {
      if (attempt !== latest.current) return;
      onChange(before);
      setError(`${chosen.name}: ${problemDetail(problem)}`);
    }
  };
  const remove = () => {
    latest.current++;
    setError(null);
    onChange('');
  };
  const hasFile = file !== null && 'FileID' in file;
  const uploading = file !== null && 'Uploading' in file;
  const webAddress = file !== null && 'WebAddress' in file ? file.WebAddress : null;
  const pick = hasFile ? 'Replace with another file' : webAddress !== null ? 'Or upload a file instead' : 'Choose a file';
  return (
    <fieldset className="file-question" aria-describedby={`${name}-hint`}>
      <legend>{label}</legend>
      {hasFile && (
        <p className="file-chosen file-kept">
          <span className="file-name">{file.Name}</span>{' '}
          <span className="file-meta">
            ({FILE_KINDS[file.ContentType] ?? file.ContentType}, {fileSize(file.Size)})
          </span>
        </p>
      )}
      {uploading && (
        <p className="file-chosen file-uploading" role="status">
          Uploading <span className="file-name">{file.Uploading}</span>…
        </p>
      )}
      {webAddress !== null && (
        <label>
          Web address
          <input
            name={name}
            type="url"
            aria-label={`${label}: web address`}
            value={webAddress}
            onChange={(e) => onChange({ WebAddress: e.target.value })}
            autoComplete="off"
          />
        </label>
      )}
      <div className="file-controls">
        {/* The browser's own picker would say "No file chosen" beside a file just uploaded (its value is cleared at once):
            it stays in the page for keyboards and screen readers, and the label is what the eye sees, a button. */}
        <label className="file-pick button secondary">
          {pick}
          <input
            type="file"
            name={`${name}-file`}
            // Named with its question: a form may ask for several files.
            aria-label={`${label}: ${pick.toLowerCase()}`}
            accept={accepted.join(',')}
            required={required && !hasFile && !uploading && (webAddress ?? '').trim() === ''}
            onChange={(e) => {
              const chosen = e.target.files?.[0];
              // Cleared at once: the picker shows no stale choice, and the same file chosen again is a new choice.
              e.target.value = '';
              void choose(chosen);
            }}
          />
        </label>
        {(hasFile || uploading) && (
          <button type="button" className="secondary small" onClick={remove} aria-label={`Remove file: ${label}`}>
            Remove file
          </button>
        )}
      </div>
      <span id={`${name}-hint`} className="hint">
        {hint}
      </span>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}

const INPUT_TYPES: Partial<Record<Question['Type'], string>> = { date: 'date', email: 'email', phone: 'tel', number: 'number' };

function QuestionInput({
  question,
  participant,
  draft,
  onChange,
  enforce,
}: {
  question: Question;
  participant: number | null;
  draft: WaiverDraft;
  onChange: (key: string, value: DraftValue) => void;
  enforce: boolean;
}) {
  const key = keyOf(question, participant);
  const required = enforce && question.Required;
  const value = draft[key];
  const label = `${question.Question}${participant !== null ? ` (participant ${participant})` : ''}${question.Required ? '' : ' (optional)'}`;
  const name = `answer-${key}`;
  switch (question.Type) {
    case 'file':
      return <FileQuestion question={question} label={label} name={name} value={value} onChange={(v) => onChange(key, v)} required={required} />;
    case 'checkbox':
      return (
        <label className="check">
          <input type="checkbox" name={name} required={required} checked={value === true} onChange={(e) => onChange(key, e.target.checked)} /> {label}
        </label>
      );
    case 'select':
      return (
        <label>
          {label}
          <select name={name} required={required} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(key, e.target.value)}>
            <option value="">Choose…</option>
            {question.Options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
      );
    case 'multiselect': {
      const chosen = Array.isArray(value) ? (value as readonly string[]) : [];
      return (
        <fieldset className="scopes">
          <legend>{label}</legend>
          {question.Options.map((o) => (
            <label key={o} className="check">
              <input
                type="checkbox"
                name={name}
                checked={chosen.includes(o)}
                onChange={(e) => onChange(key, e.target.checked ? [...chosen, o] : chosen.filter((c) => c !== o))}
              />{' '}
              {o}
            </label>
          ))}
        </fieldset>
      );
    }
    case 'textarea':
      return (
        <label>
          {label}
          <textarea name={name} rows={3} required={required} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(key, e.target.value)} />
        </label>
      );
    default:
      return (
        <label>
          {question.Type === 'signature' ? `${label}: the guest types their full name` : label}
          <input
            name={name}
            type={INPUT_TYPES[question.Type] ?? 'text'}
            required={required}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => onChange(key, e.target.value)}
            autoComplete="off"
          />
        </label>
      );
  }
}

export function WaiverInputs({
  questions,
  participants,
  draft,
  onChange,
  enforceRequired = true,
}: {
  questions: readonly Question[];
  participants: number;
  draft: WaiverDraft;
  onChange: (key: string, value: DraftValue) => void;
  /** Whether the browser holds the form back until the required questions are answered (the API checks anyway). */
  enforceRequired?: boolean;
}) {
  if (questions.length === 0) return null;
  return (
    <fieldset className="waiver-inputs">
      <legend>Waiver</legend>
      {questions.flatMap((question) =>
        participantsOf(question, participants).map((participant) => (
          <QuestionInput
            key={keyOf(question, participant)}
            question={question}
            participant={participant}
            draft={draft}
            onChange={onChange}
            enforce={enforceRequired}
          />
        )),
      )}
    </fieldset>
  );
}
