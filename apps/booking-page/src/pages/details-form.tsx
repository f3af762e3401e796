// The details step: the held choice with the time left, every waiver question (per participant where asked so),
// the customer's details, the summary with the total, the note and terms, and Book. Errors are shown next to their
// field (checked here first, then as the server names them) and the focus goes to the first one.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from '../api.js';
import { formatDate, formatMoney, formatTime, type Locale } from '../format.js';
import { shop, type ConfirmRequest, type ShopActivityDetails, type ShopAnswer, type ShopBooking, type ShopPage } from '../shop.js';
import { Field, FormFooter, Honeypot, controlProps } from '../components/field.js';
import { HoldTimer } from '../components/hold-timer.js';
import { answerKey, QuestionField, type AnswerState } from '../components/question-field.js';
import { answersOf, checkDetails, CUSTOMER_FIELDS, errorsFromProblem, type CustomerForm } from './details-check.js';

export interface HeldChoice {
  /** The hold's token: it confirms the hold, then opens the booking at the manage link. */
  Token: string;
  ExpiresAt: string;
  Date: string;
  Time: string;
  Participants: number;
}

interface DetailsProps {
  slug: string;
  page: ShopPage;
  locale: Locale;
  activity: ShopActivityDetails;
  hold: HeldChoice;
  /** Going back to choose again; none for places held for the customer (a waitlist offer). */
  onChange?: () => void;
  onExpired: () => void;
  onBooked: (booking: ShopBooking) => void;
  /** The details known already (a waitlist offer's contact). */
  initialCustomer?: CustomerForm;
  /** How Book confirms: the hold's confirm unless given (a waitlist offer's claim). */
  confirm?: (body: ConfirmRequest) => Promise<ShopBooking>;
}

