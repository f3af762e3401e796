// Waiver answers sent with a booking: each must fit its question's type, and every required question must be answered
// (per participant where the question is asked per participant). Blank text, an empty list or an unticked box is no
// answer. Also the rules for the questions an operator defines.
import { describe, expect, it } from 'vitest';
import type { BookingAnswer } from '@backbone/contracts';
import { ValidationError, checkAnswers, checkNewQuestion, isQuestionType, toQuestion, type NewWaiverQuestion, type WaiverQuestion } from '@backbone/domain';

let nextId = 1;
const question = (overrides: Partial<WaiverQuestion> = {}): WaiverQuestion => ({
  id: nextId++,
  question: 'Anything we should know?',
  type: 'text',
  required: false,
  options: [],
  perParticipant: false,
  ...overrides,
});

/** The ValidationError thrown by `run`, as field and message pairs. */
function problems(run: () => unknown): Array<{ field: string; message: string }> {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors;
  }
  throw new Error('expected a ValidationError');
}
const fieldsOf = (run: () => unknown) => problems(run).map((p) => p.field);

describe('checkAnswers: what is stored', () => {
  it("returns the answers with the question's wording and type, in the order sent", () => {
    const name = question({ question: 'Your name?', type: 'text' });
    const age = question({ question: 'Age?', type: 'number', perParticipant: true });
    const stored = checkAnswers(
      [name, age],
      [
        { QuestionID: age.id, Participant: 2, Value: 41 },
        { QuestionID: name.id, Value: 'Ana' },
        { QuestionID: age.id, Participant: 1, Value: 9 },
      ],
      2,
    );
    expect(stored).toEqual([
      { QuestionID: age.id, Question: 'Age?', Type: 'number', Participant: 2, Value: 41 },
      { QuestionID: name.id, Question: 'Your name?', Type: 'text', Participant: null, Value: 'Ana' },
      { QuestionID: age.id, Question: 'Age?', Type: 'number', Participant: 1, Value: 9 },
    ]);
  });

  it('takes no answers when no question is required', () => {
    expect(checkAnswers([question(), question({ type: 'checkbox' })], [], 3)).toEqual([]);
  });

  it('stores a blank answer to an optional question as sent', () => {
    const optional = question({ type: 'text' });
    const choice = question({ type: 'select', options: ['S', 'M'] });
    const list = question({ type: 'multiselect', options: ['a'] });
    const tick = question({ type: 'checkbox' });
    const answers: BookingAnswer[] = [
      { QuestionID: optional.id, Value: '  ' },
      { QuestionID: choice.id, Value: '' },
      { QuestionID: list.id, Value: [] },
      { QuestionID: tick.id, Value: false },
    ];
    expect(checkAnswers([optional, choice, list, tick], answers, 1).map((a) => a.Value)).toEqual(['  ', '', [], false]);
  });
});

