// Booking references: random (not guessable, not sequential) and easy to read out over the phone.
import { randomBytes } from 'node:crypto';

/** 32 symbols without look-alikes: no 0/O, no 1/I. */
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** Eight symbols (40 random bits) as two groups of four, e.g. 7KQ4-X9MB. */
export function generateBookingReference(): string {
  const bytes = randomBytes(8);
  let symbols = '';
  // 256 is a multiple of 32, so taking each byte modulo 32 keeps every symbol equally likely.
  for (const byte of bytes) symbols += REFERENCE_ALPHABET[byte % 32];
  return `${symbols.slice(0, 4)}-${symbols.slice(4)}`;
}
