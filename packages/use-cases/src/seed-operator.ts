// An operator written whole in one transaction (the demo `npm start` seeds): its account, activities with their
// timeslots and waiver questions, and API keys, each through the use case that creates it alone, so a crash leaves
// nothing half-made. A second seed of the same account id finds it and writes nothing.
import type { NewOperatorActivity, NewQuestion, Scope, TimeslotPattern } from '@backbone/contracts';
import { findAccount, withTransaction, type CreatedApiKey, type Pool } from '@backbone/db';
import type { Activity } from '@backbone/domain';
import { createOperatorAccount } from './operator-accounts.js';
import { addOperatorQuestion, createOperatorActivity, generateTimeslots } from './operator-activities.js';
import { createOperatorKey } from './operator-keys.js';

export interface OperatorSeed {
  account: { id: string; name: string; timeZone: string };
  activities: Array<{ activityId: string; activity: NewOperatorActivity; timeslots: TimeslotPattern; questions: NewQuestion[] }>;
  keys: Array<{ name: string; scopes: Scope[] }>;
}

const UNIQUE_VIOLATION = '23505';

/** The activities and keys (with their secrets, shown once) as created, in the seed's order; null when the account exists. */
export async function seedOperator(deps: { pool: Pool }, seed: OperatorSeed): Promise<{ activities: Activity[]; keys: CreatedApiKey[] } | null> {
  const accountId = seed.account.id;
  if (await findAccount(deps.pool, accountId)) return null;
  try {
    return await withTransaction(deps.pool, async (client) => {
      const tx = { pool: client };
      const actor = { kind: 'system' } as const;
      await createOperatorAccount(tx, seed.account);
      const activities: Activity[] = [];
      for (const { activityId, activity, timeslots, questions } of seed.activities) {
        activities.push(await createOperatorActivity(tx, { accountId, activity, activityId, actor }));
        await generateTimeslots(tx, { accountId, activityId, pattern: timeslots, actor });
        for (const question of questions) await addOperatorQuestion(tx, { accountId, activityId, question, actor });
      }
      const keys: CreatedApiKey[] = [];
      for (const key of seed.keys) keys.push(await createOperatorKey(tx, { accountId, ...key, actor }));
      return { activities, keys };
    });
  } catch (error) {
    // Another process seeded it at the same moment (the account id is fixed).
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) return null;
    throw error;
  }
}
