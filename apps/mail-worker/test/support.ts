// Shared set-up of the mail worker tests: the worker as its own process (for SIGKILL), a real SMTP server (the local
// catcher) listening on a port, bookings made through the use cases, and the mail rows as the database holds them.
import { afterAll, beforeAll } from 'vitest';
import type { Pool } from '@backbone/db';
import type { Activity } from '@backbone/domain';
import { createTestAccount, createTestActivity, createTestTimeslot, futureDate, useWorkerProcesses } from '@backbone/testkit';
import { createBooking } from '@backbone/use-cases';
import { startSmtpCatcher, type SmtpCatcher, type SmtpCatcherOptions } from '../src/smtp-catcher.js';

export { waitFor } from '@backbone/testkit';
export { useQueues, useWorkers } from '@backbone/test-apps/metering-worker';

/** `tsx apps/mail-worker/src/main.ts` as its own process, on the test file's schema. */
export const { spawn: spawnWorker, untilRunning } = useWorkerProcesses('apps/mail-worker/src/main.ts', 'mail worker');

/** A real SMTP server on a free port for the file's tests, closed after them. */
export function useSmtpCatcher(options: SmtpCatcherOptions = {}): { catcher: () => SmtpCatcher } {
  let catcher: SmtpCatcher | undefined;
  beforeAll(async () => {
    catcher = await startSmtpCatcher(options);
  });
  afterAll(async () => {
    await catcher?.close();
  });
  return { catcher: () => catcher! };
}

export interface MailOperator {
  accountId: string;
  activity: Activity;
  date: string;
}

export async function createMailOperator(pool: Pool, timeZone = 'Europe/Lisbon'): Promise<MailOperator> {
  const account = await createTestAccount(pool, { timeZone, name: 'Sea Kayak Lisboa' });
  const activity = await createTestActivity(pool, account.account.id, { timeZone, name: 'Sunset kayak' });
  const date = futureDate(5, timeZone);
  await createTestTimeslot(pool, activity, { date, time: '18:30', capacity: 500 });
  return { accountId: account.account.id, activity, date };
}

export async function bookOnline(pool: Pool, operator: MailOperator, email: string, firstName = 'Ana'): Promise<string> {
  const { value } = await createBooking(
    { pool },
    {
      accountId: operator.accountId,
      apiKeyId: null,
      partnerId: null,
      hold: null,
      channel: 'online',
      activityId: operator.activity.activityId,
      date: operator.date,
      time: '18:30',
      participants: 2,
      customer: { FirstName: firstName, LastName: 'Silva', Email: email },
      paymentReference: null,
      answers: undefined,
    },
  );
  return value.Reference;
}

export interface MailRow {
  id: number;
  kind: string;
  to_address: string;
  status: string;
  attempts: number;
  last_error: string | null;
  event_published_at: Date | null;
}

export async function mailRows(pool: Pool, accountId: string, to: string): Promise<MailRow[]> {
  const { rows } = await pool.query<MailRow>(
    `SELECT id, kind, to_address, status, attempts, last_error, event_published_at FROM mail_messages
      WHERE account_id = $1 AND to_address = $2 AND kind <> 'reminder' ORDER BY id`,
    [accountId, to],
  );
  return rows;
}

export async function meteredEmails(pool: Pool, accountId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM usage_entries WHERE account_id = $1 AND meter = 'workflow-email-sent'`, [
    accountId,
  ]);
  return rows[0]!.n;
}
