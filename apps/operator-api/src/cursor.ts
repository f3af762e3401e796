// Keyset cursors of the bookings list, opaque to clients (base64url) so that they pass them back rather than build
// one: `k<id>` for the default order, `s<start in µs>.<id>` for Sort=starts_at. Each names its order, so a cursor of
// one order sent with the other is refused rather than read as a position it is not.
import type { SlotKey } from '@backbone/db';
import { ValidationError } from '@backbone/domain';

const ID_CURSOR = /^k([1-9][0-9]{0,18})$/;
// At most sixteen digits of microseconds: within PostgreSQL's range whatever a client forges (the year 2286); every
// start until 2255 is below 2^53, which a double, and so to_timestamp, holds exactly.
const SLOT_CURSOR = /^s(-?[0-9]{1,16})\.([1-9][0-9]{0,18})$/;

export function encodeCursor(id: string): string {
  return Buffer.from(`k${id}`).toString('base64url');
}

export function encodeSlotCursor(key: SlotKey): string {
  return Buffer.from(`s${key.startsAtMicros}.${key.id}`).toString('base64url');
}

/** Ids are bigint: a forged one beyond it is a position past every id, which PostgreSQL would refuse as an id (a 500). */
const MAX_ID = 9223372036854775807n;
const asId = (text: string): string => (BigInt(text) > MAX_ID ? String(MAX_ID) : text);

function refused(message: string): ValidationError {
  return new ValidationError([{ field: 'Cursor', message }]);
}

/** The id a cursor of the default order stands for; null without a cursor; 422 for any other. */
export function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const decoded = Buffer.from(cursor, 'base64url').toString();
  const id = ID_CURSOR.exec(decoded)?.[1];
  if (id !== undefined) return asId(id);
  throw refused(SLOT_CURSOR.test(decoded) ? 'is a cursor of Sort=starts_at: send it with that Sort.' : 'is not a cursor given out by this API.');
}

/** The position a cursor of Sort=starts_at stands for; null without a cursor; 422 for any other. */
export function decodeSlotCursor(cursor: string | undefined): SlotKey | null {
  if (cursor === undefined) return null;
  const decoded = Buffer.from(cursor, 'base64url').toString();
  const slot = SLOT_CURSOR.exec(decoded);
  if (slot) return { startsAtMicros: slot[1]!, id: asId(slot[2]!) };
  throw refused(ID_CURSOR.test(decoded) ? 'is a cursor of the default order: send it without Sort.' : 'is not a cursor given out by this API.');
}
