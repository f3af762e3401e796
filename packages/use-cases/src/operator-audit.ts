// The audit log as owners read it: one keyset page, newest first, of one action or all, within local dates of the
// account's time zone.
import type { AuditAction, AuditEntry } from '@backbone/contracts';
import { listAuditEntries, type Pool } from '@backbone/db';
import { checkOperatorDateRange } from '@backbone/domain';

// The ids are a bigint's; a cursor past every id (one this API never gave out) reads as the first page would.
const LARGEST_ID = 2n ** 63n - 1n;

// A range is only checked for its order: the log is kept whole, and a long range costs no more than a short one.
const ANY_LENGTH = Number.MAX_SAFE_INTEGER;

export async function listOperatorAudit(
  deps: { pool: Pool },
  request: { accountId: string; timeZone: string; action?: AuditAction; from?: string; to?: string; limit: number; below: string | null },
): Promise<{ entries: AuditEntry[]; next: string | null }> {
  if (request.from !== undefined && request.to !== undefined) checkOperatorDateRange(request.from, request.to, ANY_LENGTH);
  const below = request.below !== null && BigInt(request.below) > LARGEST_ID ? null : request.below;
  const filters = { timeZone: request.timeZone, action: request.action, from: request.from, to: request.to };
  return listAuditEntries(deps.pool, request.accountId, filters, { limit: request.limit, below });
}
