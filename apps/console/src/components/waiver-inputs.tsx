// The activity's waiver questions as inputs, for the desk to fill in with the guest at a point-of-sale sale: every
// question type, per-participant questions once per participant. A file question takes the address of the file (a
// scan in the shop's drive, say): the API accepts an http(s) URL for it, as partners may send one.
import type { Question, SaleRequest } from '@backbone/contracts/browser';

type AnswerInput = NonNullable<SaleRequest['Answers']>[number];
export type WaiverDraft = Readonly<Record<string, string | readonly string[] | boolean>>;

const keyOf = (question: Question, participant: number | null) => `${question.ID}:${participant ?? ''}`;

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
      } else if (typeof value === 'string' && value.trim() !== '') {
        answers.push({ QuestionID: question.ID, ...member, Value: question.Type === 'number' ? Number(value) : value.trim() });
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
}: {
  question: Question;
  participant: number | null;
  draft: WaiverDraft;
  onChange: (key: string, value: string | readonly string[] | boolean) => void;
}) {
  const key = keyOf(question, participant);
  const value = draft[key];
  const label = `${question.Question}${participant !== null ? ` (participant ${participant})` : ''}${question.Required ? '' : ' (optional)'}`;
  const name = `answer-${key}`;
  switch (question.Type) {
    case 'checkbox':
      return (
        <label className="check">
          <input type="checkbox" name={name} required={question.Required} checked={value === true} onChange={(e) => onChange(key, e.target.checked)} /> {label}
        </label>
      );
    case 'select':
      return (
        <label>
          {label}
          <select name={name} required={question.Required} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(key, e.target.value)}>
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
          <textarea
            name={name}
            rows={3}
            required={question.Required}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => onChange(key, e.target.value)}
          />
        </label>
      );
    default:
      return (
        <label>
          {question.Type === 'signature' ? `${label}: the guest types their full name` : question.Type === 'file' ? `${label}: the file's web address` : label}
          <input
            name={name}
            type={INPUT_TYPES[question.Type] ?? 'text'}
            required={question.Required}
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
}: {
  questions: readonly Question[];
  participants: number;
  draft: WaiverDraft;
  onChange: (key: string, value: string | readonly string[] | boolean) => void;
}) {
  if (questions.length === 0) return null;
  return (
    <fieldset className="waiver-inputs">
      <legend>Waiver</legend>
      {questions.flatMap((question) =>
        participantsOf(question, participants).map((participant) => (
          <QuestionInput key={keyOf(question, participant)} question={question} participant={participant} draft={draft} onChange={onChange} />
        )),
      )}
    </fieldset>
  );
}
