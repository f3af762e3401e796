// Joining the waitlist of a time too full for the party: who waits (name, e-mail for the offer, phone if they like),
// then their place in the queue. When places free up, the earliest parties that fit get an e-mail with a link that
// opens this page on places held for them (claim-page.tsx).
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDate, formatTime, type Locale } from '../format.js';
import { shop, type ShopActivityDetails, type ShopWaitlistEntry } from '../shop.js';
import { Field, FormFooter, Honeypot, controlProps } from '../components/field.js';
import { CUSTOMER_FIELDS, EMAIL, errorsFromProblem, PHONE, type CustomerForm } from './details-check.js';

interface WaitlistFormProps {
  slug: string;
  locale: Locale;
  activity: ShopActivityDetails;
  slot: { Date: string; Time: string };
  participants: number;
  onBack: () => void;
}

function checkContact(customer: CustomerForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!customer.FirstName.trim()) errors.FirstName = 'Enter your first name.';
  if (!customer.LastName.trim()) errors.LastName = 'Enter your last name.';
  if (!customer.Email.trim()) errors.Email = 'Enter your email address: the offer goes there.';
  else if (!EMAIL.test(customer.Email.trim())) errors.Email = 'Enter an email address, like name@example.com.';
  if (customer.Phone.trim() && !PHONE.test(customer.Phone.trim())) errors.Phone = 'Enter a phone number, like +351 912 345 678.';
  return errors;
}

export function WaitlistForm({ slug, locale, activity, slot, participants, onBack }: WaitlistFormProps) {
  const [customer, setCustomer] = useState<CustomerForm>({ FirstName: '', LastName: '', Email: '', Phone: '' });
  const [website, setWebsite] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<unknown>(null);
  const [sending, setSending] = useState(false);
  const [joined, setJoined] = useState<ShopWaitlistEntry | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [joined]);

  const showErrors = (found: Record<string, string>) => {
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) setTimeout(() => document.getElementById(first)?.focus(), 0);
  };

  const join = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    const found = checkContact(customer);
    if (Object.keys(found).length) return showErrors(found);
    setSending(true);
    try {
      const phone = customer.Phone.trim();
      setJoined(
        await shop.joinWaitlist(slug, {
          ActivityID: activity.ActivityID,
          Date: slot.Date,
          Time: slot.Time,
          Participants: participants,
          Customer: {
            FirstName: customer.FirstName.trim(),
            LastName: customer.LastName.trim(),
            Email: customer.Email.trim(),
            ...(phone ? { Phone: phone } : {}),
          },
          Website: website,
        }),
      );
    } catch (error) {
      const fieldErrors = errorsFromProblem(error, []);
      if (Object.keys(fieldErrors).length) showErrors(fieldErrors);
      else setProblem(error);
    } finally {
      setSending(false);
    }
  };

  const when = (
    <>
      <strong>{formatDate(slot.Date, locale)}</strong> at <strong>{formatTime(slot.Time, locale)}</strong>, {participants}{' '}
      {participants === 1 ? 'participant' : 'participants'}
    </>
  );

  if (joined)
    return (
      <section class="step confirmation" aria-labelledby="waitlist-joined-heading">
        <h2 id="waitlist-joined-heading" ref={heading} tabIndex={-1}>
          You are on the waitlist
        </h2>
        <p>
          {activity.Name}: {when}.
        </p>
        {joined.Position ? (
          <p>
            Your place in the queue: <strong class="reference">{joined.Position}</strong>.
          </p>
        ) : null}
        <p>
          When places free up, we hold them for you and send an e-mail to <strong>{customer.Email.trim()}</strong> with a link to book them. The places are held
          for a limited time, then offered to the next person waiting.
        </p>
        <button type="button" class="secondary" onClick={onBack}>
          Choose another time
        </button>
      </section>
    );

  const errorCount = Object.keys(errors).length;
  return (
    <form class="step" noValidate onSubmit={(e) => void join(e)}>
      <h2 ref={heading} tabIndex={-1}>
        Join the waitlist
      </h2>
      <div class="chosen">
        <p>
          {activity.Name}: {when}
        </p>
        <button type="button" class="link" onClick={onBack}>
          Choose another time
        </button>
      </div>
      <p>This time is full. Leave your details: if places free up, we hold them for you and e-mail you a link to book them.</p>
      <section aria-labelledby="waitlist-contact-heading">
        <h3 id="waitlist-contact-heading">Contact details</h3>
        {CUSTOMER_FIELDS.map(({ name, label, type, autocomplete }) => (
          // The phone is optional here: the offer goes by e-mail.
          <Field key={name} id={name} label={label} error={errors[name]} optional={name === 'Phone'}>
            <input
              {...controlProps(name, undefined, errors[name])}
              name={name}
              // One field per customer member; the input-type union of preact's JSX types cannot follow a mapped type.
              type={type as 'text'}
              autocomplete={autocomplete}
              aria-required={name !== 'Phone'}
              value={customer[name]}
              onInput={(e) => {
                const value = e.currentTarget.value;
                setCustomer((previous) => ({ ...previous, [name]: value }));
                if (errors[name]) setErrors(({ [name]: _, ...rest }) => rest);
              }}
            />
          </Field>
        ))}
        <Honeypot value={website} onInput={setWebsite} />
      </section>
      <FormFooter errorCount={errorCount} problem={problem} busy={sending} label="Join the waitlist" busyLabel="Joining…" />
    </form>
  );
}