describe('checkAnswers: required questions', () => {
  it('requires an answer to a required question when answers are sent', () => {
    const required = question({ question: 'Signature', type: 'signature', required: true });
    const found = problems(() => checkAnswers([required, question()], [], 2));
    expect(found).toEqual([{ field: 'Answers', message: `Answers: required question ${required.id} ("Signature") must be answered.` }]);
  });

  it.each([
    ['blank text', { type: 'text' }, '   '],
    ['an empty string', { type: 'textarea' }, ''],
    ['a blank select', { type: 'select', options: ['S', 'M'] }, ' '],
    ['an empty list', { type: 'multiselect', options: ['a', 'b'] }, []],
    ['a blank date', { type: 'date' }, ''],
    ['a blank email', { type: 'email' }, ''],
    ['a blank phone', { type: 'phone' }, ' '],
    ['a blank file', { type: 'file' }, ''],
  ] as Array<[string, Partial<WaiverQuestion>, BookingAnswer['Value']]>)('counts %s as no answer to a required question', (_label, overrides, value) => {
    const required = question({ ...overrides, required: true });
    expect(problems(() => checkAnswers([required], [{ QuestionID: required.id, Value: value }], 1))).toEqual([
      { field: 'Answers', message: `Answers: required question ${required.id} ("${required.question}") must be answered.` },
    ]);
  });

  it('needs a required checkbox ticked (true), and says so', () => {
    const consent = question({ question: 'I accept the risks', type: 'checkbox', required: true });
    expect(checkAnswers([consent], [{ QuestionID: consent.id, Value: true }], 1)).toHaveLength(1);
    expect(problems(() => checkAnswers([consent], [{ QuestionID: consent.id, Value: false }], 1))).toEqual([
      { field: 'Answers', message: `Answers: required question ${consent.id} ("I accept the risks") must be ticked (true).` },
    ]);
  });

  it('counts 0 as an answer to a required number question', () => {
    const count = question({ type: 'number', required: true });
    expect(checkAnswers([count], [{ QuestionID: count.id, Value: 0 }], 1)).toHaveLength(1);
  });

  it('needs a required per-participant question answered for every participant, and names the ones missing', () => {
    const weight = question({ question: 'Weight (kg)', type: 'number', required: true, perParticipant: true });
    const answers: BookingAnswer[] = [
      { QuestionID: weight.id, Participant: 1, Value: 70 },
      { QuestionID: weight.id, Participant: 3, Value: 55 },
    ];
    expect(problems(() => checkAnswers([weight], answers, 4)).map((p) => p.message)).toEqual([
      `Answers: required question ${weight.id} ("Weight (kg)") must be answered for participant 2.`,
      `Answers: required question ${weight.id} ("Weight (kg)") must be answered for participant 4.`,
    ]);
    expect(checkAnswers([weight], [...answers, { QuestionID: weight.id, Participant: 2, Value: 80 }], 3)).toHaveLength(3);
  });

  it('reports an answer of the wrong type to a required question once, not also as missing', () => {
    const required = question({ type: 'number', required: true });
    expect(fieldsOf(() => checkAnswers([required], [{ QuestionID: required.id, Value: 'ten' }], 1))).toEqual(['Answers[0].Value']);
  });
});

describe('checkAnswers: which question, which participant', () => {
  it('refuses an answer to a question the activity does not have', () => {
    const known = question();
    expect(problems(() => checkAnswers([known], [{ QuestionID: known.id + 1000, Value: 'x' }], 1))).toEqual([
      { field: 'Answers[0].QuestionID', message: `Answers[0].QuestionID ${known.id + 1000} is not a question of this activity.` },
    ]);
  });

  it('needs Participant on a per-participant question and refuses it on a per-booking one', () => {
    const perPerson = question({ perParticipant: true });
    const perBooking = question();
    expect(
      fieldsOf(() =>
        checkAnswers(
          [perPerson, perBooking],
          [
            { QuestionID: perPerson.id, Value: 'a' },
            { QuestionID: perBooking.id, Participant: 1, Value: 'b' },
          ],
          2,
        ),
      ),
    ).toEqual(['Answers[0].Participant', 'Answers[1].Participant']);
  });

  it('takes Participant up to the number of participants, not beyond', () => {
    const perPerson = question({ perParticipant: true });
    expect(checkAnswers([perPerson], [{ QuestionID: perPerson.id, Participant: 3, Value: 'ok' }], 3)).toHaveLength(1);
    expect(problems(() => checkAnswers([perPerson], [{ QuestionID: perPerson.id, Participant: 4, Value: 'x' }], 3))).toEqual([
      { field: 'Answers[0].Participant', message: 'Answers[0].Participant must be at most 3, the number of participants.' },
    ]);
  });

  it('refuses a second answer to the same question (for the same participant)', () => {
    const perBooking = question();
    const perPerson = question({ perParticipant: true });
    const answers: BookingAnswer[] = [
      { QuestionID: perBooking.id, Value: 'a' },
      { QuestionID: perPerson.id, Participant: 1, Value: 'b' },
      { QuestionID: perPerson.id, Participant: 2, Value: 'c' },
      { QuestionID: perBooking.id, Value: 'd' },
      { QuestionID: perPerson.id, Participant: 1, Value: 'e' },
    ];
    const found = problems(() => checkAnswers([perBooking, perPerson], answers, 2));
    expect(found).toEqual([
      { field: 'Answers[3].QuestionID', message: `Answers[3].QuestionID ${perBooking.id} is answered a second time.` },
      { field: 'Answers[4].QuestionID', message: `Answers[4].QuestionID ${perPerson.id} is answered a second time for participant 1.` },
    ]);
  });

  it('names every failing answer in one error', () => {
    const number = question({ type: 'number' });
    const required = question({ required: true });
    const found = fieldsOf(() =>
      checkAnswers(
        [number, required],
        [
          { QuestionID: 999_999, Value: 'x' },
          { QuestionID: number.id, Value: 'seven' },
        ],
        1,
      ),
    );
    expect(found).toEqual(['Answers[0].QuestionID', 'Answers[1].Value', 'Answers']);
  });
});

