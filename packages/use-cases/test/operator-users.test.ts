// A new user's password is checked before it is hashed or anything is written.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '@backbone/domain';
import { createOperatorUser, MIN_PASSWORD_LENGTH } from '../src/operator-users.js';
import { rejectionOf, untouchablePool } from './untouchable.js';

describe('createOperatorUser', () => {
  it(`refuses a password shorter than ${MIN_PASSWORD_LENGTH} characters before anything is written`, async () => {
    const error = await rejectionOf(
      createOperatorUser(
        { pool: untouchablePool },
        {
          accountId: '00000000-0000-4000-8000-0000000000aa',
          email: 'staff@example.com',
          role: 'staff',
          password: 'a'.repeat(MIN_PASSWORD_LENGTH - 1),
          actor: { kind: 'cli' },
        },
      ),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([{ field: 'Password', message: 'must be at least 12 characters long.' }]);
  });
});
