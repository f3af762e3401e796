// Waiver answers sent with a booking: each answer must fit its question's type, and when answers are sent at all,
// every required question must be answered (per participant for per-participant questions).
import type { BookingAnswer, QuestionType } from '@backbone/contracts';
import { ValidationError, type FieldError } from './errors.js';
import { isCalendarDate } from './time-zones.js';
import type { WaiverQuestion } from './waiver-questions.js';

export type AnswerValue = BookingAnswer['Value'];

/** What is stored with the booking: the answer with the question as it was worded when answered. */
export interface StoredAnswer {
  QuestionID: number;
  Question: string;
  Type: QuestionType;
  Participant: number | null;
  Value: AnswerValue;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ().-]{5,40}$/;

/** True when a value says nothing: blank text, no choice, an unticked box. Required questions need more. */
function isEmpty(value: AnswerValue): boolean {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return value === false;
}

/** Why `value` does not fit `question`, or null when it does. Empty values are judged by the required check alone. */
function typeProblem(question: WaiverQuestion, value: AnswerValue): string | null {
  const isText = typeof value === 'string';
  switch (question.type) {
    case 'text':
      return isText && value.length <= 2000 ? null : 'must be text of at most 2000 characters';
    case 'textarea':
      return isText && value.length <= 10_000 ? null : 'must be text of at most 10000 characters';
    case 'signature':
      return isText ? null : 'must be a string (the signature)';
    case 'select':
      if (!isText) return "must be one of the question's Options";
      return value.trim() === '' || question.options.includes(value) ? null : `must be one of: ${question.options.join(', ')}`;
    case 'multiselect': {
      if (!Array.isArray(value)) return "must be an array of the question's Options";
      if (value.some((v) => !question.options.includes(v))) return `must only contain: ${question.options.join(', ')}`;
      return new Set(value).size === value.length ? null : 'must not repeat an option';
    }
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'number':
      return typeof value === 'number' ? null : 'must be a number';
    case 'date':
      return isText && (value.trim() === '' || isCalendarDate(value)) ? null : 'must be a calendar date in the form YYYY-MM-DD';
    case 'email':
      return isText && (value.trim() === '' || (value.length <= 254 && EMAIL.test(value))) ? null : 'must be an email address';
    case 'phone':
      return isText && (value.trim() === '' || (PHONE.test(value) && (value.match(/\d/g)?.length ?? 0) >= 5)) ? null : 'must be a phone number';
    case 'file':
      return isText && (value.trim() === '' || isFileUrl(value)) ? null : 'must be the http(s) URL of the uploaded file';
  }
}

function isFileUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Checks the answers of a booking for `participants` people against the activity's questions and returns them as
 * stored. Throws a ValidationError naming every failing answer.
 */
export function checkAnswers(questions: readonly WaiverQuestion[], answers: readonly BookingAnswer[], participants: number): StoredAnswer[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const stored: StoredAnswer[] = [];
  const answered = new Set<string>();
  const failed = new Set<string>();

  answers.forEach((answer, index) => {
    const at = `Answers[${index}]`;
    const question = byId.get(answer.QuestionID);
    if (!question) {
      errors.push({ field: `${at}.QuestionID`, message: `${at}.QuestionID ${answer.QuestionID} is not a question of this activity.` });
      return;
    }
    const participant = answer.Participant ?? null;
    if (question.perParticipant && participant === null) {
      errors.push({ field: `${at}.Participant`, message: `${at}.Participant is required: question ${question.id} is asked once per participant.` });
      return;
    }
    if (!question.perParticipant && participant !== null) {
      errors.push({ field: `${at}.Participant`, message: `${at}.Participant is not allowed: question ${question.id} is asked once per booking.` });
      return;
    }
    if (participant !== null && participant > participants) {
      errors.push({ field: `${at}.Participant`, message: `${at}.Participant must be at most ${participants}, the number of participants.` });
      return;
    }
    const slot = `${question.id}/${participant ?? 0}`;
    if (seen.has(slot)) {
      errors.push({
        field: `${at}.QuestionID`,
        message: `${at}.QuestionID ${question.id} is answered a second time${participant ? ` for participant ${participant}` : ''}.`,
      });
      return;
    }
    seen.add(slot);
    const problem = typeProblem(question, answer.Value);
    if (problem) {
      failed.add(slot);
      errors.push({ field: `${at}.Value`, message: `${at}.Value ${problem} (question ${question.id} is of type ${question.type}).` });
      return;
    }
    if (!isEmpty(answer.Value)) answered.add(slot);
    stored.push({ QuestionID: question.id, Question: question.question, Type: question.type, Participant: participant, Value: answer.Value });
  });

  for (const question of questions) {
    if (!question.required) continue;
    const who = question.perParticipant ? Array.from({ length: participants }, (_, i) => i + 1) : [0];
    for (const participant of who) {
      const slot = `${question.id}/${participant}`;
      // An answer of the wrong type was reported already; one message per mistake.
      if (answered.has(slot) || failed.has(slot)) continue;
      const forWhom = participant ? ` for participant ${participant}` : '';
      const what = question.type === 'checkbox' ? 'must be ticked (true)' : 'must be answered';
      errors.push({ field: 'Answers', message: `Answers: required question ${question.id} ("${question.question}") ${what}${forWhom}.` });
    }
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return stored;
}
