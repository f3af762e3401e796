// A console user as the user operations answer it (list, add, disable): the repository's row in the contract's shape.
import type { ConsoleUser } from '@backbone/contracts';
import type { OperatorUser } from '@backbone/db';

export const toConsoleUser = (u: OperatorUser): ConsoleUser => ({ UserID: u.id, Email: u.email, Role: u.role, Disabled: u.disabled, CreatedAt: u.createdAt });
