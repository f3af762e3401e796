// Operator accounts and their partners, as the admin CLI (and the demo seed) creates them: an account is named and
// placed in a time zone (UTC unless one is given), a partner is named uniquely within its account regardless of case.
import { createAccount, createPartner, PartnerNameTakenError, type Account, type AccountContact, type Db, type Partner } from '@backbone/db';
import { isValidTimeZone, ValidationError, type FieldError } from '@backbone/domain';

/** A name of 1 to 200 characters once trimmed; the error names `field`. */
function checkedName(name: string, errors: FieldError[]): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 200) errors.push({ field: 'name', message: 'name must be 1 to 200 characters.' });
  return trimmed;
}

/** `deps.pool` may be a transaction's client, for a write that joins a larger one (seedOperator). */
export async function createOperatorAccount(
  deps: { pool: Db },
  request: { name: string; timeZone?: string; id?: string; contact?: AccountContact },
): Promise<Account> {
  const errors: FieldError[] = [];
  const contact = request.contact ?? {};
  if (contact.email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(contact.email))
    errors.push({ field: 'email', message: 'email must be an email address.' });
  if (contact.phone !== undefined && !/^\+?[0-9 ()./-]{3,40}$/.test(contact.phone)) errors.push({ field: 'phone', message: 'phone must be a phone number.' });
  if (contact.website !== undefined && !/^https?:\/\/\S{1,1990}$/.test(contact.website))
    errors.push({ field: 'website', message: 'website must be an http(s) URL.' });
  const timeZone = request.timeZone ?? 'UTC';
  if (!isValidTimeZone(timeZone)) errors.push({ field: 'timeZone', message: `timeZone must be an IANA time zone such as Europe/Lisbon, got '${timeZone}'.` });
  const name = checkedName(request.name, errors);
  if (errors.length > 0) throw new ValidationError(errors);
  return createAccount(deps.pool, { name, timeZone, contact, ...(request.id ? { id: request.id } : {}) });
}

export async function createOperatorPartner(deps: { pool: Db }, request: { accountId: string; name: string }): Promise<Partner> {
  const errors: FieldError[] = [];
  const name = checkedName(request.name, errors);
  if (errors.length > 0) throw new ValidationError(errors);
  try {
    return await createPartner(deps.pool, request.accountId, name);
  } catch (error) {
    if (error instanceof PartnerNameTakenError) throw new ValidationError([{ field: 'name', message: error.message }]);
    throw error;
  }
}
