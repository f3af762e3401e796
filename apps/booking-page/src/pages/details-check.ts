// The details' checks before anything is sent (the server checks again; its errors come back to the same fields),
// and the answers as the shop API takes them.
import { ApiProblem } from '../api.js';
import type { ShopAnswer, ShopQuestion } from '../shop.js';
import { answerKey, type AnswerState } from '../components/question-field.js';

export interface CustomerForm {
  FirstName: string;
  LastName: string;
  Email: string;
  Phone: string;
}

export const CUSTOMER_FIELDS = [
  { name: 'FirstName', label: 'First name', type: 'text', autocomplete: 'given-name', optional: false },
  { name: 'LastName', label: 'Last name', type: 'text', autocomplete: 'family-name', optional: false },
  { name: 'Email', label: 'Email', type: 'email', autocomplete: 'email', optional: false },
  { name: 'Phone', label: 'Phone', type: 'tel', autocomplete: 'tel', optional: false },
] as const;

export interface AskedQuestion {
  question: ShopQuestion;
  participant: number | null;
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PHONE = /^\+?[0-9 ().-]{5,40}$/;
const NUMBER = /^-?\d+(?:[.,]\d+)?$/;

function isEmpty(value: AnswerState): boolean {
  if (value === undefined || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  return Array.isArray(value) && value.length === 0;
}

function problemOf(question: ShopQuestion, value: AnswerState): string | null {
  if (isEmpty(value)) return question.Required ? (question.Type === 'checkbox' ? 'Tick this box to go on.' : 'Answer this question.') : null;
  const text = typeof value === 'string' ? value.trim() : '';
  if (question.Type === 'email' && !EMAIL.test(text)) return 'Enter an email address, like name@example.com.';
  if (question.Type === 'phone' && !PHONE.test(text)) return 'Enter a phone number, like +351 912 345 678.';
  if (question.Type === 'number' && !NUMBER.test(text)) return 'Enter a number.';
  return null;
}

/** The first problem of each field, by the field's id, in the order the fields are shown. */
export function checkDetails(
  asked: readonly AskedQuestion[],
  answers: Record<string, AnswerState>,
  customer: CustomerForm,
  termsToAccept: boolean,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { question, participant } of asked) {
    const key = answerKey(question.ID, participant);
    const problem = problemOf(question, answers[key]);
    if (problem) errors[key] = problem;
  }
  if (!customer.FirstName.trim()) errors.FirstName = 'Enter your first name.';
  if (!customer.LastName.trim()) errors.LastName = 'Enter your last name.';
  if (!customer.Email.trim()) errors.Email = 'Enter your email address: the confirmation goes there.';
  else if (!EMAIL.test(customer.Email.trim())) errors.Email = 'Enter an email address, like name@example.com.';
  if (!customer.Phone.trim()) errors.Phone = 'Enter your phone number, in case the day has to change.';
  else if (!PHONE.test(customer.Phone.trim())) errors.Phone = 'Enter a phone number, like +351 912 345 678.';
  if (termsToAccept) errors.AcceptTerms = 'Tick the box to accept the terms and conditions.';
  return errors;
}

/** The answers to send (empty optional ones left out), and the field id of each, by its place in the list. */
export function answersOf(asked: readonly AskedQuestion[], answers: Record<string, AnswerState>): { answers: ShopAnswer[]; keys: string[] } {
  const sent: ShopAnswer[] = [];
  const keys: string[] = [];
  for (const { question, participant } of asked) {
    const key = answerKey(question.ID, participant);
    const value = answers[key];
    if (isEmpty(value)) continue;
    const answer: ShopAnswer = { QuestionID: question.ID };
    if (participant !== null) answer.Participant = participant;
    if (typeof value === 'object' && !Array.isArray(value)) answer.FileID = value.FileID;
    else if (question.Type === 'number') answer.Value = Number(String(value).replace(',', '.'));
    else answer.Value = typeof value === 'string' ? value.trim() : value;
    sent.push(answer);
    keys.push(key);
  }
  return { answers: sent, keys };
}

/** The server's field errors on the page's fields: Customer.Email on Email, Answers[2].Value on the third answer sent. */
export function errorsFromProblem(error: unknown, answerKeys: readonly string[]): Record<string, string> {
  const found: Record<string, string> = {};
  if (!(error instanceof ApiProblem) || !error.problem.errors) return found;
  for (const { field, message } of error.problem.errors) {
    const customer = /^\/?Customer[./](\w+)/.exec(field);
    const answer = /^\/?Answers[[/](\d+)/.exec(field);
    if (customer) found[customer[1]!] = message;
    else if (/^\/?AcceptTerms/.test(field)) found.AcceptTerms = message;
    else if (answer && answerKeys[Number(answer[1])]) found[answerKeys[Number(answer[1])]!] = message;
  }
  return found;
}