describe('checkAnswers: values must fit the question type', () => {
  const fits = (overrides: Partial<WaiverQuestion>, value: BookingAnswer['Value']) => {
    const q = question(overrides);
    try {
      checkAnswers([q], [{ QuestionID: q.id, Value: value }], 1);
      return true;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      expect(error.errors).toEqual([{ field: 'Answers[0].Value', message: expect.stringContaining(`(question ${q.id} is of type ${q.type})`) }]);
      return false;
    }
  };

  it('text: a string of at most 2000 characters; textarea: at most 10000', () => {
    expect(fits({ type: 'text' }, 'x'.repeat(2000))).toBe(true);
    expect(fits({ type: 'text' }, 'x'.repeat(2001))).toBe(false);
    expect(fits({ type: 'text' }, 12)).toBe(false);
    expect(fits({ type: 'textarea' }, 'x'.repeat(10_000))).toBe(true);
    expect(fits({ type: 'textarea' }, 'x'.repeat(10_001))).toBe(false);
    expect(fits({ type: 'textarea' }, ['x'])).toBe(false);
  });

  it('signature: any string', () => {
    expect(fits({ type: 'signature' }, 'data:image/png;base64,iVBOR')).toBe(true);
    expect(fits({ type: 'signature' }, true)).toBe(false);
  });

  it('select: one of the options, exactly', () => {
    const options = { type: 'select' as const, options: ['Small', 'Medium'] };
    expect(fits(options, 'Medium')).toBe(true);
    expect(fits(options, 'medium')).toBe(false);
    expect(fits(options, 'Large')).toBe(false);
    expect(fits(options, ['Small'])).toBe(false);
  });

  it('multiselect: a list of options without repeats', () => {
    const options = { type: 'multiselect' as const, options: ['a', 'b', 'c'] };
    expect(fits(options, ['c', 'a'])).toBe(true);
    expect(fits(options, ['a', 'd'])).toBe(false);
    expect(fits(options, ['a', 'a'])).toBe(false);
    expect(fits(options, 'a')).toBe(false);
  });

  it('checkbox: true or false', () => {
    expect(fits({ type: 'checkbox' }, true)).toBe(true);
    expect(fits({ type: 'checkbox' }, false)).toBe(true);
    expect(fits({ type: 'checkbox' }, 'true')).toBe(false);
    expect(fits({ type: 'checkbox' }, 1)).toBe(false);
  });

  it('number: a number, not a numeric string', () => {
    expect(fits({ type: 'number' }, -2.5)).toBe(true);
    expect(fits({ type: 'number' }, '3')).toBe(false);
  });

  it('date: a calendar date as YYYY-MM-DD', () => {
    expect(fits({ type: 'date' }, '1990-02-28')).toBe(true);
    expect(fits({ type: 'date' }, '1990-02-30')).toBe(false);
    expect(fits({ type: 'date' }, '28/02/1990')).toBe(false);
  });

  it('email: an address of at most 254 characters', () => {
    expect(fits({ type: 'email' }, 'ana@example.com')).toBe(true);
    expect(fits({ type: 'email' }, 'ana@example')).toBe(false);
    expect(fits({ type: 'email' }, 'ana @example.com')).toBe(false);
    expect(fits({ type: 'email' }, `${'a'.repeat(242)}@example.com`)).toBe(true);
    expect(fits({ type: 'email' }, `${'a'.repeat(243)}@example.com`)).toBe(false);
  });

  it('phone: digits, spaces and + ( ) . -, with at least 5 digits', () => {
    expect(fits({ type: 'phone' }, '+351 (21) 123-45.67')).toBe(true);
    expect(fits({ type: 'phone' }, '12345')).toBe(true);
    expect(fits({ type: 'phone' }, '1234')).toBe(false);
    expect(fits({ type: 'phone' }, '(1) 2-3.4')).toBe(false);
    expect(fits({ type: 'phone' }, '555-CALL-NOW')).toBe(false);
  });

  it('file: the http(s) URL of the uploaded file', () => {
    expect(fits({ type: 'file' }, 'https://files.example.com/waivers/abc.pdf')).toBe(true);
    expect(fits({ type: 'file' }, 'http://files.example.com/abc.pdf')).toBe(true);
    expect(fits({ type: 'file' }, 'ftp://files.example.com/abc.pdf')).toBe(false);
    expect(fits({ type: 'file' }, 'file:///etc/passwd')).toBe(false);
    expect(fits({ type: 'file' }, 'abc.pdf')).toBe(false);
    expect(fits({ type: 'file' }, `https://files.example.com/${'a'.repeat(2048)}`)).toBe(false);
  });
});

