// The operator's timeslot changes: close, reopen, change the capacity. Closing stops every channel at once (the
// reservation and the partner reads only take open slots); a capacity never goes below what is booked. Each change is
// written with its audit entry in one transaction; a change to what the timeslot already is records nothing.
import type { OperatorTimeslot } from '@backbone/contracts';
import {
  findOperatorTimeslot,
  findTimeslotLabel,
  recordAudit,
  releaseLapsedHolds,
  setTimeslotCapacity,
  setTimeslotStatusById,
  withTransaction,
  type AuditRecord,
  type DbClient,
  type Pool,
} from '@backbone/db';
import { DomainError, notFound, type AuditActor } from '@backbone/domain';
import { awaitCommittedDurable } from './idempotency.js';

export interface TimeslotDeps {
  pool: Pool;
}

interface TimeslotRequest {
  accountId: string;
  timeslotId: number;
  actor: AuditActor;
}

async function recordTimeslotAudit(client: DbClient, request: TimeslotRequest, action: AuditRecord['action'], changes: AuditRecord['changes']): Promise<void> {
  const label = (await findTimeslotLabel(client, request.accountId, request.timeslotId))!;
  await recordAudit(client, request.accountId, { actor: request.actor, action, subject: { type: 'timeslot', id: String(request.timeslotId), label }, changes });
}

function setStatus(deps: TimeslotDeps, request: TimeslotRequest, status: OperatorTimeslot['Status']): Promise<OperatorTimeslot> {
  return withTransaction(deps.pool, async (client) => {
    const slot = await findOperatorTimeslot(client, request.accountId, request.timeslotId, { forUpdate: true });
    if (!slot) throw notFound('Timeslot');
    if (slot.Status === status) return slot;
    const changed = (await setTimeslotStatusById(client, request.accountId, request.timeslotId, status))!;
    await recordTimeslotAudit(client, request, status === 'closed' ? 'timeslot.closed' : 'timeslot.reopened', { Status: { From: slot.Status, To: status } });
    return changed;
  });
}

export function closeTimeslot(deps: TimeslotDeps, request: TimeslotRequest): Promise<OperatorTimeslot> {
  return setStatus(deps, request, 'closed');
}

export function reopenTimeslot(deps: TimeslotDeps, request: TimeslotRequest): Promise<OperatorTimeslot> {
  return setStatus(deps, request, 'open');
}

/**
 * In one transaction: lock the slot (404 for another account's), release its lapsed holds (their places are free but
 * still counted in `booked`), then set the capacity only if it is at least what is booked (409 otherwise).
 */
export async function changeTimeslotCapacity(deps: TimeslotDeps, request: TimeslotRequest & { capacity: number }): Promise<OperatorTimeslot> {
  const changed = await withTransaction(deps.pool, async (client) => {
    const slot = await findOperatorTimeslot(client, request.accountId, request.timeslotId, { forUpdate: true });
    if (!slot) throw notFound('Timeslot');
    await releaseLapsedHolds(client, { timeslotId: request.timeslotId, limit: 10_000 });
    if ((await setTimeslotCapacity(client, request.accountId, request.timeslotId, request.capacity)) === 'below-booked') {
      const now = await findOperatorTimeslot(client, request.accountId, request.timeslotId);
      const booked = now?.Booked ?? slot.Booked;
      throw new DomainError('capacity-below-booked', `${booked} places are booked: the capacity cannot go below that.`, { Booked: booked });
    }
    if (slot.Capacity !== request.capacity)
      await recordTimeslotAudit(client, request, 'timeslot.capacity_changed', { Capacity: { From: slot.Capacity, To: request.capacity } });
    return (await findOperatorTimeslot(client, request.accountId, request.timeslotId))!;
  });
  // Releasing lapsed holds commits without a flush (it holds the timeslot's row): the answer waits until it is on disk.
  await awaitCommittedDurable(deps.pool);
  return changed;
}
