// Operator passwords: scrypt with its parameters stored beside each hash (so they can be raised without locking anyone
// out), the password read in Unicode's composed form, and one-time passwords. Hashes made here with small parameters
// keep the file fast; hashPassword's own parameters are checked once.
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from '../src/operator-passwords.js';

/** A stored hash as hashPassword writes it, with parameters of our choosing. */
function storedHash(password: string, N = 1024, r = 8, p = 1): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFC'), salt, 32, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('hashPassword', () => {
  it('stores scrypt with N=2^15, r=8, p=1, a 16-byte salt and a 32-byte key, and verifies what it stored', async () => {
    const stored = await hashPassword('correct horse battery staple');
    const [scheme, n, r, p, salt, key] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64url')).toHaveLength(32);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
  });
});

describe('verifyPassword', () => {
  it('verifies with the parameters stored beside the hash, and refuses another password', async () => {
    const stored = storedHash('correct horse battery staple', 2048, 4, 2);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('takes the same password typed in composed or decomposed form', async () => {
    const stored = storedHash('café crème'.normalize('NFD'));
    expect(await verifyPassword('café crème'.normalize('NFC'), stored)).toBe(true);
    expect(await verifyPassword('café crème'.normalize('NFD'), stored)).toBe(true);
  });

  it('refuses a stored value of another scheme or with parts missing', async () => {
    const stored = storedHash('correct horse battery staple');
    expect(await verifyPassword('correct horse battery staple', stored.replace(/^scrypt/, 'bcrypt'))).toBe(false);
    expect(await verifyPassword('correct horse battery staple', stored.split('$').slice(0, 5).join('$'))).toBe(false);
    expect(await verifyPassword('correct horse battery staple', '')).toBe(false);
  });
});

describe('generatePassword', () => {
  it('is 20 characters of base64url (120 random bits), a new one each time', () => {
    const passwords = Array.from({ length: 50 }, generatePassword);
    for (const password of passwords) expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(new Set(passwords).size).toBe(passwords.length);
  });
});
