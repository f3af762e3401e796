// Waiver questions: what an operator may define, and how partners see them.
import { QUESTION_TYPES, type Question, type QuestionType } from '@backbone/contracts';
import { ValidationError, type FieldError } from './errors.js';
import { FILE_CONTENT_TYPES, isFileContentType } from './files.js';

export interface WaiverQuestion {
  id: number;
  question: string;
  type: QuestionType;
  required: boolean;
  options: string[];
  perParticipant: boolean;
}

export interface NewWaiverQuestion {
  question: string;
  type: string;
  required: boolean;
  options: string[];
  perParticipant: boolean;
}

const CHOICE_TYPES: readonly QuestionType[] = ['select', 'multiselect'];

export function isQuestionType(value: string): value is QuestionType {
  return (QUESTION_TYPES as readonly string[]).includes(value);
}

export function toQuestion(question: WaiverQuestion): Question {
  return {
    ID: question.id,
    Question: question.question,
    Type: question.type,
    Required: question.required,
    Options: question.options,
    PerParticipant: question.perParticipant,
  };
}

export function checkNewQuestion(input: NewWaiverQuestion): asserts input is NewWaiverQuestion & { type: QuestionType } {
  const errors: FieldError[] = [];
  const text = input.question.trim();
  if (text.length < 1 || text.length > 2000) errors.push({ field: 'question', message: 'question must be 1 to 2000 characters.' });
  if (!isQuestionType(input.type)) errors.push({ field: 'type', message: `type must be one of: ${QUESTION_TYPES.join(', ')}.` });
  else if (CHOICE_TYPES.includes(input.type)) {
    if (input.options.length === 0) errors.push({ field: 'options', message: `a ${input.type} question needs at least one option.` });
    if (new Set(input.options).size !== input.options.length) errors.push({ field: 'options', message: 'options must be distinct.' });
    if (input.options.some((o) => o.trim() === '' || o.length > 1000)) errors.push({ field: 'options', message: 'each option must be 1 to 1000 characters.' });
  } else if (input.type === 'file') {
    // A file question's options are the media types it accepts (none: all of them).
    if (input.options.some((o) => !isFileContentType(o)))
      errors.push({ field: 'options', message: `a file question's options must be among: ${FILE_CONTENT_TYPES.join(', ')}.` });
    if (new Set(input.options).size !== input.options.length) errors.push({ field: 'options', message: 'options must be distinct.' });
  } else if (input.options.length > 0) {
    errors.push({ field: 'options', message: `only select, multiselect and file questions take options, not ${input.type}.` });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}
