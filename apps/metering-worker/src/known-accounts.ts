// Whether an event's AccountID is an account of ours. Accounts are never deleted, so a positive answer is kept for
// the life of the process and a busy worker asks PostgreSQL once per account; concurrent jobs share one lookup.
import { findAccount, type Pool } from '@backbone/db';

export interface KnownAccounts {
  exists(accountId: string): Promise<boolean>;
}

const MAX_REMEMBERED = 100_000;

export function createKnownAccounts(pool: Pool): KnownAccounts {
  const known = new Set<string>();
  const pending = new Map<string, Promise<boolean>>();
  return {
    exists(accountId) {
      const id = accountId.toLowerCase();
      if (known.has(id)) return Promise.resolve(true);
      let lookup = pending.get(id);
      if (!lookup) {
        lookup = findAccount(pool, id)
          .then((account) => {
            if (account) {
              if (known.size >= MAX_REMEMBERED) known.clear();
              known.add(id);
            }
            return account !== null;
          })
          .finally(() => pending.delete(id));
        pending.set(id, lookup);
      }
      return lookup;
    },
  };
}
