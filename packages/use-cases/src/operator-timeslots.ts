// The operator's timeslot changes: close, reopen, change the capacity. Closing stops every channel at once (the
// reservation and the partner reads only take open slots); a capacity never goes below what is booked.
import { awaitDurable, findOperatorTimeslot, releaseLapsedHolds, setTimeslotCapacity, setTimeslotStatusById, withTransaction, type Pool } from '@backbone/db';
import type { OperatorTimeslot } from '@backbone/contracts';
import { DomainError, notFound } from '@backbone/domain';

export interface TimeslotUnitOfWork {
  pool: Pool;
}

export async function closeTimeslot(uow: TimeslotUnitOfWork, request: { accountId: string; timeslotId: number }): Promise<OperatorTimeslot> {
  return (await setTimeslotStatusById(uow.pool, request.accountId, request.timeslotId, 'closed')) ?? Promise.reject(notFound('Timeslot'));
}

export async function reopenTimeslot(uow: TimeslotUnitOfWork, request: { accountId: string; timeslotId: number }): Promise<OperatorTimeslot> {
  return (await setTimeslotStatusById(uow.pool, request.accountId, request.timeslotId, 'open')) ?? Promise.reject(notFound('Timeslot'));
}

/**
 * In one transaction: lock the slot (404 for another account's), release its lapsed holds (their places are free but
 * still counted in `booked`), then set the capacity only if it is at least what is booked (409 otherwise).
 */
export async function changeTimeslotCapacity(
  uow: TimeslotUnitOfWork,
  request: { accountId: string; timeslotId: number; capacity: number },
): Promise<OperatorTimeslot> {
  const changed = await withTransaction(uow.pool, async (client) => {
    const slot = await findOperatorTimeslot(client, request.accountId, request.timeslotId, { forUpdate: true });
    if (!slot) throw notFound('Timeslot');
    await releaseLapsedHolds(client, { timeslotId: request.timeslotId, limit: 10_000 });
    if ((await setTimeslotCapacity(client, request.accountId, request.timeslotId, request.capacity)) === 'below-booked') {
      const now = await findOperatorTimeslot(client, request.accountId, request.timeslotId);
      const booked = now?.Booked ?? slot.Booked;
      throw new DomainError('capacity-below-booked', `${booked} places are booked: the capacity cannot go below that.`, { Booked: booked });
    }
    return (await findOperatorTimeslot(client, request.accountId, request.timeslotId))!;
  });
  // Releasing lapsed holds commits without a flush (it holds the timeslot's row): the answer waits until it is on disk.
  await awaitDurable(uow.pool);
  return changed;
}