export function DetailsForm({ slug, page, locale, activity, hold, onChange, onExpired, onBooked, initialCustomer, confirm }: DetailsProps) {
  const [answers, setAnswers] = useState<Record<string, AnswerState>>({});
  const [customer, setCustomer] = useState<CustomerForm>(initialCustomer ?? { FirstName: '', LastName: '', Email: '', Phone: '' });
  const [website, setWebsite] = useState('');
  const [acceptTerms, setAcceptTerms] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<unknown>(null);
  const [booking, setBooking] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const slots = activity.Questions.flatMap((question) =>
    question.PerParticipant
      ? Array.from({ length: hold.Participants }, (_, i) => ({ question, participant: i + 1 }))
      : [{ question, participant: null as number | null }],
  );

  const setError = (key: string, message: string | undefined) =>
    setErrors((previous) => {
      const next = { ...previous };
      if (message) next[key] = message;
      else delete next[key];
      return next;
    });

  const showErrors = (found: Record<string, string>) => {
    setErrors(found);
    const first = Object.keys(found)[0];
    // After the render that shows the messages, so the reader hears the field with its error.
    if (first) setTimeout(() => document.getElementById(first)?.focus(), 0);
  };

  const book = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    const found = checkDetails(slots, answers, customer, Boolean(page.Terms) && !acceptTerms);
    if (Object.keys(found).length) return showErrors(found);
    const { answers: sent, keys } = answersOf(slots, answers);
    setBooking(true);
    try {
      const Customer = { FirstName: customer.FirstName.trim(), LastName: customer.LastName.trim(), Email: customer.Email.trim() };
      const body: ConfirmRequest = {
        Customer: { ...Customer, Phone: customer.Phone.trim() },
        ...(page.Terms ? { AcceptTerms: true } : {}),
        Answers: sent satisfies ShopAnswer[],
        Website: website,
      };
      const done = await (confirm ?? ((request: ConfirmRequest) => shop.confirm(slug, hold.Token, request)))(body);
      onBooked(done);
    } catch (error) {
      const fieldErrors = errorsFromProblem(error, keys);
      if (Object.keys(fieldErrors).length) showErrors(fieldErrors);
      else setProblem(error);
      if (error instanceof ApiProblem && (error.status === 404 || error.status === 410)) onExpired();
    } finally {
      setBooking(false);
    }
  };

  const total = activity.Price.Amount * hold.Participants;
  const errorCount = Object.keys(errors).length;
  return (
    <form class="step" noValidate onSubmit={(e) => void book(e)}>
      <h2 ref={heading} tabIndex={-1}>
        Your details
      </h2>
      <div class="chosen">
        <p>
          <strong>{formatDate(hold.Date, locale)}</strong> at <strong>{formatTime(hold.Time, locale)}</strong>, {hold.Participants}{' '}
          {hold.Participants === 1 ? 'participant' : 'participants'}
        </p>
        {onChange ? (
          <button type="button" class="link" onClick={onChange}>
            Change date, time or participants
          </button>
        ) : null}
        <HoldTimer expiresAt={hold.ExpiresAt} onExpired={onExpired} />
      </div>

      {slots.length ? (
        <section aria-labelledby="questions-heading">
          <h3 id="questions-heading">Questions from {page.AccountName}</h3>
          {slots.map(({ question, participant }) => {
            const key = answerKey(question.ID, participant);
            return (
              <QuestionField
                key={key}
                slug={slug}
                token={hold.Token}
                question={question}
                participant={participant}
                value={answers[key]}
                error={errors[key]}
                onChange={(value) => {
                  setAnswers((previous) => ({ ...previous, [key]: value }));
                  if (errors[key]) setError(key, undefined);
                }}
                onError={(message) => setError(key, message)}
              />
            );
          })}
        </section>
      ) : null}

      <section aria-labelledby="contact-heading">
        <h3 id="contact-heading">Contact details</h3>
        {CUSTOMER_FIELDS.map(({ name, label, type, autocomplete, optional }) => (
          <Field key={name} id={name} label={label} error={errors[name]} optional={optional}>
            <input
              {...controlProps(name, undefined, errors[name])}
              name={name}
              // One field per customer member; the input-type union of preact's JSX types cannot follow a mapped type.
              type={type as 'text'}
              autocomplete={autocomplete}
              aria-required={!optional}
              value={customer[name]}
              onInput={(e) => {
                const value = e.currentTarget.value;
                setCustomer((previous) => ({ ...previous, [name]: value }));
                if (errors[name]) setError(name, undefined);
              }}
            />
          </Field>
        ))}
        <Honeypot value={website} onInput={setWebsite} />
      </section>

      <section aria-labelledby="summary-heading" class="summary">
        <h3 id="summary-heading">Summary</h3>
        <dl>
          <dt>Activity</dt>
          <dd>{activity.Name}</dd>
          <dt>When</dt>
          <dd>
            {formatDate(hold.Date, locale)}, {formatTime(hold.Time, locale)}
          </dd>
          <dt>Participants</dt>
          <dd>
            {hold.Participants} × {formatMoney(activity.Price.Amount, locale)}
          </dd>
          <dt class="total">Total</dt>
          <dd class="total">{formatMoney(total, locale)}</dd>
        </dl>
        <p class="pay-note">Paid at the venue: nothing is charged now.</p>
        {page.Note ? <p class="note">{page.Note}</p> : null}
        {page.Terms ? (
          <details class="terms">
            <summary>Terms and conditions</summary>
            <p>{page.Terms}</p>
          </details>
        ) : null}
        {page.Terms ? (
          <div class={errors.AcceptTerms ? 'field invalid' : 'field'}>
            <label class="choice">
              <input
                type="checkbox"
                {...controlProps('AcceptTerms', undefined, errors.AcceptTerms)}
                name="AcceptTerms"
                aria-required="true"
                checked={acceptTerms}
                onChange={(e) => {
                  setAcceptTerms(e.currentTarget.checked);
                  setError('AcceptTerms', undefined);
                }}
              />
              <span>I accept the terms and conditions</span>
            </label>
            <p id="AcceptTerms-error" class="error" aria-live="polite">
              {errors.AcceptTerms ?? ''}
            </p>
          </div>
        ) : null}
      </section>

      <FormFooter errorCount={errorCount} problem={problem} busy={booking} label="Book" busyLabel="Booking…" />
    </form>
  );
}