describe('waiver questions', () => {
  const newQuestion = (overrides: Partial<NewWaiverQuestion> = {}): NewWaiverQuestion => ({
    question: 'Shoe size?',
    type: 'text',
    required: false,
    options: [],
    perParticipant: false,
    ...overrides,
  });
  const questionFields = (input: NewWaiverQuestion) => fieldsOf(() => checkNewQuestion(input));

  it('takes a question of a known type, with options only for select and multiselect', () => {
    expect(() => checkNewQuestion(newQuestion())).not.toThrow();
    expect(() => checkNewQuestion(newQuestion({ type: 'select', options: ['38', '39'] }))).not.toThrow();
    expect(() => checkNewQuestion(newQuestion({ type: 'multiselect', options: ['a'] }))).not.toThrow();
  });

  it('refuses blank or overlong wording, unknown types and misplaced or bad options', () => {
    expect(questionFields(newQuestion({ question: '   ' }))).toEqual(['question']);
    expect(questionFields(newQuestion({ question: 'x'.repeat(2001) }))).toEqual(['question']);
    expect(questionFields(newQuestion({ type: 'radio' }))).toEqual(['type']);
    expect(questionFields(newQuestion({ type: 'text', options: ['a'] }))).toEqual(['options']);
    expect(questionFields(newQuestion({ type: 'select', options: [] }))).toEqual(['options']);
    expect(questionFields(newQuestion({ type: 'select', options: ['a', 'a'] }))).toEqual(['options']);
    expect(questionFields(newQuestion({ type: 'multiselect', options: ['a', ' '] }))).toEqual(['options']);
    expect(questionFields(newQuestion({ type: 'multiselect', options: ['x'.repeat(1001)] }))).toEqual(['options']);
  });

  it('knows exactly the question types of the contract', () => {
    for (const type of ['text', 'textarea', 'select', 'multiselect', 'checkbox', 'date', 'email', 'phone', 'number', 'file', 'signature'])
      expect(isQuestionType(type), type).toBe(true);
    for (const type of ['Text', 'radio', '']) expect(isQuestionType(type), type).toBe(false);
  });

  it("shows a question to partners with the contract's member names", () => {
    expect(toQuestion({ id: 7, question: 'Size?', type: 'select', required: true, options: ['S', 'M'], perParticipant: true })).toEqual({
      ID: 7,
      Question: 'Size?',
      Type: 'select',
      Required: true,
      Options: ['S', 'M'],
      PerParticipant: true,
    });
  });
});
