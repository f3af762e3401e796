// Waiver answers sent with a booking: each answer must fit its question's type, and when answers are sent at all,
// every required question must be answered (per participant for per-participant questions).
import type { BookingAnswer, FileContentType, QuestionType } from '@backbone/contracts';
import { CALENDAR_DATE_RULE } from '@backbone/contracts';
import { DomainError, ValidationError, type FieldError } from './errors.js';
import { acceptedFileTypes, type AnswerFile } from './files.js';
import { isCalendarDate } from './time-zones.js';
import type { WaiverQuestion } from './waiver-questions.js';

export type AnswerValue = NonNullable<BookingAnswer['Value']>;

/** An uploaded file an answer references, as stored with the answer (a file never changes once uploaded). */
export interface StoredFile {
  FileID: string;
  Name: string;
  ContentType: FileContentType;
  Size: number;
}

/**
 * What is stored with the booking: the answer with the question as it was worded when answered. A file answer's Value
 * is its FileID, so whatever reads answers sees it answered; File describes the file.
 */
export interface StoredAnswer {
  QuestionID: number;
  Question: string;
  Type: QuestionType;
  Participant: number | null;
  Value: AnswerValue;
  File?: StoredFile;
}

/** The files a booking's answers may reference, and the booking they are checked for (null: a new booking). */
export interface AnswerFiles {
  /** The stored files of the booking's partner among those referenced, by lower-case FileID. */
  files: ReadonlyMap<string, AnswerFile>;
  bookingId: number | null;
}

const NO_FILES: AnswerFiles = { files: new Map(), bookingId: null };

/** The FileIDs the answers reference, lower-cased, each once. */
export function referencedFileIds(answers: readonly BookingAnswer[] | undefined): string[] {
  return [...new Set((answers ?? []).flatMap((a) => (a.FileID === undefined ? [] : [a.FileID.toLowerCase()])))];
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
      return isText && (value.trim() === '' || isCalendarDate(value)) ? null : CALENDAR_DATE_RULE;
    case 'email':
      return isText && (value.trim() === '' || (value.length <= 254 && EMAIL.test(value))) ? null : 'must be an email address';
    case 'phone':
      return isText && (value.trim() === '' || (PHONE.test(value) && (value.match(/\d/g)?.length ?? 0) >= 5)) ? null : 'must be a phone number';
    case 'file':
      return isText && (value.trim() === '' || isFileUrl(value)) ? null : 'must be the http(s) URL of the file (or send FileID with an uploaded file)';
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
 * stored. Throws a ValidationError naming every failing answer (422); then, for FileIDs that are not among the
 * partner's stored files, a not-found (404: another partner's or account's file looks like no file at all); then,
 * for a file another booking uses, a file-in-use conflict (409).
 */
export function checkAnswers(
  questions: readonly WaiverQuestion[],
  answers: readonly BookingAnswer[],
  participants: number,
  referenced: AnswerFiles = NO_FILES,
): StoredAnswer[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const stored: StoredAnswer[] = [];
  const answered = new Set<string>();
  const failed = new Set<string>();
  const missingFiles: string[] = [];
  const filesInUse: string[] = [];

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
    if (answer.FileID !== undefined) {
      if (question.type !== 'file') {
        failed.add(slot);
        errors.push({ field: `${at}.FileID`, message: `${at}.FileID is only for file questions (question ${question.id} is of type ${question.type}).` });
        return;
      }
      const file = referenced.files.get(answer.FileID.toLowerCase());
      if (!file) {
        failed.add(slot);
        missingFiles.push(`${at}.FileID ${answer.FileID}`);
        return;
      }
      const accepted = acceptedFileTypes(question.options);
      if (!accepted.includes(file.contentType)) {
        failed.add(slot);
        errors.push({
          field: `${at}.FileID`,
          message: `${at}.FileID is a ${file.contentType} file; question ${question.id} accepts ${accepted.join(', ')}.`,
        });
        return;
      }
      if (file.bookingId !== null && file.bookingId !== referenced.bookingId) filesInUse.push(`${at}.FileID ${answer.FileID}`);
      answered.add(slot);
      stored.push({
        QuestionID: question.id,
        Question: question.question,
        Type: question.type,
        Participant: participant,
        Value: file.id,
        File: { FileID: file.id, Name: file.name, ContentType: file.contentType, Size: file.size },
      });
      return;
    }
    const value = answer.Value!;
    const problem = typeProblem(question, value);
    if (problem) {
      failed.add(slot);
      errors.push({ field: `${at}.Value`, message: `${at}.Value ${problem} (question ${question.id} is of type ${question.type}).` });
      return;
    }
    if (!isEmpty(value)) answered.add(slot);
    stored.push({ QuestionID: question.id, Question: question.question, Type: question.type, Participant: participant, Value: value });
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
  if (missingFiles.length > 0) throw new DomainError('not-found', `File not found: ${missingFiles.join(', ')}.`);
  if (filesInUse.length > 0) {
    throw new DomainError('file-in-use', `Another booking already uses ${filesInUse.join(', ')}: upload the file again for this booking.`);
  }
  return stored;
}

/** A required question as the completeness check needs it. */
export interface RequiredQuestion {
  id: number;
  perParticipant: boolean;
}

/**
 * Whether a booking's answers answer every required question: once, or once for each participant of the party as it
 * is now where the question asks so. `answerKeys` is what the bookings table keeps beside the answers (answer_keys,
 * migration 1763840000000): 'Q' for each question answered, 'Q/P' for question Q answered for participant P. A
 * question asked once counts as answered whatever participant its answer names (it may have been asked per participant
 * then); an answer for a participant the party no longer has (it was made smaller) stands in for no one.
 */
export function waiversComplete(required: readonly RequiredQuestion[], answerKeys: readonly string[], participants: number): boolean {
  if (required.length === 0) return true;
  const answered = new Set(answerKeys);
  for (const question of required) {
    if (!question.perParticipant) {
      if (!answered.has(String(question.id))) return false;
      continue;
    }
    for (let participant = 1; participant <= participants; participant++) {
      if (!answered.has(`${question.id}/${participant}`)) return false;
    }
  }
  return true;
}
