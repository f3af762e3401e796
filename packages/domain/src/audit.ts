// Who did an owner's action, as the audit log records it: an operator (a console user, or an admin key acting as
// owner), the admin CLI, or the service itself (the demo seed). Every use case that changes what an owner owns takes one.

/** A console user (userId), or an admin key (apiKeyId) when no user is signed in. */
export interface OperatorActor {
  kind: 'operator';
  userId: string | null;
  apiKeyId: string | null;
}

export type AuditActor = OperatorActor | { kind: 'cli' } | { kind: 'system' };

/** { Member: { From, To } } of what changed between two states of a thing; From is null for each member of a new one. */
export type AuditChanges = Record<string, { From: unknown; To: unknown }>;

/**
 * The members whose values differ between `before` (null: the thing is new) and `after`, compared as JSON; members
 * named in `omit` (ids) are left out. An empty result means nothing changed, and then nothing is recorded.
 */
export function auditChanges(
  before: Readonly<Record<string, unknown>> | null,
  after: Readonly<Record<string, unknown>>,
  omit: readonly string[] = [],
): AuditChanges {
  const changes: AuditChanges = {};
  for (const [member, to] of Object.entries(after)) {
    if (omit.includes(member)) continue;
    const from = before === null ? null : (before[member] ?? null);
    if (before === null || JSON.stringify(from) !== JSON.stringify(to)) changes[member] = { From: from, To: to };
  }
  return changes;
}
