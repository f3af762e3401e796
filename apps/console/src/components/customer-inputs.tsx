// The customer's inputs, as the sale form and the booking panel's Edit both ask for them: one place for their names,
// types and which are required, so both forms send the API the same Customer.
import type { ChangeEvent } from 'react';

export interface CustomerValues {
  FirstName: string;
  LastName: string;
  Email: string;
  Phone: string;
}

/** The customer's name as shown; a hold a partner made without a customer has none yet. */
export function customerName(customer: { FirstName?: string; LastName?: string }): string {
  const name = [customer.FirstName, customer.LastName].filter(Boolean).join(' ');
  return name === '' ? 'No customer yet' : name;
}

type OnInput = (name: keyof CustomerValues) => (event: ChangeEvent<HTMLInputElement>) => void;

/** `emailRequired`: false at the desk, where a walk-in may give no address (and then gets no e-mail). */
export function CustomerInputs({ values, field, emailRequired = true }: { values: CustomerValues; field: OnInput; emailRequired?: boolean }) {
  return (
    <>
      <label>
        First name
        <input name="FirstName" required value={values.FirstName} onChange={field('FirstName')} autoComplete="off" />
      </label>
      <label>
        Last name
        <input name="LastName" required value={values.LastName} onChange={field('LastName')} autoComplete="off" />
      </label>
      <label>
        {emailRequired ? 'E-mail' : 'E-mail (optional)'}
        <input type="email" name="Email" required={emailRequired} value={values.Email} onChange={field('Email')} autoComplete="off" />
      </label>
      <label>
        Phone (optional)
        <input type="tel" name="Phone" value={values.Phone} onChange={field('Phone')} autoComplete="off" />
      </label>
    </>
  );
}
