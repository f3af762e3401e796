// Operator passwords: scrypt (memory-hard) from node:crypto, with its parameters stored beside each hash so they can
// be raised later without locking anyone out; comparison in constant time.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// N=2^15, r=8: 32 MiB and some 50-100 ms per hash here, the interactive-login figure of RFC 7914. p stays 1 so that a
// burst of sign-ins holds little memory in the API process at once.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// Verified against when the e-mail is unknown, so both failures cost the same time and cannot be told apart.
let decoyHash: Promise<string> | null = null;
export function decoyPasswordHash(): Promise<string> {
  return (decoyHash ??= hashPassword(randomBytes(16).toString('base64url')));
}

/** A one-time password for a new or reset user: 20 characters of base64url, 120 random bits. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}
