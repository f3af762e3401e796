// A console user and a pending invitation as the user operations answer them: the repository's rows in the contract's shape.
import type { ConsoleInvitation, ConsoleUser } from '@backbone/contracts';
import type { OperatorInvitation, OperatorUser } from '@backbone/db';

export const toConsoleUser = (u: OperatorUser): ConsoleUser => ({
  UserID: u.id,
  Email: u.email,
  Name: u.name,
  Role: u.role,
  Disabled: u.disabled,
  CreatedAt: u.createdAt,
});

export const toConsoleInvitation = (i: OperatorInvitation): ConsoleInvitation => ({
  InvitationID: i.id,
  Email: i.email,
  Name: i.name,
  Role: i.role,
  InvitedBy: i.invitedBy,
  CreatedAt: i.createdAt,
  ExpiresAt: i.expiresAt,
  Expired: Date.parse(i.expiresAt) <= Date.now(),
  MailStatus: i.mailStatus as ConsoleInvitation['MailStatus'],
});

/** Who sends an invitation, as its e-mail names them: the signed-in user, or "An administrator" for an admin key. */
export const inviterOf = (auth: { user?: { email: string } }): string => auth.user?.email ?? 'An administrator';
