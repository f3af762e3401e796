// Keyset cursors: the last row's id, opaque to clients (base64url) so that they pass it back rather than build one.
import { ValidationError } from '@backbone/domain';

export function encodeCursor(id: string): string {
  return Buffer.from(`k${id}`).toString('base64url');
}

/** The id a cursor stands for; null without a cursor; 422 for one this API did not give out. */
export function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const decoded = Buffer.from(cursor, 'base64url').toString();
  if (!/^k[1-9][0-9]{0,18}$/.test(decoded)) throw new ValidationError([{ field: 'Cursor', message: 'is not a cursor given out by this API.' }]);
  return decoded.slice(1);
}
