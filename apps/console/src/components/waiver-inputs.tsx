// The activity's waiver questions as inputs, for the desk to fill in with the guest at a point-of-sale sale or to
// complete a booking's waiver from its panel: every question type, per-participant questions once per participant. A file question takes the address of the file (a
// scan in the shop's drive, say): the API accepts an http(s) URL for it, as partners may send one.
import type { Question, SaleRequest } from '@backbone/contracts/browser';

type AnswerInput = NonNullable<SaleRequest['Answers']>[number];
export type WaiverDraft = Readonly<Record<string, string | readonly string[] | boolean>>;

const keyOf = (question: Question, participant: number | null) => `${question.ID}:${participant ?? ''}`;

/** A booking's stored answers as a draft to edit (a number as its text; a file answer stays out: it is kept by its FileID). */
export function draftOf(answers: readonly { QuestionID: number; Participant: number | null; Value: unknown; File?: unknown }[]): WaiverDraft {
  const draft: Record<string, string | readonly string[] | boolean> = {};
  for (const a of answers) {
    if (a.File) continue;
    const key = `${a.QuestionID}:${a.Participant ?? ''}`;
    draft[key] = typeof a.Value === 'boolean' || Array.isArray(a.Value) ? (a.Value as boolean | string[]) : String(a.Value);
  }
  return draft;
}

/** The uploaded files a booking's answers hold, by question and participant: kept unless a web address replaces one. */
export function keptFilesOf(
  answers: readonly { QuestionID: number; Participant: number | null; File?: { FileID: string; Name: string } }[],
): Readonly<Record<string, { FileID: string; Name: string }>> {
  return Object.fromEntries(answers.flatMap((a) => (a.File ? [[`${a.QuestionID}:${a.Participant ?? ''}`, a.File]] : [])));
}

/** The participants a per-participant question is asked for (each of the party, at most the activity's maximum). */
function participantsOf(question: Question, participants: number): (number | null)[] {
  if (!question.PerParticipant) return [null];
  const count = Number.isInteger(participants) && participants > 0 ? Math.min(participants, 100) : 1;
  return Array.from({ length: count }, (_, i) => i + 1);
}

/** The answers as the API takes them: what was filled in, each in its question's type; nothing for an empty field. */
export function waiverAnswers(
  questions: readonly Question[],
  draft: WaiverDraft,
  participants: number,
  keptFiles: Readonly<Record<string, { FileID: string }>> = {},
): AnswerInput[] {
  const answers: AnswerInput[] = [];
  for (const question of questions) {
    for (const participant of participantsOf(question, participants)) {
      const value = draft[keyOf(question, participant)];
      const member = participant === null ? {} : { Participant: participant };
      if (question.Type === 'checkbox') {
        if (value === true || question.Required) answers.push({ QuestionID: question.ID, ...member, Value: value === true });
      } else if (question.Type === 'multiselect') {
        if (Array.isArray(value) && value.length > 0) answers.push({ QuestionID: question.ID, ...member, Value: [...(value as string[])] });
      } else if (typeof value === 'string' && value.trim() !== '') {
        answers.push({ QuestionID: question.ID, ...member, Value: question.Type === 'number' ? Number(value) : value.trim() });
      } else if (question.Type === 'file' && keptFiles[keyOf(question, participant)]) {
        answers.push({ QuestionID: question.ID, ...member, FileID: keptFiles[keyOf(question, participant)]!.FileID });
      }
    }
  }
  return answers;
}

const INPUT_TYPES: Partial<Record<Question['Type'], string>> = { date: 'date', email: 'email', phone: 'tel', number: 'number', file: 'url' };

function QuestionInput({
  question,
  participant,
  draft,
  onChange,
  kept,
  enforce,
}: {
  question: Question;
  participant: number | null;
  draft: WaiverDraft;
  onChange: (key: string, value: string | readonly string[] | boolean) => void;
  kept: { Name: string } | undefined;
  enforce: boolean;
}) {
  const key = keyOf(question, participant);
  const required = enforce && question.Required;
  const value = draft[key];
  const label = `${question.Question}${participant !== null ? ` (participant ${participant})` : ''}${question.Required ? '' : ' (optional)'}`;
  const name = `answer-${key}`;
  switch (question.Type) {
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
          {question.Type === 'signature'
            ? `${label}: the guest types their full name`
            : question.Type === 'file'
              ? kept
                ? `${label}: ${kept.Name} is kept unless a web address replaces it`
                : `${label}: the file's web address`
              : label}
          <input
            name={name}
            type={INPUT_TYPES[question.Type] ?? 'text'}
            required={required && !kept}
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
  keptFiles = {},
  enforceRequired = true,
}: {
  questions: readonly Question[];
  participants: number;
  draft: WaiverDraft;
  onChange: (key: string, value: string | readonly string[] | boolean) => void;
  keptFiles?: Readonly<Record<string, { Name: string }>>;
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
            kept={keptFiles[keyOf(question, participant)]}
            enforce={enforceRequired}
          />
        )),
      )}
    </fieldset>
  );
}
